"""Background work that sleeps until it has something to do, on every replica.

An idle replica used to wake every few hundred milliseconds in each of its loops to ask
the store or the database whether anything was due: a few percent of a core for nothing
(docs/benchmarks.md, "An idle replica"). Now each loop sleeps until its next due time
(the earliest score of its index, read from the store) or until a Bell rings: rung here
by the commit, request or ingest that gave it work, and through the store (Redis pub/sub)
on every other replica, so that one replica's commit still wakes the others, and a
replica that dies mid-work is still covered by another.

A ring can be lost (pub/sub drops messages while a connection is down): the store rings
every bell again once it has reconnected, and no loop sleeps longer than its `longest`,
the bound on how late anything can be when everything else failed.
"""

import asyncio
import math
import time

from service.store import Store, StoreUnavailable

LONGEST_SECONDS = 30.0  # the longest a loop sleeps: how late work is if its rings were lost


class Bell:
    """Wakes one kind of background work (topic) on every replica."""

    def __init__(self, store: Store, topic: str) -> None:
        self.store = store
        self.topic = topic
        self._rung = asyncio.Event()
        self._listening = False
        # The due time this replica's loop sleeps until (epoch seconds; infinity while it
        # works, as it may have read its index already): work due earlier rings
        # (ring_before). Not capped by `longest`: every replica that read the index
        # knows the same earliest due time (or was rung since), whenever it read it.
        self.wakes_at = math.inf

    def ring_here(self) -> None:
        self._rung.set()

    async def ring(self) -> None:
        """Wakes the loop here and on every replica. The work was stored before: a ring
        the store could not send leaves it to each replica's `longest` (never an error
        for the commit or request that rang)."""
        self._rung.set()
        try:
            await self.store.ring(self.topic)
        except StoreUnavailable:
            pass

    async def ring_before(self, due: float) -> None:
        """Rings if work due at `due` is earlier than the due time this replica's loop
        sleeps until. Every replica read that time from the same index, or was rung
        since by whoever made it earlier: none needs the ring either."""
        if due < self.wakes_at:
            await self.ring()

    async def sleep_until(self, due: float, longest: float) -> None:
        """Sleeps until due (epoch seconds), `longest` seconds at most, or a ring."""
        if not self._listening:
            self.store.on_ring(self.topic, self._rung.set)
            self._listening = True
        timeout = min(max(0.0, due - time.time()), longest)
        self.wakes_at = due
        try:
            await asyncio.wait_for(self._rung.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            self.wakes_at = math.inf
            self._rung.clear()  # what rings from now on is after this wake: not lost
