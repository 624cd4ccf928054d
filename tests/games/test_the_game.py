"""The Game (Benndorf): every rule of RULES.md section 3, as unit and scenario tests.

Positions are built from a real deal by setting the state's fields (``position`` below); every
card not placed by a test goes to the draw pile or under a pile's top, so the 98 cards are
always all there.
"""

from __future__ import annotations

import json
import random
from itertools import chain

import pytest

from cardtable import games
from cardtable.bots.greedy import GreedyBot
from cardtable.core.errors import (
    BadOptions,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from cardtable.games import the_game

GAME = games.get("the-game")
PILES = ("up1", "up2", "down1", "down2")
ALL_CARDS = list(range(2, 100))
HAND_SIZES = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
SIGNALS = ("avoid", "small", "good")
VIEW_KEYS = {
    "game",
    "seat",
    "players",
    "to_act",
    "piles",
    "hand",
    "played",
    "hand_sizes",
    "draw_pile",
    "turn",
    "played_this_turn",
    "minimum",
    "minimum_empty",
    "signals",
    "cards_left",
    "over",
}
# A tight board: the up piles are high and the down piles low, so 12..79 mostly fit nowhere
# (only the tricks 80, 81 on the up piles and 20, 21 on the down piles).
TIGHT = (90, 91, 10, 11)


# -- helpers ---------------------------------------------------------------------------------
def position(
    hands,
    tops=(1, 1, 100, 100),
    draw="rest",
    *,
    turn=0,
    played=0,
    start_turn=True,
    seed=0,
    **options,
):
    """A state with these hands and pile tops, every other card placed so all 98 stay.

    ``draw``: "rest" (every unplaced card, in ascending order, so the highest is drawn
    first), an int (that many of the unplaced cards, the rest going under pile tops) or an
    explicit list (top last). Unplaced cards that are not drawn go under the top of the first
    pile that has a played card. ``start_turn`` runs the start-of-turn end test, as the engine
    does when a turn begins.
    """
    state = GAME.deal(seed, len(hands), options)
    placed = list(chain.from_iterable(hands)) + [t for t in tops if t not in (1, 100)]
    assert len(placed) == len(set(placed)), "a card placed twice"
    rest = [c for c in ALL_CARDS if c not in set(placed)]
    if draw == "rest":
        draw_cards, rest = rest, []
    elif isinstance(draw, int):
        draw_cards, rest = rest[:draw], rest[draw:]
    else:
        draw_cards = list(draw)
        assert not set(draw_cards) & set(placed), "a draw card is also placed"
        rest = [c for c in rest if c not in set(draw_cards)]
    piles = [[t] if t not in (1, 100) else [] for t in tops]
    if rest:
        under = next(p for p in piles if p)  # a pile with a played card takes the rest
        under[:0] = rest
    state.hands = [sorted(h) for h in hands]
    state.draw = draw_cards
    state.tops = list(tops)
    state.piles_played = piles
    state.turn = turn
    state.played = played
    state.signals = [{} for _ in hands]
    state._ended = False
    state.actions = []
    if start_turn and played == 0:
        state._start_turn()
    assert_conserved(state)
    return state


def assert_conserved(state):
    """Hands + draw pile + played cards are the 98 cards 2..99, each once; tops match piles."""
    snap = state.snapshot()
    cards = list(chain(*snap["hands"], snap["draw"], *snap["piles"].values()))
    assert sorted(cards) == ALL_CARDS
    for i, pile in enumerate(PILES):
        played = snap["piles"][pile]
        assert snap["tops"][i] == (played[-1] if played else (1 if i < 2 else 100))


def fits_ref(card, pile, top):
    """RULES.md: up: higher or exactly 10 lower; down: lower or exactly 10 higher."""
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


def can_play_ref(hand, tops, count):
    """Brute force over whole sequences: can ``count`` cards be played one after another?"""
    if count <= 0:
        return True
    for card in hand:
        for p in range(4):
            if fits_ref(card, p, tops[p]):
                rest = [c for c in hand if c != card]
                if can_play_ref(rest, tops[:p] + [card] + tops[p + 1 :], count - 1):
                    return True
    return False


def plays(state, seat=None):
    """The play actions among ``legal``, as a set."""
    seat = state.turn if seat is None else seat
    return {a for a in state.legal(seat) if a.startswith("play")}


def act_all(state, seat, actions):
    for action in actions:
        state.act(seat, action)
        assert_conserved(state)


def random_act_game(players, seed, **options):
    """Play a game through ``act`` with random legal actions (some signals, from any seat)."""
    rng = random.Random(seed)
    state = GAME.deal(seed, players, options)
    yield state
    while not state.over:
        if rng.random() < 0.05:
            seat = rng.randrange(players)
            action = rng.choice([a for a in state.legal(seat) if a.startswith("signal")])
        else:
            seat = state.turn
            moves = [a for a in state.legal(seat) if not a.startswith("signal")]
            action = rng.choice(moves)
        state.act(seat, action)
        yield state


def lists_in(value, path=()):
    """Every list inside a JSON-like value, with its path."""
    if isinstance(value, list):
        yield path, value
        for i, item in enumerate(value):
            yield from lists_in(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from lists_in(item, (*path, key))


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_deals_the_cards_2_to_99_once_each(players):
    state = GAME.deal(11, players)
    cards = list(chain(*state.hands, state.draw))
    assert sorted(cards) == ALL_CARDS
    assert_conserved(state)


@pytest.mark.parametrize(("players", "size"), sorted(HAND_SIZES.items()))
def test_setup_hand_size_is_8_for_one_7_for_two_6_for_three_to_five(players, size):
    state = GAME.deal(3, players)
    assert [len(h) for h in state.hands] == [size] * players
    assert state.view(None)["hand_sizes"] == [size] * players


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_the_rest_of_the_cards_is_the_draw_pile(players):
    state = GAME.deal(4, players)
    assert len(state.draw) == 98 - players * HAND_SIZES[players]
    assert state.view(None)["draw_pile"] == len(state.draw)


def test_setup_up_piles_start_at_1_and_down_piles_at_100_with_nothing_played():
    state = GAME.deal(5, 3)
    assert state.view(0)["piles"] == {"up1": 1, "up2": 1, "down1": 100, "down2": 100}
    assert state.snapshot()["piles"] == {p: [] for p in PILES}
    assert state.view(0)["cards_left"] == 98


def test_setup_seat_0_begins_by_default():
    state = GAME.deal(6, 4)
    assert state.to_act() == (0,)
    assert state.view(None)["turn"] == 0
    assert state.view(None)["played_this_turn"] == 0


@pytest.mark.parametrize(("players", "start"), [(2, 1), (3, 2), (5, 4), (1, 0)])
def test_setup_option_start_picks_the_first_seat(players, start):
    state = GAME.deal(6, players, {"start": start})
    assert state.to_act() == (start,)
    assert "end" not in state.legal(start)
    assert plays(state, start)
    for seat in range(players):
        if seat != start:
            assert not plays(state, seat)


def test_setup_same_seed_same_deal_other_seed_other_deal():
    a, b, c = GAME.deal(9, 3), GAME.deal(9, 3), GAME.deal(10, 3)
    assert a.snapshot() == b.snapshot()
    assert a.hands != c.hands


def test_setup_hands_are_private_and_sorted_in_views():
    state = GAME.deal(12, 3)
    for seat in range(3):
        assert state.view(seat)["hand"] == sorted(state.hands[seat])


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"pro": True}, {"min_after_empty": 2}, {"pro": True, "min_after_empty": 2}],
    ids=["default", "pro", "min2", "pro-min2"],
)
def test_cards_are_conserved_at_every_step_of_random_games(players, options):
    for state in random_act_game(players, 100 + players, **options):
        assert_conserved(state)
        view = state.view(None)
        assert view["cards_left"] == 98 - sum(len(p) for p in state.piles_played)


# -- playing cards ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "ok"),
    [
        (41, True),
        (99, True),
        (30, True),
        (36, False),
        (39, False),
        (31, False),
        (29, False),
        (20, False),
        (2, False),
    ],
)
def test_up_pile_takes_a_higher_card_or_one_exactly_10_lower(card, ok):
    state = position([[card, 60, 61], [70]], tops=(40, 95, 5, 6))
    assert (f"play {card} up1" in plays(state)) is ok
    assert fits_ref(card, 0, 40) is ok
    if ok:
        state.act(0, f"play {card} up1")
        assert state.view(0)["piles"]["up1"] == card
    else:
        with pytest.raises(IllegalAction, match=rf"{card} does not go on up1 \(top 40\)"):
            state.act(0, f"play {card} up1")


@pytest.mark.parametrize(
    ("card", "ok"),
    [
        (59, True),
        (2, True),
        (70, True),
        (65, False),
        (61, False),
        (69, False),
        (71, False),
        (80, False),
        (99, False),
    ],
)
def test_down_pile_takes_a_lower_card_or_one_exactly_10_higher(card, ok):
    state = position([[card, 50, 45], [44]], tops=(96, 97, 60, 93))
    assert (f"play {card} down1" in plays(state)) is ok
    if ok:
        state.act(0, f"play {card} down1")
        assert state.view(0)["piles"]["down1"] == card
    else:
        with pytest.raises(IllegalAction, match=rf"{card} does not go on down1 \(top 60\)"):
            state.act(0, f"play {card} down1")


def test_the_engine_fits_rule_matches_the_rule_book_for_every_card_and_top():
    for pile in range(4):
        for top in range(1, 101):
            for card in ALL_CARDS:
                assert the_game.fits(card, pile, top) is fits_ref(card, pile, top)


def test_gaps_of_any_size_are_allowed():
    state = position([[99, 2, 50], [60]])
    state.act(0, "play 99 up1")  # from 1 to 99: a gap of 98
    state.act(0, "play 2 down1")  # from 100 to 2: a gap of 98
    assert state.view(0)["piles"] == {"up1": 99, "up2": 1, "down1": 2, "down2": 100}
    assert_conserved(state)


def test_any_card_may_go_on_any_pile_it_fits():
    state = position([[50, 70], [60]], tops=(40, 45, 80, 75))
    assert plays(state) == {
        "play 50 up1",
        "play 50 up2",
        "play 50 down1",
        "play 50 down2",
        "play 70 up1",
        "play 70 up2",
        "play 70 down1",
        "play 70 down2",
    }


def test_legal_plays_are_exactly_the_fitting_cards_on_every_pile():
    for state in random_act_game(3, 7):
        if state.over:
            break
        seat = state.turn
        expected = {
            f"play {c} {PILES[p]}"
            for c in state.hands[seat]
            for p in range(4)
            if fits_ref(c, p, state.tops[p])
        }
        assert plays(state) == expected


def test_backwards_trick_chained_several_times_in_one_turn_worked_example():
    # RULES.md's worked example: a chain of three on up2 and two on down2, 2 players
    state = position(
        [[48, 38, 28, 50, 60, 93, 17], [61, 62, 63, 64, 65, 66, 67]], tops=(12, 58, 71, 40), draw=60
    )
    assert state.view(0)["draw_pile"] == 60
    with pytest.raises(IllegalAction, match="38 does not go on up2"):
        state.act(0, "play 38 up2")  # 20 below: the trick is exactly 10
    act_all(state, 0, ["play 48 up2", "play 38 up2", "play 28 up2", "play 50 down2"])
    with pytest.raises(IllegalAction, match="93 does not go on down2"):
        state.act(0, "play 93 down2")
    act_all(state, 0, ["play 60 down2"])
    assert "end" in state.legal(0)
    state.act(0, "end")
    view = state.view(0)
    assert view["piles"] == {"up1": 12, "up2": 28, "down1": 71, "down2": 60}
    assert view["hand_sizes"] == [7, 7]
    assert view["draw_pile"] == 55
    assert view["turn"] == 1
    assert state.snapshot()["piles"]["up2"][-4:] == [58, 48, 38, 28]
    assert_conserved(state)


def test_backwards_trick_chained_on_a_down_pile():
    state = position([[30, 40, 50, 60], [5]], tops=(95, 96, 20, 3))
    act_all(state, 0, ["play 30 down1", "play 40 down1", "play 50 down1", "play 60 down1"])
    assert state.tops[2] == 60


def test_34_then_24_onto_33_both_can_go_worked_example():
    state = position([[61, 62], [34, 24, 21, 22, 26, 27, 29]], tops=(33, 90, 20, 15), turn=1)
    assert not state.over
    assert state.to_act() == (1,)
    assert plays(state) == {"play 34 up1"}  # card by card only the 34 fits now
    with pytest.raises(IllegalAction, match="24 does not go on up1"):
        state.act(1, "play 24 up1")
    state.act(1, "play 34 up1")
    assert "play 24 up1" in plays(state)
    state.act(1, "play 24 up1")  # exactly 10 below 34: the backwards trick
    assert {"play 26 up1", "play 27 up1", "play 29 up1"} <= plays(state)
    state.act(1, "end")
    assert state.to_act() == (0,)
    assert state.tops[0] == 24


# -- the minimum -----------------------------------------------------------------------------
def test_minimum_is_2_while_the_draw_pile_lasts_and_end_is_refused_before_it():
    state = GAME.deal(21, 2)
    assert state.view(0)["minimum"] == 2
    assert "end" not in state.legal(0)
    with pytest.raises(IllegalAction, match=r"play at least 2 cards .* \(0 played\)"):
        state.act(0, "end")
    state.act(0, sorted(plays(state))[0])
    assert "end" not in state.legal(0)
    with pytest.raises(IllegalAction, match=r"play at least 2 cards .* \(1 played\)") as e:
        state.act(0, "end")
    assert type(e.value) is IllegalAction
    state.act(0, sorted(plays(state))[0])
    assert "end" in state.legal(0)
    state.act(0, "end")
    assert state.to_act() == (1,)


def test_a_seat_may_play_more_than_the_minimum():
    state = position([[10, 11, 12, 13, 14, 15, 16], [70]])
    act_all(state, 0, ["play 10 up1", "play 11 up1", "play 12 up1"])
    assert "end" in state.legal(0)
    assert state.view(0)["played_this_turn"] == 3
    act_all(state, 0, ["play 13 up1", "end"])
    assert state.view(0)["hand_sizes"] == [7, 1]


def test_a_seat_may_play_its_whole_hand_and_the_turn_ends_by_itself():
    state = position([[10, 11, 12, 13, 14, 15, 16], [70, 71, 72, 73, 74, 75, 76]])
    draw_before = len(state.draw)
    act_all(state, 0, [f"play {c} up1" for c in range(10, 17)])
    assert "end" not in [a for _, a in state.actions]
    assert state.to_act() == (1,)
    assert state.view(1)["played_this_turn"] == 0
    assert len(state.hands[0]) == 7  # drew back up to 7
    assert len(state.draw) == draw_before - 7


def test_one_player_who_plays_the_whole_hand_draws_and_plays_again():
    state = position([[10, 11, 12, 13, 14, 15, 16, 17]])
    act_all(state, 0, [f"play {c} up1" for c in range(10, 18)])
    assert state.to_act() == (0,)
    assert len(state.hands[0]) == 8
    assert state.played == 0


def test_end_of_turn_draws_back_up_to_hand_size_from_the_top_of_the_draw_pile():
    draw = [c for c in ALL_CARDS if c not in (10, 11, 12, 13, 14, 15, 16, 70)]
    state = position([[10, 11, 12, 13, 14, 15, 16], [70]], draw=draw)
    act_all(state, 0, ["play 10 up1", "play 11 up1", "play 12 up1", "end"])
    assert state.hands[0] == sorted([13, 14, 15, 16, *draw[-3:]])  # the top is last
    assert state.draw == draw[:-3]


def test_end_of_turn_draws_only_as_far_as_the_draw_pile_allows_and_minimum_drops_to_1():
    # RULES.md's worked example: 3 cards left, seat 0 needs 4
    state = position(
        [[44, 45, 70, 50, 97, 13, 62], [86, 87, 85, 84, 3, 4, 5]], tops=(41, 67, 52, 88), draw=3
    )
    assert state.view(0)["minimum"] == 2
    act_all(state, 0, ["play 44 up1", "play 45 up1", "play 70 up2", "play 50 down1", "end"])
    view = state.view(1)
    assert view["draw_pile"] == 0
    assert view["hand_sizes"] == [6, 7]
    assert view["minimum"] == 1
    state.act(1, "play 86 down2")
    assert "end" in state.legal(1)
    state.act(1, "end")
    assert state.view(0)["hand_sizes"] == [6, 6]  # nothing left to draw
    assert state.to_act() == (0,)


def test_once_the_draw_pile_is_empty_the_minimum_is_1():
    state = position([[50, 51, 52], [60, 61]], tops=(40, 41, 90, 91), draw=0)
    assert state.view(0)["minimum"] == 1
    with pytest.raises(IllegalAction, match=r"play at least 1 card this turn"):
        state.act(0, "end")
    state.act(0, "play 50 up1")
    assert "end" in state.legal(0)
    state.act(0, "end")
    assert state.hands[0] == [51, 52]  # nothing drawn
    assert state.to_act() == (1,)


def test_option_min_after_empty_2_keeps_the_minimum_at_2():
    state = position([[50, 51, 52], [60, 61]], tops=(40, 41, 90, 91), draw=0, min_after_empty=2)
    assert state.view(0)["minimum"] == 2
    state.act(0, "play 50 up1")
    with pytest.raises(IllegalAction, match=r"play at least 2 cards .* \(1 played\)"):
        state.act(0, "end")
    act_all(state, 0, ["play 51 up1", "end"])
    assert state.to_act() == (1,)


@pytest.mark.parametrize("options", [{"min_after_empty": 2}, {"min_after_empty": 2, "pro": True}])
def test_min_after_empty_2_a_seat_that_must_play_2_but_holds_1_card_ends_the_game(options):
    state = position([[50, 51], [60]], tops=(40, 41, 90, 91), draw=0, **options)
    act_all(state, 0, ["play 50 up1", "play 51 up1"])  # seat 0 plays out: its turn ends
    assert state.over  # seat 1 holds a 60 that fits, but one card is not two
    assert state.to_act() == ()
    assert state.result()["scores"] == [1, 1]


def test_default_rule_a_seat_holding_1_card_plays_it_once_the_draw_pile_is_empty():
    state = position([[50, 51], [60]], tops=(40, 41, 90, 91), draw=0)
    act_all(state, 0, ["play 50 up1", "play 51 up1"])
    assert not state.over
    assert state.to_act() == (1,)
    state.act(1, "play 60 up1")
    assert state.over and state.result()["won"]


def test_min_after_empty_2_does_not_apply_while_the_draw_pile_lasts():
    state = GAME.deal(2, 2, {"min_after_empty": 2})
    assert state.view(0)["minimum"] == 2


def test_option_pro_the_minimum_is_3_while_the_draw_pile_lasts():
    state = position([[10, 11, 12, 13, 14, 15, 16], [70, 71, 72, 73, 74, 75, 76]], pro=True)
    assert state.view(0)["minimum"] == 3
    act_all(state, 0, ["play 10 up1", "play 11 up1"])
    with pytest.raises(IllegalAction, match=r"play at least 3 cards .* \(2 played\)"):
        state.act(0, "end")
    assert "end" not in state.legal(0)
    state.act(0, "play 12 up1")
    assert "end" in state.legal(0)
    state.act(0, "end")
    assert state.to_act() == (1,)


def test_option_pro_the_minimum_of_3_does_not_shrink_to_fit_a_smaller_hand():
    assert position([[50, 51], [60, 61, 62]], tops=(40, 41, 90, 91), draw=5, pro=True).over
    assert not position([[50, 51], [60, 61, 62]], tops=(40, 41, 90, 91), draw=5).over


@pytest.mark.parametrize(
    ("options", "minimum"), [({"pro": True}, 1), ({"pro": True, "min_after_empty": 2}, 2)]
)
def test_option_pro_after_the_draw_pile_the_minimum_is_min_after_empty(options, minimum):
    state = position([[50, 51, 52], [60, 61]], tops=(40, 41, 90, 91), draw=0, **options)
    assert state.view(0)["minimum"] == minimum


def test_option_pro_a_seat_that_can_play_only_2_ends_the_game_at_the_start_of_its_turn():
    hand = [34, 24, 21, 22, 26, 27, 29]  # 34 then 24: two cards, and then 26, 27, 29 fit
    tight = [34, 24, 21, 22]  # 34 then 24: two cards, and nothing more fits
    assert not position([[95, 96], tight], tops=(33, 90, 20, 15), turn=1).over
    assert position([[95, 96], tight], tops=(33, 90, 20, 15), turn=1, pro=True).over
    assert not position([[95, 96], hand], tops=(33, 90, 20, 15), turn=1, pro=True).over


def test_turns_pass_to_the_next_seat_number_and_wrap_around():
    state = GAME.deal(23, 3, {"start": 2})
    seen = []
    for _ in range(4):
        seat = state.turn
        seen.append(seat)
        for _ in range(2):
            state.act(seat, sorted(plays(state))[0])
        state.act(seat, "end")
    assert seen == [2, 0, 1, 2]


# -- empty hands -----------------------------------------------------------------------------
def test_a_seat_with_an_empty_hand_is_skipped():
    state = position([[50, 51], [], [60, 61]], tops=(40, 41, 90, 91), draw=0)
    act_all(state, 0, ["play 50 up1", "end"])
    assert state.to_act() == (2,)  # seat 1 is skipped
    act_all(state, 2, ["play 60 up1", "end"])
    assert state.to_act() == (0,)  # around the table, seat 1 never moves
    assert "play" not in " ".join(state.legal(1))


def test_a_seat_whose_hand_runs_empty_is_skipped_from_then_on():
    state = position([[50], [60, 61], [70, 71]], tops=(40, 41, 90, 91), draw=0)
    state.act(0, "play 50 up1")  # the hand runs empty: the turn ends by itself
    assert state.actions == [(0, "play 50 up1")]
    assert state.to_act() == (1,)
    act_all(state, 1, ["play 60 up1", "end"])
    act_all(state, 2, ["play 70 up1", "end"])
    assert state.to_act() == (1,)


# -- the end ---------------------------------------------------------------------------------
def test_the_game_ends_at_the_start_of_a_turn_when_the_seat_cannot_play_its_minimum():
    # seat 1 holds the 24 without the 34: only one card can go, the minimum is 2
    state = position([[95, 96, 97], [35, 24, 21, 22, 26, 27, 29]], tops=(33, 90, 20, 15))
    assert not state.over
    act_all(state, 0, ["play 95 up2", "play 96 up2", "end"])
    assert state.over
    assert state.to_act() == ()
    assert state.view(None)["turn"] is None
    assert state.tops[1] == 96  # cards already played stay
    assert state.snapshot()["piles"]["up2"][-2:] == [95, 96]
    left = len(state.draw) + 7 + 7
    assert state.result() == {
        "over": True,
        "scores": [left, left],
        "won": False,
        "winners": [],
        "ranks": [1, 1],
        "cards_left": left,
        "good": False,
        "stuck_seat": 1,
        "short_by": 2,
    }
    assert GAME.result_lines(state.result(), ["Ann", "Bob"])[-1] == "Bob could not play 2 cards."


def test_the_game_is_not_over_when_the_minimum_can_be_reached_only_as_a_sequence():
    # hand {34, 24}, 33 on up1, nothing else fits anywhere, minimum 2
    hands = [[95, 96, 97], [34, 24]]
    state = position(hands, tops=(33, 50, 20, 21), turn=0)
    act_all(state, 0, ["play 95 up2", "play 96 up2", "end"])
    assert not state.over  # seat 1's turn starts with exactly {34, 24}
    assert state.to_act() == (1,) and state.hands[1] == [24, 34]
    act_all(state, 1, ["play 34 up1", "play 24 up1"])  # its hand runs out: the turn ends
    assert state.to_act() == (0,) and len(state.hands[1]) == 7
    # the same with an empty draw pile under min_after_empty = 2, from the turn's start
    bare = position([[95], [34, 24]], tops=(33, 50, 20, 21), draw=0, turn=1, min_after_empty=2)
    assert not bare.over
    assert bare.view(1)["minimum"] == 2
    act_all(bare, 1, ["play 34 up1", "play 24 up1"])
    assert bare.tops[0] == 24


def test_the_game_ends_at_the_start_of_the_first_turn_if_the_seat_cannot_play():
    state = position([[30, 31, 32, 33, 34, 35, 36], [37]], tops=TIGHT)
    assert state.over
    assert state.legal(0) == [] and state.legal(1) == []


def test_the_game_ends_when_a_seat_runs_out_of_legal_plays_before_its_minimum():
    # 34 and 35 both fit on up1 (33); playing 35 first leaves neither 34 nor the 24 a place
    state = position([[34, 35, 24, 21, 22, 23], [60]], tops=(33, 90, 20, 15))
    assert not state.over
    state.act(0, "play 35 up1")
    assert state.over
    assert state.to_act() == ()
    assert state.tops[0] == 35 and state.hands[0] == [21, 22, 23, 24, 34]
    assert state.result()["cards_left"] == 98 - len(list(chain(*state.piles_played)))
    for seat in range(2):
        assert state.legal(seat) == []


def test_a_seat_with_plays_left_is_not_stopped_before_its_minimum():
    # the engine's reading: mid-turn the game ends only when no legal play is left
    state = position([[34, 35, 24, 41], [60, 61, 62]], tops=(33, 90, 20, 15))
    state.act(0, "play 35 up1")  # 41 still fits
    assert not state.over
    state.act(0, "play 41 up1")
    state.act(0, "end")
    assert state.to_act() == (1,)


def test_the_team_wins_when_all_98_cards_are_played():
    state = position([[50], [60, 61]], tops=(40, 41, 90, 91), draw=0)
    state.act(0, "play 50 up1")
    act_all(state, 1, ["play 60 up1", "play 61 up1"])
    assert state.over
    assert sum(len(p) for p in state.piles_played) == 98
    assert state.result() == {
        "over": True,
        "scores": [0, 0],
        "won": True,
        "winners": [0, 1],
        "ranks": [1, 1],
        "cards_left": 0,
        "good": True,
        "stuck_seat": None,
        "short_by": 0,
    }
    view = state.view(0)
    assert view["over"] and view["turn"] is None and view["to_act"] == []
    assert view["result"]["won"] is True


@pytest.mark.parametrize(("stuck_cards", "good"), [(9, True), (10, True), (11, False)])
def test_score_is_cards_not_played_for_every_seat_and_10_or_fewer_is_good(stuck_cards, good):
    # draw empty; seat 0 plays its last card, then seats 1 and 2 hold only dead cards
    dead = list(range(30, 30 + stuck_cards))
    half = stuck_cards // 2
    state = position([[95], dead[:half], dead[half:]], tops=TIGHT, draw=0)
    state.act(0, "play 95 up1")
    assert state.over
    result = state.result()
    assert result["scores"] == [stuck_cards] * 3
    assert result["cards_left"] == stuck_cards
    assert result["good"] is good
    assert result["won"] is False and result["winners"] == []


def test_score_counts_the_draw_pile_too():
    state = position([[95, 96, 97], [30, 31, 32, 33, 34, 35, 36]], tops=TIGHT, draw=20)
    act_all(state, 0, ["play 95 up1", "play 96 up1", "end"])
    assert state.over
    assert state.result()["scores"] == [7 + 7 + 14] * 2  # seat 0 drew 6 of the 20


def test_result_before_the_end_describes_the_position_without_a_win():
    state = GAME.deal(8, 2)
    result = state.result()
    assert result["over"] is False and result["won"] is False
    assert result["winners"] == [] and result["good"] is False
    assert result["scores"] == [98, 98] and result["cards_left"] == 98


def test_nothing_is_legal_once_the_game_is_over():
    state = position([[95, 96, 97], [30, 31, 32, 33, 34, 35, 36]], tops=TIGHT)
    act_all(state, 0, ["play 95 up1", "play 96 up1", "end"])
    assert state.over
    before = state.snapshot()
    for seat in range(2):
        assert state.legal(seat) == []
        for action in ["play 30 up1", "end", "signal up1 avoid", "signal up1 clear", "nonsense"]:
            with pytest.raises(GameOver, match="the game is over"):
                state.act(seat, action)
    assert state.snapshot() == before


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_start_of_turn_end_test_agrees_with_a_brute_force_over_sequences(players):
    """Random positions: the game is over at a turn's start iff no sequence reaches the minimum."""
    rng = random.Random(players)
    outcomes = set()
    for _ in range(60):
        tops = [rng.randint(30, 99), rng.randint(30, 99), rng.randint(2, 70), rng.randint(2, 70)]
        while len(set(tops)) < 4:
            tops[rng.randrange(4)] = rng.randint(30, 70)
        free = [c for c in ALL_CARDS if c not in tops]
        rng.shuffle(free)
        size = rng.randint(1, HAND_SIZES[players])
        hands = [sorted(free[i * size : (i + 1) * size]) for i in range(players)]
        options = rng.choice([{}, {"pro": True}, {"min_after_empty": 2}])
        draw = rng.choice([0, 5])
        state = position(hands, tops=tuple(tops), draw=draw, **options)
        need = state.minimum
        expected = not can_play_ref(hands[0], list(tops), need)
        assert state.over is expected, (hands[0], tops, need)
        assert the_game.can_play_run(list(hands[0]), list(tops), need) is not expected
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_during_random_games_a_live_turn_always_has_a_way_to_its_minimum():
    for players in (1, 2, 3, 4, 5):
        for state in random_act_game(players, 40 + players, pro=players == 3):
            if state.over:
                break
            seat, need = state.turn, state.minimum - state.played
            assert state.hands[seat], "the seat to move holds cards"
            if state.played == 0:
                assert can_play_ref(state.hands[seat], state.tops, need)
            elif need > 0:
                assert plays(state), "a seat short of its minimum has a play"
            assert ("end" in state.legal(seat)) is (need <= 0)
            if state.draw:
                assert all(
                    len(h) == HAND_SIZES[players] for s, h in enumerate(state.hands) if s != seat
                )


# -- signals ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pile", PILES)
@pytest.mark.parametrize("signal", SIGNALS)
def test_any_seat_may_signal_any_pile_even_when_it_is_not_its_turn(pile, signal):
    state = GAME.deal(31, 3)
    state.act(0, sorted(plays(state))[0])
    state.act(2, f"signal {pile} {signal}")
    view = state.view(1)
    assert view["signals"] == [{}, {}, {pile: signal}]
    assert state.to_act() == (0,)  # no turn taken, no seat added
    assert view["turn"] == 0 and view["played_this_turn"] == 1
    state.act(0, f"signal {pile} {signal}")  # the seat to move may signal too
    assert state.view(None)["signals"] == [{pile: signal}, {}, {pile: signal}]
    assert state.to_act() == (0,) and state.played == 1


def test_a_different_signal_replaces_the_old_one_and_clear_removes_it():
    state = GAME.deal(32, 2)
    state.act(1, "signal down2 avoid")
    state.act(1, "signal down2 good")
    assert state.view(0)["signals"] == [{}, {"down2": "good"}]
    state.act(1, "signal down2 clear")
    assert state.view(0)["signals"] == [{}, {}]


def test_signals_are_kept_per_seat_and_pile():
    state = GAME.deal(33, 3)
    state.act(0, "signal up1 avoid")
    state.act(1, "signal up1 good")
    state.act(1, "signal down1 small")
    state.act(2, "signal up2 small")
    assert state.view(2)["signals"] == [
        {"up1": "avoid"},
        {"up1": "good", "down1": "small"},
        {"up2": "small"},
    ]
    state.act(1, "signal up1 clear")
    assert state.view(None)["signals"][0] == {"up1": "avoid"}
    assert state.view(None)["signals"][1] == {"down1": "small"}


def test_setting_the_same_signal_again_is_illegal():
    state = GAME.deal(34, 2)
    state.act(1, "signal down2 avoid")
    assert "signal down2 avoid" not in state.legal(1)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="already avoid") as e:
        state.act(1, "signal down2 avoid")
    assert type(e.value) is IllegalAction
    assert state.snapshot() == before


def test_clear_with_no_signal_set_is_illegal():
    state = GAME.deal(35, 2)
    assert "signal up2 clear" not in state.legal(1)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="no signal on up2"):
        state.act(1, "signal up2 clear")
    assert state.snapshot() == before


def test_legal_offers_a_seat_off_turn_only_its_signals():
    state = GAME.deal(36, 2)
    state.act(1, "signal up1 small")
    legal = state.legal(1)
    assert not [a for a in legal if not a.startswith("signal")]
    expected = {f"signal {p} {s}" for p in PILES for s in SIGNALS} - {"signal up1 small"}
    assert set(legal) == expected | {"signal up1 clear"}
    assert len(legal) == len(set(legal))


def test_signals_never_put_a_seat_into_to_act_or_change_the_turn():
    state = GAME.deal(37, 4)
    rng = random.Random(1)
    for _ in range(40):
        seat = rng.randrange(4)
        state.act(seat, rng.choice([a for a in state.legal(seat) if a.startswith("signal")]))
        assert state.to_act() == (0,)
        assert state.played == 0
    assert state.hands == GAME.deal(37, 4).hands


def test_signals_replay_with_the_record():
    state = GAME.deal(38, 2)
    state.act(1, "signal up1 good")
    state.act(0, sorted(plays(state))[0])
    state.act(0, "signal down1 avoid")
    assert games.replay(state.record()) == state


# -- views -----------------------------------------------------------------------------------
def check_view_hides_other_hands(state, seat):
    view = state.view(seat)
    json.dumps(view)  # JSON-ready
    assert set(view) - {"result"} == VIEW_KEYS
    assert view["hand"] == (None if seat is None else sorted(state.hands[seat]))
    # no other list of cards: the only lists are these, and they hold no cards
    for path, value in lists_in(view):
        if path == ("hand",):
            continue
        if path == ("played",):  # public: the cards on the piles, every one of them
            assert value == sorted(c for p in state.piles_played for c in p)
            continue
        assert path in {
            ("to_act",),
            ("hand_sizes",),
            ("signals",),
            ("result", "scores"),
            ("result", "ranks"),
            ("result", "winners"),
        }, path
        if path == ("signals",):
            assert all(isinstance(s, dict) for s in value)
            for s in value:
                assert set(s) <= set(PILES) and set(s.values()) <= set(SIGNALS)
        else:
            assert len(value) <= state.players
    assert view["hand_sizes"] == [len(h) for h in state.hands]
    assert list(view["piles"].values()) == state.tops
    others = {c for s, h in enumerate(state.hands) if s != seat for c in h}
    assert not others & set(view["hand"] or [])
    assert not others & set(view["piles"].values())


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_views_show_only_the_viewers_own_hand_all_game_long(players):
    for state in random_act_game(players, 60 + players):
        for seat in (*range(players), None):
            check_view_hides_other_hands(state, seat)


def test_spectator_view_has_no_hand():
    state = GAME.deal(41, 3)
    view = state.view(None)
    assert view["hand"] is None and view["seat"] is None
    assert view["hand_sizes"] == [6, 6, 6]


def test_view_fields_follow_the_game():
    state = position(
        [[10, 11, 12, 13, 14, 15, 16], [70, 71, 72, 73, 74, 75, 76]], tops=(5, 1, 100, 95), draw=40
    )
    state.act(1, "signal up2 good")
    act_all(state, 0, ["play 10 up1", "play 16 down2"])
    view = state.view(1)
    # every card on the piles, those the position put under the tops too
    assert view.pop("played") == sorted(c for p in state.piles_played for c in p)
    assert view == {
        "game": "the-game",
        "seat": 1,
        "players": 2,
        "to_act": [0],
        "piles": {"up1": 10, "up2": 1, "down1": 100, "down2": 16},
        "hand": [70, 71, 72, 73, 74, 75, 76],
        "hand_sizes": [5, 7],
        "draw_pile": 40,
        "turn": 0,
        "played_this_turn": 2,
        "minimum": 2,
        "minimum_empty": 1,
        "signals": [{}, {"up2": "good"}],
        "cards_left": 52,
        "over": False,
    }


def test_view_at_the_end_has_no_turn_and_carries_the_result():
    state = position([[95, 96], [30, 31, 32, 33, 34, 35, 36]], tops=TIGHT, draw=0)
    act_all(state, 0, ["play 95 up1", "play 96 up1"])
    view = state.view(0)
    assert view["over"] is True and view["turn"] is None and view["to_act"] == []
    assert view["result"] == state.result()
    check_view_hides_other_hands(state, 0)


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "action",
    [
        "play 100 up1",
        "play 1 up1",
        "play 0 up1",
        "play 34 up3",
        "play x up1",
        "play 034 up1",
        "play -3 up1",
        "play +34 up1",
        "play 3.0 up1",
        "play ² up1",
        "play ٣٤ up1",
        "play 34",
        "play 34 up1 now",
        "play  34 up1",
        "end now",
        " end",
        "end ",
        "END",
        "signal up1 loud",
        "signal up5 avoid",
        "signal up1",
        "signal",
        "",
        "pass",
        "PLAY 34 up1",
    ],
)
def test_malformed_actions_raise_malformed_action_and_change_nothing(action):
    state = GAME.deal(51, 2)
    before = state.snapshot()
    with pytest.raises(MalformedAction) as e:
        state.act(0, action)
    assert isinstance(e.value, IllegalAction) and isinstance(e.value, ValueError)
    assert e.value.reason
    assert state.snapshot() == before


@pytest.mark.parametrize("action", [None, 34, ["play", 34, "up1"], b"end", 3.5])
def test_non_string_actions_are_malformed(action):
    state = GAME.deal(52, 2)
    before = state.snapshot()
    with pytest.raises(MalformedAction):
        state.act(0, action)
    assert state.snapshot() == before


def test_playing_a_card_not_in_hand_is_illegal_with_a_reason():
    state = position([[50, 51], [60, 61]], tops=(40, 41, 90, 91), draw=0)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="you do not hold the 60") as e:
        state.act(0, "play 60 up1")
    assert type(e.value) is IllegalAction
    assert state.snapshot() == before


def test_playing_a_card_that_does_not_fit_is_illegal_with_a_reason():
    state = position([[50, 51], [70, 71]], tops=(60, 62, 45, 46), draw=0)
    before = state.snapshot()
    with pytest.raises(
        IllegalAction,
        match=r"51 does not go on up1 \(top 60\): .*higher than 60, "
        r"or exactly 50",
    ) as e:
        state.act(0, "play 51 up1")
    assert type(e.value) is IllegalAction
    with pytest.raises(
        IllegalAction,
        match=r"50 does not go on down1 \(top 45\): .*lower than 45, "
        r"or exactly 55",
    ):
        state.act(0, "play 50 down1")
    assert state.snapshot() == before
    state.act(0, "play 50 up1")  # exactly 10 lower: fits


@pytest.mark.parametrize("action", ["play 60 up1", "play 50 up1", "end"])
def test_another_seats_play_or_end_raises_not_your_turn(action):
    state = position([[50, 51], [60, 61]], tops=(40, 41, 90, 91), draw=0)
    before = state.snapshot()
    with pytest.raises(NotYourTurn, match="seat 1's turn"):
        state.act(1, action)
    assert state.snapshot() == before


@pytest.mark.parametrize("seat", [2, -1, True, "0", None])
def test_a_seat_not_at_the_table_raises_not_your_turn(seat):
    state = GAME.deal(53, 2)
    before = state.snapshot()
    with pytest.raises(NotYourTurn):
        state.act(seat, "signal up1 avoid")
    assert state.snapshot() == before


def test_every_refused_action_leaves_the_state_unchanged_in_random_games():
    rng = random.Random(5)
    for state in random_act_game(3, 77):
        if state.over:
            break
        before = state.snapshot()
        seat = rng.randrange(3)
        legal = set(state.legal(seat))
        candidates = [f"play {c} {p}" for c in rng.sample(ALL_CARDS, 5) for p in PILES]
        candidates += ["end", "signal up1 clear", "signal down2 small"]
        for action in candidates:
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                state.act(seat, action)
            assert state.snapshot() == before


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {"colour": "red"}, "no option 'colour'"),
        (2, {"min_after_empty": 3}, "one of 1, 2"),
        (2, {"min_after_empty": 0}, "one of 1, 2"),
        (2, {"min_after_empty": True}, "must be int"),
        (2, {"pro": "yes"}, "must be bool"),
        (2, {"pro": 1}, "must be bool"),
        (2, {"start": 3}, "no seat 4"),
        (2, {"start": 2}, "no seat 3"),
        (5, {"start": 5}, "no seat 6"),
        (3, {"start": -1}, "no seat 0"),
        (3, {"start": "1"}, "must be int"),
        (0, {}, "1 to 5 players, not 0"),
        (6, {}, "1 to 5 players, not 6"),
        ("2", {}, "whole number"),
        (True, {}, "whole number"),
    ],
)
def test_bad_options_and_player_counts_raise_bad_options(players, options, message):
    with pytest.raises(BadOptions, match=message):
        GAME.deal(1, players, options)


def test_good_options_are_accepted_and_recorded():
    state = GAME.deal(1, 5, {"start": 4, "min_after_empty": 2, "pro": True})
    assert state.options == {"start": 4, "min_after_empty": 2, "pro": True}
    assert state.record()["options"] == state.options
    assert state.view(None)["minimum"] == 3


# -- fast path, records, clones ---------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_playout_records_replay_to_an_equal_state(players, policy):
    for seed in range(3):
        state = GAME.deal(seed, players)
        state.playout([policy] * players, random.Random(0))
        assert state.over
        assert_conserved(state)
        again = games.replay(state.record())
        assert again == state
        assert again.result() == state.result()


@pytest.mark.parametrize("options", [{"pro": True}, {"min_after_empty": 2}, {"start": 2}])
def test_playout_with_options_and_mixed_policies_replays(options):
    for seed in range(3):
        state = GAME.deal(seed, 3, options)
        state.playout(["greedy", "random", "greedy"], random.Random(seed))
        assert games.replay(state.record()) == state


def test_playout_from_the_middle_of_a_turn_replays():
    state = GAME.deal(61, 2)
    state.act(1, "signal up1 avoid")
    state.act(0, sorted(plays(state))[0])
    state.playout(["random", "greedy"], random.Random(3))
    assert state.over
    assert games.replay(state.record()) == state


def test_playout_is_deterministic_for_a_given_rng():
    a, b = GAME.deal(62, 4), GAME.deal(62, 4)
    a.playout(["random"] * 4, random.Random(9))
    b.playout(["random"] * 4, random.Random(9))
    assert a == b


def test_greedy_playout_plays_the_same_game_as_the_greedy_bot_through_act():
    for players in (1, 3):
        fast = GAME.deal(63, players)
        fast.playout(["greedy"] * players, random.Random(0))
        slow = GAME.deal(63, players)
        bot = GreedyBot("the-game")
        while not slow.over:
            seat = slow.to_act()[0]
            slow.act(seat, bot.choose(slow.view(seat), slow.legal(seat)))
        assert slow == fast


def test_playout_refuses_a_wrong_number_or_unknown_policies():
    state = GAME.deal(64, 2)
    with pytest.raises(ValueError, match="needs 2 policies"):
        state.playout(["greedy"], random.Random(0))
    with pytest.raises(ValueError, match="no built-in policy"):
        state.playout(["greedy", "clever"], random.Random(0))


def test_playout_on_a_finished_game_changes_nothing():
    state = GAME.deal(65, 2)
    state.playout(["greedy"] * 2, random.Random(0))
    before = state.snapshot()
    state.playout(["greedy"] * 2, random.Random(0))
    assert state.snapshot() == before


def test_act_path_records_replay_to_an_equal_state():
    for players in (1, 4):
        *_, state = random_act_game(players, 70 + players, pro=True)
        assert state.over
        assert games.replay(state.record()) == state


def test_clone_is_equal_and_independent():
    state = GAME.deal(66, 3)
    state.act(2, "signal up2 good")
    copy = state.clone()
    assert copy == state
    copy.act(0, sorted(plays(copy))[0])
    copy.act(2, "signal up2 clear")
    assert copy != state
    assert state.played == 0 and state.signals[2] == {"up2": "good"}
    assert len(state.hands[0]) == 6


def test_view_carries_the_tables_minimum_once_the_draw_pile_is_empty():
    # a bot planning the last draws needs the rule before it applies
    for rule in (1, 2):
        state = GAME.deal(3, 2, {"min_after_empty": rule})
        assert state.view(0)["minimum"] == 2 and state.view(0)["minimum_empty"] == rule
