"""Every game core offers, described once: the one list each layer reads.

A game is its compiled rules module and the modules that adapt it to the search (core.ai)
and to learning code (core.rl); its code frames its stored states (core._codec). Adding a
game is one entry here plus the modules it names (docs/adding-a-game.md); each layer finds
the game through this list, and tests/test_registry.py fails, naming the game and the
layer, when an entry's module lacks what its layer needs.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class GameEntry:
    name: str        # as the API and every caller spell it
    code: int        # the byte that frames its stored states (never reused)
    rules: str       # the compiled module: NAME, PLAYERS, OPTIONS, new_game, from_payload, ...
    search: str      # its ISMCTS adapter: vtable(), determinize_for(...)
    observer: str    # its observations for learning code: observation_shape(), Memory, ...


GAMES: tuple[GameEntry, ...] = (
    GameEntry("cup-the-crab", 1, "core.cupcrab", "core.ai_cupcrab", "core.obs_cupcrab"),
    GameEntry("crabe-vs-poulpe", 2, "core.cvp", "core.ai_cvp", "core.obs_cvp"),
)
BY_NAME: dict[str, GameEntry] = {entry.name: entry for entry in GAMES}
