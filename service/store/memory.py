"""Games in this process's memory: for one process, tests and a laptop."""

import time
from dataclasses import dataclass, field

from service.store import keys
from service.store.gcra import gcra
from service.store.protocol import Listener
from service.store.records import (Allowance, Change, Commit, FinishedGame, GameRecord,
                                   RateBudget)

FORGET_EVERY = 1024           # creations between sweeps of idle games nobody asks for
MAX_BUDGETS = 100_000         # rate-limit keys kept before those whole again are forgotten


@dataclass
class MemoryGame:
    """One game as the memory store keeps it (the Redis store's keys of keys.py)."""
    expires: float                        # time.monotonic() after which it is gone
    record: GameRecord
    initial: bytes                        # the state it began in
    log: list[bytes] = field(default_factory=list)
    replays: dict[str, bytes] = field(default_factory=dict)   # idempotency key -> response
    records: list[GameRecord] = field(default_factory=list)   # each version's record


class MemoryStore:
    """No await happens inside a method between reading and writing, so on one event
    loop each method is atomic, as the Redis scripts are."""

    def __init__(self, ttl: int) -> None:
        self._ttl = ttl
        self._games: dict[str, MemoryGame] = {}
        self._creates = 0
        self._listener: Listener | None = None
        self._indexes: dict[str, dict[str, float]] = {}
        self._budgets: dict[str, float] = {}  # rate-limit key -> theoretical arrival time

    def _live(self, game_id: str) -> MemoryGame | None:
        game = self._games.get(game_id)
        if game is not None and game.expires < time.monotonic():
            del self._games[game_id]
            return None
        return game

    async def create(self, game_id: str, record: GameRecord) -> None:
        self._creates += 1
        if self._creates % FORGET_EVERY == 0:
            now = time.monotonic()
            for stale in [g for g, game in self._games.items() if game.expires < now]:
                del self._games[stale]
        self._games[game_id] = MemoryGame(time.monotonic() + self._ttl, record, record.blob)

    async def load(self, game_id: str) -> GameRecord | None:
        game = self._live(game_id)
        return None if game is None else game.record

    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        game = self._live(game_id)
        return (None, None) if game is None else (game.record, game.replays.get(idempotency_key))

    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        allowance = await self.spend(keys.seat_budget(game_id, budget.name), budget.period_ms,
                                     budget.limit)
        game = self._live(game_id) if allowance.allowed else None
        if game is None:
            return allowance, None, None
        replay = None if idempotency_key is None else game.replays.get(idempotency_key)
        return allowance, game.record, replay

    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        game = self._live(game_id)
        if game is None or game.record.version != expected_version:
            return False
        game.log.append(commit.entry)
        if commit.idempotency_key is not None:
            game.replays[commit.idempotency_key] = commit.response
        game.record = GameRecord(expected_version + 1, commit.blob, commit.meta)
        game.records.append(game.record)
        game.expires = float("inf") if commit.keep else time.monotonic() + self._ttl
        if self._listener is not None:
            self._listener(game_id, game.record.version, time.time())
        return True

    async def history(self, game_id: str) -> list[bytes]:
        game = self._live(game_id)
        return [] if game is None else list(game.log)

    async def changes_since(self, game_id: str, version: int) -> list[Change]:
        game = self._live(game_id)
        if game is None:
            return []
        return [Change(entry, record) for entry, record
                in zip(game.log[version:], game.records[version:])]

    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]:
        return [await self.load(game_id) for game_id in game_ids]

    async def finished(self, game_ids: list[str]) -> list[FinishedGame | None]:
        return [None if (game := self._live(game_id)) is None
                else FinishedGame(game.record, game.initial, list(game.log))
                for game_id in game_ids]

    async def release(self, game_ids: list[str], ttl: int) -> None:
        for game_id in game_ids:
            if (game := self._live(game_id)) is not None:
                game.expires = time.monotonic() + ttl

    async def index_lease(self, index: str, upto: float, until: float,
                          count: int) -> list[tuple[str, float]]:
        members = self._indexes.get(index, {})
        due = sorted((score, member) for member, score in members.items() if score <= upto)
        for _, member in due[:count]:
            members[member] = until
        return [(member, score) for score, member in due[:count]]

    async def index_remove_many(self, index: str, members: list[str]) -> None:
        for member in members:
            self._indexes.get(index, {}).pop(member, None)

    async def index_size(self, indexes: list[str]) -> int:
        return sum(len(self._indexes.get(index, {})) for index in indexes)

    async def index_add(self, index: str, member: str, score: float,
                        earliest: bool = False) -> None:
        members = self._indexes.setdefault(index, {})
        members[member] = min(score, members.get(member, score)) if earliest else score

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
        if len(self._budgets) > MAX_BUDGETS:
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
