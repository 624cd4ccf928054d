"""Slide's encoding: the layout read back from known views, seats counted from the viewer."""

from __future__ import annotations

import random

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl.encoding import load_encoding  # noqa: E402
from cardtable.rl.slide import ACTIONS, CELL_CODES, LAYOUT, SlideEncoding  # noqa: E402

F = LAYOUT.by_name


def cells(obs: np.ndarray, block: int) -> np.ndarray:
    f = F[f"seat{block}.cells"]
    return obs[f.start : f.start + f.size].reshape(16, CELL_CODES)


def test_the_action_space():
    assert len(ACTIONS) == 56
    assert ACTIONS[0] == "reveal a1" and ACTIONS[15] == "reveal d4"
    assert ACTIONS[16] == "take 1 left" and ACTIONS[16 + 4 * 6 + 3] == "take 7 bottom"
    assert ACTIONS[-1] == "take 10 bottom"


def test_a_fresh_deal():
    state = games.get("slide").deal(3, 3)
    enc = load_encoding(games.get("slide"), 3, {})
    assert isinstance(enc, SlideEncoding)
    obs = enc.observe(state.view(0))
    assert obs[F["phase"].start : F["phase"].start + 3].tolist() == [1, 0, 0]
    assert obs[F["players"].start + 1] == 1  # three players
    for k in range(6):
        present = obs[F[f"seat{k}.present"].start]
        assert present == (k < 3)
        assert (cells(obs, k)[:, 1] == (k < 3)).all()  # every cell face down, or no seat
    assert obs[F["seat0.first"].start] == 1  # seat 0 starts
    assert (obs[F["unseen"].start : F["unseen"].start + 10] == 1).all()


def test_seats_are_counted_from_the_viewer():
    rules = games.get("slide")
    state = rules.deal(5, 3)
    rng = random.Random(1)
    while state.phase != "take" or state.round < 4:  # some cards face up in every grid
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    enc = load_encoding(rules, 3, {})
    view1 = state.view(1)
    obs = enc.observe(view1)
    for k, seat in enumerate((1, 2, 0)):
        grid = [c for row in view1["grids"][seat] for c in row]
        codes = cells(obs, k).argmax(axis=1)
        assert [0 if c is None else 1 if c == "?" else 1 + c for c in grid] == codes.tolist()
        assert obs[F[f"seat{k}.turn"].start] == (view1["turn"] == seat)
    centre = obs[F["centre"].start : F["centre"].start + 10] * 6
    assert [round(x) for x in centre] == [view1["centre"].count(v) for v in range(1, 11)]


def test_the_viewer_sees_its_own_choice_only():
    rules = games.get("slide")
    state = rules.deal(9, 2)
    state.act(0, "reveal b2")
    enc = load_encoding(rules, 2, {})
    choice = F["choice"]
    mine = enc.observe(state.view(0))[choice.start : choice.start + choice.size]
    theirs = enc.observe(state.view(1))[choice.start : choice.start + choice.size]
    assert mine.tolist().index(1) == 5 and not theirs.any()
