"""Challenges: one game offered by a player to others (players or AI levels).

A challenge is a document in the store, changed only by compare-and-set, so that of two
replicas answering at once exactly one decides it: `pending` until every challenged
player accepts (then `accepted`, with its game), or one declines, the challenger cancels,
or it expires. Accepting makes the game in two steps that a replica may die between:
the document first becomes `starting` with the game's id and every seat's token, then the
game is made under that id and each seat's player told (once-keys); whoever reads a
`starting` challenge later finishes the same steps, so the game is made once and nobody
is told twice. A challenge of AI levels only is accepted as it is made.
"""

import logging
import math
import secrets
import time
from typing import Literal, Protocol

import msgspec

from service.arena.bodies import TableOptions
from service.arena.seating import Contestant, Table, make_game, started_event
from service.games.robots import Robots
from service.games.sessions import GameExists, Sessions, new_game_id, new_token
from service.http.errors import ApiError
from service.http.instants import iso_time
from service.players.events import PlayerEvents
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS, Bell
from service.store import Bells, Documents, Indexes, StoreUnavailable, keys

log = logging.getLogger("service.challenges")

KEEP_SECONDS = 86400       # a challenge is kept this long after it is made
RETRY_SECONDS = 1.0        # after a sweep that failed
STARTING_LEASE = 10.0      # a challenge `starting` for this long is finished by its reader

Status = Literal["pending", "starting", "accepted", "declined", "cancelled", "expired"]
Answer = Literal["challenger", "pending", "accepted", "declined", "ai"]


class ChallengeNotFound(ApiError):
    """No challenge of this id has the key's player as a party (raised with the id, which
    the path says)."""
    status = 404
    type = "challenge-not-found"
    when = ", the player is party to no such challenge (`challenge-not-found`)"
    when_order = 50

    def detail(self) -> str:
        return "this player is party to no challenge with this id"


class ChallengeClosed(ApiError):
    """An answer to a challenge that is no longer pending."""
    status = 409
    type = "challenge-closed"
    when = "; a challenge no longer pending (`challenge-closed`)"
    when_order = 110


class Seat(msgspec.Struct, kw_only=True):
    player: str
    name: str
    kind: str
    answer: Answer


class Challenge(msgspec.Struct, kw_only=True):
    id: str
    game: str
    players: int
    options: dict | None         # as the request gave them (service.arena.bodies.TableOptions)
    turn_seconds: int
    rated: bool
    seats: list[Seat]            # in seat order; the challenger's is `challenger`
    status: Status
    created: float
    expires: float
    game_id: str | None = None
    tokens: list[str | None] | None = None   # each seat's, shown only to its player
    starting_since: float | None = None

    def seat_of(self, player_id: str) -> int | None:
        return next((i for i, seat in enumerate(self.seats) if seat.player == player_id), None)

    @property
    def challenger(self) -> str:
        return next(seat.player for seat in self.seats if seat.answer == "challenger")

    def parties(self) -> list[str]:
        """The players who are told of it: every seat but the AI's."""
        return [seat.player for seat in self.seats if seat.kind != "ai"]

    def table(self) -> Table:
        options = None if self.options is None else \
            msgspec.convert(self.options, TableOptions).for_core()
        return Table(self.game, options,
                     [Contestant(seat.player, seat.name, seat.kind) for seat in self.seats],
                     self.turn_seconds, self.rated)


def new_challenge_id() -> str:
    return "c_" + secrets.token_urlsafe(12)


class ChallengeStore(Documents, Indexes, Bells, Protocol):
    """What challenges keep in the store: each challenge as a document, the index of
    their expiries, and their bell."""


class Challenges(Background):
    def __init__(self, sessions: Sessions, robots: Robots, player_events: PlayerEvents,
                 store: ChallengeStore) -> None:
        self.sessions = sessions
        self.store = store  # the challenges, documents changed by compare-and-set
        self.robots = robots
        self.player_events = player_events
        self.bell = Bell(self.store, "challenges")

    # -- the challenger -------------------------------------------------------------

    async def offer(self, challenger: Contestant, opponents: list[Contestant], game: str,
                    options: dict | None, turn_seconds: int, rated: bool,
                    seat: int | None, expires_in: float) -> Challenge:
        """A new challenge; seats in a random order unless the challenger chose its own."""
        everyone = [challenger, *opponents]
        # The game it would start is checked before anything is kept: its contestants,
        # the core's rules and this server's limits.
        Table(game, None if options is None else
              msgspec.convert(options, TableOptions).for_core(), everyone, turn_seconds,
              rated).check(self.sessions)
        order = list(opponents)
        secrets.SystemRandom().shuffle(order)
        place = secrets.randbelow(len(everyone)) if seat is None else seat
        order.insert(place, challenger)
        now = time.time()
        challenge = Challenge(
            id=new_challenge_id(), game=game, players=len(everyone), options=options,
            turn_seconds=turn_seconds, rated=rated, status="pending", created=now,
            expires=now + expires_in,
            seats=[Seat(player=c.id, name=c.name, kind=c.kind,
                        answer="challenger" if c is challenger else
                        "ai" if c.level is not None else "pending") for c in order])
        if not await self.store.doc_swap(keys.challenge(challenge.id), None,
                                         msgspec.json.encode(challenge), KEEP_SECONDS):
            raise StoreUnavailable("a new challenge's id was taken: try again")
        if all(seat.answer != "pending" for seat in challenge.seats):
            return await self._start(challenge)
        await self.store.index_add(keys.CHALLENGE_EXPIRY, challenge.id, challenge.expires)
        await self.bell.ring_before(challenge.expires)
        for opponent in challenge.seats:
            if opponent.answer == "pending":
                await self.player_events.push(opponent.player, "challenge",
                                      {"challenge": self.shown(challenge, opponent.player)},
                                      once=f"challenge:{challenge.id}")
        return challenge

    async def cancel(self, player_id: str, challenge_id: str) -> Challenge:
        challenge = await self.get(player_id, challenge_id)
        if challenge.challenger != player_id:
            raise ChallengeClosed("only the challenger cancels a challenge; decline it instead")
        return await self._close(challenge, "cancelled")

    # -- the challenged --------------------------------------------------------------

    async def accept(self, player_id: str, challenge_id: str) -> Challenge:
        while True:
            challenge = await self.get(player_id, challenge_id)
            seat = challenge.seat_of(player_id)
            assert seat is not None
            answer = challenge.seats[seat].answer
            if answer == "accepted":
                return challenge  # a retry of an accept that went through
            if answer == "challenger":
                raise ChallengeClosed("the challenger does not accept its own challenge")
            self._open_or_refuse(challenge)
            answered = list(challenge.seats)
            answered[seat] = msgspec.structs.replace(answered[seat], answer="accepted")
            after = msgspec.structs.replace(challenge, seats=answered)
            if await self._swap(challenge, after):
                break
        if any(seat.answer == "pending" for seat in after.seats):
            return after
        return await self._start(after)

    async def decline(self, player_id: str, challenge_id: str) -> Challenge:
        challenge = await self.get(player_id, challenge_id)
        seat = challenge.seat_of(player_id)
        assert seat is not None
        if challenge.seats[seat].answer == "challenger":
            raise ChallengeClosed("the challenger cancels (DELETE) rather than declines")
        return await self._close(challenge, "declined", by=player_id)

    # -- reading -------------------------------------------------------------------

    async def get(self, player_id: str, challenge_id: str) -> Challenge:
        """The challenge as it is now (finishing what a dead replica left half done, and
        expiring it if its time is up); ChallengeNotFound unless player_id is a party."""
        challenge = await self._read(challenge_id)
        if challenge is None or challenge.seat_of(player_id) is None:
            raise ChallengeNotFound(challenge_id)
        if challenge.status == "pending" and challenge.expires <= time.time():
            return await self._close(challenge, "expired")
        if challenge.status == "starting" and \
                (challenge.starting_since or 0) < time.time() - STARTING_LEASE:
            return await self._finish(challenge)
        return challenge

    @staticmethod
    def shown(challenge: Challenge, player_id: str) -> dict:
        """The challenge as player_id may see it: the seat tokens but its own hidden."""
        seat = challenge.seat_of(player_id)
        body = msgspec.to_builtins(challenge)
        tokens = body.pop("tokens") or [None] * challenge.players
        body.pop("starting_since")
        body["created_at"] = iso_time(body.pop("created"))
        body["expires_at"] = iso_time(body.pop("expires"))
        body["seat"] = seat
        body["token"] = tokens[seat] if seat is not None and challenge.status == "accepted" \
            else None
        return body

    # -- the steps -----------------------------------------------------------------

    async def _read(self, challenge_id: str) -> Challenge | None:
        raw = await self.store.doc_get(keys.challenge(challenge_id))
        return None if raw is None else msgspec.json.decode(raw, type=Challenge)

    async def _swap(self, before: Challenge, after: Challenge) -> bool:
        return await self.store.doc_swap(keys.challenge(before.id), msgspec.json.encode(before),
                                         msgspec.json.encode(after), KEEP_SECONDS)

    @staticmethod
    def _open_or_refuse(challenge: Challenge) -> None:
        if challenge.status != "pending":
            raise ChallengeClosed(f"the challenge is {challenge.status}")
        if challenge.expires <= time.time():
            raise ChallengeClosed("the challenge has expired")

    async def _close(self, challenge: Challenge, status: Status, by: str | None = None
                     ) -> Challenge:
        """Ends a pending challenge as declined, cancelled or expired, and tells everyone."""
        while True:
            if challenge.status != "pending":
                if challenge.status == status:
                    return challenge
                raise ChallengeClosed(f"the challenge is {challenge.status}")
            after = msgspec.structs.replace(challenge, status=status)
            if await self._swap(challenge, after):
                break
            found = await self._read(challenge.id)
            if found is None:
                raise ChallengeNotFound(challenge.id)
            challenge = found
        await self.store.index_remove(keys.CHALLENGE_EXPIRY, challenge.id)
        kind = {"declined": "challenge_declined", "cancelled": "challenge_cancelled",
                "expired": "challenge_expired"}[status]
        for party in after.parties():
            await self.player_events.push(party, kind, {"challenge": self.shown(after, party), "by": by},  # type: ignore[arg-type]
                                  once=f"{status}:{challenge.id}")
        return after

    async def _start(self, challenge: Challenge) -> Challenge:
        """Every seat accepted: the game's id and tokens are chosen and kept first."""
        tokens = [None if seat.kind == "ai" else new_token()[0] for seat in challenge.seats]
        starting = msgspec.structs.replace(challenge, status="starting", game_id=new_game_id(),
                                           tokens=tokens, starting_since=time.time())
        if not await self._swap(challenge, starting):
            found = await self._read(challenge.id)
            assert found is not None
            return found  # another replica started it
        await self.store.index_remove(keys.CHALLENGE_EXPIRY, challenge.id)
        return await self._finish(starting)

    async def _finish(self, starting: Challenge) -> Challenge:
        """Makes the game of a `starting` challenge (unless made) and tells each seat."""
        assert starting.game_id is not None and starting.tokens is not None
        try:
            session = await make_game(self.sessions, self.robots, starting.table(),
                                      starting.game_id, starting.tokens)
        except GameExists:
            session = await self.sessions.load(starting.game_id)
        accepted = msgspec.structs.replace(starting, status="accepted", starting_since=None)
        for seat, (place, token) in enumerate(zip(starting.seats, starting.tokens)):
            if token is not None:
                await self.player_events.push(place.player, "game_started", started_event(
                    session, seat, token, challenge=starting.id), once=f"started:{session.game_id}")
        if not await self._swap(starting, accepted):
            found = await self._read(starting.id)
            return found or accepted
        return accepted

    # -- every replica's sweep of expired challenges ---------------------------------

    async def _run(self) -> None:
        """Sweeps when the next challenge expires (woken early by one that expires
        sooner, made on any replica: service.replica.wakeups)."""
        while True:
            due = time.time() + RETRY_SECONDS
            try:
                await self.sweep(time.time())
                first = await self.store.index_due([keys.CHALLENGE_EXPIRY], math.inf, 1)
                due = first[0][2] if first else math.inf
            except StoreUnavailable as error:
                log.warning("challenge expiry paused: %s", error)
            except Exception:
                log.exception("challenge expiry failed")
            await self.bell.sleep_until(due, LONGEST_SECONDS)

    async def sweep(self, now: float) -> None:
        for challenge_id, _ in await self.store.index_lease(keys.CHALLENGE_EXPIRY, now,
                                                            now + 30, 64):
            challenge = await self._read(challenge_id)
            if challenge is not None and challenge.status == "pending":
                try:
                    await self._close(challenge, "expired")
                except ChallengeClosed:
                    pass  # answered meanwhile
            await self.store.index_remove(keys.CHALLENGE_EXPIRY, challenge_id)
