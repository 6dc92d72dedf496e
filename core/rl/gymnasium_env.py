"""A single-agent Gymnasium environment for either game (see core.rl.gym_env, docs/rl.md)."""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import core
import core.ai
from core.rl import per_game
from core.rl.per_game import SEED_SPACE, decider, rewards_of

OPPONENTS = ("random", "ismcts")
ILLEGAL = ("lose", "raise")


class CrabGym(gym.Env):
    """The learner plays one seat; the others are played by random or by the ISMCTS AI.

    Observation: the learner seat's float32 vector (its view and memory); the legal ids
    are in info["action_mask"] and in action_masks() (as maskable learners expect).
    Reward: at the end, 1 for a sole win, 1/k for a victory shared by k, 0 for a loss.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, name: str, players: int, *, seat: int = 0, opponent: str = "random",
                 iterations: int = 200, illegal: str = "lose",
                 render_mode: str | None = None,
                 options: dict[str, Any] | None = None) -> None:
        core.new_game(name, players, seed=0, options=options)   # checks the arguments
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be an integer from 0 to {players - 1}, got {seat!r}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
        if opponent == "ismcts":
            low, high = core.ai.LIMITS["iterations"]
            if type(iterations) is not int or not low <= iterations <= high:
                raise ValueError(f"iterations must be an integer from {low} to {high},"
                                 f" got {iterations!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of"
                             f" {self.metadata['render_modes']}, got {render_mode!r}")
        self.game, self.players, self.options, self.seat = name, players, options, seat
        self.opponent, self.iterations, self.illegal = opponent, iterations, illegal
        self.render_mode = render_mode
        self._observer = per_game.observer(name)
        self.observation_space = spaces.Box(0.0, 1.0, per_game.observation_shape(name, players),
                                            np.float32)
        self.action_space = spaces.Discrete(per_game.n_actions(name))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = core.new_game(self.game, self.players,
                                   seed=int(self.np_random.integers(SEED_SPACE)),
                                   options=self.options)
        self.memory = self._observer.Memory(self.state)
        self.log: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = int(action)
        if self.state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        if action not in self.state.legal_actions(self.seat):
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal now; info['action_mask']"
                                 f" lists the legal ones")
            return self._observation(), -1.0, True, False, {**self._info(),
                                                            "illegal_action": True}
        self._apply(self.seat, action)
        self._play_others()
        over = self.state.is_over
        reward = rewards_of(self.state)[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (empty of True once over)."""
        return self.state.action_mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The learner seat's view, as JSON."""
        text = json.dumps(self.state.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _observation(self) -> np.ndarray:
        return self.memory.observation(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.state.action_mask(self.seat).astype(np.int8)}

    def _apply(self, seat: int, action: int) -> None:
        move = self.state.move_of(action)
        self.log.append((seat, move, self.state.observed_by(seat)))
        self.memory.record(self.state, seat, action)
        self.state.apply_action(seat, action)

    def _play_others(self) -> None:
        """The other seats move until the learner decides or the game ends."""
        while not self.state.is_over and decider(self.state) != self.seat:
            seat = decider(self.state)
            self._apply(seat, self._opponent_action(seat))

    def _opponent_action(self, seat: int) -> int:
        legal = self.state.legal_actions(seat)
        if self.opponent == "random" or len(legal) == 1:
            return legal[int(self.np_random.integers(len(legal)))]
        out = core.ai.suggest(self.state, seat, iterations=self.iterations,
                              seed=int(self.np_random.integers(SEED_SPACE)),
                              history=self._history(seat))
        return out["action"]

    def _history(self, seat: int) -> list[dict[str, Any]]:
        """The log as seat saw it, with what it was shown (as the service keeps it)."""
        history = []
        for actor, move, observed in self.log:
            entry = {"seat": actor, "move": self.state.visible_move(actor, move, seat)}
            if actor == seat and observed:
                entry.update(observed)
            history.append(entry)
        return history
