"""The PettingZoo and Gymnasium environments pass their libraries' own checks."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import core
import core.rl

GAMES = [("cup-the-crab", p, {}) for p in (2, 3, 4, 5)] + [
    ("crabe-vs-poulpe", 2, {"mode": m}) for m in ("symmetrical", "asymmetrical")]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game, players, options", GAMES)
def test_the_aec_env_passes_pettingzoo_s_api_and_seed_tests(game, players, options):
    api_test(core.rl.aec_env(game, players, **options), num_cycles=200)
    seed_test(lambda: core.rl.aec_env(game, players, **options), num_cycles=200)


def test_a_simultaneous_selection_is_consecutive_and_blind_to_the_others_choices():
    seen = []
    for pick in (0, -1):
        env = core.rl.aec_env("cup-the-crab", 3)
        env.reset(seed=11)
        assert env.agent_selection == "player_0"
        mask = env.observe("player_0")["action_mask"]
        env.step(int(np.flatnonzero(mask)[pick]))
        assert env.agent_selection == "player_1"
        seen.append(env.observe("player_1")["observation"].tobytes())
    assert seen[0] == seen[1]


def test_an_illegal_aec_action_is_refused_and_changes_nothing():
    env = core.rl.aec_env("crabe-vs-poulpe", 2)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.agent_selection == agent
    assert env.observe(agent)["observation"].tobytes() == before["observation"].tobytes()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game, players, options", GAMES)
def test_the_gym_env_passes_gymnasium_s_checker(game, players, options):
    check_env(core.rl.gym_env(game, players, seat=players - 1, **options),
              skip_render_check=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game, players, options", [("cup-the-crab", 3, {}),
                                                    ("crabe-vs-poulpe", 2, {"mode": "asymmetrical"})])
def test_the_gym_env_plays_against_the_ismcts_ai_too(game, players, options):
    env = core.rl.gym_env(game, players, opponent="ismcts", iterations=30, seat=1, **options)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    done, reward = False, 0.0
    rng = np.random.default_rng(4)
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, done, _, info = env.step(action)
        assert env.observation_space.contains(obs)
    assert reward in (0.0, 1 / 3, 0.5, 1.0)


def test_an_illegal_gym_action_loses_or_raises_as_chosen():
    env = core.rl.gym_env("cup-the-crab", 2)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = core.rl.gym_env("cup-the-crab", 2, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


@pytest.mark.parametrize("kwargs, message", [
    ({"opponent": "human"}, "opponent"), ({"seat": 2}, "seat"),
    ({"opponent": "ismcts", "iterations": 0}, "iterations"), ({"illegal": "ignore"}, "illegal"),
    ({"mode": "x"}, "mode")])
def test_bad_gym_arguments_are_refused_saying_what_is_allowed(kwargs, message):
    game = "crabe-vs-poulpe" if "mode" in kwargs else "cup-the-crab"
    with pytest.raises(ValueError, match=message):
        core.rl.gym_env(game, 2, **kwargs)
