"""Every finished game into the archive, exactly once, from whichever replica gets there.

Every replica runs two writer passes at once (one reads the store while the other waits
for the database), when a game ends (the outbox's bell rings on every replica), when an
entry's lease lapses (its replica died mid-pass) or, should rings be lost, after
LONGEST_SECONDS; never on a short timer while nothing is due. Each pass leases a batch of
the outbox's entries (service.archive.outbox), reads those games from the live store,
writes the finished ones to the database in one transaction (a game archived before is
left as it was), and only then removes the entries and lets the games' keys expire a
while later (they were kept since the game ended). A crash anywhere repeats work and never
loses or doubles a game; with the database down, moves go on, the outbox grows, and this
empties it when it is back. A game whose record the database refuses (an integrity or
data error) is set aside, where an operator sees it and can retry it, instead of holding
its batch up for ever.
"""

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from prometheus_client import Counter, Gauge

import core
from service.archive.outbox import Entry, Outbox
from service.archive.storage import Archive, ArchivedGame
from service.config import Settings
from service.games.sessions import Session, Sessions
from service.http.instants import iso_time
from service.players.events import PlayerEvents
from service.players.storage import Players
from service.replica import tracing
from service.replica.wakeups import LONGEST_SECONDS
from service.sql.database import DatabaseRefused, DatabaseUnavailable
from service.store import FinishedGame, GameRecords, StoreUnavailable, keys

log = logging.getLogger("service.archive.writer")

TICK_SECONDS = 0.5       # at least between passes (unless a backlog): a ring per game ended
PER_BUCKET = 64          # entries leased per bucket and pass (16 buckets) on an idle replica
BUSY_PER_BUCKET = 4      # ... and on one that serves requests: a pass is a few ms of work
BUILT_AT_ONCE = 16       # records built between two turns of the event loop
RETRY_SECONDS = 2.0      # after a pass the database or the store failed
GRACE_SECONDS = 30.0     # an entry whose commit has not landed by then never will
STATS_SECONDS = 1.0      # the outbox's depth and lag are read this often
# Passes at once: one reads the store and builds records while another waits for the
# database (leases keep their entries apart). A busy replica runs one.
PASSES = 2

ARCHIVED = Counter("crab_archive_games_written_total", "Finished games written to the archive")
# Every worker reads the same outbox: the newest reading is the replica's (a dead worker's
# is dropped: service/replica/exposition.py).
OUTBOX_DEPTH = Gauge("crab_archive_outbox_depth", "Finished games waiting for the archive",
                     multiprocess_mode="livemostrecent")
REFUSED = Gauge("crab_archive_refused_games", "Finished games the archive's database refused,"
                " set aside: `python -m service.archive refused` lists them",
                multiprocess_mode="livemostrecent")
ARCHIVE_LAG = Gauge("crab_archive_lag_seconds", "How long the longest-waiting finished game"
                    " has waited for the archive", multiprocess_mode="livemostrecent")


@dataclass
class Lag:
    """The outbox as last read: games waiting, and the oldest one's wait (seconds)."""
    depth: int = 0
    seconds: float = 0.0
    failing: str | None = None   # why the last pass failed, if it did
    refused: int = 0             # games the database refused, set aside (docs/archive.md)


class Pace:
    """How hard the writer may work. On a replica that answers no request, flat out; on
    one that does, in small passes that take at most SHARE of the wall clock, with the
    event loop's turn between every few records: a backlog after an outage must not sit
    in front of live games' moves (docs/benchmarks.md). Traffic is read from the count of
    requests this process has begun (service.replica.observe)."""

    SHARE = 0.25             # of the wall clock a busy replica gives the writer
    BUSY_RATE = 20.0         # requests per second that make a replica busy
    WINDOW = 0.1             # seconds over which that rate is read

    def __init__(self, requests: Callable[[], int]) -> None:
        self.requests = requests
        self._seen, self._at = requests(), time.monotonic()
        self.busy = False

    def look(self) -> bool:
        """Whether the replica serves requests (as of the last WINDOW read)."""
        seen, now = self.requests(), time.monotonic()
        if now - self._at >= self.WINDOW:
            self.busy = (seen - self._seen) / (now - self._at) >= self.BUSY_RATE
            self._seen, self._at = seen, now
        return self.busy

    def rest(self, worked: float) -> float:
        """The pause after a pass that took worked seconds."""
        return worked * (1 / self.SHARE - 1) if self.busy else 0.0


def document(session: Session, ended_ms: int) -> dict[str, Any]:
    """A finished game's public record, entries still to fill in: everything, every card
    included (after the end nothing is hidden). The state it began in is kept beside it,
    never in it: the core replays the entries from there (service.archive.replay)."""
    meta = session.meta
    result = Sessions.result(session)
    return {
        "id": session.game_id, "game": meta.game, "players": meta.players,
        "options": meta.options, "seeded": meta.seeded, "rated": meta.is_rated(),
        "created_at": iso_time(meta.created), "ended_at": iso_time(ended_ms / 1000),
        "reason": result["reason"] if result else "finished", "result": result,
        "seats": [{"seat": seat, "type": meta.seat_type(seat), "name": meta.name(seat),
                   "player": meta.player(seat),
                   "ai": None if not meta.is_ai(seat) else msgspec.to_builtins(meta.ai[seat])}
                  for seat in range(meta.players)],
        "version": session.record.version, "entries": [],
    }


def whole_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as everyone may see it after the end: with what its mover was shown."""
    observed = entry.pop("observed", None)
    return {**entry, **observed} if observed else entry


def entries_json(log: list[bytes]) -> bytes:
    """The log as a JSON array of whole entries. Entries are spliced in as stored unless
    they hold what their mover was shown: decoding and encoding each was most of a
    record's cost to archive."""
    return b"[" + b",".join(
        msgspec.json.encode(whole_entry(msgspec.json.decode(raw))) if b'"observed"' in raw
        else raw for raw in log) + b"]"


def archived(session: Session, finished: FinishedGame, ended_ms: int, now: float) -> ArchivedGame:
    body = document(session, ended_ms)
    head = msgspec.json.encode(body)
    assert head.endswith(b'"entries":[]}')  # the last field, filled in here
    return ArchivedGame(
        id=session.game_id, game=session.meta.game, players=session.meta.players,
        seeded=session.meta.seeded, reason=body["reason"],
        created_ms=int(session.meta.created * 1000), ended_ms=ended_ms,
        archived_ms=int(now * 1000), version=session.record.version,
        document=(head[:-3] + entries_json(finished.log) + b"}").decode(),
        state=finished.record.blob,
        meta=finished.record.meta, initial=finished.initial)


class ArchiveWriter:
    def __init__(self, sessions: Sessions, archive: Archive, settings: Settings,
                 store: GameRecords, outbox: Outbox, players: Players | None = None,
                 player_events: PlayerEvents | None = None,
                 requests: Callable[[], int] = lambda: 0) -> None:
        """players: the AI levels made players at start; player_events: where a finished
        game's players are told of its end (a benchmark may leave both out)."""
        self.sessions = sessions
        self.store = store
        self.outbox = outbox
        self.players = players
        self.player_events = player_events
        self.pace = Pace(requests)
        self.archive = archive
        self.kept_seconds = settings.archived_game_ttl  # kept in the live store once archived
        self.lag_limit = settings.archive_lag_seconds   # /ready says "lagging" past it
        self.retention_days = settings.archive_retention_days
        self.migrate = settings.archive_migrate
        self.lag = Lag()
        self._prepared = False
        self._stats_at = self._forgot_at = 0.0
        self._preparing = asyncio.Lock()
        self._tasks: list[asyncio.Task] = []
        self.ingested: list[Callable[[], None]] = []  # told when games were written

    async def start(self) -> None:
        """Checks (or migrates) the archive's schema, then starts writing. A schema that
        is not this service's stops the start-up; a database that is down does not: the
        live API goes on and the writer prepares it once it answers."""
        try:
            await self._prepare()
        except DatabaseUnavailable as error:
            log.warning("the archive is unavailable at start-up, finished games wait in the"
                        " outbox: %s", error)
            self.lag.failing = str(error)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run(first=index == 0)) for index in range(PASSES)]

    async def _prepare(self) -> None:
        async with self._preparing:
            if not self._prepared:
                await self.archive.database.prepare(self.migrate)
                if self.players is not None:
                    await self.players.prepare(list(core.GAMES))
                self._prepared, self.lag.failing = True, None

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def _run(self, first: bool) -> None:
        while True:
            # After the pause, the next pass waits for `due` (the outbox's next entry
            # due), a game that ends, or LONGEST_SECONDS.
            pause, due = TICK_SECONDS, 0.0
            try:
                await self._prepare()
                await self._forget_expired(time.time())
                if not first and self.pace.look():
                    await asyncio.sleep(pause)  # a busy replica writes with one pass
                    continue
                started = time.perf_counter()
                per_bucket = BUSY_PER_BUCKET if self.pace.look() else PER_BUCKET
                leased = await self.write_due(time.time(), per_bucket)
                if leased:  # written: the database answers (a pass that leased none says nothing)
                    self.lag.failing = None
                if leased == per_bucket * len(keys.ARCHIVE_BUCKETS):  # a backlog: go on
                    pause = self.pace.rest(time.perf_counter() - started)
                else:
                    due = await self.outbox.next_due()
            except (StoreUnavailable, DatabaseUnavailable) as error:
                log.warning("archive writer paused: %s", error)
                self.lag.failing = str(error)
                pause = RETRY_SECONDS
            except Exception:  # one bad game must not stop the archive: log and go on
                log.exception("archive writer failed")
                pause = RETRY_SECONDS
            await self._read_stats()
            await asyncio.sleep(pause)
            await self.outbox.bell.sleep_until(due, LONGEST_SECONDS)

    async def write_all(self) -> int:
        """Passes until the outbox has nothing due, PASSES at once; how many entries."""
        async def passes() -> int:
            written = 0
            while leased := await self.write_due(time.time()):
                written += leased
            return written

        return sum(await asyncio.gather(*(passes() for _ in range(PASSES))))

    async def write_due(self, now: float, per_bucket: int = PER_BUCKET) -> int:
        """One pass; how many entries it leased."""
        entries = await self.outbox.lease(now, per_bucket)
        if not entries:
            return 0
        games = await self.store.finished([entry.game_id for entry in entries])
        rows: dict[str, ArchivedGame] = {}
        ended: dict[str, Session] = {}
        settled: list[Entry] = []
        for built, (entry, finished) in enumerate(zip(entries, games), 1):
            if built % BUILT_AT_ONCE == 0:
                await asyncio.sleep(0)  # the requests waiting get their turn
            if finished is None:
                settled.append(entry)  # gone from the store: expired, or never created
                continue
            session = self.sessions.session(entry.game_id, finished.record)
            if session.status == "over":
                rows.setdefault(entry.game_id, archived(session, finished, entry.ended_ms, now))
                ended[entry.game_id] = session
                settled.append(entry)
            elif session.record.version >= entry.version or \
                    now - entry.ended_ms / 1000 > GRACE_SECONDS:
                settled.append(entry)  # a commit that lost its race or failed
            # else its commit may still land: the lease brings the entry back
        origins = {entry.game_id: entry.origin for entry in settled if entry.game_id in rows}
        with tracing.span("archive.batch", games=len(rows), game_ids=list(rows),
                          linked=origins.values()):
            records = tracing.started("archive.game", origins)  # in each move's trace
            try:
                unsettled = await self._write(list(rows.values()), now)
            finally:
                tracing.end(records)
        await self._tell_ended([ended[game_id] for game_id in ended if game_id not in unsettled])
        await self.outbox.done([entry for entry in settled
                                         if entry.game_id not in unsettled])
        await self.store.release([game_id for game_id in rows
                                           if game_id not in unsettled], self.kept_seconds)
        if len(rows) > len(unsettled):
            for listener in self.ingested:
                listener()
        return len(entries)

    async def _write(self, batch: list[ArchivedGame], now: float) -> set[str]:
        """Writes the batch; if the database refuses it, each game alone, and a game it
        refuses alone is set aside (Archive.set_aside), counted and logged: retried as
        it is, it would fail on every pass for ever and hold the batch up with it. A
        database that cannot be reached is another matter (DatabaseUnavailable, not a
        refusal): the batch stays in the outbox until it answers.

        The ids of the games neither written nor set aside (refused there too): their
        entries stay, and come back when their lease lapses."""
        try:
            ARCHIVED.inc(len(await self.archive.write(batch)))
            return set()
        except DatabaseRefused as error:
            if len(batch) > 1:  # which one: each alone
                return {game_id for game in batch for game_id in await self._write([game], now)}
            refusal = str(error)
        game = batch[0]
        log.error("the archive's database refused game %s; set aside (python -m service.archive"
                  " refused): %s", game.id, refusal)
        try:
            await self.archive.set_aside(game, refusal, int(now * 1000))
        except DatabaseRefused:
            log.exception("game %s could not be set aside either: it stays in the outbox",
                          game.id)
            return {game.id}
        await self.read_refused()
        return set()

    async def _tell_ended(self, ended: list[Session]) -> None:
        """Each finished game's players (people and bots) learn of its end on their
        stream, once: before the outbox forgets the game, so that a crash repeats it."""
        if self.player_events is None:
            return
        for session in ended:
            meta = session.meta
            if not meta.player_ids or not any(meta.player_ids):
                continue
            result = Sessions.result(session) or {}
            ranks = {place["seat"]: place["rank"] for place in result.get("ranking", ())}
            for seat, player_id in enumerate(meta.player_ids):
                if player_id is not None:
                    await self.player_events.push(player_id, "game_ended", {
                        "game_id": session.game_id, "game": meta.game, "seat": seat,
                        "rank": ranks.get(seat), "reason": result.get("reason"),
                        "result": result, "replay": f"/v1/games/{session.game_id}/replay"},
                        once=f"ended:{session.game_id}:{seat}")

    async def _forget_expired(self, now: float) -> None:
        """The retention setting: games that ended longer ago are deleted, hourly."""
        if self.retention_days and now - self._forgot_at > 3600:
            self._forgot_at = now
            cutoff = int((now - self.retention_days * 86400) * 1000)
            if forgotten := await self.archive.forget_ended_before(cutoff):
                log.info("archive retention: forgot %d games", forgotten)

    async def _read_stats(self) -> None:
        now = time.time()
        if now - self._stats_at >= STATS_SECONDS:
            self._stats_at = now
            try:
                await self.read_lag()
                if not self.lag.failing:
                    await self.read_refused()
            except (StoreUnavailable, DatabaseUnavailable):
                pass

    async def read_lag(self) -> Lag:
        """The outbox as it is now (the metrics show it as it was at the last read)."""
        depth = await self.outbox.depth()
        oldest = await self.outbox.oldest_ended() if depth else None
        self.lag.depth = depth
        self.lag.seconds = 0.0 if oldest is None else max(0.0, time.time() - oldest)
        OUTBOX_DEPTH.set(depth)
        ARCHIVE_LAG.set(self.lag.seconds)
        return self.lag

    async def read_refused(self) -> int:
        """How many games are set aside now (another replica, or the retry command, may
        have changed it)."""
        self.lag.refused = await self.archive.refused_count()
        REFUSED.set(self.lag.refused)
        return self.lag.refused
