"""A PettingZoo AEC environment for either game (see core.rl.aec_env and docs/rl.md)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import core
from core.rl import per_game
from core.rl.per_game import SEED_SPACE, decider, rewards_of

class CrabAEC(AECEnv):
    """Agents "player_0".. take turns; a finished game ends every agent at once.

    Observations are {"observation": float32 vector, "action_mask": int8 vector}: what
    the agent's seat may know (its view and its memory of the game) and its legal ids.
    An illegal action raises ValueError and changes nothing.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "crab_engines_v0",
                "is_parallelizable": False}

    def __init__(self, name: str, players: int, *, render_mode: str | None = None,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__()
        core.new_game(name, players, seed=0, options=options)   # checks the arguments
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of"
                             f" {self.metadata['render_modes']}, got {render_mode!r}")
        self.game, self.players, self.options = name, players, options
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._observer = per_game.observer(name)
        size = per_game.observation_shape(name, players)
        self._spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, size, np.float32),
            "action_mask": spaces.Box(0, 1, (per_game.n_actions(name),), np.int8)})
            for agent in self.possible_agents}
        self._actions = {agent: spaces.Discrete(per_game.n_actions(name))
                         for agent in self.possible_agents}
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._actions[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.state = core.new_game(self.game, self.players,
                                   seed=int(self._seeds.integers(SEED_SPACE)),
                                   options=self.options)
        self.memory = self._observer.Memory(self.state)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[decider(self.state)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.memory.observation(self.state, seat),
                "action_mask": self.state.action_mask(seat).astype(np.int8)}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        action = int(action)
        if action not in self.state.legal_actions(seat):
            raise ValueError(f"action {action} is not legal for {agent} now; its"
                             f" observation's action_mask lists the legal ones")
        self._cumulative_rewards[agent] = 0.0
        self.memory.record(self.state, seat, action)
        self.state.apply_action(seat, action)
        if self.state.is_over:
            for other, reward in zip(self.agents, rewards_of(self.state)):
                self.rewards[other] = reward
                self.terminations[other] = True
        else:
            self.agent_selection = self.agents[decider(self.state)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The spectator's view (what everybody may know), as JSON."""
        text = json.dumps(self.state.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"crab_engines_v0:{self.game}:{self.players}"
