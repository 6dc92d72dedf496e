"""Control variates fitted by least squares on the other samples: the luck they see goes,
the expectation stays."""

import random
import statistics

from service.arena.regression import MIN_SAMPLES, coefficients, cross_fitted


def noisy_samples(rng: random.Random, n: int, weight: float,
                  mean: float = 0.3) -> tuple[list[float], list[list[float]]]:
    """y = mean + weight * x + noise, x of expectation zero."""
    xs = [[rng.gauss(0, 1)] for _ in range(n)]
    return [mean + weight * x[0] + rng.gauss(0, 0.2) for x in xs], xs


def test_the_fitted_coefficient_is_the_weight_of_the_luck_in_the_result():
    y, xs = noisy_samples(random.Random(1), 400, 0.7)
    [slope] = coefficients(y, xs)
    assert abs(slope - 0.7) < 0.03


def test_subtracting_the_fitted_luck_leaves_the_mean_and_removes_the_spread():
    y, xs = noisy_samples(random.Random(2), 200, 0.9)
    adjusted = cross_fitted(y, xs)
    assert statistics.variance(adjusted) < statistics.variance(y) / 10
    assert abs(statistics.mean(adjusted) - 0.3) < 0.05


def test_a_cross_fitted_mean_is_unbiased_where_a_coefficient_fitted_in_sample_is_not():
    # y's luck is x (expectation zero) and a part x cannot tell, x squared less one. Fitted
    # on the sample itself, the coefficient follows that sample's own luck and the mean
    # drifts far from the truth, 0.3; fitted on the other samples, it stays there.
    rng = random.Random(3)
    in_sample, cross = [], []
    for _ in range(1000):
        xs = [[rng.gauss(0, 1)] for _ in range(MIN_SAMPLES + 2)]
        y = [0.3 + 0.5 * x + 0.5 * (x * x - 1) for [x] in xs]
        [slope] = coefficients(y, xs)
        in_sample.append(statistics.mean(y) - slope * statistics.mean(x for [x] in xs))
        cross.append(statistics.mean(cross_fitted(y, xs)))
    error = statistics.stdev(cross) / len(cross) ** 0.5
    assert abs(statistics.mean(cross) - 0.3) < 3 * error
    assert statistics.mean(in_sample) < 0.3 - 5 * error


def test_a_term_that_never_varies_or_too_few_samples_weigh_nothing():
    assert coefficients([0.1, 0.5, -0.2, 0.3], [[1.0], [1.0], [1.0], [1.0]]) == [0.0]
    y, xs = noisy_samples(random.Random(5), 50, 0.6)
    [_, slope] = coefficients(y, [[0.0, x] for [x] in xs])   # a part that is always zero
    assert abs(slope - 0.6) < 0.1
    y, xs = noisy_samples(random.Random(6), MIN_SAMPLES - 1, 0.6)
    assert coefficients(y, xs) == [0.0]
    assert cross_fitted(y, xs) == y


def test_several_terms_are_weighed_together():
    rng = random.Random(4)
    xs = [[rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(300)]
    y = [0.2 * a + 1.0 * b + rng.gauss(0, 0.1) for a, b, _ in xs]   # the third is noise
    found = coefficients(y, xs)
    assert [round(c, 1) for c in found] == [0.2, 1.0, 0.0]
