"""Games in Redis (one node or a cluster), shared by every replica."""

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError

from service.replica import tracing
from service.store import entries, keys, segments, versions
from service.store.notices import Notices, notice
from service.store.protocol import Listener, ShoutListener, StoreUnavailable
from service.store.records import (Allowance, Change, Commit, FinishedGame, GameRecord,
                                   MatchRule, RateBudget)
from service.store.scripts import source
from service.store.wire import NoScript, Wire, WireError

Client = redis.Redis | RedisCluster
T = TypeVar("T")
log = logging.getLogger("service.store")

# What a failing Redis raises: cluster-wide faults (e.g. no node reachable) are not
# RedisErrors in redis-py.
REDIS_FAULTS = (RedisError, RedisClusterException)
# A connection the peer closed while a command was being written can also surface as the
# transport's AttributeError or TypeError (redis-py 8.1, redis/redis-py#4287; seen here in
# loadtests/failover.py as "'NoneType' object has no attribute 'writelines'"), or under
# uvloop as its RuntimeError ("unable to perform operation on <TCPTransport closed=True>;
# the handler is closed", seen in the same test while a reconnect wrote its handshake).
# Caught only around the call to Redis itself (RedisStore._io), never around the store's
# own code.
TRANSPORT_FAULTS = (AttributeError, TypeError, RuntimeError)

# Timeouts: a Redis that does not answer is a 503, never a hang. A single node's client
# has no socket timeout: redis-py enforces one with asyncio.wait_for on every write (a task
# and a timer for each command, 25 us of a move's two, docs/benchmarks.md) and a timer on
# every read, where RedisStore._io bounds the whole call with one timer. A cluster's
# client keeps its socket timeouts: they are how it marks a node failed and moves on.
CONNECT_SECONDS = 2
COMMAND_SECONDS = 5
TIMEOUTS = {"socket_timeout": COMMAND_SECONDS, "socket_connect_timeout": CONNECT_SECONDS}
SCRIPTS = ("create", "commit", "changes", "seal", "spend", "load_spending", "lease", "release",
           "match", "queue_cancel", "queue_seated", "queue_stuck", "player_events_push", "doc_swap",
           "attendance")
# A blocked read of a player's events returns well before a command's deadline (COMMAND_SECONDS).
MAX_EVENTS_WAIT_MS = 3_000


async def connect(url: str, pool_size: int) -> Client:
    """A client for the deployment url names: a cluster's when that node runs in cluster
    mode (INFO cluster says so), else a single node's.  No setting is needed either way."""
    probe = redis.Redis.from_url(url, **TIMEOUTS)
    try:
        clustered = (await probe.info("cluster")).get("cluster_enabled") == 1
    finally:
        await probe.aclose()
    if clustered:
        # Initialised now, once (RedisStore._redis holds a lock): a cluster client left to
        # initialise on first use, with several of its scripts and commands in flight at
        # once, can raise a bare IndexError, KeyError or NoScript from inside redis-py
        # (redis/redis-py#3935, #4296), a 500 instead of a 503 or an answer.
        cluster = RedisCluster.from_url(url, max_connections=pool_size, **TIMEOUTS)
        return await cluster.initialize()
    # A plain pool: redis-py's blocking pool cost a quarter of a move's CPU time.  A
    # worker holds at most one connection per request awaiting Redis, so 1024 is a
    # ceiling no healthy worker reaches; past it a request gets a 503, not a hang.
    # One immediate retry on a broken connection: after Redis restarts, every pooled
    # socket is dead, and reconnecting once serves the request instead of a 503.  (A
    # retried commit cannot apply twice: the script compares the version first.)
    pool = redis.ConnectionPool.from_url(
        url, max_connections=pool_size, health_check_interval=30,
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        socket_connect_timeout=CONNECT_SECONDS)
    return redis.Redis(connection_pool=pool)


class RedisStore:
    """Each game's keys carry one hash tag (keys.py), so every command and script of a
    game stays in one cluster slot."""

    def __init__(self, url: str, ttl: int, pool_size: int = 1024) -> None:
        self._url = url
        self._ttl = ttl
        self._pool_size = pool_size
        self._client: Client | None = None  # made by the first request
        self._scripts: dict[str, redis.client.AsyncScript] = {}
        self._wire: Wire | None = None  # a single node's scripts and reads (wire.py)
        self._connecting = asyncio.Lock()
        self._notices = Notices(self._notice_urls)

    async def _redis(self) -> Client:
        """The client, connected on first use (a Redis that is down at start-up is a 503
        until it is up, not a service that fails to start)."""
        if self._client is None:
            async with self._connecting:
                if self._client is None:
                    try:
                        client = await connect(self._url, self._pool_size)
                    except REDIS_FAULTS as error:
                        raise StoreUnavailable(str(error)) from error
                    self._scripts = {name: client.register_script(source(name))
                                     for name in SCRIPTS}
                    if not isinstance(client, RedisCluster):
                        self._wire = Wire.for_url(self._url, CONNECT_SECONDS, COMMAND_SECONDS)
                    self._client = client
        return self._client

    async def _io(self, call: Callable[[Client], Awaitable[T]]) -> T:
        """call's answer from Redis; StoreUnavailable if Redis fails meanwhile."""
        client = await self._redis()
        try:
            if isinstance(client, RedisCluster):  # its sockets time out (TIMEOUTS)
                return await call(client)
            async with asyncio.timeout(COMMAND_SECONDS):
                return await call(client)
        except TimeoutError as error:  # the deadline's (redis-py's own is a RedisError)
            raise StoreUnavailable(f"Redis did not answer within {COMMAND_SECONDS} s") from error
        except (*REDIS_FAULTS, *TRANSPORT_FAULTS) as error:
            raise StoreUnavailable(str(error)) from error

    async def _script(self, name: str, keys_: list[str], args: list) -> object:
        """scripts/<name>.lua run on keys_ and args (registered when the client is made)."""
        with tracing.span("store.script", script=name):
            await self._redis()
            script = self._scripts[name]
            if self._wire is None:
                return await self._io(lambda client: script(keys=keys_, args=args,
                                                            client=client))
            command = ("EVALSHA", script.sha, len(keys_), *keys_, *args)
            try:
                try:
                    return await self._wire.call(*command)
                except NoScript:  # Redis restarted without it: loaded once, as redis-py does
                    await self._wire.call("SCRIPT", "LOAD", script.script)
                    return await self._wire.call(*command)
            except WireError as error:
                raise StoreUnavailable(str(error)) from error

    def _notice_urls(self) -> list[str]:
        """Where this replica may listen for commit notices: the node REDIS_URL names,
        then every node the cluster client knows (a cluster forwards each PUBLISH to all
        of them, so any node that is up will do)."""
        if not isinstance(self._client, RedisCluster):
            return [self._url]
        return [self._url] + [_at_node(self._url, node.host, node.port)
                              for node in self._client.get_nodes()]

    async def create(self, game_id: str, record: GameRecord) -> bool:
        return bool(await self._script("create", [keys.game(game_id).state],
                                       [record.version, record.blob, record.meta, self._ttl]))

    async def load(self, game_id: str) -> GameRecord | None:
        state = keys.game(game_id).state
        with tracing.span("store.read"):
            await self._redis()
            if self._wire is None:
                return _record(*await self._io(lambda client: client.hmget(state,
                                                                           RECORD_FIELDS)))
            try:
                return _record(*await self._wire.call("HMGET", state, *RECORD_FIELDS))
            except WireError as error:
                raise StoreUnavailable(str(error)) from error

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        game = keys.game(game_id)

        async def both(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                pipe.hmget(game.state, RECORD_FIELDS)
                pipe.hget(game.idempotency, idempotency_key)
                return await pipe.execute()

        fields, replay = await self._io(both)
        return _record(*fields), replay

    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        game = keys.game(game_id)
        answer = await self._script(
            "load_spending", [game.state, game.idempotency,
                              keys.seat_budget(game_id, budget.name)],
            [budget.period_ms, budget.limit, idempotency_key or ""])
        allowance = Allowance(answer[0] == 1, *answer[1:4])
        if not allowance.allowed:
            return allowance, None, None
        version, blob, meta, replay = answer[4:]
        return allowance, _record(version, blob, meta), replay

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        done = await self._script("commit", keys.game(game_id).all(), [
            expected_version, commit.blob, entries.pack(commit.entry), self._ttl,
            commit.idempotency_key or "", commit.response, commit.meta,
            keys.channel(game_id), notice(expected_version + 1, time.time(), tracing.origin()),
            secrets.token_hex(8), "1" if commit.keep else "0", segments.VERSIONS])
        if done == 2:
            await self._seal(game_id)
        return done in (1, 2)

    async def _seal(self, game_id: str) -> None:
        """Seals the game's oldest unsealed versions in a segment (segments.py). The move
        is committed already: a store that fails now only leaves them for the next
        commit to seal."""
        game = keys.game(game_id)

        async def unsealed(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                pipe.lrange(game.log, 0, -1)
                pipe.lrange(game.undos, 0, segments.VERSIONS - 1)
                return await pipe.execute()

        try:
            listed, undos = await self._io(unsealed)
            first = segments.segments_in(listed)
            entries_read = listed[first:first + segments.VERSIONS]
            if len(entries_read) == len(undos) == segments.VERSIONS:  # else sealed meanwhile
                await self._script("seal", [game.state, game.log, game.undos], [
                    first * segments.VERSIONS, segments.seal(entries_read, undos),
                    segments.VERSIONS])
        except StoreUnavailable as error:
            log.warning("versions of %s left unsealed: %s", game_id, error)

    async def history(self, game_id: str) -> list[bytes]:
        key = keys.game(game_id).log
        return segments.entries_of(await self._io(lambda client: client.lrange(key, 0, -1)))

    async def changes_since(self, game_id: str, version: int) -> list[Change] | None:
        game = keys.game(game_id)  # one script: the log, undos and record read together
        found = await self._script("changes", [game.state, game.log, game.records, game.undos],
                                   [version])
        if found is None:
            return None
        if not found:
            return []
        latest, blob, meta, initial, log_from, log, undos, kept = found  # type: ignore[misc]
        if log_from == 0:  # the whole log: the undos sealed with its entries come first
            log, sealed_undos = segments.expand(log)
            undos = sealed_undos + undos
        else:
            log = [entries.unpack(entry) for entry in log]
        return versions.rebuilt(version, GameRecord(latest, blob, meta), initial, log_from,
                                log, undos, [GameRecord.unpacked(raw) for raw in kept])

    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]:
        states = [keys.game(game_id).state for game_id in game_ids]

        async def all_of(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                for state in states:
                    pipe.hmget(state, RECORD_FIELDS)
                return await pipe.execute()

        return [_record(*row) for row in await self._io(all_of)]

    async def finished(self, game_ids: list[str]) -> list[FinishedGame | None]:
        games = [keys.game(game_id) for game_id in game_ids]

        async def all_of(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                for game in games:
                    pipe.hmget(game.state, [*RECORD_FIELDS, "initial"])
                    pipe.lrange(game.log, 0, -1)
                return await pipe.execute()

        rows = await self._io(all_of)
        found: list[FinishedGame | None] = []
        for (version, blob, meta, initial), log in zip(rows[::2], rows[1::2]):
            record = _record(version, blob, meta)
            found.append(None if record is None or initial is None
                         else FinishedGame(record, initial, segments.entries_of(log)))
        return found

    async def queue_put(self, queue: keys.QueueKeys, ticket_id: str, ticket: bytes,
                        rating: float, since: float) -> None:
        async def put(client: Client) -> None:
            async with client.pipeline(transaction=True) as pipe:  # one slot: atomic
                pipe.hset(queue.tickets, ticket_id, ticket)
                pipe.zadd(queue.by_rating, {ticket_id: rating})
                pipe.zadd(queue.by_arrival, {ticket_id: since})
                await pipe.execute()

        await self._io(put)

    async def queue_get(self, queue: keys.QueueKeys, ticket_id: str) -> bytes | None:
        return await self._io(lambda client: client.hget(queue.tickets, ticket_id))

    async def queue_cancel(self, queue: keys.QueueKeys, ticket_id: str,
                           now: float) -> bytes | None:
        found = await self._script("queue_cancel", [queue.by_rating, queue.by_arrival,
                                                    queue.tickets, queue.done], [ticket_id, now])
        return found or None  # type: ignore[return-value]

    async def queue_match(self, queue: keys.QueueKeys, now: float, rule: MatchRule,
                          game_id: str, tokens: list[str]) -> list[bytes]:
        return await self._script("match", queue.all(), [  # type: ignore[return-value]
            now, rule.size, rule.base, rule.widen, rule.look, rule.anchors, rule.keep,
            game_id, *tokens])

    async def queue_seated(self, queue: keys.QueueKeys, game_id: str, now: float,
                           tickets: dict[str, bytes]) -> None:
        await self._script("queue_seated", [queue.tickets, queue.seating, queue.done],
                           [game_id, now, *[part for item in tickets.items() for part in item]])

    async def queue_busy(self, queues: list[keys.QueueKeys]) -> bool:
        return await self.index_size([key for queue in queues
                                      for key in (queue.by_arrival, queue.seating)]) > 0

    async def queue_stuck(self, queue: keys.QueueKeys, before: float,
                          until: float) -> list[tuple[str, bytes]]:
        found = await self._script("queue_stuck", [queue.tickets, queue.seating], [before, until])
        return [(game_id.decode(), group) for game_id, group in
                zip(found[::2], found[1::2])]  # type: ignore[index]

    async def player_events_push(self, stream: keys.PlayerEventKeys, once: str | None, event: bytes,
                                 keep: int, ttl: int) -> str | None:
        found = await self._script("player_events_push", [stream.events, stream.once],
                                   [once or "", event, keep, ttl])
        return found.decode() if found else None  # type: ignore[union-attr]

    async def player_events_read(self, stream: keys.PlayerEventKeys, after: str | None,
                                 wait_ms: int) -> list[tuple[str, bytes]]:
        wait = min(wait_ms, MAX_EVENTS_WAIT_MS)
        found = await self._io(lambda client: client.xread(
            {stream.events: after or "0-0"}, count=256, block=wait or None))
        if not found:  # nothing came while it waited
            return []
        [(_, entries)] = found
        return [(entry_id.decode(), fields[b"e"]) for entry_id, fields in entries]

    async def doc_get(self, key: str) -> bytes | None:
        return await self._io(lambda client: client.get(key))

    async def doc_swap(self, key: str, old: bytes | None, new: bytes, ttl: int) -> bool:
        return bool(await self._script("doc_swap", [key], [
            old or b"", new, ttl, "1" if old is None else "0"]))

    async def attendance_mark(self, key: str, member: str | None, until: float, now: float,
                              ttl: int) -> list[str]:
        present = await self._script("attendance", [key], [member or "", until, now, ttl])
        return sorted(found.decode() for found in present)

    async def attendance_many(self, keys: list[str], now: float) -> list[list[str]]:
        async def each(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:  # one trip per node
                for key in keys:
                    pipe.zrangebyscore(key, f"({now}", "+inf")  # lapsing after now
                return await pipe.execute()

        if not keys:
            return []
        return [sorted(member.decode() for member in found) for found in await self._io(each)]

    async def release(self, game_ids: list[str], ttl: int) -> None:
        release = self._scripts["release"]

        async def expire(client: Client) -> None:
            async with client.pipeline(transaction=False) as pipe:  # one trip per node
                for game_id in game_ids:
                    game = keys.game(game_id).all()
                    if isinstance(client, RedisCluster):  # which pipelines no script
                        for key in game:
                            pipe.expire(key, ttl)
                    else:  # one command a game instead of five: a third of a drain's time
                        await release(keys=game, args=[ttl], client=pipe)
                await pipe.execute()

        if game_ids:
            await self._io(expire)

    async def index_lease(self, index: str, upto: float, until: float,
                          count: int) -> list[tuple[str, float]]:
        flat = await self._script("lease", [index], [upto, until, count])
        return [(member.decode(), float(score)) for member, score in zip(flat[::2], flat[1::2])]

    async def index_remove_many(self, index: str, members: list[str]) -> None:
        if members:
            await self._io(lambda client: client.zrem(index, *members))

    async def index_size(self, indexes: list[str]) -> int:
        async def each(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                for index in indexes:
                    pipe.zcard(index)
                return await pipe.execute()

        return sum(await self._io(each))

    async def index_add(self, index: str, member: str, score: float,
                        earliest: bool = False) -> None:
        await self._io(lambda client: client.zadd(index, {member: score}, lt=earliest))

    async def index_remove(self, index: str, member: str) -> bool:
        return await self._io(lambda client: client.zrem(index, member)) == 1

    async def index_due(self, indexes: list[str], upto: float,
                        count: int) -> list[tuple[str, str, float]]:
        async def each(client: Client) -> list:
            async with client.pipeline(transaction=False) as pipe:
                for index in indexes:
                    pipe.zrangebyscore(index, "-inf", upto, start=0, num=count, withscores=True)
                return await pipe.execute()

        return [(index, member.decode(), score)
                for index, row in zip(indexes, await self._io(each)) for member, score in row]

    async def index_page(self, index: str, below: float | None,
                         count: int) -> list[tuple[str, float]]:
        top = "+inf" if below is None else below
        rows = await self._io(lambda client: client.zrevrangebyscore(
            index, top, "-inf", start=0, num=count, withscores=True))
        return [(member.decode(), score) for member, score in rows]

    async def spend(self, key: str, period_ms: int, limit: int) -> Allowance:
        allowed, remaining, retry, reset = await self._script("spend", [key], [period_ms, limit])
        return Allowance(allowed == 1, remaining, retry, reset)

    def on_commit(self, listener: Listener) -> None:
        self._notices.listener = listener

    async def shout(self, game_id: str, message: bytes) -> None:
        await self._io(lambda client: client.publish(keys.shouts_channel(game_id), message))

    def on_shout(self, listener: ShoutListener) -> None:
        self._notices.shout_listener = listener

    async def watch(self, game_id: str) -> None:
        await self._notices.watch(game_id)

    async def ring(self, topic: str) -> None:
        await self._io(lambda client: client.publish(keys.wake_channel(topic), b""))

    def on_ring(self, topic: str, listener: Callable[[], None]) -> None:
        self._notices.on_ring(topic, listener)

    async def unwatch(self, game_id: str) -> None:
        await self._notices.unwatch(game_id)

    async def ping(self) -> None:
        await self._io(lambda client: client.ping())

    async def close(self) -> None:
        await self._notices.close()
        if self._wire is not None:
            self._wire.close()
        if isinstance(self._client, RedisCluster):
            await self._client.aclose()
        elif self._client is not None:
            await self._client.aclose(close_connection_pool=True)


RECORD_FIELDS = ["version", "blob", "meta"]


def _at_node(url: str, host: str, port: int) -> str:
    """url (its scheme and credentials) pointed at another node of its cluster."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return urlunsplit(parts._replace(netloc=f"{credentials}@{where}" if credentials else where,
                                     path="/0"))


def _record(version: bytes | None, blob: bytes | None, meta: bytes | None) -> GameRecord | None:
    if version is None or blob is None or meta is None:
        return None
    return GameRecord(int(version), blob, meta)
