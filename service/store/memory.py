"""Games in this process's memory: for one process, tests and a laptop."""

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from service.replica import tracing
from service.store import entries, keys, versions
from service.store.gcra import gcra
from service.store.protocol import Listener, ShoutListener
from service.store.records import (Allowance, Change, Commit, FinishedGame, GameRecord,
                                   MatchRule, RateBudget)

FORGET_EVERY = 1024           # creations between sweeps of idle games nobody asks for
MAX_BUDGETS = 100_000         # rate-limit keys kept before those whole again are forgotten


@dataclass
class MemoryGame:
    """One game as the memory store keeps it (the Redis store's keys of keys.py, but the
    records of the layout before undos, which no game in a process can have)."""
    expires: float                        # time.monotonic() after which it is gone
    record: GameRecord
    initial: bytes                        # the state it began in
    log: list[bytes] = field(default_factory=list)            # packed (entries.py)
    replays: dict[str, bytes] = field(default_factory=dict)   # idempotency key -> response
    undos: list[bytes] = field(default_factory=list)          # each version's (versions.py)


class MemoryStore:
    """No await happens inside a method between reading and writing, so on one event
    loop each method is atomic, as the Redis scripts are."""

    def __init__(self, ttl: int) -> None:
        self._ttl = ttl
        self._games: dict[str, MemoryGame] = {}
        self._creates = 0
        self._listener: Listener | None = None
        self._shout_listener: ShoutListener | None = None
        self._rings: dict[str, list[Callable[[], None]]] = {}
        self._indexes: dict[str, dict[str, float]] = {}
        self._budgets: dict[str, float] = {}  # rate-limit key -> theoretical arrival time
        self._queues: dict[str, MemoryQueue] = {}
        self._player_events: dict[str, MemoryPlayerEvents] = {}
        self._docs: dict[str, tuple[float, bytes]] = {}  # key -> (expires, document)

    def _live(self, game_id: str) -> MemoryGame | None:
        game = self._games.get(game_id)
        if game is not None and game.expires < time.monotonic():
            del self._games[game_id]
            return None
        return game

    async def create(self, game_id: str, record: GameRecord) -> bool:
        if self._live(game_id) is not None:
            return False
        self._creates += 1
        if self._creates % FORGET_EVERY == 0:
            now = time.monotonic()
            for stale in [g for g, game in self._games.items() if game.expires < now]:
                del self._games[stale]
        self._games[game_id] = MemoryGame(time.monotonic() + self._ttl, record, record.blob)
        return True

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
        game.log.append(entries.pack(commit.entry))
        game.undos.append(versions.undo(game.record.meta, commit.meta))
        if commit.idempotency_key is not None:
            game.replays[commit.idempotency_key] = commit.response
        game.record = GameRecord(expected_version + 1, commit.blob, commit.meta)
        game.expires = float("inf") if commit.keep else time.monotonic() + self._ttl
        if self._listener is not None:
            self._listener(game_id, game.record.version, time.time(), tracing.origin())
        return True

    async def history(self, game_id: str) -> list[bytes]:
        game = self._live(game_id)
        return [] if game is None else [entries.unpack(entry) for entry in game.log]

    async def changes_since(self, game_id: str, version: int) -> list[Change] | None:
        game = self._live(game_id)
        if game is None:
            return None
        if version >= game.record.version:
            return []
        log_from = versions.window(version, game.record.version, 0)
        return versions.rebuilt(version, game.record, game.initial, log_from,
                                [entries.unpack(entry) for entry in game.log[log_from:]],
                                game.undos, [])

    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]:
        return [await self.load(game_id) for game_id in game_ids]

    async def finished(self, game_ids: list[str]) -> list[FinishedGame | None]:
        return [None if (game := self._live(game_id)) is None
                else FinishedGame(game.record, game.initial,
                                  [entries.unpack(entry) for entry in game.log])
                for game_id in game_ids]

    def _queue(self, queue: keys.QueueKeys) -> "MemoryQueue":
        return self._queues.setdefault(queue.tickets, MemoryQueue())

    async def queue_put(self, queue: keys.QueueKeys, ticket_id: str, ticket: bytes,
                        rating: float, since: float) -> None:
        found = self._queue(queue)
        found.tickets[ticket_id] = json.loads(ticket)
        found.waiting[ticket_id] = (rating, since)

    async def queue_get(self, queue: keys.QueueKeys, ticket_id: str) -> bytes | None:
        ticket = self._queue(queue).tickets.get(ticket_id)
        return None if ticket is None else json.dumps(ticket).encode()

    async def queue_cancel(self, queue: keys.QueueKeys, ticket_id: str,
                           now: float) -> bytes | None:
        found = self._queue(queue)
        if ticket_id in found.waiting:
            found.leave(ticket_id, "cancelled", now)
        return await self.queue_get(queue, ticket_id)

    async def queue_match(self, queue: keys.QueueKeys, now: float, rule: MatchRule,
                          game_id: str, tokens: list[str]) -> list[bytes]:
        return [json.dumps(ticket).encode()
                for ticket in self._queue(queue).match(now, rule, game_id, tokens)]

    async def queue_seated(self, queue: keys.QueueKeys, game_id: str, now: float,
                           tickets: dict[str, bytes]) -> None:
        found = self._queue(queue)
        for ticket_id, ticket in tickets.items():
            found.tickets[ticket_id] = json.loads(ticket)
            found.done[ticket_id] = now
        found.seating.pop(game_id, None)

    async def queue_busy(self, queues: list[keys.QueueKeys]) -> bool:
        return any(found.waiting or found.seating for queue in queues
                   if (found := self._queues.get(queue.tickets)) is not None)

    async def queue_stuck(self, queue: keys.QueueKeys, before: float,
                          until: float) -> list[tuple[str, bytes]]:
        found = self._queue(queue)
        stuck = [game_id for game_id, (claimed, _) in found.seating.items() if claimed <= before]
        for game_id in stuck[:16]:
            found.seating[game_id] = (until, found.seating[game_id][1])
        return [(game_id, json.dumps(found.seating[game_id][1]).encode()) for game_id in stuck[:16]]

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

    async def player_events_push(self, stream: keys.PlayerEventKeys, once: str | None, event: bytes,
                                 keep: int, ttl: int) -> str | None:
        box = self._player_events.setdefault(stream.events, MemoryPlayerEvents())
        if once is not None:
            if once in box.once:
                return None
            box.once.add(once)
        box.pushed += 1
        event_id = f"{box.pushed}-0"
        box.events = box.events[-(keep - 1):] + [(box.pushed, event_id, event)]
        box.arrived.set()
        box.arrived = asyncio.Event()
        return event_id

    async def player_events_read(self, stream: keys.PlayerEventKeys, after: str | None,
                                 wait_ms: int) -> list[tuple[str, bytes]]:
        box = self._player_events.setdefault(stream.events, MemoryPlayerEvents())
        since = 0 if after is None else int(after.partition("-")[0])
        if box.pushed <= since and wait_ms > 0:
            try:
                await asyncio.wait_for(box.arrived.wait(), wait_ms / 1000)
            except TimeoutError:
                return []
        return [(event_id, event) for number, event_id, event in box.events if number > since]

    async def doc_get(self, key: str) -> bytes | None:
        found = self._docs.get(key)
        if found is None or found[0] < time.monotonic():
            self._docs.pop(key, None)
            return None
        return found[1]

    async def doc_swap(self, key: str, old: bytes | None, new: bytes, ttl: int) -> bool:
        if await self.doc_get(key) != old:
            return False
        self._docs[key] = (time.monotonic() + ttl, new)
        return True

    async def attendance_mark(self, key: str, member: str | None, until: float, now: float,
                              ttl: int) -> list[str]:
        table = self._indexes.setdefault(key, {})  # a key of its own, as in Redis
        if member is not None:
            if until > now:
                table[member] = until
            else:
                table.pop(member, None)
        for lapsed in [found for found, ends in table.items() if ends <= now]:
            del table[lapsed]
        if not table:
            del self._indexes[key]
        return sorted(table)

    async def attendance_many(self, keys: list[str], now: float) -> list[list[str]]:
        return [sorted(member for member, ends in self._indexes.get(key, {}).items() if ends > now)
                for key in keys]

    def on_commit(self, listener: Listener) -> None:
        self._listener = listener  # every commit is in this process: nothing to watch

    async def shout(self, game_id: str, message: bytes) -> None:
        if self._shout_listener is not None:
            self._shout_listener(game_id, message)

    def on_shout(self, listener: ShoutListener) -> None:
        self._shout_listener = listener

    async def watch(self, game_id: str) -> None:
        return None

    async def ring(self, topic: str) -> None:
        for listener in self._rings.get(topic, ()):  # every replica is this process
            listener()

    def on_ring(self, topic: str, listener: Callable[[], None]) -> None:
        self._rings.setdefault(topic, []).append(listener)

    async def unwatch(self, game_id: str) -> None:
        return None

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        self._games.clear()


@dataclass
class MemoryPlayerEvents:
    """A player's events: (number, id, event) in order, the once-keys pushed, and an event
    that is set when the next event arrives."""
    events: list[tuple[int, str, bytes]] = field(default_factory=list)
    once: set[str] = field(default_factory=set)
    pushed: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class MemoryQueue:
    """A matchmaking queue, paired by the rule of scripts/match.lua (kept step for step)."""
    tickets: dict[str, dict] = field(default_factory=dict)
    waiting: dict[str, tuple[float, float]] = field(default_factory=dict)  # rating, since
    seating: dict[str, tuple[float, list[dict]]] = field(default_factory=dict)
    done: dict[str, float] = field(default_factory=dict)

    def leave(self, ticket_id: str, status: str, now: float | None = None) -> None:
        del self.waiting[ticket_id]
        self.tickets[ticket_id]["status"] = status
        if now is not None:
            self.done[ticket_id] = now

    def match(self, now: float, rule: MatchRule, game_id: str, tokens: list[str]) -> list[dict]:
        for old in [t for t, when in self.done.items() if when <= now - rule.keep][:20]:
            self.tickets.pop(old, None)
            del self.done[old]

        def window(ticket: dict) -> float:
            return rule.base + rule.widen * (now - ticket["since"])

        arrivals = sorted(self.waiting, key=lambda t: (self.waiting[t][1], t))
        for ticket_id in arrivals[:rule.anchors]:
            ticket = self.tickets[ticket_id]
            if ticket["expires"] <= now:
                self.leave(ticket_id, "expired", now)
                continue
            reach = window(ticket)
            near = sorted((rating, other) for other, (rating, _) in self.waiting.items()
                          if abs(rating - ticket["rating"]) <= reach)[:rule.look]
            others = sorted(
                (abs(self.tickets[other]["rating"] - ticket["rating"]), other)
                for _, other in near if other != ticket_id and
                self.tickets[other]["expires"] > now and
                abs(self.tickets[other]["rating"] - ticket["rating"]) <= window(self.tickets[other]))
            fill = ticket["fill_after"] >= 0 and now - ticket["since"] >= ticket["fill_after"]
            group, players = [ticket_id], {ticket["player"]}
            for _, other in others:  # nearest first, nobody twice at one table
                if len(group) < rule.size and self.tickets[other]["player"] not in players:
                    group.append(other)
                    players.add(self.tickets[other]["player"])
            if len(group) == rule.size or fill:
                seated = []
                for seat, member in enumerate(group):
                    self.tickets[member].update(game_id=game_id, seat=seat, token=tokens[seat])
                    self.leave(member, "seating")
                    seated.append(dict(self.tickets[member]))
                self.seating[game_id] = (now, seated)
                return seated
        return []
