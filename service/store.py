"""Where game sessions live: a Redis store for production, an in-process one for a laptop.

Both keep, per game, a record (version, core blob, immutable metadata), the move log
and idempotency records, and pass the same contract tests (tests/service/test_store.py).
A move is committed by one atomic compare-and-set on the version.
"""

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError


class StoreUnavailable(Exception):
    """The store cannot be reached; the request changed nothing."""


@dataclass(frozen=True)
class GameRecord:
    version: int   # moves applied so far
    blob: bytes    # core's to_bytes() of the state
    meta: bytes    # JSON written at creation (game, seats' token hashes, ...), never changed


@dataclass(frozen=True)
class Commit:
    """One applied move: the new state, its log entry, and the idempotency record if any."""
    blob: bytes
    entry: bytes
    idempotency_key: str | None = None
    response: bytes = b""


@runtime_checkable
class Store(Protocol):
    async def create(self, game_id: str, record: GameRecord) -> None: ...
    async def load(self, game_id: str) -> GameRecord | None: ...
    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        """The record and the stored response for this idempotency key, in one round trip."""
    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        """Applies commit if the game is at expected_version; False if it moved on."""
    async def history(self, game_id: str) -> list[bytes]: ...
    async def ping(self) -> None: ...
    async def close(self) -> None: ...


class MemoryStore:
    """Games in this process's memory: for one process, tests and a laptop.

    No await happens inside a method between reading and writing, so on one event
    loop each method is atomic, as the Redis script is.
    """

    def __init__(self, ttl: int) -> None:
        self._ttl = ttl
        self._games: dict[str, tuple[float, GameRecord, list[bytes], dict[str, bytes]]] = {}
        self._creates = 0

    def _live(self, game_id: str):
        item = self._games.get(game_id)
        if item is not None and item[0] < time.monotonic():
            del self._games[game_id]
            return None
        return item

    async def create(self, game_id: str, record: GameRecord) -> None:
        self._creates += 1
        if self._creates % 1024 == 0:  # forget idle games nobody asks for any more
            now = time.monotonic()
            for stale in [g for g, item in self._games.items() if item[0] < now]:
                del self._games[stale]
        self._games[game_id] = (time.monotonic() + self._ttl, record, [], {})

    async def load(self, game_id: str) -> GameRecord | None:
        item = self._live(game_id)
        return None if item is None else item[1]

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        item = self._live(game_id)
        return (None, None) if item is None else (item[1], item[3].get(idempotency_key))

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        item = self._live(game_id)
        if item is None or item[1].version != expected_version:
            return False
        _, record, log, replays = item
        log.append(commit.entry)
        if commit.idempotency_key is not None:
            replays[commit.idempotency_key] = commit.response
        new = GameRecord(record.version + 1, commit.blob, record.meta)
        self._games[game_id] = (time.monotonic() + self._ttl, new, log, replays)
        return True

    async def history(self, game_id: str) -> list[bytes]:
        item = self._live(game_id)
        return [] if item is None else list(item[2])

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        self._games.clear()


# KEYS: the game's hash, its log, its idempotency hash (one hash tag: one cluster slot).
# ARGV: expected version, blob, log entry, TTL seconds, idempotency key ('' if none), response.
_COMMIT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', tonumber(version) + 1, 'blob', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[5], ARGV[6])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
return 1
"""

# KEYS: the game's hash.  ARGV: version, blob, meta, TTL seconds.  A script rather than a
# MULTI pipeline: one round trip, atomic, and the same call on a single node or a cluster.
_CREATE = """
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'meta', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
"""


def _keys(game_id: str) -> tuple[str, str, str]:
    tag = f"game:{{{game_id}}}"
    return f"{tag}:state", f"{tag}:log", f"{tag}:idempotency"


# What a failing Redis raises (cluster-wide faults, e.g. no node reachable, are not
# RedisErrors in redis-py).
_ERRORS = (RedisError, RedisClusterException)

# Timeouts of every connection: a Redis that does not answer is a 503, never a hang.
_TIMEOUTS = {"socket_timeout": 5, "socket_connect_timeout": 2}


async def _connect(url: str, pool_size: int) -> "redis.Redis | RedisCluster":
    """A client for the deployment url names: a cluster's when that node runs in cluster
    mode (INFO cluster says so), else a single node's.  No setting is needed either way."""
    probe = redis.Redis.from_url(url, **_TIMEOUTS)
    try:
        clustered = (await probe.info("cluster")).get("cluster_enabled") == 1
    finally:
        await probe.aclose()
    if clustered:
        return RedisCluster.from_url(url, max_connections=pool_size, **_TIMEOUTS)
    # A plain pool: redis-py's blocking pool cost a quarter of a move's CPU time.  A
    # worker holds at most one connection per request awaiting Redis, so 1024 is a
    # ceiling no healthy worker reaches; past it a request gets a 503, not a hang.
    # One immediate retry on a broken connection: after Redis restarts, every pooled
    # socket is dead, and reconnecting once serves the request instead of a 503.  (A
    # retried commit cannot apply twice: the script compares the version first.)
    pool = redis.ConnectionPool.from_url(
        url, max_connections=pool_size, health_check_interval=30,
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)), **_TIMEOUTS)
    return redis.Redis(connection_pool=pool)


class RedisStore:
    """Games in Redis (one node or a cluster), shared by every replica; each game's keys
    carry one hash tag, so every command and script of a game stays in one cluster slot."""

    def __init__(self, url: str, ttl: int, pool_size: int = 1024) -> None:
        self._url = url
        self._ttl = ttl
        self._pool_size = pool_size
        self._client: redis.Redis | RedisCluster | None = None  # made by the first request
        self._connecting = asyncio.Lock()

    async def _redis(self) -> "redis.Redis | RedisCluster":
        """The client, connected on first use (a Redis that is down at start-up is a 503
        until it is up, not a service that fails to start)."""
        if self._client is None:
            async with self._connecting:
                if self._client is None:
                    client = await _connect(self._url, self._pool_size)
                    self._create = client.register_script(_CREATE)
                    self._commit = client.register_script(_COMMIT)
                    self._client = client
        return self._client

    async def create(self, game_id: str, record: GameRecord) -> None:
        state, _, _ = _keys(game_id)
        try:
            client = await self._redis()
            await self._create(keys=[state], args=[record.version, record.blob, record.meta,
                                                   self._ttl], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def load(self, game_id: str) -> GameRecord | None:
        state, _, _ = _keys(game_id)
        try:
            client = await self._redis()
            version, blob, meta = await client.hmget(state, ["version", "blob", "meta"])
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return _record(version, blob, meta)

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        state, _, replays = _keys(game_id)
        try:
            client = await self._redis()
            async with client.pipeline(transaction=False) as pipe:
                pipe.hmget(state, ["version", "blob", "meta"])
                pipe.hget(replays, idempotency_key)
                (version, blob, meta), replay = await pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return _record(version, blob, meta), replay

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        try:
            client = await self._redis()
            done = await self._commit(keys=_keys(game_id), args=[
                expected_version, commit.blob, commit.entry, self._ttl,
                commit.idempotency_key or "", commit.response], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return done == 1

    async def history(self, game_id: str) -> list[bytes]:
        try:
            return await (await self._redis()).lrange(_keys(game_id)[1], 0, -1)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def ping(self) -> None:
        try:
            await (await self._redis()).ping()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def close(self) -> None:
        if isinstance(self._client, RedisCluster):
            await self._client.aclose()
        elif self._client is not None:
            await self._client.aclose(close_connection_pool=True)


def _record(version: bytes | None, blob: bytes | None, meta: bytes | None) -> GameRecord | None:
    if version is None or blob is None or meta is None:
        return None
    return GameRecord(int(version), blob, meta)


def open_store(redis_url: str | None, ttl: int) -> Store:
    return RedisStore(redis_url, ttl) if redis_url else MemoryStore(ttl)
