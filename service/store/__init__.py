"""Where game sessions live: a Redis store for production, an in-process one for a laptop.

Both keep, per game, a record (version, core blob, metadata), the state it began in, the
log of changes (packed: `entries`), each version's undo of its metadata, and idempotency
records, and pass the same contract tests (tests/service/test_store.py). An older
version's record is rebuilt when an event stream asks for it (`versions`: the core plays
the log again), so that a game's whole footprint is a few KiB (docs/benchmarks.md,
"Redis per game"). A change is
committed by one atomic compare-and-set on the version, which also notifies every replica
watching the game (Redis pub/sub; in process for the memory store).

One module per concern: `records` (what is kept), `protocol` (the contract), `keys` (every
Redis key the service uses), `scripts/` (the Lua), `entries` (a log entry's packing),
`segments` (older entries and undos sealed together in Redis), `versions` (older
versions rebuilt), `gcra` (rate budgets), `memory`, `redis_store` and
`notices` (the Redis store's pub/sub).
"""

from service.store.memory import MemoryStore
from service.store.protocol import (Attendance, Bells, Budgets, Documents, GameRecords, Indexes, Listener,
                                    ShoutListener,
                                    Notices, PlayerEventStreams, Queues, Store,
                                    StoreUnavailable)
from service.store.records import (Allowance, Change, Commit, FinishedGame, GameRecord,
                                   MatchRule, RateBudget)
from service.store.redis_store import RedisStore

__all__ = ["Allowance", "Attendance", "Bells", "Budgets", "Change", "Commit", "Documents", "FinishedGame",
           "GameRecord", "GameRecords", "Indexes", "Listener", "MatchRule", "MemoryStore",
           "Notices", "PlayerEventStreams", "Queues", "RateBudget", "RedisStore", "ShoutListener", "Store",
           "StoreUnavailable", "open_store"]


def open_store(redis_url: str | None, ttl: int) -> Store:
    return RedisStore(redis_url, ttl) if redis_url else MemoryStore(ttl)
