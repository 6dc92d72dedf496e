"""Server-Sent Events: every open stream follows one game, redacted for its viewer.

The store announces every commit to the replicas watching the game (Redis pub/sub, or in
process). Here, each game with open streams in this process has one Feed: it reads the
new versions from the store once (entry and record of each version, from the log, which
cannot lose anything) and shares them with the game's local streams; each stream turns
them into its own viewer's events. Nothing read from Redis reaches a client as is.

A stream holds no queue of its own: it remembers the last version it sent, and a notice
only wakes it to read what follows from the feed. So a slow client costs one batch of
shared changes at most, and blocks nobody but itself (TCP flow control pauses its
sends); a client that drops resumes with Last-Event-ID.

Ten thousand idle streams in one worker are ten thousand of everything a stream keeps
alive, and every full garbage collection walks all of it (docs/benchmarks.md, "Event
streams"). So an open stream is one coroutine (Follower.run, awaited by the server's
task for the request) waiting on one future, and the server's receive() waiting for the
client to go, stepped by hand instead of by a task of its own; the keep-alive clock and the re-read that heals a lost notice are the
feed's, one timer for all the streams of a game; the stream keeps no session, no
decoded state and no event bytes between events.
"""

import asyncio
import contextvars
import inspect
import logging
import time
from collections.abc import Awaitable
from typing import Any, Protocol

import msgspec
from prometheus_client import Counter, Gauge, Histogram

from service.events import patches
from service.games import bodies
from service.games.sessions import Session, Sessions
from service.replica import tracing
from service.store import GameRecords, Notices, StoreUnavailable

log = logging.getLogger("service.events.streams")

# Decoded versions a feed keeps for its streams (each with its events by viewer, up to
# 14.5 KB apiece): the streams of a game in one process are within a version or two of
# each other; one further behind (a resumed client) reads the log.
CACHED_VERSIONS = 32
# Shouts (quick reactions) a feed keeps for its streams: one per seat per 5 s at most, so
# a stream woken late still finds every one said since it last looked.
CACHED_SHOUTS = 16

OPEN_STREAMS = Gauge("crab_event_streams_open", "Event streams open",
                     multiprocess_mode="livesum")
# Why streams ended: the game was over, the client went, the worker drained (clients
# reconnect elsewhere), or an error dropped it (the alert: deploy/prometheus/).
STREAMS_ENDED = Counter("crab_event_streams_ended", "Event streams ended, by why",
                        ["reason"])
ENDED_OVER, ENDED_CLIENT, ENDED_DRAINING, ENDED_ERROR = (
    STREAMS_ENDED.labels(reason) for reason in ("over", "client", "draining", "error"))
EVENTS_SENT = Counter("crab_events_sent_total", "Events sent on event streams")
EVENT_BYTES = Counter("crab_event_bytes_sent", "Bytes of the events sent on event streams,"
                      " by kind: whole game bodies or deltas", ["kind"])
GAME_BYTES, DELTA_BYTES = EVENT_BYTES.labels("game"), EVENT_BYTES.labels("delta")
FAN_OUT_LAG = Histogram("crab_event_fan_out_lag_seconds",
                        "From a commit (on any replica) to its event leaving this worker",
                        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))

KEEP_ALIVE = b": keep-alive\n\n"
# The context Follower._answered runs in: it reads no context variable, and a callback
# added without one gets a fresh copy of the current context, one more object per stream.
_ANSWERED_CONTEXT = contextvars.Context()
END = {"type": "http.response.body", "body": b"", "more_body": False}


class Version:
    """One committed version as every local stream of the game shares it."""
    __slots__ = ("entry", "session", "events", "deltas", "over")

    def __init__(self, entry: dict, session: Session) -> None:
        self.entry = entry
        self.session = session   # the record it left (its state decoded when first asked)
        self.events: dict[int | None, bytes] = {}  # by viewer: made once
        self.deltas: dict[int | None, bytes] | None = None  # the same, for delta streams
        self.over: bool | None = None


class Feed:
    """The versions of one game, read once for every stream of it in this process, and
    the one clock that wakes them all for keep-alives."""

    def __init__(self, game_id: str, sessions: Sessions, store: GameRecords,
                 keep_alive_seconds: float) -> None:
        self.game_id = game_id
        self.sessions = sessions
        self.store = store
        self.streams = 0
        self.wakes = 0             # bumped by every notice and tick: a stream behind re-reads
        self.ticks = 0             # keep-alive ticks
        self.noticed = 0           # the newest version a notice announced
        self.vanished = False      # the store no longer has the game: its streams end
        self.committed_at: dict[int, float] = {}
        self._waiters: list[asyncio.Future] = []
        self._versions: dict[int, Version] = {}
        self._bases: dict[int, Session] = {}  # versions delta streams started from
        self._newest = 0
        self._stale = True         # read the log at the next chance (new feed, tick, reconnect)
        self._read = asyncio.Lock()
        self._keep_alive = keep_alive_seconds
        self._loop = asyncio.get_running_loop()
        self._timer = self._loop.call_later(keep_alive_seconds, self._tick)
        self._retry: asyncio.TimerHandle | None = None
        self._origin = ""          # the newest notice's span, which the next read continues
        self.shouts = 0            # how many shouts this feed has heard
        self._shouts: list[bytes] = []  # the last CACHED_SHOUTS, as events

    def shout(self, event: bytes) -> None:
        """A shout heard at the table: every stream of the game sends it as it wakes."""
        self.shouts += 1
        self._shouts = [*self._shouts[-(CACHED_SHOUTS - 1):], event]
        self._wake()

    def shouts_after(self, heard: int) -> list[bytes]:
        """The shouts after the first `heard` (those still kept)."""
        return self._shouts[len(self._shouts) - min(self.shouts - heard, len(self._shouts)):]

    def notice(self, version: int, committed_at: float, origin: str = "") -> None:
        """version was committed at committed_at (-1: notices may have been lost), by
        the span origin names (traced: the read it wakes continues that trace)."""
        if version > 0:
            self.committed_at[version] = committed_at
            self._origin = origin or self._origin
            if len(self.committed_at) > CACHED_VERSIONS:
                del self.committed_at[next(iter(self.committed_at))]
            self.noticed = max(self.noticed, version)
        else:
            self._stale = True  # a reconnection, or this replica stopping: re-read what was missed
        self._wake()

    def _tick(self) -> None:
        self.ticks += 1
        self._stale = True      # heals a notice lost on the way
        self._timer = self._loop.call_later(self._keep_alive, self._tick)
        self._wake()

    def _wake(self) -> None:
        self.wakes += 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def known(self, version: int) -> None:
        """version exists (a stream loaded it): streams behind it read up to it."""
        self.noticed = max(self.noticed, version)

    def add_base(self, session: Session) -> None:
        """session is where a delta stream starts: the next version's delta is from it."""
        self._bases[session.record.version] = session
        while len(self._bases) > 4:
            del self._bases[next(iter(self._bases))]

    def base(self, version: int) -> Session | None:
        """The session of version, if this feed still has it (for a delta from it)."""
        cached = self._versions.get(version)
        return cached.session if cached is not None else self._bases.get(version)

    def waiter(self) -> asyncio.Future:
        """A future the next notice or tick resolves."""
        waiter = self._loop.create_future()
        self._waiters.append(waiter)
        return waiter

    def close(self) -> None:
        self._timer.cancel()
        if self._retry is not None:
            self._retry.cancel()
        self._wake()

    def _needs_read(self, version: int) -> bool:
        if version + 1 in self._versions:
            return self._newest < self.noticed
        return version < self._newest or self.noticed > version or self._stale

    async def after(self, version: int) -> list[Version]:
        """The versions after version, read from the store unless a stream just did."""
        read: dict[int, Version] = {}
        if self._needs_read(version):
            async with self._read:  # streams woken together wait for one read
                if self._needs_read(version):
                    try:
                        read = await self._read_after(self._newest_contiguous(version))
                    except StoreUnavailable:
                        if self._retry is None:  # read again soon, for every stream
                            self._retry = self._loop.call_later(Hub.STORE_RETRY_SECONDS,
                                                                self._retried)
                        raise
        found = []
        while (version := version + 1) in self._versions or version in read:
            found.append(self._versions.get(version) or read[version])
        return found

    def _retried(self) -> None:
        self._retry = None
        self._stale = True
        self._wake()

    async def _read_after(self, version: int) -> dict[int, Version]:
        """Reads the log after version into the cache; what it read (older versions than
        the cache keeps included: the stream that asked for them gets them)."""
        self._stale = False
        newest, read = self._newest, {}
        origin, self._origin = self._origin, ""
        with tracing.span("events.fan_out", self.game_id, parent=origin, after=version):
            changes = await self.store.changes_since(self.game_id, version)
        if changes is None:
            # Expired or deleted (a tick's re-read finds it within a keep-alive): ending
            # its streams is how their clients learn it, from the 404 of their next request.
            self.vanished = True
            self._wake()
            return read
        for change in changes:
            number = change.record.version
            cached = self._versions.get(number)  # kept: its events are made already
            read[number] = self._versions[number] = cached or Version(
                msgspec.json.decode(change.entry), self.sessions.session(self.game_id,
                                                                         change.record))
            self._newest = max(self._newest, number)
        while len(self._versions) > CACHED_VERSIONS:
            del self._versions[min(self._versions)]
        if self._newest > newest:
            self._wake()  # streams that did not wait for this read come back for it
        return read

    def _newest_contiguous(self, version: int) -> int:
        while version + 1 in self._versions:
            version += 1
        return version


class StreamStore(GameRecords, Notices, Protocol):
    """What the streams read of the store: its commit notices, and the versions they name."""


class Hub:
    """The feeds of this process, fed by the store's commit notices."""

    STORE_RETRY_SECONDS = 1.0  # a stream's next read when the store did not answer

    def __init__(self, sessions: Sessions, store: StreamStore, keep_alive_seconds: float) -> None:
        self.sessions = sessions
        self.store = store  # the commit notices and the logs the feeds read
        self.keep_alive_seconds = keep_alive_seconds  # keeps proxies from closing idle streams
        self.ending = False
        self._feeds: dict[str, Feed] = {}
        store.on_commit(self._notice)
        store.on_shout(self._shout)

    def _notice(self, game_id: str, version: int, committed_at: float, origin: str) -> None:
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.notice(version, committed_at, origin)

    def _shout(self, game_id: str, message: bytes) -> None:
        """A reaction (JSON, made by service/lobby/reactions.py) to every open stream of
        the game in this process, as an `event: reaction` with no id: a resumed stream
        goes on from its version, and a reaction is not replayed."""
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.shout(b"event: reaction\ndata: %s\n\n" % message)

    def end_streams(self) -> None:
        """Ends every stream after the event it is sending: this worker is stopping, and
        the clients reconnect (with Last-Event-ID) to another replica."""
        self.ending = True
        for feed in list(self._feeds.values()):
            feed.notice(-1, time.time())

    async def join(self, game_id: str) -> Feed:
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = Feed(game_id, self.sessions, self.store,
                                               self.keep_alive_seconds)
            await self.store.watch(game_id)
        feed.streams += 1
        OPEN_STREAMS.inc()
        return feed

    async def leave(self, feed: Feed) -> None:
        feed.streams -= 1
        OPEN_STREAMS.dec()
        if feed.streams == 0 and self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]
            feed.close()
            await self.store.unwatch(feed.game_id)

    def follower(self, session: Session, seat: int | None, since: int | None,
                 delta: bool = False) -> "Follower":
        """The stream of session's game for seat: the current state first unless resuming
        after version since, then every later version (with delta, as what changed since
        the version before); it ends after the game is over."""
        return Follower(self, session, seat, since, delta)

    def shared_delta(self, feed: Feed, seat: int | None, version: Version) -> bytes:
        """version's delta event as seat sees it (made once per viewer, as events are):
        the viewer's game body as a patch of its body at the version before. Both bodies
        are redacted for seat before they are compared, so the patch tells seat nothing
        that its two whole bodies would not. Without the version before (no longer
        cached), the whole event instead."""
        number = version.session.record.version
        deltas = version.deltas
        if deltas is None:
            deltas = version.deltas = {}
        event = deltas.get(seat)
        if event is None:
            base = feed.base(number - 1)
            if base is None:
                event = version.events.get(seat)
                if event is None:
                    event = version.events[seat] = self.event(
                        seat, number, version.entry, version.session)
            else:
                session = version.session
                data = msgspec.json.encode({
                    "version": number,
                    "entry": self.sessions.visible_entry(session.state, version.entry, seat),
                    "patch": patches.diff(self.sessions.view(base, seat),
                                          self.sessions.view(session, seat))})
                event = b"id: %d\nevent: delta\ndata: %s\n\n" % (number, data)
            deltas[seat] = event
        return self.sent(feed, number, version.entry, event)

    def shared_event(self, feed: Feed, seat: int | None, version: Version) -> bytes:
        """version's event as seat sees it, redacted and encoded once for all the streams
        of that viewer in this process (a game's spectators, a player's several tabs)."""
        number = version.session.record.version
        event = version.events.get(seat)
        if event is None:
            event = version.events[seat] = self.event(seat, number, version.entry,
                                                      version.session)
        return self.sent(feed, number, version.entry, event)

    def event(self, seat: int | None, version: int, entry: dict | None,
              session: Session) -> bytes:
        visible = None if entry is None else self.sessions.visible_entry(
            session.state, entry, seat)
        data = msgspec.json.encode(bodies.event_body(session.meta.game, {
            "version": version, "entry": visible, "game": self.sessions.view(session, seat)}))
        return b"id: %d\nevent: game\ndata: %s\n\n" % (version, data)

    @staticmethod
    def sent(feed: Feed | None, version: int, entry: dict | None, event: bytes) -> bytes:
        """event, counted as sent (and its fan-out lag measured)."""
        EVENTS_SENT.inc()
        delta = event.startswith(b"event: delta", event.index(b"\n") + 1)
        (DELTA_BYTES if delta else GAME_BYTES).inc(len(event))
        committed = None if feed is None else feed.committed_at.get(version)
        if committed is not None and entry is not None:
            FAN_OUT_LAG.observe(max(0.0, time.time() - committed))
        return event

    @staticmethod
    def over(session: Session) -> bool:
        return session.status == "over"  # a forfeit ends it too

    @staticmethod
    def version_over(version: Version) -> bool:
        if version.over is None:
            version.over = Hub.over(version.session)
        return version.over


def _body(chunk: bytes) -> dict[str, Any]:
    return {"type": "http.response.body", "body": chunk, "more_body": True}


async def _disconnected(message: Awaitable[dict], receive) -> None:
    """Returns once the client has gone (the request's own body is read on the way)."""
    while (await message)["type"] != "http.disconnect":
        message = receive()


class Follower:
    """One open stream: which game, for whom, how far it got. Between events it holds a
    feed, the future it waits on and the server's receive() waiting for the disconnect.

    That receive() is stepped by hand rather than run by a task of its own: started
    once, it waits on a future of the server's, whose completion (the client went)
    resumes it and wakes the stream. An idle stream so keeps no task, context and
    wrapper coroutine for it. (A server whose receive() is no coroutine waiting on an
    asyncio future gets a task that waits for it.)"""
    __slots__ = ("hub", "session", "seat", "since", "delta", "_waiter", "_receive",
                 "_asking", "_listener", "_gone")

    def __init__(self, hub: Hub, session: Session, seat: int | None,
                 since: int | None, delta: bool = False) -> None:
        self.hub, self.session, self.seat, self.since = hub, session, seat, since
        self.delta = delta
        self._waiter: asyncio.Future | None = None
        self._receive = None
        self._asking = None                    # the receive() coroutine, suspended
        self._listener: asyncio.Future | None = None  # or a task running receive()
        self._gone = False

    def _wake(self, _: object = None) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def gone(self) -> bool:
        """Whether the client has gone."""
        if not self._gone and self._listener is not None:
            self._gone = self._listener.done()
        return self._gone

    def _listen(self) -> None:
        """Starts receive() and leaves it waiting (the request's own body comes first:
        a GET's, one empty message)."""
        for _ in range(8):
            asking = self._receive()
            if not inspect.iscoroutine(asking):
                break
            try:
                blocked_on = asking.send(None)
            except StopIteration as answered:
                if answered.value["type"] == "http.disconnect":
                    self._gone = True
                    return
                continue
            if not asyncio.isfuture(blocked_on):
                asking.close()
                asking = self._receive()
                break
            self._asking = asking
            blocked_on.add_done_callback(self._answered, context=_ANSWERED_CONTEXT)
            return
        else:  # a body of many parts: a task reads the rest and waits
            asking = self._receive()
        self._listener = asyncio.ensure_future(_disconnected(asking, self._receive))
        self._listener.add_done_callback(self._wake)

    def _answered(self, _: asyncio.Future) -> None:
        """The future receive() waited on is done: resume it (as its task would)."""
        asking, self._asking = self._asking, None
        if asking is None:
            return
        try:
            blocked_on = asking.send(None)
        except StopIteration as answered:
            if answered.value["type"] != "http.disconnect":
                self._listen()  # more of the request's body: listen on
                return
            self._gone = True
        except BaseException:  # noqa: BLE001 - a receive that fails: the client is gone
            self._gone = True
        else:
            if asyncio.isfuture(blocked_on):
                self._asking = asking
                blocked_on.add_done_callback(self._answered, context=_ANSWERED_CONTEXT)
                return
            asking.close()
            self._gone = True
        self._wake()

    def _stop_listening(self) -> None:
        asking, self._asking = self._asking, None
        if asking is not None:
            asking.close()  # its future's callback finds nothing to resume
        if self._listener is not None:
            self._listener.remove_done_callback(self._wake)
            self._listener.cancel()

    async def run(self, send, receive) -> None:
        """Sends the stream's events with the ASGI send until the game is over, the
        client goes or the worker drains. (One coroutine for all of it: each frame is
        kept by every idle stream.)"""
        hub, seat, sent, session = self.hub, self.seat, self.since, self.session
        self.session, self._receive = None, receive  # none kept: the first event is made now
        game_id, known = session.game_id, session.record.version
        first, over = None, False
        if sent is None or sent > known or (session.archived is not None and sent < known):
            # (An archived game's versions are no longer kept one by one: its last is sent.)
            sent = known
            first = hub.event(seat, sent, None, session), hub.over(session)
        else:  # resumed: a game over at the version the client has ends here
            over = sent == known and hub.over(session)
        feed = await hub.join(game_id)
        heard = feed.shouts  # the shouts said before this stream opened are not its own
        feed.known(known)
        if self.delta and sent == known:
            feed.add_base(session)  # the next version's delta is from this one
        del session
        self._listen()
        ended = None
        try:
            if first is not None:
                event, over = first
                first = None
                await send(_body(hub.sent(None, sent, None, event)))
                del event
            ticks, quiet, store_down = feed.ticks, False, False
            while not over and not hub.ending and not self.gone():
                wakes = feed.wakes
                try:
                    versions = await feed.after(sent)
                except StoreUnavailable as error:
                    # Keep the stream: ending it would send an EventSource back to a 503,
                    # after which it never retries. The feed reads again soon.
                    if not store_down:
                        log.warning("event stream of %s waits for the store: %s",
                                    feed.game_id, error)
                    store_down, versions = True, []
                else:
                    store_down = False
                for version in versions:
                    if hub.ending:
                        break
                    await send(_body(hub.shared_delta(feed, seat, version) if self.delta
                                     else hub.shared_event(feed, seat, version)))
                    sent, quiet = version.session.record.version, False
                    if over := hub.version_over(version):
                        break
                del versions
                if over or hub.ending or feed.vanished:
                    break
                shouts, heard = feed.shouts_after(heard), feed.shouts
                for shout in shouts:
                    EVENTS_SENT.inc()
                    await send(_body(shout))
                    quiet = False
                del shouts
                if feed.ticks != ticks:
                    ticks = feed.ticks
                    if quiet:
                        await send(_body(KEEP_ALIVE))
                    quiet = True
                if feed.wakes == wakes and not hub.ending and not self.gone():
                    self._waiter = feed.waiter()
                    try:
                        await self._waiter
                    finally:
                        self._waiter = None
            ended = ENDED_OVER if over else ENDED_DRAINING if hub.ending else ENDED_CLIENT
            if not self.gone():  # the end of the body (a client that went needs none)
                await send(END)
        finally:
            (ended or ENDED_ERROR).inc()
            self._stop_listening()
            await hub.leave(feed)
