"""Doublets: one test (at least) per rule of RULES.md section 2.

Cards in positions are written like the engine names them ("QH", "10S", "AC"); the engine keeps
them as ints ``value * 4 + suit`` (suits "CDHS"). Stock and waste lists are written top LAST.
"""

from __future__ import annotations

import json
import random

import pytest

from cardtable import games
from cardtable.core.errors import (
    BadOptions,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from cardtable.core.rng import deal_key, shuffled
from cardtable.games import doublets
from cardtable.games.doublets import DECK

GAME = games.get("doublets")
KING = 13
SUITS = "CDHS"
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
CYCLE = [1, 2, 4, 8, 3, 6, 12, 11, 9, 5, 10, 7]  # A 2 4 8 3 6 Q J 9 5 10 7 (then A again)
ALL_ACTIONS = ["play waste", *(f"play r{i}" for i in range(1, 8)), "flip", "redeal"]

# Seeds pinned because of what their shuffle puts on top of the deck (found by searching).
SEED_NO_KINGS = 2  # no king among the first 8 cards: the plain deal order shows
SEED_RESERVE_KING = 0  # KD dealt to r5, replaced by the top stock card QC
SEED_REPLACEMENT_KING = 11  # KH dealt to r5; its replacement KC is a king too; then 6D
SEED_THREE_KINGS = 2382  # KH dealt to r3, replaced by KC, then KS, then 4D
SEED_FOUNDATION_KING = 26  # KD dealt to the foundation slot, replaced by 5S
SEED_FOUNDATION_TWO_KINGS = 659  # KS dealt to F, replaced by KC (a king), then 4H
SEED_TWO_SLOTS = 13  # KC dealt to r2 and KS to r7: replaced in visiting order
SEED_GREEDY_WINS = 0  # the greedy playout wins this deal
SEED_GREEDY_LOSES = 2  # the greedy playout ends with 41 cards on the foundation


# -- helpers ------------------------------------------------------------------------------------
def card(name: str) -> int:
    """The engine's int for a card named like 'QH' or '10S'."""
    rank, suit = name[:-1], name[-1]
    value = RANKS.get(rank) or int(rank)
    return value * 4 + SUITS.index(suit)


def name(c: int | None) -> str | None:
    if c is None:
        return None
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(c >> 2, str(c >> 2))
    return rank + SUITS[c & 3]


def names(cards) -> list[str | None]:
    return [name(c) for c in cards]


def cards(text: str) -> list[int]:
    return [card(n) for n in text.split()]


def position(
    reserves: str,
    foundation: str,
    waste: str = "",
    stock: str = "",
    redeals_left: int = 2,
):
    """A state in a chosen position. ``reserves`` is 7 names, '-' for an empty slot; the
    foundation, waste and stock are space-separated names, top LAST."""
    slots = reserves.split()
    assert len(slots) == 7
    state = GAME.deal(0)
    state.reserves = [None if s == "-" else card(s) for s in slots]
    state.foundation = cards(foundation)
    state.waste = cards(waste)
    state.stock = cards(stock)
    state.needed = (2 * (state.foundation[-1] >> 2)) % 13
    state.redeals_left = redeals_left
    state._ended = state._finished()
    return state


def deal_by_hand(seed: int) -> tuple[list[int], list[int]]:
    """RULES.md's deal applied by hand to the seed's shuffle.

    Returns the 8 places in dealing order r1 r2 r3 r4 r5 r6 F r7 and the stock TOP FIRST.
    """
    deck = shuffled(DECK, deal_key("doublets", seed))  # deck[0] is the top card
    places = list(deck[:8])
    stock = list(deck[8:])  # top first
    for i in range(8):
        while places[i] >> 2 == KING:
            stock.append(places[i])  # the king goes to the bottom
            places[i] = stock.pop(0)  # the top stock card takes its place
    return places, stock


def layout(state) -> dict:
    """The dealt layout by slot name, the stock top first."""
    r = names(state.reserves)
    return {
        "r1": r[0],
        "r2": r[1],
        "r3": r[2],
        "r4": r[3],
        "r5": r[4],
        "r6": r[5],
        "r7": r[6],
        "F": names(state.foundation),
        "stock_top_first": names(reversed(state.stock)),
    }


def refused(state, action, seat=0, kind=IllegalAction) -> IllegalAction:
    """Act, expect ``kind``, and check the state did not change. Returns the error."""
    before = state.snapshot()
    with pytest.raises(kind) as info:
        state.act(seat, action)
    assert state.snapshot() == before
    return info.value


def random_walk(seed: int, rng: random.Random, limit: int = 400):
    """Yield the states of a game played with random legal actions through ``act``."""
    state = GAME.deal(seed)
    yield state
    for _ in range(limit):
        legal = state.legal(0)
        if not legal:
            return
        state.act(0, rng.choice(legal))
        yield state


def all_cards(state) -> list[int]:
    return [
        *state.stock,
        *state.waste,
        *state.foundation,
        *(c for c in state.reserves if c is not None),
    ]


def play_cycle_cards() -> list[str]:
    """All 48 non-kings in doubling order, four times round the cycle (suits C, D, H, S)."""
    return [name(v * 4 + s) for s in range(4) for v in CYCLE]


# -- cards and the foundation ------------------------------------------------------------------
def test_doubling_cycle_is_A_2_4_8_3_6_Q_J_9_5_10_7_and_back_to_A():
    value = 1
    seen = []
    for _ in range(12):
        seen.append(value)
        value = (2 * value) % 13
    assert seen == CYCLE and value == 1
    assert {v: CYCLE[(CYCLE.index(v) + 1) % 12] for v in range(1, 13)} == doublets.NEXT


def test_only_the_double_mod_13_of_the_top_may_go_on_the_foundation():
    for top in range(1, 13):
        for value in range(1, 14):
            state = position("- - - - - - -", f"{name(top * 4)}", waste=name(value * 4 + 1))
            assert state.needed == (2 * top) % 13
            fits = value == (2 * top) % 13
            assert ("play waste" in state.legal(0)) is fits, (top, value)
            if fits:
                state.act(0, "play waste")
                assert state.foundation[-1] >> 2 == value
                assert state.needed == (2 * value) % 13
            else:
                refused(state, "play waste")


def test_following_the_cycle_from_reserves_builds_the_foundation():
    # one card of each value along the cycle, played in order from reserves as they refill
    state = position(
        "2C - - - - - -",
        "AH",
        stock=" ".join(
            reversed(["4D", "8S", "3C", "6H", "QD", "JS", "9C", "5H", "10D", "7S", "AC", "2S"])
        ),
    )
    for expected in CYCLE[1:] + [1, 2]:
        assert state.needed == expected
        state.act(0, "play r1")
    assert [v >> 2 for v in state.foundation] == [1, *CYCLE[1:], 1, 2]


def test_suits_never_matter_any_suit_of_the_needed_value_plays():
    state = position("8C 8D 8H 8S - - 5C", "4S")
    assert state.legal(0) == ["play r1", "play r2", "play r3", "play r4"]
    for top_suit in SUITS:
        other = position("8C 8D 8H 8S - - 5C", f"4{top_suit}")
        assert other.needed == 8 and other.legal(0) == state.legal(0)
    state.act(0, "play r3")  # 8H on 4S
    assert state.needed == 3


@pytest.mark.parametrize("top", ["AC", "6D", "QH", "7S", "10C"])
def test_kings_can_never_be_played_from_waste_or_reserve(top):
    state = position("KC KD - - - - -", top, waste="KH", stock="5C")
    assert state.needed != KING
    assert state.legal(0) == ["flip"]
    for action in ("play waste", "play r1", "play r2"):
        err = refused(state, action)
        assert "king" in err.reason.lower()


# -- the deal ----------------------------------------------------------------------------------
def test_deal_puts_eight_cards_on_r1_r2_r3_r4_r5_r6_F_r7_in_that_order():
    deck = shuffled(DECK, deal_key("doublets", SEED_NO_KINGS))
    assert not any(c >> 2 == KING for c in deck[:8])
    state = GAME.deal(SEED_NO_KINGS)
    assert state.reserves == [*deck[:6], deck[7]]
    assert state.foundation == [deck[6]]
    assert state.stock == list(reversed(deck[8:]))  # the stock keeps the deck's order
    assert layout(state) | {"stock_top_first": None} == {
        "r1": "5S",
        "r2": "5H",
        "r3": "6H",
        "r4": "QC",
        "r5": "8D",
        "r6": "8H",
        "r7": "AD",
        "F": ["AS"],
        "stock_top_first": None,
    }
    assert layout(state)["stock_top_first"][0] == "QH"


def test_dealt_king_goes_to_the_bottom_of_the_stock_and_top_stock_card_replaces_it():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_RESERVE_KING)))
    assert deck[4] == "KD" and deck[8] == "QC"
    state = GAME.deal(SEED_RESERVE_KING)
    lay = layout(state)
    assert lay["r5"] == "QC"
    assert lay["stock_top_first"][-1] == "KD"  # at the bottom
    assert lay["stock_top_first"][:-1] == deck[9:]  # the rest in deck order
    assert len(state.stock) == 44


def test_a_replacement_that_is_again_a_king_goes_to_the_bottom_too():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_REPLACEMENT_KING)))
    assert deck[4] == "KH" and deck[8] == "KC" and deck[9] == "6D"
    state = GAME.deal(SEED_REPLACEMENT_KING)
    lay = layout(state)
    assert lay["r5"] == "6D"
    assert lay["stock_top_first"][-2:] == ["KH", "KC"]  # KC went below KH
    assert lay["stock_top_first"][0] == deck[10]
    assert len(state.stock) == 44


def test_replacing_repeats_while_the_place_holds_a_king():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_THREE_KINGS)))
    assert deck[2] == "KH" and deck[8:11] == ["KC", "KS", "4D"]
    state = GAME.deal(SEED_THREE_KINGS)
    lay = layout(state)
    assert lay["r3"] == "4D"
    assert lay["stock_top_first"][-3:] == ["KH", "KC", "KS"]


def test_king_dealt_to_the_foundation_slot_is_replaced_too():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_FOUNDATION_KING)))
    assert deck[6] == "KD" and deck[8] == "5S"
    state = GAME.deal(SEED_FOUNDATION_KING)
    assert names(state.foundation) == ["5S"]
    assert state.needed == 10
    assert name(state.stock[0]) == "KD"
    assert layout(state)["r7"] == deck[7]  # r7 is dealt after F and keeps its card


def test_king_dealt_to_the_foundation_with_a_king_replacement_is_replaced_again():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_FOUNDATION_TWO_KINGS)))
    assert deck[6] == "KS" and deck[8] == "KC" and deck[9] == "4H"
    state = GAME.deal(SEED_FOUNDATION_TWO_KINGS)
    assert names(state.foundation) == ["4H"]
    assert state.needed == 8
    assert names(state.stock[:2]) == ["KC", "KS"]  # bottom first: KC went below KS


def test_kings_in_two_places_are_replaced_in_visiting_order():
    deck = names(shuffled(DECK, deal_key("doublets", SEED_TWO_SLOTS)))
    assert deck[1] == "KC" and deck[7] == "KS"
    state = GAME.deal(SEED_TWO_SLOTS)
    lay = layout(state)
    assert lay["r2"] == deck[8] and lay["r7"] == deck[9]  # r2 is visited before r7
    assert lay["stock_top_first"][-2:] == ["KC", "KS"]


def assert_deal_is_the_rule_applied_by_hand(seed: int) -> None:
    places, stock_top_first = deal_by_hand(seed)
    state = GAME.deal(seed)
    assert state.reserves == places[:6] + places[7:], seed
    assert state.foundation == [places[6]], seed
    assert state.stock == stock_top_first[::-1], seed
    assert not any(c >> 2 == KING for c in [*state.reserves, *state.foundation])


@pytest.mark.parametrize(
    "seed",
    [
        SEED_NO_KINGS,
        SEED_RESERVE_KING,
        SEED_REPLACEMENT_KING,
        SEED_THREE_KINGS,
        SEED_FOUNDATION_KING,
        SEED_FOUNDATION_TWO_KINGS,
        SEED_TWO_SLOTS,
    ],
)
def test_deal_of_pinned_seeds_matches_the_rule_applied_by_hand(seed):
    assert_deal_is_the_rule_applied_by_hand(seed)


def test_deal_matches_the_rule_applied_by_hand_on_300_seeds():
    kinged = 0
    for seed in range(100, 400):
        assert_deal_is_the_rule_applied_by_hand(seed)
        deck = shuffled(DECK, deal_key("doublets", seed))
        kinged += any(c >> 2 == KING for c in deck[:8])
    assert kinged > 100  # many of these deals have kings to clear


def test_deal_starts_with_empty_waste_44_in_stock_score_1_and_two_redeals():
    for seed in (SEED_NO_KINGS, SEED_RESERVE_KING, SEED_THREE_KINGS, SEED_FOUNDATION_KING):
        state = GAME.deal(seed)
        assert state.waste == []
        assert len(state.stock) == 44
        assert sorted(all_cards(state)) == sorted(DECK)
        assert len(state.foundation) == 1
        assert state.result()["scores"] == [1]
        assert state.view(0)["score"] == 1
        assert state.needed == (2 * (state.foundation[0] >> 2)) % 13
        assert state.redeals_left == 2
        assert state.to_act() == (0,) and not state.over


def test_same_seed_gives_the_same_deal():
    assert GAME.deal(12345).snapshot() == GAME.deal(12345).snapshot()
    assert GAME.deal(12345).snapshot() != GAME.deal(12346).snapshot()


def test_worked_example_of_the_rules_page(monkeypatch):
    # docs/rules/doublets.md: the deal with KH replaced by KC then 8D, and 14 moves after it
    top = [
        "9S",
        "KH",
        "4D",
        "2S",
        "5H",
        "QS",
        "2C",
        "10D",  # r1 r2 r3 r4 r5 r6 F r7
        "KC",
        "8D",
        "6H",
        "3S",
        "KD",
        "7C",
        "3D",
        "AH",
        "JD",
        "4C",
        "8H",
        "6S",
        "QD",
        "9C",
    ]
    rest = [c for c in DECK if name(c) not in top]
    deck = [card(n) for n in top] + rest
    monkeypatch.setattr(doublets, "shuffled", lambda items, key: list(deck))
    state = GAME.deal(1)
    lay = layout(state)
    assert [lay[r] for r in ("r1", "r2", "r3", "r4", "r5", "r6", "r7")] == [
        "9S",
        "8D",
        "4D",
        "2S",
        "5H",
        "QS",
        "10D",
    ]
    assert lay["F"] == ["2C"] and state.needed == 4
    assert lay["stock_top_first"][:12] == [
        "6H",
        "3S",
        "KD",
        "7C",
        "3D",
        "AH",
        "JD",
        "4C",
        "8H",
        "6S",
        "QD",
        "9C",
    ]
    assert lay["stock_top_first"][-2:] == ["KH", "KC"]
    moves = [
        ("play r3", "r3", "6H"),
        ("play r2", "r2", "3S"),
        ("play r2", "r2", "KD"),
        ("play r3", "r3", "7C"),
        ("play r6", "r6", "3D"),
        ("flip", None, None),
        ("flip", None, None),
        ("play waste", None, None),
        ("play r1", "r1", "AH"),
        ("play r5", "r5", "4C"),
        ("play r7", "r7", "8H"),
        ("play r3", "r3", "6S"),
        ("play r1", "r1", "QD"),
        ("play r4", "r4", "9C"),
    ]
    for action, slot, refill in moves:
        state.act(0, action)
        if slot:
            assert layout(state)[slot] == refill, action
        if action == "play r1" and refill == "AH":
            assert state.waste == []  # AH came from the waste
    assert "play r2" not in state.legal(0)  # KD froze r2
    assert names(state.reserves) == ["QD", "KD", "6S", "9C", "4C", "3D", "8H"]
    assert names(state.foundation) == [
        "2C",
        "4D",
        "8D",
        "3S",
        "6H",
        "QS",
        "JD",
        "9S",
        "5H",
        "10D",
        "7C",
        "AH",
        "2S",
    ]
    assert state.view(0)["score"] == 13 and len(state.stock) == 32 and state.waste == []
    assert state.legal(0) == ["play r5", "flip"]


# -- flip and redeal ---------------------------------------------------------------------------
def test_flip_turns_the_top_stock_card_onto_the_waste():
    state = GAME.deal(SEED_NO_KINGS)
    top = state.stock[-1]
    state.act(0, "flip")
    assert state.waste == [top] and len(state.stock) == 43
    second = state.stock[-1]
    state.act(0, "flip")
    assert state.waste == [top, second]


def test_flip_on_an_empty_stock_is_refused():
    state = position("2C - - - - - -", "AH", waste="5D", redeals_left=1)
    err = refused(state, "flip")
    assert "stock is empty" in err.reason


def test_redeal_only_when_the_stock_is_empty():
    state = position("9C - - - - - -", "AH", waste="5D", stock="6D")
    assert "redeal" not in state.legal(0)
    err = refused(state, "redeal")
    assert "stock" in err.reason
    state.act(0, "flip")
    assert state.legal(0) == ["redeal"]
    state.act(0, "redeal")
    assert names(reversed(state.stock)) == ["5D", "6D"] and state.waste == []


def test_redeal_of_an_empty_waste_is_refused():
    state = position("2C - - - - - -", "AH")  # stock and waste empty; a play keeps it going
    assert state.legal(0) == ["play r1"]
    err = refused(state, "redeal")
    assert "waste is empty" in err.reason


def test_redeal_keeps_the_order_first_card_flipped_is_flipped_first_again():
    state = GAME.deal(SEED_NO_KINGS)
    passes = []
    for _ in range(3):
        flipped = []
        while "flip" in state.legal(0):
            state.act(0, "flip")
            flipped.append(state.waste[-1])
        passes.append(flipped)
        if "redeal" in state.legal(0):
            state.act(0, "redeal")
    assert passes[0] == passes[1] == passes[2]
    assert len(passes[0]) == 44


def test_two_redeals_the_stock_goes_through_three_times():
    state = GAME.deal(SEED_NO_KINGS)
    flips = redeals = 0
    while True:
        legal = state.legal(0)
        if "flip" in legal:
            state.act(0, "flip")
            flips += 1
        elif "redeal" in legal:
            assert state.view(0)["redeals_left"] == 2 - redeals
            state.act(0, "redeal")
            redeals += 1
        else:
            break
    assert (flips, redeals) == (3 * 44, 2)
    assert state.redeals_left == 0


def test_a_third_redeal_is_illegal_with_a_clear_reason():
    # a reserve play stays available, so the game is not over after the third pass
    state = position("8C - - - - - -", "4D", stock="JS 5D 9H")
    for _ in range(2):
        for _ in range(3):
            state.act(0, "flip")
        state.act(0, "redeal")
    for _ in range(3):
        state.act(0, "flip")
    assert not state.over
    assert state.redeals_left == 0
    assert state.legal(0) == ["play r1"]
    err = refused(state, "redeal")
    assert "redeal" in err.reason and "three" in err.reason
    assert type(err) is IllegalAction


# -- plays -------------------------------------------------------------------------------------
@pytest.mark.parametrize("slot", range(1, 8))
def test_play_from_each_reserve_under_the_doubling_rule(slot):
    reserves = ["9C", "5D", "10H", "7S", "JC", "QD", "3H"]  # none of them an 8
    reserves[slot - 1] = "8S"
    state = position(" ".join(reserves), "4D", stock="6C")
    assert state.legal(0) == [f"play r{slot}", "flip"]
    state.act(0, f"play r{slot}")
    assert names(state.foundation) == ["4D", "8S"] and state.needed == 3
    assert state.view(0)["score"] == 2


def test_play_waste_moves_the_top_waste_card_to_the_foundation():
    state = position("9C - - - - - -", "6D", waste="QS 5C QH", stock="2D")
    assert state.legal(0) == ["play waste", "flip"]
    state.act(0, "play waste")
    assert names(state.foundation) == ["6D", "QH"] and names(state.waste) == ["QS", "5C"]
    assert state.needed == 11


def test_refused_play_explains_what_the_foundation_needs():
    state = position("4S - - - - - -", "6H", waste="5C", stock="9D")
    err = refused(state, "play waste")
    assert "5C" in err.reason and "needs a Q" in err.reason
    err = refused(state, "play r1")
    assert "4S" in err.reason and "needs a Q" in err.reason
    state = position("4S - - - - - -", "8D", stock="9D")
    assert "needs a 3" in refused(state, "play r1").reason


def test_play_from_an_empty_place_is_refused():
    state = position("- 2C - - - - -", "AC", stock="9D")
    assert "empty" in refused(state, "play r1").reason
    assert "empty" in refused(state, "play waste").reason


@pytest.mark.parametrize(
    "action",
    [
        "play waste r1",
        "move waste r1",
        "move r1 r2",
        "play r1 r2",
        "play foundation",
        "play F",
        "play stock",
        "waste",
        "undo",
    ],
)
def test_nothing_else_moves_by_hand(action):
    state = position("2C 4D - - - - -", "AH", waste="9S", stock="5C")
    refused(state, action, kind=MalformedAction)


# -- refill ------------------------------------------------------------------------------------
def test_emptied_reserve_is_refilled_at_once_from_the_top_of_the_waste():
    state = position("2D - - - - - -", "AC", waste="5C 9H", stock="3C")
    state.act(0, "play r1")
    assert names(state.reserves)[0] == "9H"
    assert names(state.waste) == ["5C"] and names(state.stock) == ["3C"]
    assert state.view(0)["reserves"][0] == "9H"


def test_emptied_reserve_is_refilled_from_the_top_of_the_stock_when_the_waste_is_empty():
    state = position("- - - 2D - - -", "AC", stock="3C 9H")
    state.act(0, "play r4")
    assert names(state.reserves)[3] == "9H" and names(state.stock) == ["3C"]


def test_emptied_reserve_stays_empty_when_waste_and_stock_are_empty():
    state = position("- - - - - - 2D", "AC", waste="", stock="", redeals_left=2)
    state.act(0, "play r7")
    assert state.reserves[6] is None
    assert state.view(0)["reserves"] == [None] * 7


def test_playing_from_the_waste_refills_nothing():
    state = position("2D - 9C - - - -", "AC", waste="4H 2S", stock="3C")
    state.act(0, "play waste")
    assert names(state.reserves) == ["2D", None, "9C", None, None, None, None]
    assert names(state.waste) == ["4H"]


def test_king_refilling_a_reserve_from_the_waste_freezes_the_slot_for_the_rest_of_the_game():
    state = position("2D 4S - - - - -", "AC", waste="5C 8H KH", stock="3C QD")
    state.act(0, "play r1")  # r1 refills with KH, the top of the waste
    assert name(state.reserves[0]) == "KH"
    state.act(0, "play r2")  # 4S; r2 refills with 8H
    state.act(0, "play r2")  # 8H; r2 refills with 5C
    state.act(0, "flip")  # QD
    state.act(0, "flip")  # 3C
    state.act(0, "play waste")  # 3C
    state.act(0, "redeal")
    state.act(0, "flip")
    for s in (state, state.clone()):
        assert name(s.reserves[0]) == "KH"
        assert "play r1" not in s.legal(0)
        assert "king" in refused(s, "play r1").reason
    while state.legal(0):
        state.act(0, state.legal(0)[-1])
    assert state.over and name(state.reserves[0]) == "KH"


def test_king_refilling_a_reserve_from_the_stock_freezes_the_slot():
    state = position("- - 2D - - - -", "AC", stock="9C KS")
    state.act(0, "play r3")
    assert name(state.reserves[2]) == "KS" and names(state.stock) == ["9C"]
    assert state.legal(0) == ["flip"]
    assert "king" in refused(state, "play r3").reason


def test_king_flipped_onto_the_waste_stays_there_and_blocks_the_cards_beneath():
    state = position("9C - - - - - -", "2D", stock="5S 4C KS")
    state.act(0, "flip")
    assert names(state.waste) == ["KS"] and names(state.stock) == ["5S", "4C"]
    assert state.legal(0) == ["flip"]
    state.act(0, "flip")
    assert names(state.waste) == ["KS", "4C"]
    state.act(0, "play waste")
    assert names(state.waste) == ["KS"]  # the king is back on top, not sent anywhere
    blocked = position("9C - - - - - -", "2D", waste="4C KS", redeals_left=0)
    assert blocked.over  # the needed 4C lies under the king: nothing is legal
    assert blocked.legal(0) == []


def test_king_on_the_waste_goes_round_again_at_a_redeal():
    state = position("9C - - - - - -", "2D", waste="5H KS 3C")
    state.act(0, "redeal")
    flipped = []
    while state.stock:
        state.act(0, "flip")
        flipped.append(name(state.waste[-1]))
    assert flipped == ["5H", "KS", "3C"]


# -- end and score -----------------------------------------------------------------------------
@pytest.mark.parametrize("source", ["waste", "reserve"])
def test_won_at_once_when_all_48_non_kings_are_on_the_foundation_even_with_kings_left(source):
    order = play_cycle_cards()
    last = order[-1]
    if source == "waste":
        state = position("KH KS - - - - -", " ".join(order[:-1]), waste=f"KD {last}", stock="KC")
        action = "play waste"
    else:
        state = position(f"KH KS - {last} - - -", " ".join(order[:-1]), waste="KD", stock="KC")
        action = "play r4"
    assert not state.over and state.legal(0) == [action, "flip"]
    state.act(0, action)
    assert state.over and state.won
    assert state.stock and any(c >> 2 == KING for c in state.stock + state.waste)
    assert state.to_act() == () and state.legal(0) == []
    result = state.result()
    assert result["over"] and result["won"]
    assert result["scores"] == [48] and result["winners"] == [0]
    assert state.view(0)["result"] == result and state.view(0)["over"]
    refused(state, "flip", kind=GameOver)


def test_over_when_nothing_is_playable_and_stock_and_waste_are_empty():
    state = position("2D 9C - - - - -", "AC")
    assert not state.over
    state.act(0, "play r1")  # the slot stays empty; 4 is needed, none anywhere
    assert state.over and not state.won
    assert state.to_act() == () and state.legal(0) == []
    result = state.result()
    assert result["scores"] == [2] and not result["won"] and result["winners"] == []


def test_over_when_the_stock_is_empty_and_both_redeals_are_used():
    state = position("9C - - - - - -", "AC", waste="JD", stock="5H", redeals_left=0)
    assert not state.over
    state.act(0, "flip")  # the last flip: no play, no flip, no redeal
    assert state.over
    assert state.result() == {
        "over": True,
        "scores": [1],
        "won": False,
        "winners": [],
        "ranks": [1],
        "foundation": 1,
    }


def test_not_over_while_a_redeal_is_left_even_with_nothing_to_play():
    state = position("9C - - - - - -", "AC", waste="JD 5H", redeals_left=1)
    assert not state.over and state.legal(0) == ["redeal"]


def test_not_over_while_a_card_can_be_played_with_stock_and_waste_gone():
    state = position("9C 2S - - - - -", "AC", waste="JD", redeals_left=0)
    assert not state.over and state.legal(0) == ["play r2"]


def test_score_is_the_number_of_cards_on_the_foundation():
    state = GAME.deal(SEED_GREEDY_LOSES)
    state.playout(["greedy"], random.Random(0))
    result = state.result()
    assert state.over and not result["won"]
    assert result["scores"] == [len(state.foundation)] == [41]
    assert result["winners"] == []
    assert state.view(None)["score"] == 41


def test_result_before_the_end_describes_the_position_so_far():
    state = GAME.deal(SEED_NO_KINGS)
    result = state.result()
    assert result["over"] is False and result["scores"] == [1] and result["winners"] == []
    assert "result" not in state.view(0)


def test_acting_after_the_end_raises_game_over():
    state = GAME.deal(SEED_GREEDY_WINS)
    state.playout(["greedy"], random.Random(0))
    assert state.over and state.result()["won"]
    for action in ALL_ACTIONS:
        err = refused(state, action, kind=GameOver)
        assert isinstance(err, IllegalAction)


# -- legal() order -----------------------------------------------------------------------------
def test_legal_lists_waste_play_then_reserves_in_order_then_flip():
    state = position("9C 2C 5D - 2D - 2S", "AC", waste="2H", stock="3C")
    assert state.legal(0) == ["play waste", "play r2", "play r5", "play r7", "flip"]
    assert state.legal(0) == state.clone().legal(0)


def test_legal_lists_redeal_last_when_the_stock_is_empty():
    state = position("2C 9C - - - - 2S", "AC", waste="2H", redeals_left=1)
    assert state.legal(0) == ["play waste", "play r1", "play r7", "redeal"]
    state.redeals_left = 0
    assert state.legal(0) == ["play waste", "play r1", "play r7"]


def test_legal_matches_act_and_over_means_nothing_legal_on_random_games():
    rng = random.Random(7)
    for seed in range(3):
        for state in random_walk(seed, rng):
            legal = state.legal(0)
            assert set(legal) <= set(ALL_ACTIONS)
            assert legal == [a for a in ALL_ACTIONS if a in legal]  # the stable order
            assert state.over == (legal == [])
            assert state.legal(1) == []
            assert not any(c >> 2 == KING for c in state.foundation)
            assert sorted(all_cards(state)) == sorted(DECK)
            if state.over:
                continue
            for action in ALL_ACTIONS:
                if action in legal:
                    state.clone().act(0, action)
                else:
                    refused(state, action)


# -- views -------------------------------------------------------------------------------------
def test_view_shows_stock_as_a_count_and_the_rest_by_card_names():
    state = position("QH - 10S - AC - JD", "4C", waste="KS 10D 5S", stock="2D 3D", redeals_left=1)
    view = state.view(0)
    assert view["stock"] == 2
    assert view["waste"] == ["KS", "10D", "5S"]  # top last
    assert view["reserves"] == ["QH", None, "10S", None, "AC", None, "JD"]
    assert view["foundation"] == ["4C"]
    assert view["needed"] == 8 and view["redeals_left"] == 1
    assert view["to_act"] == [0] and view["over"] is False
    json.loads(json.dumps(view))  # JSON-ready
    assert state.view(None) | {"seat": 0} == view


def test_view_foundation_lists_the_top_last():
    state = position("8D - - - - - -", "2C 4S", stock="5C")
    state.act(0, "play r1")
    assert state.view(0)["foundation"] == ["2C", "4S", "8D"]
    assert state.view(0)["needed"] == 3


def test_view_never_shows_a_stock_card():
    rng = random.Random(3)
    for seed in (SEED_NO_KINGS, SEED_RESERVE_KING, SEED_FOUNDATION_KING, 77):
        for state in random_walk(seed, rng):
            for seat in (0, None):
                view = state.view(seat)
                text = json.dumps(view)
                assert isinstance(view["stock"], int) and view["stock"] == len(state.stock)
                shown = set(view["waste"]) | set(view["foundation"]) | set(view["reserves"])
                for c in state.stock:
                    assert f'"{name(c)}"' not in text or name(c) in shown


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "action",
    [
        "play r8",
        "play r0",
        "play",
        "play ",
        "flip now",
        "",
        "FLIP",
        "Play waste",
        "redeal 2",
        "play waste ",
        3,
        None,
        ["flip"],
    ],
)
def test_malformed_actions_raise_malformed_action(action):
    state = GAME.deal(SEED_NO_KINGS)
    err = refused(state, action, kind=MalformedAction)
    assert isinstance(err, IllegalAction) and isinstance(err, ValueError)
    assert err.reason


@pytest.mark.parametrize("seat", [1, -1, 2])
def test_only_seat_0_plays(seat):
    state = GAME.deal(SEED_NO_KINGS)
    refused(state, "flip", seat=seat, kind=NotYourTurn)
    assert state.to_act() == (0,)


def test_refused_actions_leave_the_snapshot_and_record_unchanged():
    state = position("2C KD - - - - -", "6H", waste="5C", stock="9D", redeals_left=0)
    for action in ("play waste", "play r1", "play r2", "play r3", "redeal", "play r9", ""):
        refused(state, action)
    assert state.actions == []


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (0, {}),
        (1, {"target": 100}),
        (None, {"redeals": 3}),
        ("1", {}),
    ],
)
def test_bad_player_count_or_any_option_raises_bad_options(players, options):
    with pytest.raises(BadOptions):
        GAME.deal(1, players, options)


def test_one_player_and_no_options_deal():
    assert GAME.deal(1, 1).snapshot() == GAME.deal(1).snapshot()
    assert GAME.deal(1).players == 1


# -- fast path and records ---------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("seed", range(8))
def test_playout_record_replays_to_an_equal_state(policy, seed):
    state = GAME.deal(seed)
    state.playout([policy], random.Random(seed))
    assert state.over and state.legal(0) == []
    again = games.replay(state.record())
    assert again == state
    assert again.result() == state.result()


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_playout_from_the_middle_of_a_game_replays(policy):
    state = GAME.deal(SEED_REPLACEMENT_KING)
    rng = random.Random(5)
    for _ in range(30):
        state.act(0, rng.choice(state.legal(0)))
    state.playout([policy], random.Random(1))
    assert state.over
    assert games.replay(state.record()) == state


def test_greedy_playout_wins_the_pinned_seed():
    state = GAME.deal(SEED_GREEDY_WINS)
    state.playout(["greedy"], random.Random(0))
    assert state.result()["won"] and state.result()["scores"] == [48]
    assert games.replay(state.record()).result()["won"]


@pytest.mark.parametrize("seed", range(6))
def test_greedy_playout_plays_the_greedy_bot_move_for_move(seed):
    from cardtable.bots.doublets import greedy as doublets_greedy

    fast = GAME.deal(seed)
    fast.playout(["greedy"], random.Random(0))
    slow = GAME.deal(seed)
    while not slow.over:
        slow.act(0, doublets_greedy(slow.view(0), slow.legal(0)))
    assert slow.actions == fast.actions
    assert slow == fast
