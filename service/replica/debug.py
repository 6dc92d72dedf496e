"""DEBUG_GC=1: what the garbage collector does in this worker, for tests and benchmarks.

Off by default, and then nothing here runs. On, a `gc.callbacks` hook times every
collection, and `GET /debug/gc` (not in the OpenAPI document) answers with the recent
collections, the collector's counters and how many objects it tracks; `?types=N` adds
the N commonest types among them, frozen ones included (slow: it walks every object); `POST /debug/gc/collect`
collects in full now (`?unfreeze=true`: frozen objects too) and says what it found
(`?types=N`: of which types). Measured in the server
process itself, so a test sees the pauses its requests really paid for.
"""

import gc
import sys
import time
from collections import Counter, deque
from typing import Any

from litestar import get, post

KEPT = 10_000  # collections remembered


class GcLog:
    def __init__(self) -> None:
        self.collections: deque[tuple[float, int, float, int]] = deque(maxlen=KEPT)
        self._started = 0.0

    def install(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            now = time.perf_counter()
            self.collections.append((time.time(), info["generation"], now - self._started,
                                     info["collected"]))

    def report(self, since: float, types: int) -> dict[str, Any]:
        rows = [{"at": at, "generation": generation, "ms": seconds * 1000,
                 "collected": collected}
                for at, generation, seconds, collected in list(self.collections)  # a copy:
                if at >= since]  # collections (hence appends) happen while this allocates
        body: dict[str, Any] = {
            "now": time.time(), "collections": rows, "count": gc.get_count(),
            "threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(),
            "tracked": [len(gc.get_objects(generation)) for generation in range(3)],
            "blocks": sys.getallocatedblocks()}
        if types:
            frozen = gc.get_freeze_count()
            gc.unfreeze()  # frozen objects are counted too, then frozen again
            counted = Counter(_kind(thing) for thing in gc.get_objects())
            if frozen:
                gc.freeze()
            body["types"] = counted.most_common(types)
        return body


def _kind(thing: object) -> str:
    """The object's type; for a coroutine, cell or bound method also what it belongs to."""
    kind = type(thing).__qualname__
    if kind == "coroutine":
        return f"coroutine {thing.__qualname__}"
    if kind == "method":
        return f"method {getattr(thing, '__qualname__', '?')}"
    return kind


LOG = GcLog()


@get("/debug/gc", include_in_schema=False, sync_to_thread=False)
def gc_report(since: float = 0.0, types: int = 0) -> dict[str, Any]:
    """The collections since `since` (a Unix time) and the collector's state."""
    return LOG.report(since, types)


@post("/debug/gc/collect", include_in_schema=False, sync_to_thread=False, status_code=200)
def gc_collect(unfreeze: bool = False, types: int = 0) -> dict[str, Any]:
    """A full collection now (after unfreezing every frozen object, if asked): what it
    found unreachable and how long it took, and with types=N the N commonest types of
    what it found (what formed the cycles). Frozen objects stay frozen unless asked."""
    frozen = gc.get_freeze_count()
    if unfreeze:
        gc.unfreeze()
    if types:
        gc.set_debug(gc.DEBUG_SAVEALL)  # what it finds is kept in gc.garbage to be counted
    started = time.perf_counter()
    collected = gc.collect()
    body: dict[str, Any] = {"collected": collected, "ms": (time.perf_counter() - started) * 1000,
                            "frozen_before": frozen}
    if types:
        gc.set_debug(0)
        body["types"] = Counter(_kind(thing) for thing in gc.garbage).most_common(types)
        gc.garbage.clear()
        gc.collect()  # now freed for real
    return body


ROUTES = (gc_report, gc_collect)
