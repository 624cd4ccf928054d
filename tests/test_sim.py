"""The simulator: seeded, reproducible, the same on the fast and plain paths for greedy."""

from __future__ import annotations

import pytest

from cardtable.sim import simulate
from cardtable.stats import wilson


def test_same_arguments_same_numbers():
    a = simulate("slide", 3, ["greedy", "random", "random"], 40, seed=5, bot_key=8)
    b = simulate("slide", 3, ["greedy", "random", "random"], 40, seed=5, bot_key=8)
    assert a == b and a["bot_key"] == 8
    c = simulate("slide", 3, ["greedy", "random", "random"], 40, seed=6, bot_key=8)
    assert c != a
    # without a key each run gets a fresh secret one, which the summary names
    d = simulate("slide", 3, ["greedy", "random", "random"], 40, seed=5)
    assert d["bot_key"] not in (None, 8) and d["bot_key"].bit_length() > 64
    assert (
        simulate("slide", 3, ["greedy", "random", "random"], 40, seed=5, bot_key=d["bot_key"]) == d
    )


@pytest.mark.parametrize(("game", "players"), [("slide", 3), ("doublets", 1), ("the-game", 4)])
def test_greedy_figures_equal_on_fast_and_plain_paths(game, players):
    fast = simulate(game, players, ["greedy"], 25, seed=3, fast=True, bot_key=1)
    plain = simulate(game, players, ["greedy"], 25, seed=3, fast=False, bot_key=1)
    assert fast == plain


def test_summary_fields():
    s = simulate("the-game", 2, ["greedy"], 30, seed=1)
    assert s["games"] == 30 and s["players"] == 2 and s["bots"] == ["greedy", "greedy"]
    assert 0 <= s["won"] <= 1
    assert s["seats"][0]["mean_score"] == s["seats"][1]["mean_score"]  # cooperative
    assert set(s["by_bot"]) == {"greedy"}


def test_bad_bot_lists_are_refused():
    with pytest.raises(ValueError, match="one per seat"):
        simulate("slide", 3, ["greedy", "random"], 5)


def test_summary_intervals_are_wilson_and_stay_in_zero_one():
    # greedy against random at Slide wins nearly every game: a normal approximation would
    # put the upper bound above 1
    s = simulate("slide", 2, ["greedy", "random"], 60, seed=1, bot_key=3)
    greedy, rand = s["seats"]
    for seat in (greedy, rand):
        low, high = seat["win_rate_ci95"]
        assert 0.0 <= low <= seat["win_rate"] <= high <= 1.0
        score_low, score_high = seat["mean_score_ci95"]
        assert score_low <= seat["mean_score"] <= score_high
    wins = round(greedy["win_rate"] * 60)
    assert greedy["win_rate_ci95"] == list(wilson(wins, 60))
    coop = simulate("the-game", 2, ["greedy"], 20, seed=1, bot_key=3)
    assert coop["won_ci95"] == list(wilson(round(coop["won"] * 20), 20))


def test_summary_of_games_that_all_failed_has_no_figures():
    from cardtable.sim import GameOutcome, summarize

    failed = [GameOutcome(seed, ["greedy", "greedy"], None, [], error="boom") for seed in (1, 2)]
    s = summarize("slide", failed)
    assert s["errors"] == 2
    assert s["seats"][0]["games"] == 0 and s["seats"][0]["win_rate"] is None
    assert s["seats"][0]["win_rate_ci95"] == [0.0, 1.0]
