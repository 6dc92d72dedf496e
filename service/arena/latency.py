"""How long each seat thought over each of its moves, read from a finished game's log.

A seat's turn begins when it comes to move, or moves and must move again, as the turn
clock counts it (service.games.meta.Meta.with_deadlines); its move's latency is the time from
there to the move's entry. The core tells who is to move at each version, from the state
the game began in and the logged moves; nothing is timed on the move's path.
"""

from datetime import datetime
from typing import Any

import core


def _instant(at: str) -> float:
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


def move_times(initial: bytes, entries: list[dict[str, Any]], created: float
               ) -> list[tuple[int, float, bool]]:
    """(seat, milliseconds, played by the clock on timeout) for every move of the log."""
    state = core.from_bytes(initial)
    turn_began = {seat: created for seat in state.to_move}
    found: list[tuple[int, float, bool]] = []
    for entry in entries:
        if "move" not in entry or entry.get("at") is None:
            continue
        at, seat = _instant(entry["at"]), entry["seat"]
        found.append((seat, max(0.0, (at - turn_began.get(seat, at)) * 1000),
                      entry.get("kind") == "timeout"))
        before = set(state.to_move)
        state.apply(seat, entry["move"])
        for waiting in state.to_move:
            if waiting == seat or waiting not in before:
                turn_began[waiting] = at
    return found


def summary(milliseconds: list[float], timeouts: int) -> dict[str, Any]:
    """A contestant's moves' latencies: how many, the mean and quantiles, the slowest."""
    ordered = sorted(milliseconds)

    def quantile(q: float) -> float | None:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else None

    return {"moves": len(ordered), "timeouts": timeouts,
            "mean_ms": round(sum(ordered) / len(ordered), 1) if ordered else None,
            "p50_ms": quantile(0.5), "p90_ms": quantile(0.9), "p99_ms": quantile(0.99),
            "max_ms": round(ordered[-1], 1) if ordered else None}
