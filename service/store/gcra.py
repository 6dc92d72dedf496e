"""The generic cell rate algorithm, as the memory store runs it.

The Redis store runs the same algorithm in Lua on Redis' own clock (scripts/gcra.lua), so
that every replica counts alike; tests/service/test_store.py plays one sequence of
requests through both and checks that they answer alike.
"""

from service.store.records import Allowance


def gcra(tat: float, now: float, period_ms: int, limit: int) -> tuple[Allowance, float]:
    """limit requests per period_ms, at most limit in a burst. tat is the key's theoretical
    arrival time (now if new); returns the answer and the key's new tat."""
    interval = period_ms / limit
    tolerance = period_ms - interval
    tat = max(tat, now)
    if tat - now > tolerance:
        return Allowance(False, 0, int(tat - now - tolerance) + 1, int(tat - now)), tat
    tat += interval
    return Allowance(True, int((tolerance - (tat - now)) // interval) + 1, 0, int(tat - now)), tat
