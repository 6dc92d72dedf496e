"""core.rl.Vector: N games stepped in C write exactly what the Python path computes."""

import json
import os
import subprocess
import sys
import numpy as np
import pytest

import core
import core.rl
from core.rl.per_game import rewards_of

KINDS = [("cup-the-crab", 2, None), ("cup-the-crab", 5, None),
         ("crabe-vs-poulpe", 2, {"mode": "asymmetrical"})]


def buffers(vec):
    return [np.array(b, copy=True) for b in
            (vec.observations, vec.masks, vec.rewards, vec.dones, vec.to_play)]


@pytest.mark.parametrize("game, players, options", KINDS)
def test_the_vector_writes_what_the_python_path_computes_across_resets(game, players, options):
    vec = core.rl.Vector(game, players, 6, seed=3, options=options)
    mirrors = [vec.game(i) for i in range(vec.n)]
    memories = [core.rl.memory(m) for m in mirrors]
    finished = 0
    for _ in range(400):
        for i, (state, memory) in enumerate(zip(mirrors, memories)):
            seat = min(state.to_move)
            assert vec.to_play[i] == seat
            assert vec.observations[i].tobytes() == memory.observation(state, seat).tobytes()
            assert vec.masks[i].tobytes() == state.action_mask(seat).tobytes()
        actions = vec.sample_actions()
        for i, (state, memory) in enumerate(zip(mirrors, memories)):
            memory.record(state, int(vec.to_play[i]), int(actions[i]))
            state.apply_action(int(vec.to_play[i]), int(actions[i]))
        vec.step(actions)
        for i, state in enumerate(mirrors):
            assert bool(vec.dones[i]) == state.is_over
            if state.is_over:
                assert list(vec.rewards[i]) == pytest.approx(rewards_of(state))
                mirrors[i] = vec.game(i)            # the vector dealt a new game
                memories[i] = core.rl.memory(mirrors[i])
                finished += 1
            else:
                assert not vec.rewards[i].any()
    assert finished >= 6


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_step_exactly_like_one(threads):
    one = core.rl.Vector("cup-the-crab", 3, 300, seed=9)      # 300: runs of 64 and a rest
    two = core.rl.Vector("cup-the-crab", 3, 300, seed=9, threads=threads)
    for _ in range(100):
        actions = one.sample_actions()
        assert np.array_equal(actions, two.sample_actions())
        one.step(actions)
        two.step(actions)
        for a, b in zip(buffers(one), buffers(two)):
            assert np.array_equal(a, b)


def native_threads() -> int:
    return len(os.listdir("/proc/self/task"))


THREAD_LIFE = """
import json, os, core.rl
def threads(): return len(os.listdir("/proc/self/task"))
vec = core.rl.Vector("cup-the-crab", 2, 256, seed=1, threads=3)  # (NumPy's threads start)
before = threads()                                    # the vector's: none until a step
counts = []
for _ in range(5):
    vec.step(vec.sample_actions())
    counts.append(threads() - before)
del vec
print(json.dumps({"while stepping": counts, "once deleted": threads() - before}))
"""


def test_a_vector_keeps_its_helper_threads_between_steps_and_ends_them_when_deleted():
    # In a fresh interpreter: no other test's threads come and go meanwhile.
    out = subprocess.run([sys.executable, "-c", THREAD_LIFE], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == {"while stepping": [2] * 5, "once deleted": 0}


def test_a_forked_child_steps_on_threads_of_its_own_exactly_as_its_parent():
    vec = core.rl.Vector("cup-the-crab", 2, 256, seed=4, threads=2)
    vec.step(vec.sample_actions())                      # the parent's helpers are running
    read, write = os.pipe()
    child = os.fork()
    if child == 0:                                      # the child: its own helpers
        try:
            vec.step(vec.sample_actions())
            os.write(write, vec.observations.tobytes()[:4096] + bytes([native_threads()]))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        sent = pipe.read()
    os.waitpid(child, 0)
    vec.step(vec.sample_actions())
    assert sent[:-1] == vec.observations.tobytes()[:4096]
    assert sent[-1] == 2                                # the child's main thread and a helper


def test_the_games_follow_the_actions_whoever_chose_them():
    sampler = core.rl.Vector("crabe-vs-poulpe", 2, 32, seed=8)
    follower = core.rl.Vector("crabe-vs-poulpe", 2, 32, seed=8)   # never samples
    deals = 0
    for _ in range(300):
        actions = sampler.sample_actions()
        sampler.step(actions)
        follower.step(actions)
        deals += int(follower.dones.sum())
        for a, b in zip(buffers(sampler), buffers(follower)):
            assert np.array_equal(a, b)
    assert deals > 32


def test_the_same_seed_deals_the_same_games_and_reset_deals_them_again():
    a = core.rl.Vector("crabe-vs-poulpe", 2, 8, seed=5)
    b = core.rl.Vector("crabe-vs-poulpe", 2, 8, seed=5)
    first = buffers(a)
    assert all(np.array_equal(x, y) for x, y in zip(first, buffers(b)))
    a.step(a.sample_actions())
    a.reset(seed=5)
    assert all(np.array_equal(x, y) for x, y in zip(first, buffers(a)))
    c = core.rl.Vector("crabe-vs-poulpe", 2, 8, seed=6)
    assert not np.array_equal(first[0], c.observations)


def test_an_illegal_action_is_refused_and_nothing_changes():
    vec = core.rl.Vector("cup-the-crab", 2, 4, seed=1)
    actions = vec.sample_actions()
    before = buffers(vec)
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(vec.masks[2] == 0)[0])
    with pytest.raises(ValueError, match="not legal in game 2"):
        vec.step(bad)
    assert all(np.array_equal(x, y) for x, y in zip(before, buffers(vec)))
    with pytest.raises(ValueError, match="one action per game"):
        vec.step(actions[:3])
    vec.step(actions)                     # the same vector goes on


def test_the_buffers_can_be_the_caller_s_own():
    obs = np.zeros((4,) + core.rl.observation_shape("cup-the-crab", 2), np.float32)
    vec = core.rl.Vector("cup-the-crab", 2, 4, seed=1, observations=obs)
    assert vec.observations is obs and obs.any()
    with pytest.raises(ValueError, match="observations must have shape"):
        core.rl.Vector("cup-the-crab", 2, 4, observations=np.zeros((4, 3), np.float32))


@pytest.mark.parametrize("kwargs, message", [({"n": 0}, "positive"), ({"threads": 0}, "threads"),
                                             ({"players": 6}, "2 to 5")])
def test_bad_arguments_are_refused_saying_what_is_allowed(kwargs, message):
    args = {"name": "cup-the-crab", "players": 2, "n": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        core.rl.Vector(args.pop("name"), args.pop("players"), args.pop("n"), **args)


def test_sampled_actions_are_legal_and_spread_evenly_over_the_legal_ones():
    vec = core.rl.Vector("cup-the-crab", 2, 1, seed=4)
    legal = np.flatnonzero(vec.masks[0])
    counts = dict.fromkeys(legal.tolist(), 0)
    out = np.empty(1, np.int32)
    draws = 200 * len(legal)
    for _ in range(draws):
        counts[int(vec.sample_actions(out)[0])] += 1      # KeyError if one is illegal
    observed = np.array(list(counts.values()))
    chi_square = float(((observed - 200) ** 2 / 200).sum())
    df = len(legal) - 1
    assert chi_square < df + 5 * (2 * df) ** 0.5          # about 5 standard deviations
