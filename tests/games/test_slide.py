"""Slide: every rule of RULES.md section 1, as unit and scenario tests.

Positions are built from a real deal whose internal fields are then set by ``position`` (a grid
is 16 ints row-major: a value face up, minus the value face down, 0 the hole). Grids are written
as text rows: ``"4 ?3 7 ."`` is a face-up 4, a face-down 3, a face-up 7 and the hole.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardtable import games
from cardtable.core.errors import (
    BadOptions,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from cardtable.core.protocol import replay
from cardtable.games import slide
from cardtable.games.slide import SlideState, removed_cells

GAME = games.get("slide")
DIRECTIONS = ("left", "right", "top", "bottom")
CELLS = [f"{col}{row}" for row in "1234" for col in "abcd"]  # row-major: index = row*4 + col
ALL_REVEALS = [f"reveal {c}" for c in CELLS]
ALL_TAKES = [f"take {v} {d}" for v in range(1, 11) for d in DIRECTIONS]
CORNERS = ["a1", "d1", "a4", "d4"]
EDGES = ["b1", "c1", "a2", "d2", "a3", "d3", "b4", "c4"]
INNER = ["b2", "c2", "b3", "c3"]


MAX_ACTIONS = 5_000  # far more than any game here needs (a deal of 6 seats is 192 actions)


# -- helpers ---------------------------------------------------------------------------------
def idx(name: str) -> int:
    """The index of a cell name: a1 = 0, d1 = 3, a2 = 4, ..., d4 = 15."""
    return "1234".index(name[1]) * 4 + "abcd".index(name[0])


def grid(*rows: str) -> list[int]:
    """A grid from 4 text rows of 4 cells: ``7`` face up, ``?7`` face down, ``.`` the hole."""
    assert len(rows) == 4
    cells = []
    for row in rows:
        words = row.split()
        assert len(words) == 4, row
        for w in words:
            cells.append(0 if w == "." else -int(w[1:]) if w.startswith("?") else int(w))
    return cells


def position(
    players: int = 2,
    *,
    grids: list[list[int]] | None = None,
    phase: str = "reveal",
    round_: int = 1,
    first: int = 0,
    taken: int = 0,
    centre: tuple[int, ...] | list[int] = (),
    holes: list[str | None] | None = None,
    pending: list[str | None] | None = None,
    seed: int = 7,
    **options: object,
) -> slide.SlideState:
    """A real deal with its internal fields set to the position wanted."""
    state = GAME.deal(seed, players, options)
    if grids is not None:
        assert len(grids) == players
        state.grids = [list(g) for g in grids]
    state.phase = phase
    state.round = round_
    state.first = first
    state.taken = taken
    state.centre = sorted(centre)
    state.holes = [idx(h) if h else -1 for h in holes] if holes else [-1] * players
    state.pending = [idx(p) if p else -1 for p in pending] if pending else [-1] * players
    return state


def take_position(g: list[int], centre: list[int], players: int = 2) -> slide.SlideState:
    """Seat 0 to take, its grid ``g`` (with one hole), the other grids full and face up."""
    full = [[5] * 16 for _ in range(players - 1)]
    hole = CELLS[g.index(0)]
    return position(
        players,
        grids=[g, *full],
        phase="take",
        centre=centre,
        holes=[hole] + [None] * (players - 1),
    )


def finishing(
    finals: list[list[int]], first: int = 0, seed: int = 7, **options: object
) -> slide.SlideState:
    """Round 16 started by ``first``; all but the last seat have taken; one take ends the deal.

    ``finals`` are the grids as they will stand once the deal is over. The last seat's grid
    has its hole at d4 and ``finish`` pushes the missing a4 card in from the left, which
    yields exactly its final grid.
    """
    n = len(finals)
    last = (first + n - 1) % n
    target = list(finals[last])
    grids = [list(g) for g in finals]
    grids[last] = target[:12] + [target[13], target[14], target[15], 0]
    holes: list[str | None] = [None] * n
    holes[last] = "d4"
    return position(
        n,
        grids=grids,
        phase="take",
        round_=16,
        first=first,
        taken=n - 1,
        centre=[target[12]],
        holes=holes,
        seed=seed,
        **options,
    )


def finish(state: slide.SlideState, finals: list[list[int]]) -> None:
    (seat,) = state.to_act()
    state.act(seat, f"take {finals[seat][12]} left")
    if state.over:
        assert state.grids == finals  # the helper's push gave the grid intended


def background(**cells: int) -> list[int]:
    """A face-up grid of 1s (they all cancel) with the given cells set; keep those apart."""
    g = [1] * 16
    for name, value in cells.items():
        g[idx(name)] = value
    return g


def play_first_legal(state: slide.SlideState, until=lambda s: s.over) -> None:
    """Play on by each seat's first legal action until ``until(state)``.

    Bounded, so that an engine that never ends fails the test instead of hanging it.
    """
    for _ in range(MAX_ACTIONS):
        if until(state):
            return
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


def cards_in_play(snap: dict) -> Counter:
    """The values in every grid (either face) and in the centre."""
    values = [abs(v) for g in snap["grids"] for v in g if v != 0]
    return Counter(values + list(snap["centre"]))


def reference_push(g: list[int], hole: int, direction: str, card: int) -> list[int]:
    """RULES.md's table written out cell by cell, independently of the engine."""
    r, c = divmod(hole, 4)
    out = list(g)
    at = lambda rr, cc: rr * 4 + cc  # noqa: E731
    if direction == "left":
        for k in range(c, 0, -1):
            out[at(r, k)] = g[at(r, k - 1)]
        out[at(r, 0)] = card
    elif direction == "right":
        for k in range(c, 3):
            out[at(r, k)] = g[at(r, k + 1)]
        out[at(r, 3)] = card
    elif direction == "top":
        for k in range(r, 0, -1):
            out[at(k, c)] = g[at(k - 1, c)]
        out[at(0, c)] = card
    else:
        for k in range(r, 3):
            out[at(k, c)] = g[at(k + 1, c)]
        out[at(3, c)] = card
    return out


def legal_sides(name: str) -> list[str]:
    r, c = divmod(idx(name), 4)
    ok = {"left": c > 0, "right": c < 3, "top": r > 0, "bottom": r < 3}
    return [d for d in DIRECTIONS if ok[d]]


# A grid with 15 distinguishable cards (both faces) and a hole, for the push tests.
MARKED = [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, 1, 2, 3, 4, 6, 8]


def marked_with_hole(hole: str) -> list[int]:
    g = list(MARKED)
    g.insert(idx(hole), 0)
    return g[:16]


# -- cards and setup -------------------------------------------------------------------------
def test_the_deck_is_100_cards_ten_of_each_number_1_to_10():
    assert Counter(slide.DECK) == {v: 10 for v in range(1, 11)}
    assert len(slide.DECK) == 100


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_16_face_down_cards_to_each_seat_as_a_4x4_grid(players):
    state = GAME.deal(11, players)
    snap = state.snapshot()
    assert len(snap["grids"]) == players
    for g in snap["grids"]:
        assert len(g) == 16
        assert all(-10 <= v <= -1 for v in g)  # all face down, no hole
    view = state.view(0)
    assert all(len(rows) == 4 and all(len(row) == 4 for row in rows) for rows in view["grids"])
    assert snap["centre"] == [] and snap["holes"] == [-1] * players


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_undealt_cards_are_boxed_and_every_card_is_accounted_for(players):
    snap = GAME.deal(12, players).snapshot()
    dealt = cards_in_play(snap)
    deck = Counter(slide.DECK)
    assert all(dealt[v] <= deck[v] for v in dealt)  # never more than ten of a number
    boxed = deck - dealt
    assert sum(dealt.values()) == 16 * players
    assert sum(boxed.values()) == 100 - 16 * players
    assert dealt + boxed == deck


def test_boxed_cards_appear_in_no_view():
    state = GAME.deal(12, 2)
    for seat in (0, 1, None):
        view = state.view(seat)
        assert not any("box" in key for key in view)
        assert sum(len(row) for rows in view["grids"] for row in rows) == 32


@pytest.mark.parametrize("players", [2, 6])
def test_cards_are_conserved_through_a_whole_game(players):
    state = GAME.deal(21, players)
    start = cards_in_play(state.snapshot())
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        seat = state.to_act()[0]
        legal = state.legal(seat)
        state.act(seat, legal[len(legal) // 2])
        if not state.over:
            assert cards_in_play(state.snapshot()) == start
    assert state.over
    assert sum(start.values()) == 16 * players


def test_the_same_seed_gives_the_same_deal_and_other_seeds_differ():
    a = GAME.deal(5, 3).snapshot()["grids"]
    assert GAME.deal(5, 3).snapshot()["grids"] == a
    assert GAME.deal(6, 3).snapshot()["grids"] != a


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_face_down_cells_show_a_question_mark_to_everyone_including_the_owner(viewer):
    view = GAME.deal(3, 3).view(viewer)
    assert view["grids"] == [[["?"] * 4 for _ in range(4)] for _ in range(3)]


def test_views_do_not_depend_on_hidden_values_mid_game():
    state = GAME.deal(4, 3)
    play_first_legal(state, until=lambda s: s.round == 6 and s.phase == "take")
    other = state.clone()
    for g in other.grids:  # change every hidden value, keep every face
        for i, v in enumerate(g):
            if v < 0:
                g[i] = -(v % 10 + 1)
    assert other.snapshot()["grids"] != state.snapshot()["grids"]
    for viewer in (0, 1, 2, None):
        assert other.view(viewer) == state.view(viewer)
    assert any("?" in row for rows in state.view(0)["grids"] for row in rows)


def test_views_are_json_ready():
    state = GAME.deal(4, 2)
    state.act(0, "reveal a1")
    for viewer in (0, 1, None):
        json.dumps(state.view(viewer))
    json.dumps(state.snapshot())


def test_seat_zero_holds_the_token_by_default_and_round_and_deal_count_from_1():
    state = GAME.deal(1, 4)
    view = state.view(None)
    assert view["first"] == 0
    assert view["round"] == 1
    assert view["deal"] == 1
    assert view["phase"] == "reveal"


@pytest.mark.parametrize("start", [0, 1, 2])
def test_option_start_gives_the_token_to_that_seat(start):
    state = GAME.deal(1, 3, {"start": start})
    assert state.view(None)["first"] == start
    for seat in range(3):
        state.act(seat, "reveal a1")
    assert state.to_act() == (start,)


def test_cells_are_named_column_a_to_d_then_row_1_to_4_from_the_top_left():
    assert list(slide.CELL_NAMES) == CELLS
    assert CELLS[0] == "a1" and CELLS[3] == "d1" and CELLS[4] == "a2" and CELLS[15] == "d4"
    g = [-5] * 16
    g[idx("c2")] = 0  # row 2, column c
    g[idx("b4")] = 9  # row 4, column b
    view = position(2, grids=[g, [-5] * 16], phase="take", holes=["c2", None], centre=[1]).view(0)
    assert view["grids"][0][1][2] is None and view["grids"][0][3][1] == 9
    assert view["holes"][0] == "c2"


# -- the simultaneous reveal -----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_seat_must_choose_a_reveal_at_once(players):
    state = GAME.deal(2, players)
    assert state.to_act() == tuple(range(players))
    for seat in range(players):
        assert state.legal(seat) == ALL_REVEALS


def test_a_seat_that_has_chosen_leaves_to_act_and_may_change_its_mind():
    state = GAME.deal(2, 3)
    state.act(1, "reveal b2")
    assert state.to_act() == (0, 2)
    assert state.legal(1) == [a for a in ALL_REVEALS if a != "reveal b2"]
    with pytest.raises(IllegalAction, match="already"):
        state.act(1, "reveal b2")  # re-choosing the same cell is no change


def test_the_choice_is_secret_from_other_seats_and_spectators():
    state = GAME.deal(2, 3)
    state.act(0, "reveal c3")
    mine = state.view(0)
    assert mine["chosen"] == [True, False, False]
    assert mine["choice"] == "c3"
    for viewer in (1, 2, None):
        view = state.view(viewer)
        assert view["chosen"] == [True, False, False]  # whether, not which
        assert view["choice"] is None
    other = GAME.deal(2, 3)
    other.act(0, "reveal a1")
    for viewer in (1, 2, None):
        assert other.view(viewer) == state.view(viewer)
    assert "c3" not in json.dumps(state.view(1))
    state.act(2, "reveal a4")
    assert [state.view(v)["choice"] for v in (0, 1, 2, None)] == ["c3", None, "a4", None]
    assert state.view(1)["chosen"] == [True, False, True]


def test_a_change_of_mind_replaces_the_choice():
    state = GAME.deal(8, 2)
    truth = state.snapshot()["grids"]
    state.act(0, "reveal d4")
    state.act(0, "reveal b1")
    assert state.view(0)["choice"] == "b1"
    assert state.snapshot()["pending"] == ["b1", None]
    state.act(1, "reveal c3")
    snap = state.snapshot()
    assert snap["holes"] == [idx("b1"), idx("c3")]
    assert snap["grids"][0][idx("d4")] == truth[0][idx("d4")] < 0  # d4 stays face down
    assert snap["centre"] == sorted([-truth[0][idx("b1")], -truth[1][idx("c3")]])


def test_chosen_cards_go_to_the_centre_only_when_the_last_seat_chooses():
    state = GAME.deal(9, 3)
    truth = state.snapshot()["grids"]
    state.act(0, "reveal a1")
    state.act(2, "reveal d4")
    snap = state.snapshot()
    assert snap["grids"] == truth and snap["centre"] == [] and snap["phase"] == "reveal"
    state.act(1, "reveal b3")
    snap = state.snapshot()
    assert snap["phase"] == "take"
    assert snap["centre"] == sorted(
        [-truth[0][idx("a1")], -truth[1][idx("b3")], -truth[2][idx("d4")]]
    )
    assert snap["holes"] == [idx("a1"), idx("b3"), idx("d4")]
    for seat, hole in enumerate(["a1", "b3", "d4"]):
        expected = list(truth[seat])
        expected[idx(hole)] = 0
        assert snap["grids"][seat] == expected  # one hole, the rest untouched
    view = state.view(None)
    assert view["holes"] == ["a1", "b3", "d4"]
    assert view["grids"][0][0][0] is None and view["grids"][1][2][1] is None
    assert view["centre"] == snap["centre"]
    assert view["chosen"] == [False, False, False]


def test_only_face_down_cells_may_be_revealed():
    g = grid("4 ?3 7 ?1", "7 2 7 ?5", "9 ?6 ?7 3", "?8 ?9 5 ?10")
    state = position(2, grids=[g, [-5] * 16], round_=5)
    assert state.legal(0) == [
        f"reveal {c}" for c in ["b1", "d1", "d2", "b3", "c3", "a4", "b4", "d4"]
    ]
    with pytest.raises(IllegalAction, match="face up"):
        state.act(0, "reveal a1")


def test_round_16_forced_reveal_is_an_action_and_the_only_legal_one():
    g0 = [3] * 16
    g0[idx("c2")] = -4
    g1 = [6] * 16
    g1[idx("a4")] = -2
    state = position(2, grids=[g0, g1], round_=16, first=1)
    assert state.to_act() == (0, 1)  # not skipped: the seats must still act
    assert state.legal(0) == ["reveal c2"]
    assert state.legal(1) == ["reveal a4"]
    state.act(0, "reveal c2")
    assert state.legal(0) == []  # no other face-down cell to change to
    assert state.to_act() == (1,)
    state.act(1, "reveal a4")
    assert state.centre == [2, 4] and state.phase == "take"


def test_in_a_real_game_round_16_offers_exactly_one_reveal():
    state = GAME.deal(13, 3)
    play_first_legal(state, until=lambda s: s.round == 16)
    for seat in range(3):
        assert len(state.legal(seat)) == 1
        assert state.legal(seat)[0].startswith("reveal ")


def test_reveal_during_the_take_step_is_illegal():
    state = take_position(grid(". 1 2 3", "4 5 6 7", "8 9 10 1", "2 3 4 5"), [6, 7])
    with pytest.raises(IllegalAction, match="revealed already"):
        state.act(0, "reveal b2")


def test_take_during_the_reveal_is_refused_as_not_your_turn():
    state = GAME.deal(3, 2)
    with pytest.raises(NotYourTurn):
        state.act(0, "take 5 left")


# -- take and place in turn ------------------------------------------------------------------
def test_take_order_starts_with_the_token_holder_and_goes_clockwise():
    state = GAME.deal(14, 4, {"start": 2})
    for seat in range(4):
        state.act(seat, "reveal b2")
    order = []
    while state.phase == "take" and len(order) < 4:
        (seat,) = state.to_act()
        assert state.view(None)["turn"] == seat
        for other in range(4):
            assert (state.legal(other) != []) == (other == seat)
        order.append(seat)
        state.act(seat, state.legal(seat)[0])
    assert order == [2, 3, 0, 1]


@pytest.mark.parametrize(("players", "start"), [(2, 0), (3, 2), (5, 1)])
def test_first_seat_of_round_k_is_start_plus_k_minus_1_mod_n(players, start):
    state = GAME.deal(15, players, {"start": start})
    seen = []
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        if state.phase == "take" and state.taken == 0:
            k = state.round
            assert state.view(None)["first"] == (start + k - 1) % players
            assert state.to_act() == ((start + k - 1) % players,)
            seen.append(k)
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[-1])
    assert state.over
    assert seen == list(range(1, 17))


def test_any_centre_card_may_be_taken_including_ones_own():
    # seat 0 revealed the 9 at b2; it may take it back, or any other centre card
    state = take_position(grid("1 2 3 4", "5 . 7 8", "1 2 3 4", "5 6 7 8"), [2, 9, 9])
    assert state.legal(0) == [f"take {v} {d}" for v in (2, 9) for d in DIRECTIONS]
    state.act(0, "take 9 top")
    assert state.centre == [2, 9]
    assert state.grids[0][idx("b1")] == 9


def test_the_last_seat_gets_the_last_card():
    state = GAME.deal(16, 3)
    for seat in range(3):
        state.act(seat, "reveal c2")
    state.act(0, state.legal(0)[0])
    state.act(1, state.legal(1)[0])
    (left,) = state.centre
    assert state.legal(2) == [f"take {left} {d}" for d in DIRECTIONS]
    state.act(2, f"take {left} left")
    assert state.centre == [] and state.phase == "reveal" and state.round == 2


def test_equal_centre_cards_are_one_choice_and_taking_one_leaves_the_other():
    state = take_position(grid("1 2 3 4", "5 6 7 8", "1 2 . 4", "5 6 7 8"), [7, 7])
    assert state.legal(0) == [f"take 7 {d}" for d in DIRECTIONS]
    state.act(0, "take 7 right")
    assert state.centre == [7]


# -- the slide -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hole", "count"),
    [(c, 2) for c in CORNERS] + [(c, 3) for c in EDGES] + [(c, 4) for c in INNER],
)
def test_number_of_legal_pushes_corner_2_edge_3_inner_4(hole, count):
    state = take_position(marked_with_hole(hole), [3, 7])
    sides = legal_sides(hole)
    assert len(sides) == count
    assert state.legal(0) == [f"take {v} {d}" for v in (3, 7) for d in sides]


def test_legal_pushes_for_the_corner_a1_the_edge_b1_and_the_inner_c3_exactly():
    assert take_position(marked_with_hole("a1"), [5]).legal(0) == ["take 5 right", "take 5 bottom"]
    assert take_position(marked_with_hole("b1"), [5]).legal(0) == [
        "take 5 left",
        "take 5 right",
        "take 5 bottom",
    ]
    assert take_position(marked_with_hole("d3"), [2, 5]).legal(0) == [
        "take 2 left",
        "take 2 top",
        "take 2 bottom",
        "take 5 left",
        "take 5 top",
        "take 5 bottom",
    ]
    assert take_position(marked_with_hole("c3"), [5]).legal(0) == [
        "take 5 left",
        "take 5 right",
        "take 5 top",
        "take 5 bottom",
    ]


@pytest.mark.parametrize("hole", CELLS)
def test_each_push_moves_the_cells_between_edge_and_hole_one_step(hole):
    before = marked_with_hole(hole)
    for side in legal_sides(hole):
        state = take_position(before, [9])
        state.act(0, f"take 9 {side}")
        assert state.grids[0] == reference_push(before, idx(hole), side, 9), side
        assert 0 not in state.grids[0]


def test_pushes_into_an_inner_hole_cell_by_cell():
    g = grid("?1 ?2 ?3 ?4", "?5 . 1 2", "3 ?6 4 6", "8 ?7 ?8 ?9")
    cases = {
        "left": grid("?1 ?2 ?3 ?4", "10 ?5 1 2", "3 ?6 4 6", "8 ?7 ?8 ?9"),
        "right": grid("?1 ?2 ?3 ?4", "?5 1 2 10", "3 ?6 4 6", "8 ?7 ?8 ?9"),
        "top": grid("?1 10 ?3 ?4", "?5 ?2 1 2", "3 ?6 4 6", "8 ?7 ?8 ?9"),
        "bottom": grid("?1 ?2 ?3 ?4", "?5 ?6 1 2", "3 ?7 4 6", "8 10 ?8 ?9"),
    }
    for side, after in cases.items():
        state = take_position(g, [10])
        state.act(0, f"take 10 {side}")
        assert state.grids[0] == after, side


def test_the_worked_example_of_round_5():
    g0 = grid("4 ?2 7 ?6", "7 2 7 ?8", "9 ?1 ?9 3", "?10 ?4 5 ?3")
    g1 = grid("?1 ?2 ?3 ?4", "?5 ?6 ?7 ?8", "?9 ?10 ?7 ?1", "?2 ?3 ?4 ?5")
    state = position(2, grids=[g0, g1], round_=5, first=0)
    state.act(0, "reveal d4")
    state.act(0, "reveal b1")
    state.act(1, "reveal c3")
    assert state.centre == [2, 7]
    assert state.view(0)["holes"] == ["b1", "c3"]
    assert state.legal(0) == [
        "take 2 left",
        "take 2 right",
        "take 2 bottom",
        "take 7 left",
        "take 7 right",
        "take 7 bottom",
    ]
    state.act(0, "take 7 left")
    assert state.grids[0] == grid("7 4 7 ?6", "7 2 7 ?8", "9 ?1 ?9 3", "?10 ?4 5 ?3")
    assert state.view(1)["grids"][0] == [
        [7, 4, 7, "?"],
        [7, 2, 7, "?"],
        [9, "?", "?", 3],
        ["?", "?", 5, "?"],
    ]
    assert state.legal(1) == [f"take 2 {d}" for d in DIRECTIONS]  # inner hole: all four
    state.act(1, "take 2 top")
    assert state.round == 6 and state.first == 1 and state.phase == "reveal"
    assert state.to_act() == (0, 1)


def test_face_down_cards_moved_by_a_push_stay_face_down_with_their_value():
    g = grid("?3 ?8 ?1 .", "?2 ?2 ?2 ?9", "?4 ?4 ?4 ?4", "?5 ?5 ?5 ?10")
    state = take_position(g, [6])
    state.act(0, "take 6 left")
    assert state.snapshot()["grids"][0][:4] == [6, -3, -8, -1]
    assert state.view(0)["grids"][0][0] == [6, "?", "?", "?"]
    state = take_position(g, [6])
    state.act(0, "take 6 bottom")
    column_d = [state.snapshot()["grids"][0][idx(f"d{r}")] for r in "1234"]
    assert column_d == [-9, -4, -10, 6]
    assert [row[3] for row in state.view(None)["grids"][0]] == ["?", "?", "?", 6]


def test_the_placed_card_is_face_up_for_every_viewer():
    state = take_position(marked_with_hole("c2"), [4])
    state.act(0, "take 4 right")
    for viewer in (0, 1, None):
        assert state.view(viewer)["grids"][0][1][3] == 4
    assert state.view(0)["holes"][0] is None
    assert state.snapshot()["holes"][0] == -1


@pytest.mark.parametrize(
    ("hole", "side", "edge"),
    [
        ("a1", "left", "left column"),
        ("a1", "top", "top row"),
        ("d4", "right", "right column"),
        ("d4", "bottom", "bottom row"),
        ("c1", "top", "top row"),
        ("a3", "left", "left column"),
        ("d2", "right", "right column"),
        ("b4", "bottom", "bottom row"),
    ],
)
def test_a_push_from_the_edge_the_hole_lies_on_is_illegal_with_a_reason(hole, side, edge):
    state = take_position(marked_with_hole(hole), [4])
    before = state.snapshot()
    with pytest.raises(IllegalAction) as err:
        state.act(0, f"take 4 {side}")
    assert type(err.value) is IllegalAction
    assert hole in err.value.reason and edge in err.value.reason
    assert "straight into the hole" in err.value.reason
    assert state.snapshot() == before


def test_no_diagonal_or_other_push_words_exist():
    state = take_position(marked_with_hole("b2"), [4])
    for word in ("diagonal", "topleft", "up", "down", "hole", "b2"):
        with pytest.raises(MalformedAction):
            state.act(0, f"take 4 {word}")


# -- end and score ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 6])
def test_after_round_16_every_grid_is_face_up_in_every_view(players):
    state = GAME.deal(17, players)
    play_first_legal(state)
    assert state.over and state.to_act() == ()
    assert state.view(None)["phase"] == "over"
    snap = state.snapshot()
    for viewer in [*range(players), None]:
        view = state.view(viewer)
        assert view["first"] is None
        for seat, rows in enumerate(view["grids"]):
            flat = [v for row in rows for v in row]
            assert flat == snap["grids"][seat]
            assert all(isinstance(v, int) and 1 <= v <= 10 for v in flat)


def distinct(**cells: int) -> list[int]:
    """A grid of 16 different values (11..26: never equal) with the given cells set."""
    g = [11 + i for i in range(16)]
    for name, value in cells.items():
        g[idx(name)] = value
    return g


def names(values: list[int]) -> list[str]:
    return [CELLS[i] for i in removed_cells(values)]


@pytest.mark.parametrize(
    ("cells", "gone"),
    [
        ({"b2": 4, "b3": 4}, ["b2", "b3"]),  # a vertical pair
        ({"c4": 4, "d4": 4}, ["c4", "d4"]),  # a horizontal pair
        ({"a1": 3, "a2": 3, "b2": 3}, ["a1", "a2", "b2"]),  # an L
        ({"c1": 1, "c2": 1, "d2": 1}, ["c1", "c2", "d2"]),  # an L (the worked example)
        ({"b4": 4, "c4": 4, "d4": 4}, ["b4", "c4", "d4"]),  # a line of 3
        ({"a3": 5, "b3": 5, "c3": 5, "d3": 5}, ["a3", "b3", "c3", "d3"]),  # a line of 4
        ({"c1": 8, "c2": 8, "c3": 8, "c4": 8}, ["c1", "c2", "c3", "c4"]),  # a column of 4
        ({"b1": 6, "a2": 6, "b2": 6, "c2": 6, "b3": 6}, ["b1", "a2", "b2", "c2", "b3"]),  # a plus
        ({"b2": 2, "c2": 2, "b3": 2, "c3": 2}, ["b2", "c2", "b3", "c3"]),  # a square
        ({"a1": 7, "b2": 7, "c3": 7, "d4": 7}, []),  # a diagonal: nothing
        ({"b3": 2, "a4": 2}, []),  # a corner touch only (the worked example's 2s)
        ({"a1": 9, "c1": 9, "a3": 9}, []),  # same number, not touching
        (
            {"a1": 5, "b1": 5, "d1": 3, "d2": 3, "b4": 5},
            ["a1", "b1", "d1", "d2"],
        ),  # two groups; a lone 5 elsewhere stays
    ],
)
def test_removed_cells_orthogonal_groups_of_any_shape_go_diagonals_do_not_count(cells, gone):
    assert names(distinct(**cells)) == sorted(gone, key=idx)


def test_removed_cells_a_whole_grid_of_one_number_all_goes():
    assert removed_cells([7] * 16) == list(range(16))


WORKED_SEAT_0 = grid("5 5 1 8", "3 9 1 1", "6 2 10 7", "2 4 4 4")
WORKED_SEAT_1 = grid("10 10 3 9", "6 6 6 8", "2 7 5 5", "2 8 4 8")


def test_the_worked_final_scoring_ties_47_and_fewer_cards_wins():
    state = finishing([WORKED_SEAT_0, WORKED_SEAT_1])
    finish(state, [WORKED_SEAT_0, WORKED_SEAT_1])
    assert state.over
    assert state.grids == [WORKED_SEAT_0, WORKED_SEAT_1]
    res = state.result()
    seats = res["deals"][0]["seats"]
    assert seats[0] == {
        "removed": ["a1", "b1", "c1", "c2", "d2", "b4", "c4", "d4"],
        "score": 47,
        "remaining": 8,
    }
    assert seats[1] == {
        "removed": ["a1", "b1", "a2", "b2", "c2", "a3", "c3", "d3", "a4"],
        "score": 47,
        "remaining": 7,
    }
    assert res["over"] is True
    assert res["scores"] == [47, 47]
    assert res["remaining"] == [8, 7]
    assert res["ranks"] == [2, 1]
    assert res["winners"] == [1]
    assert state.view(0)["result"] == res


def test_score_is_the_sum_of_the_remaining_cards_and_the_lowest_wins():
    finals = [background(a1=9, c1=4), background(a1=2, c3=3, a3=5)]  # 13 against 10
    state = finishing(finals)
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [13, 10]
    assert res["remaining"] == [2, 3]
    assert res["winners"] == [1]  # lowest sum wins, even with more cards left
    assert res["ranks"] == [2, 1]
    assert res["deals"][0]["seats"][0]["removed"] == [c for c in CELLS if c not in ("a1", "c1")]


def test_a_score_tie_goes_to_the_seat_with_fewest_remaining_cards():
    finals = [background(a1=5, c1=5), background(a3=10), background(c3=4, a1=6)]
    state = finishing(finals)
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [10, 10, 10]
    assert res["remaining"] == [2, 1, 2]
    assert res["winners"] == [1]
    assert res["ranks"] == [2, 1, 2]


def test_still_tied_the_win_is_shared():
    finals = [background(a1=3, c3=4), background(c1=2, a3=5), background(a1=9, c1=7)]
    state = finishing(finals)
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [7, 7, 16]
    assert res["winners"] == [0, 1]
    assert res["ranks"] == [1, 1, 3]


def test_a_grid_that_cancels_completely_scores_zero():
    finals = [background(), background(a1=2)]
    state = finishing(finals)
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [0, 2]
    assert res["remaining"] == [0, 1]
    assert res["deals"][0]["seats"][0]["removed"] == CELLS
    assert res["winners"] == [0]


def test_result_per_seat_matches_the_final_grids_in_a_played_game():
    state = GAME.deal(18, 4)
    play_first_legal(state)
    res = state.result()
    seats = res["deals"][0]["seats"]
    for s, g in enumerate(state.grids):
        gone = removed_cells(g)
        assert seats[s]["removed"] == [CELLS[i] for i in gone]
        left = [g[i] for i in range(16) if i not in gone]
        assert seats[s]["score"] == sum(left) == res["scores"][s]
        assert seats[s]["remaining"] == len(left) == res["remaining"][s]
    key = list(zip(res["scores"], res["remaining"], strict=True))
    assert res["winners"] == [s for s in range(4) if key[s] == min(key)]
    assert res["ranks"] == [1 + sum(k < key[s] for k in key) for s in range(4)]


def test_result_before_the_end_says_not_over_and_names_no_winner():
    state = GAME.deal(18, 2)
    res = state.result()
    assert res["over"] is False and res["winners"] == []


# -- option target: several deals ------------------------------------------------------------
def test_without_target_a_single_deal_ends_the_game():
    state = GAME.deal(19, 2)
    play_first_legal(state)
    assert state.deal_no == 1 and len(state.result()["deals"]) == 1


def test_with_target_a_new_deal_follows_until_a_seat_reaches_it():
    single = GAME.deal(19, 3, {"start": 1})
    play_first_legal(single)
    deal1 = single.result()["scores"]
    state = GAME.deal(19, 3, {"start": 1, "target": max(deal1) + 1})
    play_first_legal(state, until=lambda s: s.deal_no == 2)
    assert not state.over
    view = state.view(None)
    assert view["deal"] == 2 and view["round"] == 1 and view["phase"] == "reveal"
    assert view["totals"] == deal1  # the same deal 1 as without target
    # round 16 of deal 1 started with seat (1 + 15) % 3 = 1; deal 2 starts with the next seat
    assert view["first"] == (1 + 16) % 3 == 2
    assert view["grids"] == [[["?"] * 4 for _ in range(4)] for _ in range(3)]
    assert view["centre"] == [] and view["holes"] == [None] * 3
    assert state.to_act() == (0, 1, 2)
    deal1_start = GAME.deal(19, 3, {"start": 1}).snapshot()["grids"]
    assert state.snapshot()["grids"] != deal1_start  # every deal is a fresh shuffle
    assert len(view["deal_results"]) == 1
    for seat in range(3):
        state.act(seat, "reveal a1")
    assert state.to_act() == (2,)
    play_first_legal(state)
    res = state.result()
    assert max(res["scores"]) >= state.options["target"]
    assert [d["deal"] for d in res["deals"]] == list(range(1, state.deal_no + 1))
    for s in range(3):
        assert res["scores"][s] == sum(d["seats"][s]["score"] for d in res["deals"])
        assert res["remaining"][s] == sum(d["seats"][s]["remaining"] for d in res["deals"])


def test_with_target_the_game_stops_after_the_first_deal_reaching_it():
    state = GAME.deal(20, 2, {"target": 60})
    totals_after = []
    for _ in range(50):
        if state.over:
            break
        deal = state.deal_no
        play_first_legal(state, until=lambda s, d=deal: s.over or s.deal_no != d)
        totals_after.append(list(state.totals))
    assert state.over
    assert all(max(t) < 60 for t in totals_after[:-1])
    assert max(totals_after[-1]) >= 60
    assert len(state.result()["deals"]) == len(totals_after)


def test_with_target_reaching_it_exactly_ends_the_game_and_lowest_total_wins():
    finals = [background(a1=4), background(a1=9)]
    state = finishing(finals, target=100)
    state.totals = [96, 80]
    state.total_counts = [20, 20]
    finish(state, finals)
    assert state.over
    res = state.result()
    assert res["scores"] == [100, 89]  # the totals
    assert res["remaining"] == [21, 21]
    assert res["winners"] == [1]  # lowest total, though seat 0 won this deal
    assert res["deals"][-1]["seats"][0]["score"] == 4


def test_with_target_not_reached_the_next_deal_is_dealt():
    finals = [background(a1=4), background(a1=9)]
    state = finishing(finals, first=1, target=100)  # round 16 started with seat 1
    state.totals = [50, 80]
    state.total_counts = [5, 5]
    state.deal_no = 3
    finish(state, finals)
    assert not state.over
    assert state.totals == [54, 89] and state.total_counts == [6, 6]
    view = state.view(0)
    assert view["deal"] == 4 and view["round"] == 1 and view["first"] == 0
    assert view["deal_results"][-1]["deal"] == 3
    assert all(v < 0 for g in state.snapshot()["grids"] for v in g)


def test_with_target_a_tie_on_totals_goes_to_fewest_remaining_over_all_deals():
    finals = [background(a1=4), background(a1=9), background(c1=2)]
    state = finishing(finals, target=50)
    state.totals = [70, 65, 40]
    state.total_counts = [9, 12, 9]
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [74, 74, 42]
    assert res["remaining"] == [10, 13, 10]
    assert res["ranks"] == [2, 3, 1]
    assert res["winners"] == [2]
    state = finishing(finals, target=50)
    state.totals = [70, 65, 80]
    state.total_counts = [9, 12, 9]
    finish(state, finals)
    assert state.result()["winners"] == [0]


def test_with_target_still_tied_the_win_is_shared():
    finals = [background(a1=4), background(a1=9)]
    state = finishing(finals, target=50)
    state.totals = [70, 65]
    state.total_counts = [9, 9]
    finish(state, finals)
    res = state.result()
    assert res["scores"] == [74, 74] and res["remaining"] == [10, 10]
    assert res["winners"] == [0, 1] and res["ranks"] == [1, 1]


# -- errors and refusals ---------------------------------------------------------------------
MALFORMED = [
    "reveal z9",
    "reveal a5",
    "reveal e1",
    "reveal A1",
    "reveal",
    "reveal a1 b2",
    "Reveal a1",
    "take 11 left",
    "take 0 left",
    "take 07 left",
    "take -3 left",
    "take x left",
    "take 7 sideways",
    "take 7 Left",
    "take 7",
    "take left 7",
    "take 7 left now",
    "take ² left",
    "take ١ left",
    "take ７ left",
    "jump",
    "",
    " ",
    " reveal a1",
    "reveal a1 ",
    "reveal  a1",
    "pass",
]


@pytest.mark.parametrize("action", MALFORMED)
def test_malformed_actions_are_refused_as_malformed(action):
    for state in (GAME.deal(1, 2), take_position(marked_with_hole("b2"), [7])):
        before = state.snapshot()
        with pytest.raises(MalformedAction) as err:
            state.act(0, action)
        assert isinstance(err.value, IllegalAction) and isinstance(err.value, ValueError)
        assert err.value.reason
        assert state.snapshot() == before


@pytest.mark.parametrize("action", [None, 7, ("reveal", "a1"), b"reveal a1", ["take 7 left"]])
def test_non_string_actions_are_malformed(action):
    state = GAME.deal(1, 2)
    before = state.snapshot()
    with pytest.raises(MalformedAction):
        state.act(0, action)
    assert state.snapshot() == before


def test_a_take_out_of_turn_is_not_your_turn():
    state = GAME.deal(1, 3, {"start": 1})
    for seat in range(3):
        state.act(seat, "reveal a1")
    value = state.centre[0]
    before = state.snapshot()
    for seat in (0, 2):
        with pytest.raises(NotYourTurn, match="seat 2's turn"):  # index 1, counted from 1
            state.act(seat, f"take {value} right")
    assert state.snapshot() == before


@pytest.mark.parametrize("seat", [-1, 2, 5, True, "0", None])
def test_a_seat_not_at_the_table_is_refused(seat):
    state = GAME.deal(1, 2)
    before = state.snapshot()
    with pytest.raises(NotYourTurn):
        state.act(seat, "reveal a1")
    assert state.snapshot() == before


def test_taking_a_card_not_in_the_centre_is_illegal():
    state = take_position(marked_with_hole("b2"), [3, 7])
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="no 5 in the centre") as err:
        state.act(0, "take 5 left")
    assert type(err.value) is IllegalAction
    assert state.snapshot() == before


def refusals():
    """(name, state, seat, action): a refused action in each phase."""
    reveal = GAME.deal(22, 3)
    reveal.act(1, "reveal c2")
    yield "same reveal again", reveal, 1, "reveal c2"
    yield "take in reveal", reveal, 0, "take 5 left"
    yield "malformed in reveal", reveal, 2, "reveal q7"
    face_up = position(
        2, grids=[grid("4 ?3 7 ?1", "7 2 7 ?5", "9 ?6 ?7 3", "?8 ?9 5 ?10"), [-5] * 16]
    )
    yield "face-up reveal", face_up, 0, "reveal a1"
    take = take_position(marked_with_hole("a1"), [3, 7], players=3)
    yield "into the hole", take, 0, "take 3 left"
    yield "not in centre", take, 0, "take 4 right"
    yield "out of turn", take, 1, "take 3 right"
    yield "reveal in take", take, 0, "reveal b2"
    yield "no such seat", take, 3, "take 3 right"


@pytest.mark.parametrize("case", list(refusals()), ids=lambda c: c[0])
def test_every_refused_action_leaves_the_state_unchanged(case):
    _, state, seat, action = case
    before = state.snapshot()
    views = [state.view(v) for v in (*range(state.players), None)]
    legal = [state.legal(s) for s in range(state.players)]
    with pytest.raises(IllegalAction):
        state.act(seat, action)
    assert state.snapshot() == before
    assert [state.view(v) for v in (*range(state.players), None)] == views
    assert [state.legal(s) for s in range(state.players)] == legal


def test_legal_lists_exactly_the_actions_act_accepts():
    state = GAME.deal(23, 3)
    checked = 0
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        if state.round in (1, 9, 16):
            for seat in range(3):
                legal = state.legal(seat)
                for action in ALL_REVEALS + ALL_TAKES:
                    trial = state.clone()
                    try:
                        trial.act(seat, action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                        assert trial == state
                    assert accepted == (action in legal), (seat, action)
                    checked += 1
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    assert state.over
    assert checked == 3 * (16 + 40) * 3 * 6  # 3 rounds of 6 positions, 3 seats each


def test_acting_after_the_end_is_game_over():
    state = GAME.deal(24, 2)
    play_first_legal(state)
    before = state.snapshot()
    for action in ("reveal a1", "take 5 left", "jump"):
        with pytest.raises(GameOver):
            state.act(0, action)
    assert state.legal(0) == [] and state.legal(1) == []
    assert state.to_act() == ()
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (2, {"speed": 3}, ["no option 'speed'", "start", "target"]),
        (2, {"start": 2}, ["start", "no seat 3", "seats 1 to 2"]),
        (6, {"start": 6}, ["start", "no seat 7"]),
        (3, {"start": -1}, ["start", "no seat 0"]),
        (2, {"start": "1"}, ["start", "int"]),
        (2, {"start": True}, ["start", "int"]),
        (2, {"start": None}, ["start"]),
        (2, {"target": 0}, ["target", "at least 1"]),
        (2, {"target": -100}, ["target", "at least 1"]),
        (2, {"target": "100"}, ["target", "int or null"]),
        (2, {"target": 99.5}, ["target", "int"]),
        (1, {}, ["Slide", "2 to 6", "not 1"]),
        (7, {}, ["Slide", "2 to 6", "not 7"]),
        (0, {}, ["2 to 6"]),
        ("2", {}, ["whole number"]),
    ],
)
def test_bad_options_and_player_counts_raise_bad_options_with_a_readable_message(
    players, options, words
):
    with pytest.raises(BadOptions) as err:
        GAME.deal(1, players, options)
    assert isinstance(err.value, ValueError)
    for word in words:
        assert word in err.value.reason


def test_good_options_are_accepted():
    assert GAME.deal(1, 6, {"start": 5}).first == 5
    assert GAME.deal(1, 2, {"target": None}).options["target"] is None
    assert GAME.deal(1, 2, {"target": 100}).options == {"start": 0, "target": 100}
    assert GAME.deal(1).players == 2


# -- records, clone and the fast playout -----------------------------------------------------
@pytest.mark.parametrize(("players", "target"), [(2, None), (3, None), (6, None), (2, 150)])
def test_playout_follows_the_rules_its_record_replays_through_act(players, target):
    state = GAME.deal(25, players, {"target": target})
    state.act(0, "reveal b2")  # playouts go on from a position part way through a step
    state.playout([("random", "greedy")[s % 2] for s in range(players)], random.Random(players))
    assert state.over
    again = replay(GAME, state.record())
    assert again == state
    assert again.result() == state.result()
    if target is not None:
        assert state.deal_no == len(state.result()["deals"]) and state.deal_no >= 2


def test_clone_is_independent():
    state = GAME.deal(26, 2)
    copy = state.clone()
    copy.act(0, "reveal a1")
    copy.act(1, "reveal a1")
    assert state.phase == "reveal" and state.centre == [] and state.actions == []
    assert state != copy


def test_clone_and_assemble_know_every_field_and_share_no_list():
    """``clone`` copies field by field for speed: it must hold exactly the fields ``FIELDS``
    names (which ``assemble`` and ``sample_state`` build from) and share no list."""
    state = GAME.deal(3, 3)
    for _ in range(7):
        for seat in state.to_act():
            state.act(seat, state.legal(seat)[0])
    copy = state.clone()
    base = {"seed", "players", "options", "actions"}
    assert set(vars(copy)) == set(vars(state)) == base | set(SlideState.FIELDS)
    for name, value in vars(state).items():
        if isinstance(value, list) and name != "options":
            assert vars(copy)[name] is not value, name
    assert all(a is not b for a, b in zip(copy.grids, state.grids, strict=True))
    rebuilt = SlideState.assemble(
        state.seed,
        state.players,
        state.options,
        list(state.actions),
        **{name: getattr(state, name) for name in SlideState.FIELDS},
    )
    assert rebuilt == state
