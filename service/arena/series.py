"""Series: many deals between contestants, each deal played once per rotation of the
seats, so that every contestant plays every seat of the same cards (docs/arena.md).

Game `i` of a series is deal `i // R`, rotation `i % R` (R: the players at the table); in
rotation r, seat s is played by contestant `(s + r) % R`. With duplicate deals every
rotation of a deal has the deal's seed; without, every game has its own. Seeds and seat
tokens are derived from the series' secret (HMAC), which is never shown: a game made
again after a replica died is the same game, with the same tokens.

Every replica runs the same loop over the running series, and any of them may die at any
step: a game's row is written before the game is made; the game is made under an id of
its own (`<series>-<index>`) that the store refuses twice; its players are told once
(once-keys); its outcome is written once. A game started but not in the store (its
replica died in between) is made again. So no deal is played twice or skipped. At most
`at_once` games of a series are in play; the next starts as one ends.

The loop passes when a game was archived here (the archive's ingest rings its bell: a
series game that ended), when a series is made (on every replica), and, while series
run, every RUNNING_SECONDS: the pass that finds a game whose replica died before making
it. With no series running, it sleeps (service.replica.wakeups).
"""

import base64
import hashlib
import hmac
import logging
import math
import secrets
import time
from typing import Any

import msgspec

from service.arena import estimates, judging
from service.arena.crosstable import Played, crosstable
from service.arena.latency import move_times, summary
from service.arena.seating import (
    Contestant,
    Table,
    check_table,
    make_game,
    started_event,
)
from service.arena.storage import SeriesBook, SeriesGame, SeriesRow
from service.games.robots import Robots
from service.games.sessions import GameExists, GameNotFound, Session, Sessions
from service.http.errors import ApiError
from service.players.events import PlayerEvents
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS, Bell
from service.sql.database import DatabaseUnavailable
from service.store import Bells, StoreUnavailable

log = logging.getLogger("service.series")

RUNNING_SECONDS = 5.0    # between passes while series run and no game ends
SERIES_A_PASS = 64       # running series one pass looks at (the oldest first)
RUNNING_PER_OWNER = 4    # series one player may have running at once


class SeriesNotFound(ApiError):
    """Raised with the series' id, which the path says."""
    status = 404
    type = "series-not-found"
    when = ", no series has this id (`series-not-found`)"
    when_order = 60

    def detail(self) -> str:
        return "no series has this id"


class ForbiddenContestant(ApiError):
    """A series that would seat another person's player: only AI levels, bots and the
    key's own player play series."""
    status = 403
    type = "forbidden-contestant"
    when = " or seat another person's player in a series (`forbidden-contestant`)"
    when_order = 30


class NotSeriesOwner(ApiError):
    """A change to a series asked by a player other than the one who started it."""
    status = 403
    type = "not-series-owner"
    when = (", or the key's player may not do this: stop another player's series"
            " (`not-series-owner`)")
    when_order = 20


class TooManySeries(ApiError):
    """A new series from a player who has RUNNING_PER_OWNER running already."""
    status = 409
    type = "too-many-series"
    when = "; the player's series are running at their limit (`too-many-series`)"
    when_order = 120


class Spec(msgspec.Struct, kw_only=True):
    """What a series plays (kept as JSON in its row)."""
    contestants: list[Contestant]
    deals: int
    duplicate: bool
    turn_seconds: int
    options: dict | None
    at_once: int
    judge: estimates.Judge | None = None    # None: a series made before games were judged


def new_series_id() -> str:
    return "s_" + secrets.token_urlsafe(12)


def derived(secret: str, purpose: str) -> bytes:
    return hmac.new(secret.encode(), purpose.encode(), hashlib.sha256).digest()


def seed_of(row: SeriesRow, spec: Spec, index: int) -> int:
    """The deal's seed: one per deal with duplicate deals, else one per game."""
    unit = f"deal {index // row.players}" if spec.duplicate else f"single game {index}"
    return int.from_bytes(derived(row.secret, unit)[:8], "big") >> 1


def token_of(row: SeriesRow, index: int, seat: int) -> str:
    return base64.urlsafe_b64encode(derived(row.secret, f"token {index} {seat}")).decode().rstrip("=")


def seating(players: int, rotation: int) -> list[int]:
    """Each seat's contestant (its index) in a rotation."""
    return [(seat + rotation) % players for seat in range(players)]


def spec_of(row: SeriesRow) -> Spec:
    return msgspec.convert(row.spec, Spec)


class SeriesRunner(Background):
    def __init__(self, sessions: Sessions, robots: Robots, player_events: PlayerEvents,
                 book: SeriesBook, store: Bells) -> None:
        self.sessions = sessions
        self.robots = robots
        self.player_events = player_events
        self.book = book
        self.bell = Bell(store, "series")

    async def create(self, owner: str, game: str, players: int, contestants: list[Contestant],
                     deals: int, duplicate: bool, turn_seconds: int, options: dict | None,
                     at_once: int) -> SeriesRow:
        check_table(players, contestants)
        # Its games are checked before anything is kept: the core's rules, the limits.
        Table(game, options, contestants, turn_seconds, rated=False).check(self.sessions)
        if await self.book.running_of(owner) >= RUNNING_PER_OWNER:
            raise TooManySeries(f"{RUNNING_PER_OWNER} series of this player are running: wait"
                                " for one to finish, or stop one (DELETE /v1/series/{id})")
        spec = Spec(contestants=contestants, deals=deals, duplicate=duplicate,
                    turn_seconds=turn_seconds, options=options, at_once=at_once,
                    judge=estimates.JUDGE)
        row = SeriesRow(id=new_series_id(), owner=owner, game=game, players=players,
                        spec=msgspec.to_builtins(spec), secret=secrets.token_hex(32),
                        status="running", games_total=deals * players, games_done=0,
                        created_ms=int(time.time() * 1000), finished_ms=None)
        await self.book.create(row)
        await self.advance(row)
        await self.bell.ring()  # every replica's loop now passes while it runs
        return await self.get(row.id)

    async def get(self, series_id: str) -> SeriesRow:
        found = await self.book.get(series_id)
        if found is None:
            raise SeriesNotFound(series_id)
        return found

    async def cancel(self, owner: str, series_id: str) -> SeriesRow:
        row = await self.get(series_id)
        if row.owner != owner:  # anyone reads a series (GET), only its owner stops it
            raise NotSeriesOwner(f"only the player who started series {series_id} stops it;"
                                 " this key's player did not")
        if await self.book.cancel(series_id, int(time.time() * 1000)):
            await self._tell(row, "series_finished", {"series": row.id, "status": "cancelled"},
                             once=f"series-end:{row.id}")
        return await self.get(series_id)

    # -- results -------------------------------------------------------------------

    async def results(self, row: SeriesRow) -> dict[str, Any]:
        """The crosstable and each contestant's moves' latencies, from the games so far."""
        spec = spec_of(row)
        games = [game for game in await self.book.games(row.id) if game.outcome]
        played = [Played.of(game.deal, game.outcome["ranks"], game.game_id,
                            game.outcome.get("scores"), game.outcome.get("luck"))
                  for game in games]
        latencies: dict[int, list[float]] = {i: [] for i in range(len(spec.contestants))}
        timeouts = dict.fromkeys(latencies, 0)
        for game in games:
            for contestant, times in game.outcome["latency_ms"].items():
                latencies[int(contestant)].extend(times)
            for contestant, count in game.outcome["timeouts"].items():
                timeouts[int(contestant)] += count
        return {"crosstable": crosstable(played, len(spec.contestants), row.players),
                "latency": [summary(latencies[i], timeouts[i]) for i in latencies]}

    # -- every replica's loop ---------------------------------------------------------

    async def _run(self) -> None:
        while True:
            running = True
            try:
                rows = await self.book.running(SERIES_A_PASS)
                for row in rows:
                    await self.advance(row)
                running = bool(rows)
            except (StoreUnavailable, DatabaseUnavailable) as error:
                log.warning("series paused: %s", error)
            except Exception:
                log.exception("series pass failed")
            await self.bell.sleep_until(time.time() + RUNNING_SECONDS if running else math.inf,
                                        LONGEST_SECONDS)

    async def advance(self, row: SeriesRow) -> None:
        """Records the games that ended, starts the next ones, finishes the series."""
        spec = spec_of(row)
        # Counted before the games in play are read, so that a game another replica
        # starts in between is among them, not missed.
        started = await self.book.started(row.id)
        playing = 0
        for game in await self.book.games(row.id, unfinished_only=True):
            if not await self._settle(row, spec, game):
                playing += 1
        for index in range(started, min(row.games_total, started + spec.at_once - playing)):
            await self._start(row, spec, index)
        if started >= row.games_total and playing == 0 and \
                await self.book.finish(row.id, int(time.time() * 1000)):
            await self._tell(row, "series_finished", {
                "series": row.id, "status": "finished", "games": row.games_total,
                "url": f"/v1/series/{row.id}"}, once=f"series-end:{row.id}")

    async def _start(self, row: SeriesRow, spec: Spec, index: int) -> None:
        deal, rotation = divmod(index, row.players)
        game = SeriesGame(index, deal, rotation, f"{row.id}-{index}", int(time.time() * 1000),
                          None, None)
        if await self.book.start(row.id, game):  # else another replica is starting it
            await self._make(row, spec, game)

    async def _make(self, row: SeriesRow, spec: Spec, game: SeriesGame) -> Session:
        """Makes the game (unless made) and tells its players their seats, once each."""
        seats = [spec.contestants[c] for c in seating(row.players, game.rotation)]
        tokens = [None if seat.level is not None else token_of(row, game.index, s)
                  for s, seat in enumerate(seats)]
        table = Table(row.game, spec.options, seats, spec.turn_seconds, rated=False,
                      seed=seed_of(row, spec, game.index))
        try:
            session = await make_game(self.sessions, self.robots, table, game.game_id, tokens)
        except GameExists:
            session = await self.sessions.load(game.game_id)
        for seat, (contestant, token) in enumerate(zip(seats, tokens)):
            if token is not None:
                await self.player_events.push(contestant.id, "game_started", started_event(
                    session, seat, token, series=row.id, deal=game.deal,
                    rotation=game.rotation), once=f"started:{game.game_id}")
        return session

    async def _settle(self, row: SeriesRow, spec: Spec, game: SeriesGame) -> bool:
        """Whether the game is over (its outcome then written, once); a game whose
        replica died before making it is made now."""
        try:
            session = await self.sessions.load(game.game_id)
        except GameNotFound:
            await self._make(row, spec, game)
            return False
        if session.status != "over":
            return False
        outcome = await self._outcome(session, spec, row.players, game.rotation)
        if await self.book.end(row.id, game.index, int(time.time() * 1000), outcome):
            done = await self.get(row.id)
            await self._tell(row, "series_progress", {
                "series": row.id, "games_done": done.games_done,
                "games_total": row.games_total, "game_id": game.game_id},
                once=f"progress:{game.game_id}")
        return True

    async def _outcome(self, session: Session, spec: Spec, players: int,
                       rotation: int) -> dict[str, Any]:
        who = seating(players, rotation)
        ranks, scores = judging.ranks_and_points(session, who)
        initial, entries = await self.sessions.beginning(session)
        latency: dict[int, list[float]] = {c: [] for c in who}
        timeouts = dict.fromkeys(who, 0)
        for seat, ms, timed_out in move_times(initial, entries, session.meta.created):
            if timed_out:
                timeouts[who[seat]] += 1
            else:
                latency[who[seat]].append(round(ms, 1))
        luck = None if spec.judge is None else await judging.luck(
            spec.judge, self.robots, session, spec.contestants, who, initial, entries,
            spec.options)
        return {"ranks": ranks, "scores": scores,
                "reason": (Sessions.result(session) or {}).get("reason"),
                "latency_ms": latency, "timeouts": timeouts, "luck": luck}

    async def _tell(self, row: SeriesRow, kind: str, body: dict, once: str) -> None:
        spec = spec_of(row)
        told = [row.owner] + [c.id for c in spec.contestants if c.level is None]
        await self.player_events.push_all(told, kind, body, once=once)  # type: ignore[arg-type]
