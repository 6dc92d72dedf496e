"""A linear policy learns to beat random: ``python -m core.rl.demo [--game G] [--minutes M]``.

It proves the learning loop end to end on the batched C vector (core.rl.Vector): a
softmax policy linear in the observation (one weight row per action id, illegal ids
masked out) is trained by REINFORCE with a mean baseline against a uniformly random
opponent, the learner taking seat 0 in half the games and seat 1 in the others.  Then
the greedy policy and a random player each play `--eval` fresh games against random,
and the win rates are printed with 95% confidence intervals (docs/rl.md has a run).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from core.rl import Vector


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    logits = np.where(masks, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    return probs / probs.sum(axis=1, keepdims=True)


class LinearPolicy:
    """logits = W @ observation + b over the game's fixed action ids."""

    def __init__(self, obs_size: int, n_actions: int) -> None:
        self.w = np.zeros((n_actions, obs_size), np.float32)
        self.b = np.zeros(n_actions, np.float32)

    def probs(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return masked_softmax(obs @ self.w.T + self.b, masks.astype(bool))

    def update(self, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
               advantages: np.ndarray, rate: float) -> None:
        """One REINFORCE step: grad log pi(a|s) = (onehot(a) - pi(.|s)) x s, per sample."""
        grad = -self.probs(obs, masks)
        grad[np.arange(len(actions)), actions] += 1.0
        grad *= advantages[:, None]
        self.w += rate * (grad.T @ obs) / len(actions)
        self.b += rate * grad.sum(axis=0) / len(actions)


def learner_seats(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int32) % 2


def train(game: str, seconds: float, games: int, rate: float, seed: int) -> tuple[LinearPolicy, int]:
    vec = Vector(game, 2, games, seed=seed)
    policy = LinearPolicy(vec.observation_size, vec.n_actions)
    rng = np.random.default_rng(seed)
    seats = learner_seats(games)
    episodes: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(games)]
    batch_obs, batch_masks, batch_actions, batch_returns = [], [], [], []
    played, start, baseline = 0, time.perf_counter(), 0.5
    shown = start
    while time.perf_counter() - start < seconds:
        actions = vec.sample_actions()
        mine = np.flatnonzero(vec.to_play == seats)
        if len(mine):
            probs = policy.probs(vec.observations[mine], vec.masks[mine])
            cumulative = probs.cumsum(axis=1)
            draws = rng.random((len(mine), 1))
            chosen = np.minimum((cumulative < draws).sum(axis=1), probs.shape[1] - 1)
            actions[mine] = chosen
            for k, i in enumerate(mine):
                episodes[i].append((vec.observations[i].copy(), vec.masks[i].copy(),
                                    int(chosen[k])))
        vec.step(actions)
        for i in np.flatnonzero(vec.dones):
            reward = float(vec.rewards[i, seats[i]])
            for obs, mask, action in episodes[i]:
                batch_obs.append(obs)
                batch_masks.append(mask)
                batch_actions.append(action)
                batch_returns.append(reward)
            episodes[i] = []
            played += 1
        if len(batch_actions) >= 4096:
            returns = np.array(batch_returns, np.float32)
            baseline = 0.9 * baseline + 0.1 * float(returns.mean())
            policy.update(np.array(batch_obs), np.array(batch_masks),
                          np.array(batch_actions), returns - baseline, rate)
            batch_obs, batch_masks, batch_actions, batch_returns = [], [], [], []
            if time.perf_counter() - shown >= 10:
                shown = time.perf_counter()
                print(f"  {shown - start:4.0f} s: {played:,} games, win share of the last"
                      f" batch {returns.mean():.3f}", flush=True)
    return policy, played


def evaluate(game: str, policy: LinearPolicy | None, games: int, seed: int) -> float:
    """Win share of the greedy policy (or of random, for None) against random."""
    vec = Vector(game, 2, 1024, seed=seed)
    seats = learner_seats(vec.n)
    wins, finished = 0.0, 0
    while finished < games:
        actions = vec.sample_actions()
        mine = np.flatnonzero(vec.to_play == seats)
        if policy is not None and len(mine):
            actions[mine] = policy.probs(vec.observations[mine], vec.masks[mine]).argmax(axis=1)
        vec.step(actions)
        for i in np.flatnonzero(vec.dones):
            if finished < games:
                wins += float(vec.rewards[i, seats[i]])
                finished += 1
    return wins / games


def interval(p: float, n: int) -> str:
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return f"{100 * p:.1f}% [{100 * (p - half):.1f}%, {100 * (p + half):.1f}%]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="crabe-vs-poulpe",
                        choices=["crabe-vs-poulpe", "cup-the-crab"])
    parser.add_argument("--minutes", type=float, default=2.0, help="training time")
    parser.add_argument("--games", type=int, default=256, help="games stepped together")
    parser.add_argument("--rate", type=float, default=0.5, help="learning rate")
    parser.add_argument("--eval", type=int, default=20000, help="evaluation games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.game}, 2 players: training a linear policy against random for"
          f" {args.minutes:g} min ({args.games} games at a time)")
    start = time.perf_counter()
    policy, played = train(args.game, args.minutes * 60, args.games, args.rate, args.seed)
    trained = time.perf_counter() - start
    base = evaluate(args.game, None, args.eval, args.seed + 1)
    learnt = evaluate(args.game, policy, args.eval, args.seed + 1)
    print(f"| player vs random ({args.eval:,} games, seats alternating) | win share, 95% CI |")
    print("|---|---|")
    print(f"| random | {interval(base, args.eval)} |")
    print(f"| linear policy after {played:,} training games ({trained:.0f} s) |"
          f" {interval(learnt, args.eval)} |")


if __name__ == "__main__":
    main()
