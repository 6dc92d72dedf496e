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
import weakref

from service.store import Bells, StoreUnavailable

LONGEST_SECONDS = 30.0  # the longest a loop sleeps: how late work is if its rings were lost


class Bell:
    """Wakes one kind of background work (topic) on every replica. Several loops of one
    replica may sleep on one bell (the archive's two writer passes): each sees every ring,
    also one that came while it worked, whichever of them woke first."""

    def __init__(self, store: Bells, topic: str) -> None:
        self.store = store
        self.topic = topic
        self._rings = 0  # rung so far on this replica (here, or through the store)
        # How many rings each loop had seen when it last woke: a ring after that is work
        # it has not looked at yet, so its next sleep ends at once.
        self._seen: weakref.WeakKeyDictionary[asyncio.Task, int] = weakref.WeakKeyDictionary()
        self._sleeping: dict[asyncio.Event, float] = {}  # each sleeper's wake-up: its due time
        self._listening = False

    @property
    def wakes_at(self) -> float:
        """The earliest due time a loop of this replica sleeps until (epoch seconds;
        infinity while none sleeps: one that works may have read its index already):
        work due earlier rings (ring_before). Not capped by `longest`: every replica that
        read the index knows the same earliest due time (or was rung since)."""
        return min(self._sleeping.values(), default=math.inf)

    def ring_here(self) -> None:
        self._rings += 1
        for woken in self._sleeping:
            woken.set()

    async def ring(self) -> None:
        """Wakes the loop here and on every replica. The work was stored before: a ring
        the store could not send leaves it to each replica's `longest` (never an error
        for the commit or request that rang)."""
        self.ring_here()
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
        """Sleeps until due (epoch seconds), `longest` seconds at most, or a ring; at once
        if this loop was rung since it last woke."""
        if not self._listening:
            self.store.on_ring(self.topic, self.ring_here)
            self._listening = True
        task = asyncio.current_task()
        assert task is not None  # a loop is a task
        if self._seen.get(task, 0) != self._rings:
            self._seen[task] = self._rings
            return
        woken = asyncio.Event()
        self._sleeping[woken] = due
        try:
            await asyncio.wait_for(woken.wait(), min(max(0.0, due - time.time()), longest))
        except TimeoutError:
            pass
        finally:
            del self._sleeping[woken]
            self._seen[task] = self._rings  # what rings from now on is after this wake
