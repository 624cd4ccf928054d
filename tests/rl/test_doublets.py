"""Doublets' encoding: the layout read back from known views (cards by value, suits left out)."""

from __future__ import annotations

from helpers import need_rl

need_rl()

from cardtable import games  # noqa: E402
from cardtable.games.doublets import card_value  # noqa: E402
from cardtable.rl.doublets import ACTIONS, CARD_CODES, LAYOUT  # noqa: E402
from cardtable.rl.encoding import load_encoding  # noqa: E402

F = LAYOUT.by_name


def test_the_action_space():
    assert ACTIONS == (
        "play waste",
        "play r1",
        "play r2",
        "play r3",
        "play r4",
        "play r5",
        "play r6",
        "play r7",
        "flip",
        "redeal",
    )


def test_a_view_read_back():
    rules = games.get("doublets")
    state = rules.deal(42)
    for _ in range(3):
        state.act(0, "flip")
    view = state.view(0)
    obs = load_encoding(rules, 1, {}).observe(view)
    assert obs[F["needed"].start + view["needed"] - 1] == 1
    reserves = obs[F["reserves"].start : F["reserves"].start + F["reserves"].size]
    assert reserves.reshape(7, CARD_CODES).argmax(axis=1).tolist() == [
        card_value(c) for c in view["reserves"]
    ]
    waste = obs[F["waste"].start : F["waste"].start + F["waste"].size].reshape(44, CARD_CODES)
    top_first = [card_value(c) for c in reversed(view["waste"])]
    assert waste.argmax(axis=1).tolist() == top_first + [0] * (44 - len(top_first))
    assert obs[F["stock"].start] * 44 == view["stock"] == 41
    assert obs[F["redeals_left"].start + 2] == 1
    unseen = obs[F["unseen"].start : F["unseen"].start + 13] * 4
    in_sight = [card_value(c) for c in view["reserves"] + view["waste"] + view["foundation"]]
    assert [round(x) for x in unseen] == [4 - in_sight.count(v) for v in range(1, 14)]
