"""Loaded into the replicas that events_bench.py starts with --tracemalloc (via PYTHONPATH).

A SIGUSR1 starts tracemalloc and writes a snapshot; the next one writes a snapshot and
stops it, so the replica runs at full speed except between the two, and only allocations
made between them are traced. Snapshots go to $CRAB_SNAPSHOT_PREFIX<n>.pickle, n from 0. Not part of the service: it only
exists in processes the bench starts this way.
"""

import itertools
import os
import signal
import tracemalloc

_PREFIX = os.environ.get("CRAB_SNAPSHOT_PREFIX")
_COUNT = itertools.count()


def _snapshot(signum, frame) -> None:
    starting = not tracemalloc.is_tracing()
    if starting:
        tracemalloc.start(10)
    path = f"{_PREFIX}{next(_COUNT)}.pickle"
    tracemalloc.take_snapshot().dump(path + ".part")
    os.rename(path + ".part", path)  # the bench waits for the complete file
    if not starting:
        tracemalloc.stop()


if _PREFIX:
    signal.signal(signal.SIGUSR1, _snapshot)
