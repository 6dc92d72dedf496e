"""Learning-code entry points: observation tensors, PettingZoo and Gymnasium envs, a batch.

Needs the optional extra `rl` (`pip install ".[rl]"`: NumPy, PettingZoo, Gymnasium); the
service never imports this module.  Layouts, rewards and figures: docs/rl.md.

    import core.rl
    env = core.rl.aec_env("cup-the-crab", 3)                  # PettingZoo AEC
    env = core.rl.gym_env("crabe-vs-poulpe", 2, opponent="ismcts", iterations=200)
    vec = core.rl.Vector("cup-the-crab", 2, 1024, threads=2)  # batched, in C

Every observation is what its seat may know (core/obs_cupcrab.pyx, core/obs_cvp.pyx):
its view plus what it remembers of the game's history, nothing else.
"""

from __future__ import annotations

import importlib
from typing import Any

import core
from core.vector import Vector

__all__ = ["Vector", "aec_env", "gym_env", "memory", "n_actions", "observation_layout",
           "observation_shape"]

# Game name -> the compiled module writing its observations and masks.
OBSERVERS = {"cup-the-crab": "core.obs_cupcrab", "crabe-vs-poulpe": "core.obs_cvp"}
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


def aec_env(name: str, players: int, *, render_mode: str | None = None,
            **game_options: Any) -> Any:
    """A PettingZoo AEC environment of one game (game_options: new_game's options)."""
    from core.rl_aec import CrabAEC
    return CrabAEC(name, players, render_mode=render_mode, options=game_options or None)


def gym_env(name: str, players: int, *, seat: int = 0, opponent: str = "random",
            iterations: int = 200, illegal: str = "lose", render_mode: str | None = None,
            **game_options: Any) -> Any:
    """A Gymnasium environment in which the learner plays `seat` and the other seats are
    played by `opponent`: "random" (uniform legal moves) or "ismcts" (core.ai.suggest
    with `iterations` and the seat's history).  illegal: "lose" (an illegal action ends
    the episode with reward -1, as Gymnasium's checker needs) or "raise" (ValueError)."""
    from core.rl_gym import CrabGym
    return CrabGym(name, players, seat=seat, opponent=opponent, iterations=iterations,
                   illegal=illegal, render_mode=render_mode, options=game_options or None)
