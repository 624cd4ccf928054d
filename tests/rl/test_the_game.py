"""The Game's encoding: the layout read back from known views, seats from the viewer."""

from __future__ import annotations

from helpers import need_rl

need_rl()

from cardtable import games  # noqa: E402
from cardtable.rl.encoding import load_encoding  # noqa: E402
from cardtable.rl.the_game import ACTIONS, LAYOUT  # noqa: E402

F = LAYOUT.by_name


def test_the_action_space():
    assert len(ACTIONS) == 409
    assert ACTIONS[0] == "play 2 up1" and ACTIONS[4 * (34 - 2) + 2] == "play 34 down1"
    assert ACTIONS[392] == "end"
    assert ACTIONS[393] == "signal up1 avoid" and ACTIONS[393 + 4 * 3 + 3] == "signal down2 clear"


def test_a_view_read_back():
    rules = games.get("the-game")
    state = rules.deal(7, 3)
    hand = state.view(0)["hand"]
    state.act(0, f"play {hand[0]} up1")
    state.act(1, "signal down2 good")  # out of turn
    view = state.view(2)
    obs = load_encoding(rules, 3, {}).observe(view)
    piles = obs[F["piles"].start : F["piles"].start + 400].reshape(4, 100)
    assert (piles.argmax(axis=1) + 1).tolist() == [hand[0], 1, 100, 100]
    mine = obs[F["hand"].start : F["hand"].start + 98]
    assert [c for c in range(2, 100) if mine[c - 2]] == view["hand"]
    assert obs[F["played_this_turn"].start] * 8 == 1
    assert obs[F["minimum"].start + 1] == 1  # 2 while the draw pile lasts
    # seat 2 views: block 0 is itself, block 1 seat 0 (to move), block 2 seat 1 (signalled)
    assert obs[F["seat1.turn"].start] == 1 and obs[F["seat0.turn"].start] == 0
    signals = obs[F["seat2.signals"].start : F["seat2.signals"].start + 12].reshape(4, 3)
    assert signals.tolist()[3] == [0, 0, 1] and signals[:3].sum() == 0
    assert obs[F["seat3.present"].start] == 0 and obs[F["seat2.present"].start] == 1


def test_masks_of_any_legal_list_as_written_out():
    """The mask keeps its plays' part and its signal moves' part between calls (#29): any list,
    of ``legal``'s shape or not, and one changed by its caller after a call, marks exactly its
    actions."""
    import numpy as np

    enc = load_encoding(games.get("the-game"), 2, {})
    plays = ["play 5 up1", "play 5 up2", "play 90 down1", "end"]
    tail = list(games.get("the-game").deal(1, 2).legal(0)[-12:])
    lists = [
        plays + tail,
        plays + tail,  # (the plays kept)
        plays,  # (no signal moves: the talk limit took them)
        [],
        ["play 7 up1", *tail[:6], "play 8 up1", *tail],  # (signal moves among the plays)
        tail[:5] + plays + tail,
        ["signal up1 avoid"] * 12,
    ]
    mine = ["play 9 up1", *tail]
    for legal in [*lists, mine]:
        want = np.zeros(len(ACTIONS), dtype=np.int8)
        want[[ACTIONS.index(a) for a in legal]] = 1
        got = enc.mask(legal)
        assert got.dtype == np.int8 and got.flags.writeable and (got == want).all(), legal
    mine[0] = "play 10 up1"  # the caller's list changed: the kept part is not its list
    want = np.zeros(len(ACTIONS), dtype=np.int8)
    want[[ACTIONS.index(a) for a in mine]] = 1
    assert (enc.mask(mine) == want).all()
