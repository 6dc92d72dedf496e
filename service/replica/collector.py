"""When the garbage collector walks what: long-lived objects are frozen out of its way.

A full (generation 2) collection walks every container object the process holds. With
thousands of open event streams that is mostly the streams' own objects (about 70 a
stream: the server's connection and parser, the ASGI call's coroutines, the follower),
which live as long as their clients stay and, when a stream closes, are freed by
reference counting alone: closing 1,000 streams left nothing for the collector to find
(docs/benchmarks.md). Walking them again and again found nothing and cost 16 ms a full
collection at 1,000 streams, 60 ms at 2,500, 300 to 750 ms at 5,000 to 10,000 (issue 24),
paid by every event in flight at that moment.

So every second this moves everything that survived the young collections into the
permanent generation (`gc.freeze()`, a constant-time list splice), after a young
collection has taken what was already garbage, and resets the oldest generation's
bookkeeping with a collection of the then empty generation 2. A full collection then
walks only what became long-lived within the last second.

What freezing costs: a reference cycle formed among frozen objects after they were
frozen is not collected while they stay frozen. Measured: 20 s of 100 moves/s on 1,000
streams, then the 1,000 streams closed, left 30 unreachable objects in all, none of them
a stream's (`POST /debug/gc/collect?unfreeze=true&types=N`: closures and dicts of a few
error answers). So everything is unfrozen and collected once (a compaction) only when
the frozen objects have grown by a quarter since the last compaction (CPython's own rule
for its full collections, applied to what is frozen) and `COMPACT_SECONDS` have passed
since. A compaction takes as long as a full collection of the whole heap used to (14 ms
at 1,000 idle streams, 451 ms at 10,000); with as many streams open as an hour before,
none runs, and what leaked stays bounded by that quarter.
"""

import asyncio
import gc
import logging
import time

log = logging.getLogger("service.replica.collector")

FREEZE_SECONDS = 1.0
COMPACT_SECONDS = 3600.0


class Collector:
    def __init__(self, freeze_seconds: float = FREEZE_SECONDS,
                 compact_seconds: float = COMPACT_SECONDS) -> None:
        self.freeze_seconds = freeze_seconds
        self.compact_seconds = compact_seconds
        self._timer: asyncio.TimerHandle | None = None
        self._compacted = time.monotonic()
        self._compacted_frozen = 0  # frozen objects after the last compaction

    def start(self) -> None:
        """At start-up: what the app built lives as long as the process."""
        gc.collect()
        gc.freeze()
        self._compacted, self._compacted_frozen = time.monotonic(), gc.get_freeze_count()
        self._timer = asyncio.get_running_loop().call_later(self.freeze_seconds, self._run)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def due(self) -> bool:
        """Whether a compaction is due: the frozen objects grew by a quarter since the
        last one, and that was compact_seconds ago or more."""
        return (time.monotonic() - self._compacted >= self.compact_seconds
                and gc.get_freeze_count() > self._compacted_frozen * 1.25)

    def _run(self) -> None:
        if self.due():
            self.compact()
        else:
            self.freeze()
        self._timer = asyncio.get_running_loop().call_later(self.freeze_seconds, self._run)

    @staticmethod
    def freeze() -> None:
        gc.collect(1)   # young garbage first: it must not be frozen
        gc.freeze()
        gc.collect(2)   # generation 2 is empty now: this only resets its counters

    def compact(self) -> int:
        """Everything unfrozen and collected once, then frozen again; what was found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self._compacted, self._compacted_frozen = time.monotonic(), gc.get_freeze_count()
        log.info("garbage collector: compacted in %.0f ms, %d unreachable objects found",
                 (time.perf_counter() - started) * 1000, found)
        return found
