"""Where game sessions live: a Redis store for production, an in-process one for a laptop.

Both keep, per game, a record (version, core blob, metadata), the log of changes, each
version's record (so an event stream can show any version as it was), and idempotency
records, and pass the same contract tests (tests/service/test_store.py). A change is
committed by one atomic compare-and-set on the version, which also notifies every replica
watching the game (Redis pub/sub; in process for the memory store).
"""

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

import msgspec
import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError

log = logging.getLogger("service.store")

# listener(game id, version, wall-clock time of the commit): a commit of a watched game.
# A version of -1 means "notices may have been lost" (the store reconnected).
Listener = Callable[[str, int, float], None]


class StoreUnavailable(Exception):
    """The store cannot be reached; the request changed nothing."""


@dataclass(frozen=True)
class GameRecord:
    version: int   # changes committed so far (the log's length)
    blob: bytes    # core's to_bytes() of the state
    meta: bytes    # JSON of what the service keeps beside the state (game, seats, ...)

    def packed(self) -> bytes:
        return msgspec.msgpack.encode((self.version, self.blob, self.meta))

    @staticmethod
    def unpacked(raw: bytes) -> "GameRecord":
        return GameRecord(*msgspec.msgpack.decode(raw, type=tuple[int, bytes, bytes]))


@dataclass(frozen=True)
class Change:
    """A committed version: its log entry and the record it left."""
    entry: bytes
    record: GameRecord


@dataclass(frozen=True)
class Allowance:
    """The answer of a rate limit: whether this request fits, and the budget's state."""
    allowed: bool
    remaining: int       # requests that would still fit now
    retry_after_ms: int  # wait this long before the next one fits (0 if allowed)
    reset_ms: int        # until the whole budget is back


def gcra(tat: float, now: float, period_ms: int, limit: int) -> tuple[Allowance, float]:
    """The generic cell rate algorithm: limit requests per period_ms, at most limit in a
    burst. tat is the key's theoretical arrival time (now if new); returns the answer and
    the key's new tat. The Redis script below is this function in Lua."""
    interval = period_ms / limit
    tolerance = period_ms - interval
    tat = max(tat, now)
    if tat - now > tolerance:
        return Allowance(False, 0, int(tat - now - tolerance) + 1, int(tat - now)), tat
    tat += interval
    return Allowance(True, int((tolerance - (tat - now)) // interval) + 1, 0, int(tat - now)), tat


@dataclass(frozen=True)
class RateBudget:
    """A rate limit's budget kept beside one game (in its cluster slot), so that the store
    spends it in the same round trip as it reads the game: a seat's moves."""
    name: str        # whose budget within the game, e.g. a hash of the seat's token
    period_ms: int
    limit: int       # requests per period, at most limit in a burst


@dataclass(frozen=True)
class Commit:
    """One change: the new record's state and metadata, its log entry, and the
    idempotency record if any."""
    blob: bytes
    meta: bytes
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
    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        """Takes one request from the game's budget and, if it fits, reads the game and
        the stored response for idempotency_key, in one round trip; (refusal, None, None)
        if it does not fit."""
    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        """Applies commit if the game is at expected_version; False if it moved on."""
    async def history(self, game_id: str) -> list[bytes]: ...
    async def changes_since(self, game_id: str, version: int) -> list[Change]:
        """The versions after version, in order (empty if none or no such game)."""
    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]: ...
    # Indexes: sorted sets of members by score (the waiting list, the turn clocks).
    async def index_add(self, index: str, member: str, score: float) -> None: ...
    async def index_remove(self, index: str, member: str) -> bool:
        """True if member was there (of concurrent removals, exactly one gets True)."""
    async def index_due(self, indexes: list[str], upto: float,
                        count: int) -> list[tuple[str, str, float]]:
        """(index, member, score) with score <= upto, lowest first, count per index."""
    async def index_page(self, index: str, below: float | None,
                         count: int) -> list[tuple[str, float]]:
        """(member, score) with score <= below (all if None), highest first."""
    async def spend(self, key: str, period_ms: int, limit: int) -> "Allowance":
        """Takes one request from key's budget of limit per period (GCRA)."""
    def on_commit(self, listener: Listener) -> None:
        """Calls listener for every commit of a watched game, on any replica."""
    async def watch(self, game_id: str) -> None: ...
    async def unwatch(self, game_id: str) -> None: ...
    async def ping(self) -> None: ...
    async def close(self) -> None: ...


class MemoryStore:
    """Games in this process's memory: for one process, tests and a laptop.

    No await happens inside a method between reading and writing, so on one event
    loop each method is atomic, as the Redis script is.
    """

    def __init__(self, ttl: int) -> None:
        self._ttl = ttl
        # game id -> (expiry, record, log, replays, each version's record)
        self._games: dict[str, tuple[float, GameRecord, list[bytes], dict[str, bytes],
                                     list[GameRecord]]] = {}
        self._creates = 0
        self._listener: Listener | None = None
        self._indexes: dict[str, dict[str, float]] = {}
        self._budgets: dict[str, float] = {}  # rate-limit key -> theoretical arrival time

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
        self._games[game_id] = (time.monotonic() + self._ttl, record, [], {}, [])

    async def load(self, game_id: str) -> GameRecord | None:
        item = self._live(game_id)
        return None if item is None else item[1]

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        item = self._live(game_id)
        return (None, None) if item is None else (item[1], item[3].get(idempotency_key))

    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        allowance = await self.spend(f"{game_id}:{budget.name}", budget.period_ms, budget.limit)
        if not allowance.allowed:
            return allowance, None, None
        item = self._live(game_id)
        if item is None:
            return allowance, None, None
        return allowance, item[1], None if idempotency_key is None else item[3].get(idempotency_key)

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        item = self._live(game_id)
        if item is None or item[1].version != expected_version:
            return False
        _, record, log, replays, records = item
        log.append(commit.entry)
        if commit.idempotency_key is not None:
            replays[commit.idempotency_key] = commit.response
        new = GameRecord(record.version + 1, commit.blob, commit.meta)
        records.append(new)
        self._games[game_id] = (time.monotonic() + self._ttl, new, log, replays, records)
        if self._listener is not None:
            self._listener(game_id, new.version, time.time())
        return True

    async def history(self, game_id: str) -> list[bytes]:
        item = self._live(game_id)
        return [] if item is None else list(item[2])

    async def changes_since(self, game_id: str, version: int) -> list[Change]:
        item = self._live(game_id)
        if item is None:
            return []
        _, _, log, _, records = item
        return [Change(entry, record) for entry, record
                in zip(log[version:], records[version:])]

    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]:
        return [await self.load(game_id) for game_id in game_ids]

    async def index_add(self, index: str, member: str, score: float) -> None:
        self._indexes.setdefault(index, {})[member] = score

    async def index_remove(self, index: str, member: str) -> bool:
        return self._indexes.get(index, {}).pop(member, None) is not None

    async def index_due(self, indexes: list[str], upto: float,
                        count: int) -> list[tuple[str, str, float]]:
        found = []
        for index in indexes:
            due = sorted((score, member) for member, score in self._indexes.get(index, {}).items()
                         if score <= upto)
            found += [(index, member, score) for score, member in due[:count]]
        return found

    async def index_page(self, index: str, below: float | None,
                         count: int) -> list[tuple[str, float]]:
        members = sorted(((score, member) for member, score in self._indexes.get(index, {}).items()
                          if below is None or score <= below), reverse=True)
        return [(member, score) for score, member in members[:count]]

    async def spend(self, key: str, period_ms: int, limit: int) -> Allowance:
        now = time.monotonic() * 1000
        if len(self._budgets) > 100_000:  # forget keys whose budget is whole again
            self._budgets = {k: tat for k, tat in self._budgets.items() if tat > now}
        allowance, self._budgets[key] = gcra(self._budgets.get(key, now), now, period_ms, limit)
        return allowance

    def on_commit(self, listener: Listener) -> None:
        self._listener = listener  # every commit is in this process: nothing to watch

    async def watch(self, game_id: str) -> None:
        return None

    async def unwatch(self, game_id: str) -> None:
        return None

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        self._games.clear()


# KEYS: the game's hash, its log, its idempotency hash, its records (one hash tag: one
# cluster slot). ARGV: expected version, blob, log entry, TTL seconds, idempotency key
# ('' if none), response, meta, the new record packed, the channel, the notice, this
# commit's nonce. PUBLISH needs no key: Redis Cluster forwards it to every node.
# The nonce makes a retry of the same call harmless: when a connection drops after the
# script ran (a failover), redis-py sends it again, and finding its own nonce at the next
# version it answers 1 as the first run did, instead of reporting a conflict.
_COMMIT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 0 end
if tonumber(version) ~= tonumber(ARGV[1]) then
  if tonumber(version) == tonumber(ARGV[1]) + 1
      and redis.call('HGET', KEYS[1], 'commit') == ARGV[11] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'version', tonumber(version) + 1, 'blob', ARGV[2], 'meta', ARGV[7],
           'commit', ARGV[11])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[8])
for i = 1, 4 do
  if i ~= 3 then redis.call('EXPIRE', KEYS[i], ARGV[4]) end
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[5], ARGV[6])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
redis.call('PUBLISH', ARGV[9], ARGV[10])
return 1
"""


# spend(key, period ms, limit): GCRA on Redis' own clock, so every replica counts alike.
# Returns allowed (0/1), remaining, retry after (ms), reset (ms): see gcra() above.
_GCRA = """
local function spend(key, period, limit)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
  local interval = period / limit
  local tolerance = period - interval
  local tat = math.max(tonumber(redis.call('GET', key) or now), now)
  if tat - now > tolerance then
    return {0, 0, math.floor(tat - now - tolerance) + 1, math.floor(tat - now)}
  end
  tat = tat + interval
  redis.call('SET', key, tostring(tat), 'PX', math.ceil(tat - now))
  return {1, math.floor((tolerance - (tat - now)) / interval) + 1, 0, math.floor(tat - now)}
end
"""

# KEYS: the budget's key. ARGV: period (ms), limit.
_SPEND = _GCRA + "return spend(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))"

# KEYS: the game's hash, its idempotency hash, the budget's key (one slot). ARGV: period
# (ms), limit, idempotency key ('' if none). The allowance, then, if it fits, the game's
# version, blob and meta and the stored response (nil where absent).
_LOAD_SPENDING = _GCRA + """
local allowance = spend(KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]))
if allowance[1] == 0 then return allowance end
local record = redis.call('HMGET', KEYS[1], 'version', 'blob', 'meta')
local replay = false
if ARGV[3] ~= '' then replay = redis.call('HGET', KEYS[2], ARGV[3]) end
return {allowance[1], allowance[2], allowance[3], allowance[4],
        record[1], record[2], record[3], replay}
"""


# KEYS: the game's hash.  ARGV: version, blob, meta, TTL seconds.  A script rather than a
# MULTI pipeline: one round trip, atomic, and the same call on a single node or a cluster.
_CREATE = """
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'meta', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
"""

# KEYS: a game's log and records.  ARGV: a version.  Both lists after that version, read
# atomically; a script, as _CREATE, for one round trip and one call on a node or a cluster.
_CHANGES = """
return {redis.call('LRANGE', KEYS[1], ARGV[1], -1), redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
"""


def _keys(game_id: str) -> tuple[str, str, str, str]:
    tag = f"game:{{{game_id}}}"
    return f"{tag}:state", f"{tag}:log", f"{tag}:idempotency", f"{tag}:records"


def _budget_key(game_id: str, budget: RateBudget) -> str:
    return f"game:{{{game_id}}}:budget:{budget.name}"


def channel(game_id: str) -> str:
    """The pub/sub channel on which a game's commits are announced."""
    return f"game:{{{game_id}}}:events"


# What a failing Redis raises: cluster-wide faults (e.g. no node reachable) are not
# RedisErrors in redis-py, and a connection the peer closed while a command was being
# written can surface as the transport's AttributeError or TypeError (redis-py 8.1,
# redis/redis-py#4287; seen here in loadtests/failover.py as "'NoneType' object has no
# attribute 'writelines'"). Inside the store's calls, either means a lost connection.
_ERRORS = (RedisError, RedisClusterException, AttributeError, TypeError)

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
        self._notices = Notices(self._notice_urls)

    async def _redis(self) -> "redis.Redis | RedisCluster":
        """The client, connected on first use (a Redis that is down at start-up is a 503
        until it is up, not a service that fails to start)."""
        if self._client is None:
            async with self._connecting:
                if self._client is None:
                    client = await _connect(self._url, self._pool_size)
                    self._create = client.register_script(_CREATE)
                    self._commit = client.register_script(_COMMIT)
                    self._changes = client.register_script(_CHANGES)
                    self._spend = client.register_script(_SPEND)
                    self._load_spending = client.register_script(_LOAD_SPENDING)
                    self._client = client
        return self._client

    def _notice_urls(self) -> list[str]:
        """Where this replica may listen for commit notices: the node REDIS_URL names,
        then every node the cluster client knows (a cluster forwards each PUBLISH to all
        of them, so any node that is up will do)."""
        if not isinstance(self._client, RedisCluster):
            return [self._url]
        return [self._url] + [_at_node(self._url, node.host, node.port)
                              for node in self._client.get_nodes()]

    async def create(self, game_id: str, record: GameRecord) -> None:
        state = _keys(game_id)[0]
        try:
            client = await self._redis()
            await self._create(keys=[state], args=[record.version, record.blob, record.meta,
                                                   self._ttl], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def load(self, game_id: str) -> GameRecord | None:
        state = _keys(game_id)[0]
        try:
            client = await self._redis()
            version, blob, meta = await client.hmget(state, ["version", "blob", "meta"])
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return _record(version, blob, meta)

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        state, _, replays, _ = _keys(game_id)
        try:
            client = await self._redis()
            async with client.pipeline(transaction=False) as pipe:
                pipe.hmget(state, ["version", "blob", "meta"])
                pipe.hget(replays, idempotency_key)
                (version, blob, meta), replay = await pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return _record(version, blob, meta), replay

    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        state, _, replays, _ = _keys(game_id)
        try:
            client = await self._redis()
            answer = await self._load_spending(
                keys=[state, replays, _budget_key(game_id, budget)],
                args=[budget.period_ms, budget.limit, idempotency_key or ""], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        allowance = Allowance(answer[0] == 1, *answer[1:4])
        if not allowance.allowed:
            return allowance, None, None
        version, blob, meta, replay = answer[4:]
        return allowance, _record(version, blob, meta), replay

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        record = GameRecord(expected_version + 1, commit.blob, commit.meta)
        try:
            client = await self._redis()
            done = await self._commit(client=client, keys=_keys(game_id), args=[
                expected_version, commit.blob, commit.entry, self._ttl,
                commit.idempotency_key or "", commit.response, commit.meta,
                record.packed(), channel(game_id),
                f"{expected_version + 1} {time.time():.6f}", secrets.token_hex(8)])
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return done == 1

    async def history(self, game_id: str) -> list[bytes]:
        try:
            return await (await self._redis()).lrange(_keys(game_id)[1], 0, -1)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def changes_since(self, game_id: str, version: int) -> list[Change]:
        _, entries_key, _, records_key = _keys(game_id)
        try:  # one script: both lists read at the same length
            client = await self._redis()
            entries, records = await self._changes(keys=[entries_key, records_key],
                                                   args=[version], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [Change(entry, GameRecord.unpacked(record))
                for entry, record in zip(entries, records)]

    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]:
        try:
            client = await self._redis()
            async with client.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    pipe.hmget(_keys(game_id)[0], ["version", "blob", "meta"])
                rows = await pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [_record(*row) for row in rows]

    async def index_add(self, index: str, member: str, score: float) -> None:
        await self._call("zadd", index, {member: score})

    async def index_remove(self, index: str, member: str) -> bool:
        return await self._call("zrem", index, member) == 1

    async def index_due(self, indexes: list[str], upto: float,
                        count: int) -> list[tuple[str, str, float]]:
        try:
            client = await self._redis()
            async with client.pipeline(transaction=False) as pipe:
                for index in indexes:
                    pipe.zrangebyscore(index, "-inf", upto, start=0, num=count, withscores=True)
                rows = await pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [(index, member.decode(), score)
                for index, row in zip(indexes, rows) for member, score in row]

    async def index_page(self, index: str, below: float | None,
                         count: int) -> list[tuple[str, float]]:
        rows = await self._call("zrevrangebyscore", index,
                                "+inf" if below is None else below, "-inf",
                                start=0, num=count, withscores=True)
        return [(member.decode(), score) for member, score in rows]

    async def spend(self, key: str, period_ms: int, limit: int) -> Allowance:
        try:
            client = await self._redis()
            allowed, remaining, retry, reset = await self._spend(
                keys=[key], args=[period_ms, limit], client=client)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return Allowance(allowed == 1, remaining, retry, reset)

    async def _call(self, command: str, *args, **kwargs):
        """The client's command of that name; StoreUnavailable if Redis fails."""
        try:
            return await getattr(await self._redis(), command)(*args, **kwargs)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    def on_commit(self, listener: Listener) -> None:
        self._notices.listener = listener

    async def watch(self, game_id: str) -> None:
        await self._notices.watch(game_id)

    async def unwatch(self, game_id: str) -> None:
        await self._notices.unwatch(game_id)

    async def ping(self) -> None:
        try:
            await (await self._redis()).ping()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    async def close(self) -> None:
        await self._notices.close()
        if isinstance(self._client, RedisCluster):
            await self._client.aclose()
        elif self._client is not None:
            await self._client.aclose(close_connection_pool=True)


class Notices:
    """This process's one pub/sub connection: commits of the games its streams watch.

    Pub/sub may drop messages while the connection is down; the log does not, so after
    every (re)connection each watched game gets a notice of version -1 and its streams
    re-read the log from where they are. A connection that fails moves on to the next of
    the nodes `urls()` names (in a cluster: any node, when the first one is down).
    """

    HEARTBEAT = "crab:replicas"  # always subscribed, so the connection always exists

    def __init__(self, urls: Callable[[], list[str]]) -> None:
        self._urls = urls
        self.listener: Listener | None = None
        self._watched: set[str] = set()
        self._pubsub: redis.client.PubSub | None = None
        self._task: asyncio.Task | None = None

    async def watch(self, game_id: str) -> None:
        self._watched.add(game_id)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._pubsub is not None:
            await self._subscribe(self._pubsub, [channel(game_id)])

    async def unwatch(self, game_id: str) -> None:
        self._watched.discard(game_id)
        if self._pubsub is not None:
            try:
                await self._pubsub.unsubscribe(channel(game_id))
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
                subscribed = set(self._watched)
                await pubsub.subscribe(self.HEARTBEAT, *[channel(game) for game in subscribed])
                self._pubsub, pause = pubsub, 0.05
                await self._catch_up(pubsub, subscribed)
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

    async def _catch_up(self, pubsub: redis.client.PubSub, subscribed: set[str]) -> None:
        """Games watched or unwatched while the connection opened: from now on watch()
        and unwatch() (un)subscribe by themselves."""
        if late := self._watched - subscribed:
            await pubsub.subscribe(*[channel(game) for game in late])
        if gone := subscribed - self._watched:
            await pubsub.unsubscribe(*[channel(game) for game in gone])

    def _tell_all_to_reread(self) -> None:
        if self.listener is not None:
            for game_id in list(self._watched):
                self.listener(game_id, -1, time.time())

    def _deliver(self, message: dict) -> None:
        name = message["channel"].decode()
        if self.listener is None or not name.startswith("game:{"):
            return
        version, _, committed = message["data"].decode().partition(" ")
        self.listener(name[6:name.index("}")], int(version), float(committed))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


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


def open_store(redis_url: str | None, ttl: int) -> Store:
    return RedisStore(redis_url, ttl) if redis_url else MemoryStore(ttl)
