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
frozen is not collected while they stay frozen. Measured: 40 s of 100 moves/s on 1,000
streams, then the 1,000 streams closed, left 40 unreachable objects in all. Every
`COMPACT_SECONDS` everything is unfrozen and collected once, which takes as long as a
full collection of the whole heap used to (14 ms at 1,000 idle streams, 451 ms at 10,000);
that pause is the price, paid once an hour instead of whenever the heap grew by a
quarter.
"""

import asyncio
import gc
import logging
import time

log = logging.getLogger("service.collector")

FREEZE_SECONDS = 1.0
COMPACT_SECONDS = 3600.0


class Collector:
    def __init__(self, freeze_seconds: float = FREEZE_SECONDS,
                 compact_seconds: float = COMPACT_SECONDS) -> None:
        self.freeze_seconds = freeze_seconds
        self.compact_seconds = compact_seconds
        self._timer: asyncio.TimerHandle | None = None
        self._compacted = time.monotonic()

    def start(self) -> None:
        """At start-up: what the app built lives as long as the process."""
        gc.collect()
        gc.freeze()
        self._compacted = time.monotonic()
        self._timer = asyncio.get_running_loop().call_later(self.freeze_seconds, self._run)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _run(self) -> None:
        if time.monotonic() - self._compacted >= self.compact_seconds:
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
        self._compacted = time.monotonic()
        log.info("garbage collector: compacted in %.0f ms, %d unreachable objects found",
                 (time.perf_counter() - started) * 1000, found)
        return found
