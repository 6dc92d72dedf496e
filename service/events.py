"""Server-Sent Events: every open stream follows one game, redacted for its viewer.

The store announces every commit to the replicas watching the game (Redis pub/sub, or in
process). Here, each game with open streams in this process has one Feed: it reads the
new versions from the store once (entry and record of each version, from the log, which
cannot lose anything) and shares them with the game's local streams; each stream turns
them into its own viewer's events. Nothing read from Redis reaches a client as is.

A stream holds no queue of its own: it remembers the last version it sent, and a notice
only wakes it to read what follows from the feed. So a slow client costs one batch of
shared changes at most, and blocks nobody but itself (TCP flow control pauses its
generator); a client that drops resumes with Last-Event-ID.
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import msgspec
from prometheus_client import Counter, Gauge, Histogram

from service import bodies
from service.sessions import Session, Sessions
from service.store import Store, StoreUnavailable

log = logging.getLogger("service.events")

CACHED_VERSIONS = 256       # decoded versions a feed keeps for its streams

OPEN_STREAMS = Gauge("crab_event_streams_open", "Event streams open in this worker")
EVENTS_SENT = Counter("crab_events_sent_total", "Events sent on event streams")
FAN_OUT_LAG = Histogram("crab_event_fan_out_lag_seconds",
                        "From a commit (on any replica) to its event leaving this worker",
                        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))


@dataclass
class Version:
    """One committed version as every local stream of the game shares it."""
    entry: dict
    session: Session   # the record it left (its state is decoded once, when first asked)
    events: dict[int | None, bytes] = field(default_factory=dict)  # by viewer: made once


class Feed:
    """The versions of one game, read once for every stream of it in this process."""

    def __init__(self, game_id: str, sessions: Sessions) -> None:
        self.game_id = game_id
        self.sessions = sessions
        self.streams = 0
        self.generation = 0        # bumped by every notice: a stream behind it re-reads
        self.committed_at: dict[int, float] = {}
        self._wakeup = asyncio.Event()
        self._versions: dict[int, Version] = {}
        self._read = asyncio.Lock()

    def notice(self, version: int, committed_at: float) -> None:
        if version > 0:
            self.committed_at[version] = committed_at
            while len(self.committed_at) > CACHED_VERSIONS:
                del self.committed_at[next(iter(self.committed_at))]
        self.generation += 1
        self._wakeup.set()
        self._wakeup = asyncio.Event()

    async def wait(self, generation: int, timeout: float) -> bool:
        """Waits for a notice after generation; False when timeout passed without one."""
        if self.generation != generation:
            return True
        try:
            await asyncio.wait_for(self._wakeup.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def after(self, version: int) -> list[Version]:
        """The versions after version, read from the store unless a stream just did."""
        async with self._read:  # streams woken together wait for one read
            if version + 1 not in self._versions or self._newest() < self._noticed():
                await self._read_after(max(version, self._newest_contiguous(version)))
        found = []
        while (version := version + 1) in self._versions:
            found.append(self._versions[version])
        return found

    async def _read_after(self, version: int) -> None:
        for change in await self.sessions.store.changes_since(self.game_id, version):
            session = self.sessions.session(self.game_id, change.record)
            self._versions[change.record.version] = Version(
                msgspec.json.decode(change.entry), session)
        while len(self._versions) > CACHED_VERSIONS:
            del self._versions[min(self._versions)]

    def _newest(self) -> int:
        return max(self._versions, default=0)

    def _noticed(self) -> int:
        return max(self.committed_at, default=0)

    def _newest_contiguous(self, version: int) -> int:
        while version + 1 in self._versions:
            version += 1
        return version


class Hub:
    """The feeds of this process, fed by the store's commit notices."""

    STORE_RETRY_SECONDS = 1.0  # a stream's next read when the store did not answer

    def __init__(self, sessions: Sessions, keep_alive_seconds: float) -> None:
        self.sessions = sessions
        self.keep_alive_seconds = keep_alive_seconds  # keeps proxies from closing idle streams
        self.draining = False
        self._feeds: dict[str, Feed] = {}
        sessions.store.on_commit(self._notice)

    def _notice(self, game_id: str, version: int, committed_at: float) -> None:
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.notice(version, committed_at)

    def drain(self) -> None:
        """Ends every stream after the event it is sending: this worker is stopping, and
        the clients reconnect (with Last-Event-ID) to another replica."""
        self.draining = True
        for feed in list(self._feeds.values()):
            feed.notice(-1, time.time())

    async def join(self, game_id: str) -> Feed:
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = Feed(game_id, self.sessions)
            await self.sessions.store.watch(game_id)
        feed.streams += 1
        OPEN_STREAMS.inc()
        return feed

    async def leave(self, feed: Feed) -> None:
        feed.streams -= 1
        OPEN_STREAMS.dec()
        if feed.streams == 0 and self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]
            await self.sessions.store.unwatch(feed.game_id)

    async def stream(self, session: Session, seat: int | None,
                     since: int | None) -> AsyncIterator[bytes]:
        """The events of session's game for seat: the current state first unless resuming
        after version since, then every later version; ends after the game is over."""
        feed = await self.join(session.game_id)
        try:
            sent = since
            if sent is None or sent > session.record.version:
                yield self._sent(feed, session.record.version, None,
                                 self._event(seat, session.record.version, None, session))
                sent = session.record.version
                if self._over(session):
                    return
            async for version in self._versions_after(feed, sent):
                if self.draining:
                    return
                if version is None:
                    yield b": keep-alive\n\n"
                    continue
                yield self._shared_event(feed, seat, version)
                if self._over(version.session):
                    return
        finally:
            await self.leave(feed)

    async def _versions_after(self, feed: Feed, sent: int) -> AsyncIterator[Version | None]:
        """Each version after sent as it comes; None when a keep-alive is due."""
        store_down = False
        while not self.draining:
            generation = feed.generation
            try:
                versions = await feed.after(sent)
            except StoreUnavailable as error:
                # Keep the stream: ending it would send an EventSource back to a 503,
                # after which it never retries. Read again soon.
                if not store_down:
                    log.warning("event stream of %s waits for the store: %s", feed.game_id,
                                error)
                store_down, versions = True, []
            else:
                store_down = False
            for version in versions:
                yield version
                sent = version.session.record.version
            timeout = self.STORE_RETRY_SECONDS if store_down else self.keep_alive_seconds
            if not await feed.wait(generation, min(timeout, self.keep_alive_seconds)):
                yield None  # also re-reads the log: heals a notice lost on the way

    def _shared_event(self, feed: Feed, seat: int | None, version: Version) -> bytes:
        """version's event as seat sees it, redacted and encoded once for all the streams
        of that viewer in this process (a game's spectators, a player's several tabs)."""
        number = version.session.record.version
        event = version.events.get(seat)
        if event is None:
            event = version.events[seat] = self._event(seat, number, version.entry,
                                                       version.session)
        return self._sent(feed, number, version.entry, event)

    def _event(self, seat: int | None, version: int, entry: dict | None,
               session: Session) -> bytes:
        visible = None if entry is None else self.sessions.visible_entry(
            session.state, entry, seat)
        data = msgspec.json.encode(bodies.event_body(session.meta.game, {
            "version": version, "entry": visible, "game": self.sessions.view(session, seat)}))
        return b"id: %d\nevent: game\ndata: %s\n\n" % (version, data)

    @staticmethod
    def _sent(feed: Feed, version: int, entry: dict | None, event: bytes) -> bytes:
        """event, counted as sent (and its fan-out lag measured)."""
        EVENTS_SENT.inc()
        committed = feed.committed_at.get(version)
        if committed is not None and entry is not None:
            FAN_OUT_LAG.observe(max(0.0, time.time() - committed))
        return event

    @staticmethod
    def _over(session: Session) -> bool:
        return session.status == "over"  # a forfeit ends it too
