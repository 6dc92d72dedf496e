"""What learning code needs of each game, with no learning library: observation modules,
shapes, action counts, memories, rewards and who decides (core.rl gathers it with the
environments; core.rl.pettingzoo_env and core.rl.gymnasium_env build on it, not on each other)."""

from __future__ import annotations

import importlib
from typing import Any

import core
from core import registry

# Game name -> the compiled module writing its observations and masks.
OBSERVERS = {entry.name: entry.observer for entry in registry.GAMES}
_imported: dict[str, Any] = {}


def observer(name: str) -> Any:
    """The observation module of game `name` (ValueError naming the games if unknown)."""
    module = _imported.get(name) if isinstance(name, str) else None
    if module is None:
        if name not in OBSERVERS:
            raise ValueError(f"unknown game {name!r}; games are: {', '.join(core.GAMES)}")
        module = _imported[name] = importlib.import_module(OBSERVERS[name])
    return module


def observation_shape(name: str, players: int) -> tuple[int, ...]:
    """The shape of `state.observation(seat)` for this game and number of players."""
    return observer(name).observation_shape(players)


def observation_layout(name: str, players: int) -> list[tuple[str, int, int]]:
    """Every named slice (name, start, stop) of the observation (docs/rl.md)."""
    return observer(name).observation_layout(players)


def n_actions(name: str) -> int:
    """The number of fixed action ids of the game (the length of an action mask)."""
    return observer(name).N_ACTIONS


def memory(state: core.GameState) -> Any:
    """A fresh memory for a game that has just started: call `record(state, seat,
    action)` before each `apply_action`, and `observation(state, seat)` at any time."""
    return observer(state.game).Memory(state)


SEED_SPACE = 2 ** 63


def rewards_of(state: Any) -> list[float]:
    """1 for a sole winner, 1/k each for a victory shared by k, 0 for the others."""
    winners = state.result()["winners"]
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.players)]


def decider(state: Any) -> int:
    """The one seat deciding now: in a simultaneous selection the lowest seat that has
    not selected (so the choices become consecutive and see nothing of each other)."""
    return min(state.to_move)
