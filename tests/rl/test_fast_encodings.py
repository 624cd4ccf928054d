"""The encodings' observations, fast and incremental since #29, equal the previous plain
loops number for number (kept below as they were): every game and player count, random
games, at every step the views of seats drawn at random (the spectator's too), through
``observe`` and through one ``observer()`` fed the views in turn as an environment feeds it;
options that change the play (Slide's several deals, The Game's pro rules); and the
environments hand out those very observations and the masks of the legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from helpers import need_rl, random_game

need_rl()

import numpy as np  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.games.doublets import KING, NON_KINGS, card_value  # noqa: E402
from cardtable.games.slide import CELL_INDEX, MAX_TARGET, ROUNDS  # noqa: E402
from cardtable.games.the_game import CARDS, PILES, SIGNALS  # noqa: E402
from cardtable.rl import doublets, make_env, slide, the_game  # noqa: E402
from cardtable.rl.encoding import load_encoding, relative  # noqa: E402


# -- the observations as written before #29, verbatim: the reference ----------------------
def slide_observe(view: Mapping[str, Any]) -> np.ndarray:
    _F = slide.LAYOUT.by_name
    VALUES, MAX_SEATS, CELL_CODES = slide.VALUES, slide.MAX_SEATS, slide.CELL_CODES
    out = np.zeros(slide.LAYOUT.size, dtype=np.float32)
    n, viewer = view["players"], view["seat"]
    out[_F["phase"].start + slide.PHASES.index(view["phase"])] = 1
    out[_F["round"].start] = view["round"] / ROUNDS
    out[_F["players"].start + n - 2] = 1
    if view["target"] is not None:
        out[_F["target"].start] = view["target"] / MAX_TARGET
    centre = _F["centre"].start
    shown = [0] * (VALUES + 1)
    for v in view["centre"]:
        out[centre + v - 1] += 1 / MAX_SEATS
        shown[v] += 1
    if view["choice"] is not None:
        out[_F["choice"].start + CELL_INDEX[view["choice"]]] = 1
    for seat in range(n):
        k = relative(seat, viewer, n)
        cells = _F[f"seat{k}.cells"].start
        out[_F[f"seat{k}.present"].start] = 1
        for i, cell in enumerate(c for row in view["grids"][seat] for c in row):
            if cell is None:
                code = 0
            elif cell == "?":
                code = 1
            else:
                code = 1 + cell
                shown[cell] += 1
            out[cells + i * CELL_CODES + code] = 1
        out[_F[f"seat{k}.chosen"].start] = view["chosen"][seat]
        out[_F[f"seat{k}.turn"].start] = view["turn"] == seat
        out[_F[f"seat{k}.first"].start] = view["first"] == seat
        out[_F[f"seat{k}.total"].start] = view["totals"][seat] / 100
    unseen = _F["unseen"].start
    for v in range(1, VALUES + 1):
        out[unseen + v - 1] = max(VALUES - shown[v], 0) / VALUES
    return out


def doublets_observe(view: Mapping[str, Any]) -> np.ndarray:
    _F = doublets.LAYOUT.by_name
    MAX_WASTE, CARD_CODES = doublets.MAX_WASTE, doublets.CARD_CODES
    out = np.zeros(doublets.LAYOUT.size, dtype=np.float32)
    out[_F["needed"].start + view["needed"] - 1] = 1
    seen = [0] * (KING + 1)
    reserves = _F["reserves"].start
    for i, name in enumerate(view["reserves"]):
        v = card_value(name)  # 0 for an empty reserve
        seen[v] += 1
        out[reserves + i * CARD_CODES + v] = 1
    waste = _F["waste"].start
    top_first = list(reversed(view["waste"]))
    for i in range(MAX_WASTE):
        v = card_value(top_first[i]) if i < len(top_first) else 0
        seen[v] += 1
        out[waste + i * CARD_CODES + v] = 1
    for name in view["foundation"]:
        seen[card_value(name)] += 1
    out[_F["waste_size"].start] = len(top_first) / MAX_WASTE
    out[_F["stock"].start] = view["stock"] / MAX_WASTE
    out[_F["redeals_left"].start + view["redeals_left"]] = 1
    out[_F["foundation"].start] = len(view["foundation"]) / NON_KINGS
    unseen = _F["unseen"].start
    for v in range(1, KING + 1):
        out[unseen + v - 1] = (4 - seen[v]) / 4
    out[_F["over"].start] = bool(view["over"])
    return out


def the_game_observe(view: Mapping[str, Any]) -> np.ndarray:
    _F = the_game.LAYOUT.by_name
    TOPS, MAX_HAND, MINIMUMS, LOW = the_game.TOPS, the_game.MAX_HAND, the_game.MINIMUMS, CARDS[0]
    out = np.zeros(the_game.LAYOUT.size, dtype=np.float32)
    n, viewer = view["players"], view["seat"]
    piles, tops = _F["piles"].start, _F["tops"].start
    for p, name in enumerate(PILES):
        top = view["piles"][name]
        out[piles + p * TOPS + top - 1] = 1
        out[tops + p] = top / TOPS
    hand = _F["hand"].start
    for c in view["hand"] or ():
        out[hand + c - LOW] = 1
    out[_F["draw_pile"].start] = view["draw_pile"] / len(CARDS)
    out[_F["cards_left"].start] = view["cards_left"] / len(CARDS)
    out[_F["played_this_turn"].start] = min(view["played_this_turn"], MAX_HAND) / MAX_HAND
    out[_F["minimum"].start + min(max(view["minimum"], 1), MINIMUMS) - 1] = 1
    out[_F["players"].start + n - 1] = 1
    out[_F["over"].start] = bool(view["over"])
    for seat in range(n):
        k = relative(seat, viewer, n)
        out[_F[f"seat{k}.present"].start] = 1
        out[_F[f"seat{k}.turn"].start] = view["turn"] == seat
        out[_F[f"seat{k}.hand_size"].start] = view["hand_sizes"][seat] / MAX_HAND
        signals = _F[f"seat{k}.signals"].start
        for pile, said in view["signals"][seat].items():
            out[signals + PILES.index(pile) * len(SIGNALS) + SIGNALS.index(said)] = 1
    return out


#: the previous observation of each game's views, by game name
PREVIOUS = {"slide": slide_observe, "doublets": doublets_observe, "the-game": the_game_observe}


# -- the tests -----------------------------------------------------------------------------

TABLES = [
    (g, n) for g in PREVIOUS for n in range(games.get(g).min_players, games.get(g).max_players + 1)
]


def same(new: np.ndarray, old: np.ndarray) -> bool:
    """Equal to the bit (and in shape and type)."""
    return new.dtype == old.dtype and new.shape == old.shape and new.tobytes() == old.tobytes()


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_fast_observation_equals_the_previous_one(game, players):
    rules = games.get(game)
    enc = load_encoding(rules, players, {})
    previous = PREVIOUS[game]
    rng = random.Random(players)
    views = 0
    for seed in range(1, 7):
        observe = enc.observer()  # one per table, any seat's views in turn
        for state, _seat, _action in random_game(game, players, seed, rng):
            seats = [*range(players), None]
            rng.shuffle(seats)
            for seat in seats[: rng.randint(1, len(seats))]:
                view = state.view(seat)
                old = previous(view)
                assert same(observe(view), old), (seed, seat, len(state.actions))
                assert same(enc.observe(view), old), (seed, seat, len(state.actions))
                views += 1
        view = state.view(0)  # the end
        assert same(observe(view), previous(view)) and same(enc.observe(view), previous(view))
    assert views > 100


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("slide", 3, {"target": 120, "start": 2}),
        ("the-game", 2, {"pro": True}),
        ("the-game", 4, {"min_after_empty": 2}),
    ],
)
def test_options_that_change_the_play(game, players, options):
    rules = games.get(game)
    enc = load_encoding(rules, players, options)
    rng = random.Random(7)
    for seed in (1, 2):
        state, observe = rules.deal(seed, players, options), enc.observer()
        while True:
            for seat in range(players):
                view = state.view(seat)
                assert same(observe(view), PREVIOUS[game](view)), (seed, len(state.actions))
            if state.over:
                break
            seat = rng.choice(state.to_act())
            state.act(seat, rng.choice(state.legal(seat)))


def test_an_observer_given_views_of_other_tables_still_observes_each_right():
    """Nothing it remembers is trusted: views of another table (another player count too),
    back and forth, give each view's own numbers."""
    for game in PREVIOUS:
        rules = games.get(game)
        counts = sorted({rules.min_players, rules.max_players})
        encs = {n: load_encoding(rules, n, {}) for n in counts}
        observe = encs[counts[0]].observer()
        rng = random.Random(3)
        walks = [random_game(game, n, seed, rng) for n in counts for seed in (4, 5)]
        for _ in range(60):
            for walk in walks:
                step = next(walk, None)
                if step is not None:
                    view = step[0].view(rng.randrange(step[0].players))
                    assert same(observe(view), PREVIOUS[game](view)), game


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_environment_observes_and_masks_as_before(game, players):
    env = make_env(game, players=players)
    enc, rng = env.encoding, random.Random(players)
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            seat = env.seat_of[agent]
            view = env.state.view(seat)
            assert same(obs["observation"], PREVIOUS[game](view))
            mask = np.zeros(len(enc.actions), dtype=np.int8)
            for action in env.table.legal(seat):
                mask[enc.index(action)] = 1
            assert same(obs["action_mask"], mask)
            if terminated or truncated:
                env.step(None)
                continue
            obs["observation"][:] = 7  # what an agent does with its copy changes nothing
            obs["action_mask"][:] = 0
            env.step(int(rng.choice(np.flatnonzero(mask))))
