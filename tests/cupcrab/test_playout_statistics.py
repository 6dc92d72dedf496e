"""C playouts play the documented random policy: their statistics agree with those of an
independent plain-C implementation of the same rules and policy (the speed-of-light
reference ../shared/anchors/cupcrab_sol.c; the figures below are from its README:
1,000,000 games per player count, seed 7, seat 0 starting the first round).

`python -m core.tools.bench --stats 1000000` makes the full comparison (docs/benchmarks.md).
"""

import math
import statistics

import pytest

import core

# players: (mean score per seat, discards per game, tie rate), rounded as published.
REFERENCE = {
    2: ([43.89, 43.78], 2.821, 0.0022),
    3: ([46.40, 45.92, 46.34], 5.901, 0.0023),
    4: ([47.33, 46.88, 47.33, 47.53], 9.401, 0.0023),
    5: ([49.93, 49.43, 49.60, 49.82, 50.03], 7.219, 0.0024),
}
REFERENCE_GAMES = 1_000_000
BATCHES, BATCH = 10, 10_000
Z = 4.5   # 22 comparisons: a false alarm at 4.5 standard errors is about 1 in 10,000


def batch_means(players: int) -> dict[str, list[float]]:
    runs = [core.random_playouts("cup-the-crab", players, BATCH, seed=100 + b,
                                 options={"first_player": 0}) for b in range(BATCHES)]
    return {**{f"score {seat}": [r["mean_score"][seat] for r in runs] for seat in range(players)},
            "discards": [r["mean_discards"] for r in runs],
            "tie rate": [r["tie_rate"] for r in runs]}


@pytest.mark.parametrize("players", sorted(REFERENCE))
def test_random_games_have_the_reference_scores_discards_and_ties(players):
    scores, discards, ties = REFERENCE[players]
    published = {**{f"score {seat}": (s, 0.005) for seat, s in enumerate(scores)},
                 "discards": (discards, 0.0005), "tie rate": (ties, 0.00005)}
    games = BATCHES * BATCH
    for name, means in batch_means(players).items():
        ours = statistics.fmean(means)
        error = statistics.stdev(means) / math.sqrt(BATCHES)     # of our mean
        theirs, rounding = published[name]
        # The reference's mean varies as ours does, over 10x the games; plus its rounding.
        bound = Z * math.sqrt(error ** 2 * (1 + games / REFERENCE_GAMES)) + rounding
        assert abs(ours - theirs) <= bound, f"{players}p {name}: {ours:.4f} vs {theirs}"
