"""The index of running turn clocks: which game is due when, shared by every replica.

Deadlines are kept in sorted sets split into buckets (service/store/keys.py: a game's
bucket from a hash of its id), each its own Redis Cluster slot, so no command spans two
slots. A member is "<game id> <version>": the version at which the deadline
was set, so an entry left behind by a seat that moved in time is recognised as stale.

Every replica's clock sleeps until the earliest deadline (`next_due`); arming one earlier
than that rings the clocks' bell, here and on every replica (service.replica.wakeups).
"""

import math

from service.replica.wakeups import Bell
from typing import Protocol

from service.store import Bells, Indexes, keys


class DeadlineStore(Indexes, Bells, Protocol):
    """What the deadlines keep in the store: their index, and their bell."""


class Deadlines:
    def __init__(self, store: DeadlineStore) -> None:
        self.store = store
        self.bell = Bell(store, "clocks")

    async def arm(self, game_id: str, version: int, deadline: float) -> None:
        # Concurrent commits of one version (a simultaneous phase) each arm before they
        # commit, and their deadlines may differ: the earliest stays, so the clock never
        # fires late (one that fires early arms the game's real deadline: Clocks.expire).
        await self.store.index_add(keys.clock_bucket(game_id), f"{game_id} {version}",
                                   deadline, earliest=True)
        await self.bell.ring_before(deadline)

    async def next_due(self) -> float:
        """The earliest deadline armed (epoch seconds; infinity if none)."""
        first = await self.store.index_due(list(keys.CLOCK_BUCKETS), math.inf, 1)
        return min((score for _, _, score in first), default=math.inf)

    async def due(self, now: float, per_bucket: int = 32) -> list[tuple[str, str, int]]:
        """Entries due by now: (bucket, game id, version), earliest first per bucket."""
        found = []
        for index, member, _ in await self.store.index_due(list(keys.CLOCK_BUCKETS), now,
                                                           per_bucket):
            game_id, _, version = member.partition(" ")
            found.append((index, game_id, int(version)))
        return found

    async def claim(self, index: str, game_id: str, version: int) -> bool:
        """True for exactly one of the replicas that claim one entry."""
        return await self.store.index_remove(index, f"{game_id} {version}")
