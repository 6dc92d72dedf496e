"""A finished game played again by the core from its record: every version's position.

After the end nothing is hidden, so a replay shows each version's complete position
(core's snapshot(): every hand, every selection, the decks' order), as the core computes
it by applying the logged moves to the state the game began in. Snapshots hold no seed
and no PRNG state, so a replay tells nothing about any other game.
"""

from typing import Any

import core


class ReplayDiverged(Exception):
    """The log does not play again to the stored game: the record is corrupt."""


def replayed(initial: bytes, entries: list[dict[str, Any]]) -> tuple[core.GameState,
                                                                      list[dict[str, Any]]]:
    """The state the log leads to, and each version's position from version 0 on."""
    state = core.from_bytes(initial)
    versions = [{"version": 0, "entry": None, "position": state.snapshot()}]
    for entry in entries:
        if "move" in entry:  # joins, leaves, forfeits and rematches change no position
            try:
                state.apply(entry["seat"], entry["move"])
            except core.IllegalMove as error:
                raise ReplayDiverged(f"version {entry['version']}: {error}") from None
        versions.append({"version": entry["version"], "entry": entry,
                         "position": state.snapshot()})
    return state, versions
