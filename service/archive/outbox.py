"""The archive's outbox: finished games on their way to the database, shared by every replica.

An entry is written *before* the commit that ends a game (service.games.sessions): written after
it, a replica that died in between would leave a finished game that nothing finds again.
So an entry may also stand for a commit that failed; the writer recognises those by the
game's version. Entries are kept in buckets (service/store/keys.py), each its own Redis
Cluster slot, and are leased, not removed, while a replica archives them: one that dies
mid-way leaves them to be leased again when the lease ends, so a game may be written
twice (the database keeps the first) but never lost.

A member is "<game id> <version> <ended ms>": the version the ending commit makes, and
when the game ended, which a lease does not change (the score does); while tracing is on,
" <traceparent>" of the move that ended it follows (service.replica.tracing).
"""

import asyncio
import math
from dataclasses import dataclass
from typing import Protocol

from service.replica import tracing
from service.replica.wakeups import Bell
from service.store import Bells, Indexes, keys

LEASE_SECONDS = 10.0   # a writer holds its entries this long before others may retry


@dataclass(frozen=True)
class Entry:
    bucket: str
    member: str
    game_id: str
    version: int
    ended_ms: int
    origin: str = ""  # the traceparent of the move that ended the game, while traced

    @staticmethod
    def parsed(bucket: str, member: str) -> "Entry":
        # (Fields after these are a later release's: ignored.)
        game_id, version, ended_ms, *more = member.split(" ")
        return Entry(bucket, member, game_id, int(version), int(ended_ms),
                     more[0] if more else "")


class OutboxStore(Indexes, Bells, Protocol):
    """What the outbox keeps in the store: its index, and the writer's bell."""


class Outbox:
    def __init__(self, store: OutboxStore) -> None:
        self.store = store
        self.bell = Bell(store, "archive")  # the writer's, on every replica

    async def ended(self) -> None:
        """A game's ending commit landed: its entry is due, wherever a writer waits."""
        await self.bell.ring()

    async def intend(self, game_id: str, version: int, now: float) -> None:
        """The commit about to be made ends game_id at version (in the current span,
        which the game's archive record continues while tracing is on)."""
        member = f"{game_id} {version} {int(now * 1000)}"
        if origin := tracing.origin():
            member = f"{member} {origin}"
        await self.store.index_add(keys.archive_bucket(game_id), member, now)

    async def lease(self, now: float, per_bucket: int) -> list[Entry]:
        """Entries due now, each leased to this caller for LEASE_SECONDS."""
        leased = await asyncio.gather(*(
            self.store.index_lease(bucket, now, now + LEASE_SECONDS, per_bucket)
            for bucket in keys.ARCHIVE_BUCKETS))
        return [Entry.parsed(bucket, member)
                for bucket, members in zip(keys.ARCHIVE_BUCKETS, leased)
                for member, _ in members]

    async def done(self, entries: list[Entry]) -> None:
        by_bucket: dict[str, list[str]] = {}
        for entry in entries:
            by_bucket.setdefault(entry.bucket, []).append(entry.member)
        await asyncio.gather(*(self.store.index_remove_many(bucket, members)
                               for bucket, members in by_bucket.items()))

    async def next_due(self) -> float:
        """When the outbox's next entry is due (epoch seconds; infinity if it is empty):
        one leased by a replica that died is due when its lease lapses."""
        first = await self.store.index_due(list(keys.ARCHIVE_BUCKETS), math.inf, 1)
        return min((score for _, _, score in first), default=math.inf)

    async def depth(self) -> int:
        """Finished games not archived yet."""
        return await self.store.index_size(list(keys.ARCHIVE_BUCKETS))

    async def oldest_ended(self) -> float | None:
        """When the longest-waiting game of the outbox ended (epoch seconds), or None.

        Read from the few lowest-scored members of each bucket: entries whose lease ran
        out sit there, newer ones after them."""
        first = await self.store.index_due(list(keys.ARCHIVE_BUCKETS), math.inf, 8)
        ended = [Entry.parsed(bucket, member).ended_ms for bucket, member, _ in first]
        return min(ended) / 1000 if ended else None
