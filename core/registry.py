"""Every game core offers, described once: the one list each layer reads.

A game is one folder, core/games/<package>/: its compiled rules module, the module that
describes it to C for the search (core.ai) and the batched vector (core.rl.Vector), and
its observations for learning code (core.rl); its code frames its stored states
(core._codec); its module of the web client registers it there (service/web/js/). Adding
a game is one entry here plus what it names (docs/adding-a-game.md); each layer finds the
game through this list, and tests/test_registry.py fails, naming the game and the layer,
when an entry lacks what a layer needs.

This file imports nothing compiled at import time: setup.py reads it before the build.
"""

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class GameEntry:
    name: str        # as the API and every caller spell it
    code: int        # the byte that frames its stored states (never reused)
    package: str     # its folder core/games/<package>/
    web: str         # its module of the web client, service/web/js/<web>

    @property
    def rules(self) -> str:
        """The rules: NAME, PLAYERS, OPTIONS, new_game, from_payload, the state class..."""
        return f"core.games.{self.package}.rules"

    @property
    def search(self) -> str:
        """Its C function table (vtable(), for the search and the vector) and its
        determinizer (raw_state, info, determinize_for)."""
        return f"core.games.{self.package}.search"

    @property
    def observer(self) -> str:
        """Its observations for learning code: observation_shape(), Memory, ..."""
        return f"core.games.{self.package}.observation"

    @property
    def sampler(self) -> str:
        """A full position a seat could be in, drawn from its view (snapshot_from_view):
        what a program that sees only the API's view searches from (core.sample_from_view)."""
        return f"core.games.{self.package}.sampling"

    @property
    def modules(self) -> tuple[str, ...]:
        """Its compiled modules, in the order they cimport one another."""
        return (self.rules, self.observer, self.search)

    def vtable(self) -> object:
        """Its C function table (core/vtable.pxd) as a PyCapsule: the one table the
        search and the vector read."""
        return importlib.import_module(self.search).vtable()


GAMES: tuple[GameEntry, ...] = (
    GameEntry("cup-the-crab", 1, "cupcrab", "cupcrab.js"),
    GameEntry("crabe-vs-poulpe", 2, "cvp", "cvp.js"),
)
BY_NAME: dict[str, GameEntry] = {entry.name: entry for entry in GAMES}


def entry(name: object) -> GameEntry:
    """The entry of game `name`; ValueError naming the registered games if none."""
    found = BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown game {name!r}; the registered games are:"
                         f" {', '.join(BY_NAME)}")
    return found


def vtable(name: object) -> object:
    """Game `name`'s C function table (GameEntry.vtable); ValueError naming the
    registered games if none."""
    return entry(name).vtable()
