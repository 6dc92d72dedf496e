"""A finished game's review for one seat: each of its decisions beside the AI's choice.

The game is played again from its record (service.archive.replay's log); at every decision of the
seat with more than one legal move, the AI at REVIEW_LEVEL searches the position from what
the seat knew then (its view, and the log as it saw it: core.ai.suggest's history), with a
fixed seed so a review is the same whoever computes it. Both moves' win rates are the
search's root statistics; a played move the search never tried has none, and no loss.
The WORST largest losses of at least MIN_LOSS are marked.  win_chance is the seat's
chance of winning before its move as the judge (core.ai.evaluate) saw it from the same
knowledge: the curve of the game as the seat lived it.

Nothing here knows a game's rules: the core's interface answers every question.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import core
import core.ai
from service.games.sessions import Sessions

SEED = 0           # one seed for every review: the same review on every replica
WORST = 3          # decisions marked as the worst
MIN_LOSS = 0.05    # a smaller loss is the search's noise, not a mistake


@dataclass(frozen=True)
class Decision:
    """One of the seat's decisions, as the seat faced it."""
    version: int                  # the version its move made (the position is version - 1)
    state: core.GameState         # the position before the move
    history: list[dict[str, Any]]  # the log before it, as the seat saw it then
    played: dict[str, Any]


def decisions(initial: bytes, entries: list[dict[str, Any]], seat: int) -> Iterator[Decision]:
    """Every decision of seat in the game, forced moves (a single legal move) left out."""
    state = core.from_bytes(initial)
    before: list[dict[str, Any]] = []
    for entry in entries:
        if "move" not in entry:  # joins, leaves and the like change no position
            continue
        if entry["seat"] == seat and len(state.legal_actions(seat)) > 1:
            seen = [Sessions.visible_entry(state, dict(past), seat) for past in before]
            yield Decision(entry["version"], state.clone(), seen, entry["move"])
        state.apply(entry["seat"], entry["move"])
        before.append(entry)


def reviewed(decision: Decision, seat: int, level: int) -> dict[str, Any]:
    """The AI's choice at level for one decision, both moves' win rates and the loss.
    Runs the search (seconds at the strong levels, the GIL released): call it off the
    event loop."""
    state = decision.state
    found = core.ai.suggest(state, seat, level=level, seed=SEED, history=decision.history)
    by_action = {state.action_of(stat["move"]): stat for stat in found["stats"]}
    best = by_action[found["action"]]
    played = by_action.get(state.action_of(decision.played))
    loss = None if played is None else max(0.0, best["win_rate"] - played["win_rate"])
    return {"version": decision.version, "legal_moves": len(state.legal_actions(seat)),
            "played": decision.played,
            "played_win_rate": None if played is None else played["win_rate"],
            "played_visits": 0 if played is None else played["visits"],
            "best": found["move"], "best_win_rate": best["win_rate"],
            "best_visits": best["visits"], "loss": loss, "worst": False,
            "win_chance": core.ai.evaluate(state, seat, seed=SEED,
                                           history=decision.history)[seat]}


def marked(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions with the WORST largest losses (of at least MIN_LOSS) marked."""
    losing = sorted((i for i, decision in enumerate(found)
                     if decision["loss"] is not None and decision["loss"] >= MIN_LOSS),
                    key=lambda i: (-found[i]["loss"], found[i]["version"]))[:WORST]
    return [{**decision, "worst": i in losing} for i, decision in enumerate(found)]
