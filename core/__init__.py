"""Rules engines for Cup the Crab and Crabe vs Poulpe, compiled with Cython.

Every game offers the same interface (see `core.interface.GameState`), so callers
such as the HTTP service or a search AI never need to know which game runs::

    import core
    state = core.new_game("cup-the-crab", 3, seed=7)
    seat = state.to_move[0]
    state.apply(seat, state.legal_moves(seat)[0])
    state.view(seat)
"""

from typing import Any

import importlib

from core import _codec, registry
from core.errors import IllegalMove, InvalidState
from core.interface import GameState

__all__ = ["GAMES", "OPTIONS", "PLAYERS", "GameState", "IllegalMove", "InvalidState", "from_bytes",
           "from_snapshot", "new_game", "random_playouts", "redraw", "sample_from_view"]

# Game name -> the compiled module implementing it (core/registry.py).
_MODULES = {entry.name: importlib.import_module(entry.rules) for entry in registry.GAMES}
GAMES: tuple[str, ...] = tuple(_MODULES)
# Game name -> the player counts it is for, in increasing order.
PLAYERS: dict[str, tuple[int, ...]] = {name: module.PLAYERS for name, module in _MODULES.items()}
# Game name -> the keys of the creation options it takes.
OPTIONS: dict[str, tuple[str, ...]] = {name: module.OPTIONS for name, module in _MODULES.items()}


def _module(name: object) -> Any:
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise ValueError(f"unknown game {name!r}; games are: {', '.join(GAMES)}")
    return module


def _players(players: object) -> int:
    if type(players) is not int:
        raise ValueError(f"players must be an integer, got {players!r}")
    return players


def new_game(name: str, players: int, *, seed: int | None = None,
             options: dict[str, Any] | None = None) -> GameState:
    """A new game; ValueError says what is allowed if name, players or options are not.

    Without a seed the deal comes from the operating system's randomness.
    """
    return _module(name).new_game(_players(players), seed, options)


def from_bytes(blob: bytes) -> GameState:
    """The state stored by `state.to_bytes()`; InvalidState if the blob is not one."""
    game, payload = _codec.unframe(blob)
    return _module(game).from_payload(payload)


def from_snapshot(snapshot: dict[str, Any], *, seed: int | None = None) -> GameState:
    """A state rebuilt from `state.snapshot()` (checked); its PRNG is seeded afresh."""
    game = snapshot.get("game") if isinstance(snapshot, dict) else None
    if game not in _MODULES:
        raise InvalidState(f"a snapshot is a dict made by state.snapshot() whose 'game' is"
                           f" one of {', '.join(GAMES)}")
    return _MODULES[game].from_snapshot(snapshot, seed)


def sample_from_view(view: dict[str, Any], *, seed: int | None = None) -> GameState:
    """A full position the seat of `view` (a seat's state.view(), as the API shows it)
    could be in: what it sees kept, what it does not dealt at random (seed makes the draw
    repeatable). Its view of the result is the view given. For a program that sees only
    the API, e.g. to search with core.ai from a bot's seat: the search determinizes again
    from the seat's knowledge, so the cards drawn here tell it nothing."""
    game = view.get("game") if isinstance(view, dict) else None
    if game not in _MODULES or not isinstance(view.get("seat"), int):
        raise InvalidState(f"a seat's view is a dict made by state.view(seat) whose 'game' is"
                           f" one of {', '.join(GAMES)}")
    import random
    sampler = importlib.import_module(registry.BY_NAME[game].sampler)
    return from_snapshot(sampler.snapshot_from_view(view, random.Random(seed)), seed=seed)


def redraw(state: GameState, seed: int) -> GameState:
    """A copy of state with what chance has not yet revealed drawn again (seed makes the
    draw repeatable), everything already dealt or seen kept: in Crabe vs Poulpe the draw
    piles' order, in Cup the Crab nothing once the cups are dealt.  The result depends on
    the position less that order, and on seed: two states that differ only in what is
    still to be drawn give the same copy.  Its PRNG is seeded afresh from seed.  For
    judging luck after a game (the arena's estimates, docs/arena.md), where the expectation
    over chance's outcomes at a point is the mean over redraws."""
    import random
    sampler = importlib.import_module(registry.BY_NAME[state.game].sampler)
    snapshot = sampler.redraw_snapshot(state.snapshot(), random.Random(seed))
    return from_snapshot(snapshot, seed=seed)


def random_playouts(name: str, players: int, n: int, seed: int = 0,
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plays n uniformly random games in C (GIL released); aggregate statistics.

    options are the game's creation options (e.g. Crabe vs Poulpe's deck mode).
    """
    return _module(name).random_playouts(_players(players), n, seed, options)
