"""This process's one pub/sub connection: commits of the games its streams watch, and
the bells of its background work (service/replica/wakeups.py)."""

import asyncio
import logging
import time
from collections.abc import Callable

import redis.asyncio as redis
from redis.exceptions import RedisError

from service.store import keys
from service.store.protocol import Listener, ShoutListener

log = logging.getLogger("service.store")


def notice(version: int, committed_at: float, origin: str) -> str:
    """A commit's notice: its version, its wall-clock time and, while tracing is on, the
    traceparent of the span that made it (service.replica.tracing). A reader takes the
    fields it knows and ignores any after them: a later release may add one."""
    return f"{version} {committed_at:.6f} {origin}" if origin else f"{version} {committed_at:.6f}"


def parsed_notice(data: str) -> tuple[int, float, str]:
    """A notice's version, time and origin ('' if it has none)."""
    version, committed, *more = data.split(" ")
    return int(version), float(committed), more[0] if more else ""


def _channels(games) -> list[str]:
    """A watched game's channels: its commits' notices, and what is said at its table
    (apart, so that a replica of an earlier release, which reads every message of the
    first as a notice, never meets a shout there)."""
    return [channel for game in games
            for channel in (keys.channel(game), keys.shouts_channel(game))]


class Notices:
    """Pub/sub may drop messages while the connection is down; the log does not, so after
    every (re)connection each watched game gets a notice of version -1 and its streams
    re-read the log from where they are, and every bell rings (its loop reads its index
    again). A connection that fails moves on to the next of the nodes `urls()` names (in
    a cluster: any node, when the first one is down).
    """

    def __init__(self, urls: Callable[[], list[str]]) -> None:
        self._urls = urls
        self.listener: Listener | None = None
        self.shout_listener: ShoutListener | None = None
        self._watched: set[str] = set()
        self._rings: dict[str, list[Callable[[], None]]] = {}
        self._subscribing: set[asyncio.Task] = set()
        self._pubsub: redis.client.PubSub | None = None
        self._task: asyncio.Task | None = None

    async def watch(self, game_id: str) -> None:
        self._watched.add(game_id)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._pubsub is not None:
            await self._subscribe(self._pubsub, _channels([game_id]))

    def on_ring(self, topic: str, listener: Callable[[], None]) -> None:
        """(From a task of the event loop.) The connection opens now if it was not open;
        if it was, the topic's channel is subscribed, and rung once: a ring sent before
        the subscription would be lost."""
        self._rings.setdefault(topic, []).append(listener)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._pubsub is not None:
            task = asyncio.get_running_loop().create_task(
                self._subscribe(self._pubsub, [keys.wake_channel(topic)]))
            self._subscribing.add(task)  # (the loop keeps weak references to tasks only)
            task.add_done_callback(self._subscribing.discard)
            listener()

    async def unwatch(self, game_id: str) -> None:
        self._watched.discard(game_id)
        if self._pubsub is not None:
            try:
                await self._pubsub.unsubscribe(*_channels([game_id]))
            except RedisError:
                pass  # the reconnection subscribes to watched games only

    async def _subscribe(self, pubsub: redis.client.PubSub, channels: list[str]) -> None:
        try:
            await pubsub.subscribe(*channels)
        except RedisError:
            pass  # _run reconnects and subscribes again

    async def _run(self) -> None:
        pause, attempt = 0.05, 0
        while True:
            urls = self._urls()
            pubsub = redis.Redis.from_url(urls[attempt % len(urls)], socket_connect_timeout=2,
                                          health_check_interval=15).pubsub(
                ignore_subscribe_messages=True)
            try:
                subscribed, topics = set(self._watched), set(self._rings)
                await pubsub.subscribe(keys.HEARTBEAT,
                                       *_channels(subscribed),
                                       *[keys.wake_channel(topic) for topic in topics])
                self._pubsub, pause = pubsub, 0.05
                await self._catch_up(pubsub, subscribed, topics)
                self._tell_all_to_reread()
                while True:
                    message = await pubsub.get_message(timeout=30)
                    if message is not None:
                        self._deliver(message)
            except (RedisError, OSError) as error:
                log.warning("event notices interrupted (%s); reconnecting", error)
                attempt += 1
            finally:
                self._pubsub = None
                await pubsub.aclose()
            await asyncio.sleep(pause)
            if attempt % len(urls) == 0:  # every node tried: wait longer before the next round
                pause = min(pause * 2, 2.0)

    async def _catch_up(self, pubsub: redis.client.PubSub, subscribed: set[str],
                        topics: set[str]) -> None:
        """Games watched or unwatched, bells added, while the connection opened: from
        now on watch(), unwatch() and on_ring() (un)subscribe by themselves."""
        if late := self._watched - subscribed:
            await pubsub.subscribe(*_channels(late))
        if late_topics := set(self._rings) - topics:
            await pubsub.subscribe(*[keys.wake_channel(topic) for topic in late_topics])
        if gone := subscribed - self._watched:
            await pubsub.unsubscribe(*_channels(gone))

    def _tell_all_to_reread(self) -> None:
        for listeners in list(self._rings.values()):
            for ring in listeners:
                ring()
        if self.listener is not None:
            for game_id in list(self._watched):
                self.listener(game_id, -1, time.time(), "")

    def _deliver(self, message: dict) -> None:
        channel = message["channel"].decode()
        if (topic := keys.topic_of_channel(channel)) is not None:
            for ring in self._rings.get(topic, ()):
                ring()
            return
        if (game_id := keys.game_of_shouts_channel(channel)) is not None:
            if self.shout_listener is not None:
                self.shout_listener(game_id, message["data"])
            return
        game_id = keys.game_of_channel(channel)
        if self.listener is None or game_id is None:
            return
        self.listener(game_id, *parsed_notice(message["data"].decode()))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
