"""The one statistics module: Wilson intervals for shares, normal intervals for means."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.stats import mean_ci, wilson, z_score


def test_wilson_known_values():
    # worked values (Wilson 1927; Newcombe 1998, table I): 95 %, z = 1.95996
    low, high = wilson(99, 100)
    assert low == pytest.approx(0.94551, abs=1e-5) and high == pytest.approx(0.99823, abs=1e-5)
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    low, high = wilson(15, 148)
    assert low == pytest.approx(0.0624, abs=1e-4) and high == pytest.approx(0.1605, abs=1e-4)


def test_wilson_ends_and_empty_runs():
    assert wilson(0, 0) == (0.0, 1.0)  # nothing known
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(-1, 10)


def test_wilson_where_the_normal_approximation_leaves_zero_to_one():
    # p ± 1.96 sqrt(p(1-p)/n) for 99 of 100 ends above 1: the bug this module replaced
    assert 0.99 + 1.96 * math.sqrt(0.99 * 0.01 / 100) > 1
    assert wilson(99, 100)[1] < 1


def test_wilson_wider_at_higher_confidence():
    low95, high95 = wilson(30, 60)
    low99, high99 = wilson(30, 60, confidence=0.99)
    assert low99 < low95 < 0.5 < high95 < high99
    assert z_score(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError):
        z_score(1.0)


@given(
    st.integers(0, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999]),
)
def test_wilson_bounds_stay_in_zero_one_around_the_share(case, confidence):
    successes, n = case
    low, high = wilson(successes, n, confidence)
    assert 0.0 <= low <= high <= 1.0
    if n:
        assert low <= successes / n <= high


def test_mean_ci_known_values():
    mean, low, high = mean_ci([0.0, 1.0] * 50)
    # 50 zeros and 50 ones: sample variance 25 / 99, half-width z * sqrt(variance / 100)
    half = 1.959964 * math.sqrt(25 / 99 / 100)
    assert mean == 0.5
    assert low == pytest.approx(0.5 - half, abs=1e-6)
    assert high == pytest.approx(0.5 + half, abs=1e-6)
    assert mean_ci([2.0]) == (2.0, 2.0, 2.0)  # one value: no spread to measure
    assert mean_ci([3.0] * 10) == (3.0, 3.0, 3.0)
    with pytest.raises(ValueError):
        mean_ci([])


@given(st.lists(st.integers(-1000, 1000), min_size=2, max_size=200))
def test_mean_ci_holds_the_mean(values):
    mean, low, high = mean_ci([float(v) for v in values])
    assert low <= mean <= high
    assert mean == pytest.approx(sum(values) / len(values))
