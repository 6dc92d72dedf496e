"""Learning-code entry points: observation tensors, PettingZoo and Gymnasium envs, a batch.

Needs the optional extra `rl` (`pip install ".[rl]"`: NumPy, PettingZoo, Gymnasium); the
service never imports this module.  Layouts, rewards and figures: docs/rl.md.

    import core.rl
    env = core.rl.aec_env("cup-the-crab", 3)                  # PettingZoo AEC
    env = core.rl.gym_env("crabe-vs-poulpe", 2, opponent="ismcts", iterations=200)
    vec = core.rl.Vector("cup-the-crab", 2, 1024, threads=2)  # batched, in C

Every observation is what its seat may know (core/games/<game>/observation.pyx):
its view plus what it remembers of the game's history, nothing else.
"""

from __future__ import annotations

from typing import Any

from core.rl.per_game import memory, n_actions, observation_layout, observation_shape, observer
from core.vector import Vector

__all__ = ["Vector", "aec_env", "gym_env", "memory", "n_actions", "observation_layout",
           "observation_shape", "observer"]


def aec_env(name: str, players: int, *, render_mode: str | None = None,
            **game_options: Any) -> Any:
    """A PettingZoo AEC environment of one game (game_options: new_game's options)."""
    from core.rl.pettingzoo_env import CrabAEC
    return CrabAEC(name, players, render_mode=render_mode, options=game_options or None)


def gym_env(name: str, players: int, *, seat: int = 0, opponent: str = "random",
            iterations: int = 200, illegal: str = "lose", render_mode: str | None = None,
            **game_options: Any) -> Any:
    """A Gymnasium environment in which the learner plays `seat` and the other seats are
    played by `opponent`: "random" (uniform legal moves) or "ismcts" (core.ai.suggest
    with `iterations` and the seat's history).  illegal: "lose" (an illegal action ends
    the episode with reward -1, as Gymnasium's checker needs) or "raise" (ValueError)."""
    from core.rl.gymnasium_env import CrabGym
    return CrabGym(name, players, seat=seat, opponent=opponent, iterations=iterations,
                   illegal=illegal, render_mode=render_mode, options=game_options or None)
