"""Confidence intervals for every figure cardtable reports (simulations, solver runs, benches).

A share (a win rate, the winnable deals) gets the Wilson score interval: unlike the normal
approximation ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] (99 wins of 100 give
[0.9455, 0.9982], not an upper bound of 1.0095) and is not a single point at 0 or n
successes. A mean (scores, ranks) gets the normal approximation with the sample's standard
deviation, sound for the hundreds of games a run plays.

>>> low, high = wilson(99, 100)
>>> round(low, 4), round(high, 4)
(0.9455, 0.9982)
>>> mean_ci([1.0, 2.0, 3.0])[0]
2.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def z_score(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 95 %)."""
    if not 0 < confidence < 1:
        raise ValueError(f"a confidence level is between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the share ``successes / n``.

    With no trials nothing is known: ``(0.0, 1.0)``."""
    if n < 0 or not 0 <= successes <= max(n, 0):
        raise ValueError(f"{successes} successes of {n} trials")
    if n == 0:
        return 0.0, 1.0
    z = z_score(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends at 0 and n successes (rounding would leave 1e-17); the clamps only absorb
    # rounding elsewhere: the interval is inside [0, 1] by construction
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its confidence interval (normal approximation).

    One value has no spread to measure: its interval is the value itself. No values: a
    ``ValueError`` (there is no mean to report)."""
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z_score(confidence) * math.sqrt(var / n)
    return mean, mean - half, mean + half


__all__ = ["mean_ci", "wilson", "z_score"]
