"""The Slide search bot: legal moves, a sampler true to the view, determinism, and strength."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable import BadOptions, games
from cardtable.bots import make_bot
from cardtable.bots.slide_search import _PUSHES, SearchBot, greedy_take_fast
from cardtable.games import slide
from cardtable.games.slide import sample_state
from cardtable.sim import play_one
from helpers import play_checking_legal

GAME = games.get("slide")


def random_positions(seed: int, players: int, **options: object):
    """Every position of a random game, as (state, seat) for each seat."""
    rng = random.Random(seed)
    state = GAME.deal(seed, players, options)
    while not state.over:
        for seat in range(players):
            yield state, seat
        seat = rng.choice(state.to_act())
        state.act(seat, rng.choice(state.legal(seat)))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("players", [2, 3])
def test_moves_are_legal_at_every_level(level, players):
    state = GAME.deal(40 + players, players)
    seat_bots = [make_bot(f"search:{level}", "slide", s) if s == 0 else make_bot("greedy", "slide")
                 for s in range(players)]
    play_checking_legal(state, seat_bots)


def test_levels_and_registry():
    assert isinstance(make_bot("search", "slide"), SearchBot)
    assert make_bot("search", "slide").level == "normal"
    assert make_bot("search:easy", "slide").level == "easy"
    with pytest.raises(BadOptions, match="levels"):
        make_bot("search:godlike", "slide")
    with pytest.raises(BadOptions):
        make_bot("search", "doublets")


@pytest.mark.parametrize(("seed", "players", "options"), [
    (1, 2, {}), (2, 3, {}), (3, 4, {"start": 2}), (4, 6, {}), (5, 2, {"target": 40}),
])
def test_sampled_states_agree_with_the_view(seed, players, options):
    rng = random.Random(seed)
    checked = 0
    for state, seat in random_positions(seed, players, **options):
        view = state.view(seat)
        sampled = sample_state(view, rng)
        assert sampled.view(seat) == view
        # the same face-up cards, holes and face-down positions; the centre as shown
        for s in range(players):
            for i, (real, fake) in enumerate(zip(state.grids[s], sampled.grids[s], strict=True)):
                assert (real > 0, real == 0, real < 0) == (fake > 0, fake == 0, fake < 0), (s, i)
                if real >= 0:
                    assert fake == real
        assert sampled.centre == state.centre
        assert sampled.holes == state.holes
        # face-down values come from the unseen cards: never more of a value than the deck has
        seen = Counter(abs(v) for g in sampled.grids for v in g if v) + Counter(sampled.centre)
        assert all(count <= 10 for count in seen.values())
        # the seat's own pending choice is kept; others that chose have some face-down cell
        for s in range(players):
            if view["chosen"][s]:
                assert sampled.grids[s][sampled.pending[s]] < 0
                if s == seat:
                    assert sampled.pending[s] == state.pending[s]
            else:
                assert sampled.pending[s] == -1
        checked += 1
        if checked % 7 == 0:  # it plays on to the end
            sampled.playout(["greedy"] * players, rng)
            assert sampled.over
    assert checked > 50


def test_the_sampler_uses_only_the_view():
    # two states that differ only in hidden values give the same samples from the same rng
    a = GAME.deal(11, 3)
    b = a.clone()
    for grid in b.grids:
        grid.reverse()  # face-down values moved around: the views are still equal
    assert a.view(1) == b.view(1)
    sa = sample_state(a.view(1), random.Random(5))
    sb = sample_state(b.view(1), random.Random(5))
    assert sa.grids == sb.grids


def test_fast_greedy_take_matches_the_rules_helper():
    rng = random.Random(3)
    for _ in range(3000):
        grid = [rng.choice([-1, rng.randint(1, 10), rng.randint(1, 3)]) for _ in range(16)]
        hole = rng.randrange(16)
        grid[hole] = 0
        values = sorted({rng.randint(1, 10) for _ in range(rng.randint(1, 6))})
        value, k = greedy_take_fast(grid, hole, values)
        assert (value, _PUSHES[hole][k][0]) == slide.greedy_take(grid, hole, values)


def play(seed: int, level: str, bot_seed: int) -> list:
    state = GAME.deal(seed, 2)
    play_one(state, [make_bot(f"search:{level}", "slide", bot_seed), make_bot("greedy", "slide")])
    return state.actions


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_bot_is_deterministic_for_a_seed(level):
    assert play(8, level, 99) == play(8, level, 99)


def test_search_beats_greedy_clearly():
    # two samples per candidate keep this fast; hard searches more (bench/slide_bots.py)
    wins = 0
    games_played = 24
    for i in range(games_played):
        seed = 500 + i
        seat = i % 2
        bot = SearchBot("slide", seed * 16 + seat, "normal")
        bot.samples = bot.first_samples = 2
        seat_bots = [make_bot("greedy", "slide"), make_bot("greedy", "slide")]
        seat_bots[seat] = bot
        state = GAME.deal(seed, 2)
        play_one(state, seat_bots)
        wins += seat in state.result()["winners"]
    assert wins >= 16, wins  # greedy against itself wins about half
