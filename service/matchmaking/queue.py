"""The matchmaking queue: players of close ratings seated together, across replicas.

One queue per game and table size, in one Redis Cluster slot (service/store/keys.py). A
ticket waits with its player's rating (mu, in the pool of that game and size). Pairing is
one script (scripts/match.lua): for the longest-waiting tickets, the nearest tickets whose
ratings lie within each other's windows, which widen with waiting time; past its AI-fill
delay, a ticket takes whoever is near and the AI levels nearest its rating fill the other
seats. The script takes the group out of the queue and claims it for a new game id, with
the seats' tokens, before any game exists; then the replica makes the game and marks the
tickets seated. A replica that dies in between leaves a claimed group that another finds
(`queue_stuck`) and seats, under the same id and tokens: no ticket is seated twice, and a
cancelled or expired ticket never is. Every replica runs the passes; a pass reads a
bounded number of tickets, never the whole queue. Passes run every PASS_SECONDS while a
ticket waits or a group is being seated in some queue (windows widen, AI fills come due);
with every queue empty, they wait for a ticket to join (the queue's bell, on every
replica: service.replica.wakeups).
"""

import asyncio
import logging
import math
import secrets
import time
from typing import Literal, Protocol

import msgspec

import core
from service.games.limits import BudgetRefused, GameLimits
from service.games.meta import Clock, Meta
from service.games.requests import Budget
from service.games.robots import Robots
from service.games.sessions import Session, Sessions, new_game_id, new_token
from service.http.credentials import secret_hash
from service.http.errors import ApiError
from service.players import ratings
from service.players.storage import Player, Players
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS, Bell
from service.store import Bells, GameRecords, MatchRule, Queues, StoreUnavailable, keys

log = logging.getLogger("service.matchmaking.queue")

TICKET_SECONDS = 600        # a ticket waits at most this long, then expires
BASE_WINDOW = 3.0           # ratings (mu) this close are paired at once...
WIDEN_PER_SECOND = 0.5      # ... and the window widens by this much each second waited
PASS_SECONDS = 0.25         # between pairing passes of every queue, while one is not empty
SEATING_LEASE = 10.0        # a claimed group whose game is not made by then is made again
TURN_SECONDS = 120          # a queue game's turn clock; running out forfeits (rated)
MAX_GROUPS_A_PASS = 64      # groups seated by one pass of one queue

Status = Literal["waiting", "seating", "seated", "cancelled", "expired"]


class TicketNotFound(ApiError):
    """No ticket of this player has this id (raised with the id, which the path says)."""
    status = 404
    type = "ticket-not-found"
    when = ", the player has no such ticket (`ticket-not-found`)"
    when_order = 30

    def detail(self) -> str:
        return "this player has no ticket with this id"


class Ticket(msgspec.Struct, kw_only=True):
    """A ticket as the store keeps it (JSON); `token` is the seat's, shown to its player."""
    id: str
    player: str
    name: str
    game: str
    players: int
    rating: float
    since: float
    expires: float
    fill_after: float           # -1: never fill with AI
    status: Status = "waiting"
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None
    seated_at: float | None = None


class _Seated(msgspec.Struct):
    """What the pairing script adds to a ticket it seats."""
    id: str
    game_id: str
    seat: int
    token: str


def queue_of(game: str, players: int) -> keys.QueueKeys:
    return keys.queue(game, players)


def ticket_queue(ticket_id: str) -> tuple[str, int] | None:
    """(game, players) a ticket id names: '<game>.<players>.<random>'."""
    game, _, rest = ticket_id.partition(".")
    players, _, _ = rest.partition(".")
    if game in core.GAMES and players.isdigit() and int(players) in core.PLAYERS[game]:
        return game, int(players)
    return None


def nearest_level(pool: str, mu: float, levels: list[int]) -> int:
    """Of the levels this server plays, the one whose fixed skill in pool is nearest mu
    (the middle one if none is known)."""
    known = {level: skill for level in levels
             if (skill := ratings.anchor(pool, level)) is not None}
    if not known:
        return levels[len(levels) // 2]
    return min(known, key=lambda level: abs(known[level].mu - mu))


class QueueStore(Queues, GameRecords, Bells, Protocol):
    """What the matchmaker keeps and reads: the queues, the games it seats, its bell."""


class Matchmaker(Background):
    def __init__(self, sessions: Sessions, robots: Robots, store: QueueStore, players: Players,
                 limits: GameLimits) -> None:
        self.sessions = sessions
        self.limits = limits  # which AI levels may fill a seat
        self.store = store  # the queues
        self.players = players  # whose ratings seat them
        self.robots = robots
        self.bell = Bell(self.store, "queue")
        self.tables = [(game, players) for game in core.GAMES for players in core.PLAYERS[game]]

    # -- tickets ---------------------------------------------------------------------

    async def join(self, player: Player, game: str, players: int,
                   fill_with_ai_after: float | None) -> Ticket:
        if fill_with_ai_after is not None and not self.limits.levels():
            raise BudgetRefused("no AI level fits this server's AI_MAX_ITERATIONS of"
                                f" {self.limits.ai_max_iterations:,}: nobody fills a"
                                " seat, so fill_with_ai_after is not taken here")
        pool = ratings.pool(game, players)
        skill = await self.players.skill(player.id, pool)
        now = time.time()
        ticket = Ticket(id=f"{game}.{players}.{secrets.token_urlsafe(12)}", player=player.id,
                        name=player.name[:24], game=game, players=players, rating=skill.mu,
                        since=now, expires=now + TICKET_SECONDS,
                        fill_after=-1 if fill_with_ai_after is None else fill_with_ai_after)
        await self.store.queue_put(queue_of(game, players), ticket.id,
                                   msgspec.json.encode(ticket), ticket.rating, now)
        await self.pair(game, players)  # perhaps someone waits for exactly this ticket
        await self.bell.ring()  # every replica's passes run while it waits
        return await self.get(player, ticket.id)

    async def get(self, player: Player, ticket_id: str) -> Ticket:
        found = await self._ticket(ticket_id)
        if found is None or found.player != player.id:
            raise TicketNotFound(ticket_id)
        return found

    async def cancel(self, player: Player, ticket_id: str) -> Ticket:
        found = await self.get(player, ticket_id)
        raw = await self.store.queue_cancel(queue_of(found.game, found.players), ticket_id,
                                            time.time())
        return msgspec.json.decode(raw, type=Ticket) if raw else found

    async def _ticket(self, ticket_id: str) -> Ticket | None:
        where = ticket_queue(ticket_id)
        if where is None:
            return None
        raw = await self.store.queue_get(queue_of(*where), ticket_id)
        return None if raw is None else msgspec.json.decode(raw, type=Ticket)

    # -- pairing ---------------------------------------------------------------------

    async def pair(self, game: str, players: int) -> int:
        """Pairing passes of one queue until one seats nobody; games made."""
        queue = queue_of(game, players)
        rule = MatchRule(size=players, base=BASE_WINDOW, widen=WIDEN_PER_SECOND)
        made = 0
        while made < MAX_GROUPS_A_PASS:
            game_id = new_game_id()
            tokens = [new_token()[0] for _ in range(players)]
            group = await self.store.queue_match(queue, time.time(), rule, game_id, tokens)
            if not group:
                return made
            await self._seat(game, players, game_id, group)
            made += 1
        return made

    async def _seat(self, game: str, players: int, game_id: str, group: list[bytes]) -> None:
        """Makes the group's game (unless a replica made it before dying) and tells its
        tickets their game and seat."""
        tickets = [msgspec.json.decode(raw, type=Ticket) for raw in group]
        seated = [msgspec.json.decode(raw, type=_Seated) for raw in group]
        if await self.store.load(game_id) is None:
            session = await self._create(game, players, game_id, tickets, seated)
            if self.robots.robot_to_move(session) is not None:
                self.robots.play_in_background(game_id)
        now = time.time()
        final = {ticket.id: msgspec.json.encode(msgspec.structs.replace(
            ticket, status="seated", game_id=game_id, seat=place.seat, token=place.token,
            seated_at=now)) for ticket, place in zip(tickets, seated)}
        await self.store.queue_seated(queue_of(game, players), game_id, now, final)

    async def _create(self, game: str, players: int, game_id: str, tickets: list[Ticket],
                      seated: list["_Seated"]) -> Session:
        pool = ratings.pool(game, players)
        limits = self.limits
        mean = sum(ticket.rating for ticket in tickets) / len(tickets)
        # The level for the seats nobody took (none when every seat is a ticket's).
        level = nearest_level(pool, mean, limits.levels()) if len(tickets) < players else None
        by_seat = {place.seat: (ticket, place) for ticket, place in zip(tickets, seated)}
        hashes, names, ids, ai = [], [], [], []
        for seat in range(players):
            if seat in by_seat:
                ticket, place = by_seat[seat]
                hashes.append(secret_hash(place.token))
                names.append(ticket.name)
                ids.append(ticket.player)
                ai.append(None)
            else:  # filled by the AI level nearest the table's rating
                assert level is not None
                hashes.append(None)
                names.append(f"AI level {level}")
                ids.append(None)
                ai.append(Budget(level=level))
        # The server's own choice of clock, within its limits (TURN_SECONDS_MIN may be longer).
        clock = Clock(limits.clock_within(TURN_SECONDS), "forfeit")
        state = self.sessions.new_state(game, players, None, None, clock, ai)
        meta = Meta(game=game, players=players, seeded=False, token_hashes=hashes,
                    created=time.time(), ai=ai if any(ai) else None, names=names,
                    listed=False, watchable=True, clock=clock, player_ids=ids,
                    hints=False, hints_off="rated")  # no strong AI's advice
        _, session = await self.sessions.create_from(
            meta.with_deadlines(state.to_move, None), state, game_id=game_id)
        return session

    # -- every replica's passes ---------------------------------------------------------

    async def _run(self) -> None:
        while True:
            waiting = True
            try:
                for game, players in self.tables:
                    await self.pair(game, players)
                    await self._recover(game, players)
                waiting = await self.store.queue_busy(
                    [queue_of(game, players) for game, players in self.tables])
            except StoreUnavailable as error:
                log.warning("matchmaking paused: %s", error)
            except Exception:  # one bad group must not stop the queues
                log.exception("matchmaking pass failed")
            await asyncio.sleep(PASS_SECONDS)
            if not waiting:
                await self.bell.sleep_until(math.inf, LONGEST_SECONDS)

    async def _recover(self, game: str, players: int) -> None:
        """Seats the groups a replica claimed and died before seating."""
        now = time.time()
        for game_id, group in await self.store.queue_stuck(
                queue_of(game, players), now - SEATING_LEASE, now + SEATING_LEASE):
            members = [msgspec.json.encode(member) for member in msgspec.json.decode(group)]
            if members:
                await self._seat(game, players, game_id, members)
