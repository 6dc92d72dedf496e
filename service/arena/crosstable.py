"""Who is stronger, by how much, with a 95% interval: the crosstable of a series.

Each finished game gives, for every pair of contestants (a, b) at its table, a's score
against b: 1 if a ranked above b, 0.5 level, 0 below; the pair's difference in that game
is a's score minus b's (+1, 0 or -1). Unpaired, every game counts on its own: the mean
difference over games and its interval from their spread. Duplicate-paired, a deal counts
once: the mean difference over the deal's rotations (the same cards, every contestant in
every seat), so the luck of the deal cancels within it; the interval comes from the spread
of those deal means over complete deals. The ratio of the two intervals' variances is the
variance reduction the format bought (the computer poker competitions' duplicate match).

Where a game's result gives every seat a score (Cup the Crab's points), the same is done
with a's points minus b's: a finer measure than who ranked above, whose luck of the deal
the pairing cancels too.

Where the series judged its games (service/arena/estimates.py: AIVAT on each replay), each
game's difference less the luck its judge found is the corrected difference: the same
expectation, a spread narrower as far as the judge foresees the outcome. The fitted
difference subtracts the luck weighed by least squares on the other deals instead
(service/arena/regression.py): where the judge foresees little, nearly nothing.

Intervals are the mean +- Student's t quantile times the standard error: with a few deals
1.96 (the normal's) covers too little (an A/A series of 8 games covered 0 in 32 of 40 runs,
docs/arena.md). `deals_for` says how many deals would bring the half-width to a target
(many deals: there the normal's 1.96).
"""

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from service.arena.regression import MIN_SAMPLES, cross_fitted

Z95 = 1.96


@dataclass(frozen=True)
class Played:
    """One finished game of a series: its deal and each contestant's rank (by index)."""
    deal: int
    ranks: dict[int, int]   # contestant index -> rank (1 the best)
    game_id: str
    scores: dict[int, float] | None = None   # contestant index -> points, if the game has them
    luck: dict[int, dict[int, float]] | None = None   # [a][b]: luck in a's margin over b

    @staticmethod
    def of(deal: int, ranks: dict[Any, int], game_id: str, scores: dict[Any, float] | None,
           luck: list[list[float]] | None) -> "Played":
        """A game as it is kept (JSON: contestant indexes as strings, the luck a matrix)."""
        return Played(deal, {int(k): v for k, v in ranks.items()}, game_id,
                      {int(k): v for k, v in scores.items()} if scores else None,
                      dict(enumerate(map(dict, map(enumerate, luck)))) if luck else None)


@dataclass(frozen=True)
class Estimate:
    mean: float
    half_width: float | None   # None: fewer than two samples
    samples: int
    variance: float | None     # of one sample

    def body(self) -> dict[str, Any]:
        low = None if self.half_width is None else round(self.mean - self.half_width, 4)
        high = None if self.half_width is None else round(self.mean + self.half_width, 4)
        return {"mean": round(self.mean, 4), "low": low, "high": high,
                "samples": self.samples,
                "excludes_zero": low is not None and (low > 0 or high < 0)}  # type: ignore[operator]


def t95(df: int) -> float:
    """Student's t's 97.5% quantile for df degrees of freedom (Abramowitz and Stegun
    26.7.5 about the normal's: within 0.004 from 3 degrees of freedom, exact below)."""
    if df < 3:
        return {1: 12.7062, 2: 4.3027}[df]
    z, v = 1.959964, float(df)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z)
            / (92160 * v ** 4))


def estimate(samples: list[float], fitted: int = 0) -> Estimate:
    """The samples' mean and its 95% interval, by Student's t with a degree of freedom
    fewer for each coefficient fitted (cross_fitted's); no interval without one left."""
    n = len(samples)
    mean = sum(samples) / n if n else 0.0
    if n < 2:
        return Estimate(mean, None, n, None)
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    df = n - 1 - fitted
    return Estimate(mean, t95(df) * math.sqrt(variance / n) if df >= 1 else None, n, variance)


def score(ranks: dict[int, int], a: int, b: int) -> float:
    return 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0


def deals_for(variance: float | None, half_width: float, per_deal: int = 1) -> int | None:
    """Deals needed for a 95% half-width of half_width, when one sample (a deal, or a
    game of which a deal holds per_deal) has this variance."""
    if variance is None:
        return None
    return max(1, math.ceil((Z95 ** 2) * variance / half_width ** 2 / per_deal))


def both_ways(games: list[Played], differences: list[float],
              rotations: int) -> tuple[Estimate, Estimate, float | None]:
    """Unpaired and deal-paired estimates of the games' differences, and the variance
    of the unpaired mean over the paired one's (None when either is unknown or zero)."""
    by_deal: dict[int, list[float]] = {}
    for game, difference in zip(games, differences):
        by_deal.setdefault(game.deal, []).append(difference)
    complete = [sum(d) / len(d) for d in by_deal.values() if len(d) == rotations]
    unpaired, paired = estimate(differences), estimate(complete)
    ratio = None
    if paired.variance and unpaired.variance:
        ratio = (unpaired.variance / unpaired.samples) / (paired.variance / paired.samples)
    return unpaired, paired, ratio


def judged(games: list[Played], a: int, b: int) -> tuple[Estimate | None, float | None]:
    """The corrected difference of a against b over the games judged, and the variance of
    their plain difference over the corrected one's (None where unknown)."""
    luck = [(2 * score(game.ranks, a, b) - 1, game.luck[a][b]) for game in games
            if game.luck is not None]
    if not luck:
        return None, None
    plain, corrected = estimate([d for d, _ in luck]), estimate([d - x for d, x in luck])
    ratio = None
    if plain.variance and corrected.variance:
        ratio = round(plain.variance / corrected.variance, 3)
    return corrected, ratio


def fitted(games: list[Played], a: int, b: int,
           rotations: int) -> tuple[Estimate | None, float | None]:
    """Each complete deal's mean difference of a against b less its games' mean luck
    times a coefficient fitted on the other deals (regression.cross_fitted), over the
    deals judged; and the paired variance over this one's on those deals (None where
    unknown). Where the judge sees little of the luck the coefficient is near zero and
    the estimate near the paired one, which subtracting the whole luck (the corrected
    estimate) would make worse; where it sees much, near one."""
    by_deal: dict[int, list[Played]] = {}
    for game in games:
        by_deal.setdefault(game.deal, []).append(game)
    deals = [rows for rows in by_deal.values()
             if len(rows) == rotations and all(game.luck is not None for game in rows)]
    if not deals:
        return None, None
    y = [sum(2 * score(game.ranks, a, b) - 1 for game in rows) / rotations for rows in deals]
    xs = [[sum(game.luck[a][b] for game in rows) / rotations]  # type: ignore[index]
          for rows in deals]
    weighed = len(deals) - 1 >= MIN_SAMPLES   # else the weight is 0: the paired estimate
    adjusted, plain = estimate(cross_fitted(y, xs), fitted=int(weighed)), estimate(y)
    ratio = None
    if plain.variance and adjusted.variance:
        ratio = round(plain.variance / adjusted.variance, 3)
    return adjusted, ratio


def pair(games: list[Played], a: int, b: int, rotations: int) -> dict[str, Any]:
    """The crosstable's cell of a against b."""
    both = [game for game in games if a in game.ranks and b in game.ranks]
    unpaired, paired, ratio = both_ways(
        both, [2 * score(game.ranks, a, b) - 1 for game in both], rotations)
    scored = [game for game in both if game.scores and a in game.scores and b in game.scores]
    points = both_ways(scored, [game.scores[a] - game.scores[b] for game in scored],  # type: ignore[index]
                       rotations) if scored and len(scored) == len(both) else None
    corrected, corrected_ratio = judged(both, a, b)
    regressed, regressed_ratio = fitted(both, a, b, rotations)
    wins = sum(1 for game in both if game.ranks[a] < game.ranks[b])
    draws = sum(1 for game in both if game.ranks[a] == game.ranks[b])
    return {
        "a": a, "b": b, "games": len(both), "deals": paired.samples,
        "a_wins": wins, "draws": draws, "b_wins": len(both) - wins - draws,
        "score": round(sum(score(game.ranks, a, b) for game in both) / len(both), 4)
        if both else None,
        "difference": unpaired.body(), "paired_difference": paired.body(),
        "variance_ratio": None if ratio is None else round(ratio, 3),
        # deals each format needs for a's score to be known within +-5 percentage points
        # (+-0.10 of difference), at the spread seen so far
        "deals_for_5_percent": {
            "paired": deals_for(paired.variance, 0.10),
            "unpaired": deals_for(unpaired.variance, 0.10, rotations),
            "corrected": None if corrected is None
            else deals_for(corrected.variance, 0.10, rotations),
            "fitted": None if regressed is None else deals_for(regressed.variance, 0.10)},
        # the difference less each game's luck (AIVAT), over the games judged (else null)
        "corrected_difference": None if corrected is None else corrected.body(),
        "corrected_variance_ratio": corrected_ratio,
        # the paired difference less the judge's luck weighed as fitted on other deals
        "fitted_difference": None if regressed is None else regressed.body(),
        "fitted_variance_ratio": regressed_ratio,
        # a's points minus b's, where the game scores points (else null)
        "points_difference": None if points is None else points[0].body(),
        "paired_points_difference": None if points is None else points[1].body(),
        "points_variance_ratio": None if points is None or points[2] is None
        else round(points[2], 3),
    }


def crosstable(games: list[Played], contestants: int, rotations: int) -> list[dict[str, Any]]:
    return [pair(games, a, b, rotations) for a, b in combinations(range(contestants), 2)]
