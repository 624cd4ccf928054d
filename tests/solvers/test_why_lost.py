"""Why a move lost a winnable deal, in the game's words (``Game.loss_reason``, #27): each
reason from a position built to show it, and no reason where none is plain."""

from __future__ import annotations

import pytest

from cardtable import games

KING, EIGHT, FOUR, TWO, SEVEN = 13, 8, 4, 2, 7


def card(value: int, suit: int = 0) -> int:
    """A Doublets card id: value and suit (0..3: clubs, diamonds, hearts, spades)."""
    return value << 2 | suit


def doublets(reserves: list[int | None], waste: list[int], stock: list[int], needed: int):
    """A Doublets position: the foundation wants ``needed`` next."""
    state = games.get("doublets").deal(1)
    state.reserves, state.waste, state.stock = list(reserves), list(waste), list(stock)
    state.foundation = [card(1)] * 5  # (only its length counts here)
    state.needed = needed
    return state


def why(state, played: str, alternative: str | None):
    explain = state.game.loss_reason
    assert explain is not None
    return explain(state, 0, played, alternative)


def english(words) -> str:
    """The words in English (a ``Text`` is its English)."""
    assert words is not None
    return str(words)


def test_doublets_a_play_that_pulls_a_king_into_the_last_free_reserve():
    kings = [card(KING, s) for s in range(4)] + [card(KING, 1), card(KING, 2)]
    state = doublets([card(EIGHT), *kings], [card(TWO), card(KING, 3)], [card(SEVEN)], EIGHT)
    said = why(state, "play r1", "flip")
    assert english(said) == "it refilled reserve 1 with a king, which froze the last free reserve"
    # with another reserve still free, the slot alone is frozen
    state = doublets(
        [card(EIGHT), card(FOUR), *kings[:5]], [card(TWO), card(KING, 3)], [card(SEVEN)], EIGHT
    )
    assert english(why(state, "play r1", "flip")) == (
        "it refilled reserve 1 with a king, which froze it for good"
    )


def test_doublets_a_flip_that_buries_the_card_the_foundation_needs():
    state = doublets([card(FOUR)] * 7, [card(TWO), card(EIGHT, 2)], [card(SEVEN)], EIGHT)
    assert english(why(state, "flip", "play waste")) == (
        "the flip covered the 8♥ on the waste, which the foundation needed"
    )


def test_doublets_a_redeal_while_a_reserve_could_still_play():
    state = doublets([card(FOUR), card(EIGHT, 1), *[card(TWO)] * 5], [card(SEVEN)], [], EIGHT)
    assert english(why(state, "redeal", "play r2")) == (
        "turning the waste over spent a pass while the 8♦ from reserve 2 could still go on "
        "the foundation"
    )


def test_doublets_a_flip_that_takes_away_a_reserves_refill():
    """Playing the reserve's card would have refilled it with the waste's top (or, with an
    empty waste, the stock's): the flip moved that card away."""
    state = doublets([card(EIGHT), *[card(TWO)] * 6], [card(SEVEN, 3)], [card(FOUR)], EIGHT)
    assert english(why(state, "flip", "play r1")) == (
        "the flip covered the 7♠ on the waste; playing the 8♣ from reserve 1 first would have "
        "moved it into the reserve"
    )
    state = doublets([card(EIGHT), *[card(TWO)] * 6], [], [card(FOUR, 2)], EIGHT)
    assert english(why(state, "flip", "play r1")) == (
        "the flip sent the 4♥ to the waste; playing the 8♣ from reserve 1 first would have "
        "put it into the reserve"
    )


def test_doublets_says_nothing_when_the_stock_order_decided_it():
    """Two plays of the same value: no plain reason, the verdict's better move says it."""
    state = doublets(
        [card(EIGHT), card(EIGHT, 1), *[card(TWO)] * 5], [card(EIGHT, 2)], [card(FOUR)], EIGHT
    )
    assert why(state, "play r1", "play r2") is None
    assert why(state, "play waste", "flip") is None


def the_game(tops: list[int], hands: list[list[int]], draw: list[int]):
    state = games.get("the-game").deal(1, len(hands))
    state.tops, state.hands, state.draw = list(tops), [sorted(h) for h in hands], list(draw)
    state.turn, state.played = 0, 0
    return state


def test_the_game_a_play_that_leaves_a_card_out_of_every_piles_reach():
    # up piles at 50 and 60, down at 40 and 70: only down 2 takes the 45; the 30 on it
    # leaves the 45 with no pile, and no 55 or 35 to turn a pile back with
    state = the_game([50, 60, 40, 70], [[30, 45, 80], [90]], [95])
    said = why(state, "play 30 down2", "play 80 up1")
    assert english(said) == "after it, the 45 could never be played: no pile would take it again"


def test_the_game_a_jump_over_cards_still_to_come():
    state = the_game([10, 40, 90, 95], [[30, 12, 15], [14]], [20])
    said = why(state, "play 30 up1", "play 12 up1")
    # 12, 14, 15 and 20 lie between 10 and 30; the 12 and 15 in the same hand count too
    assert english(said) == "it jumped from 10 to 30 on ▲ up 1, over 4 cards still to be played"
    # a play of the next card jumps over nothing: no reason but the move itself
    assert why(state, "play 12 up1", "play 30 up1") is None


def test_a_game_without_a_solver_has_no_reasons_and_other_states_are_refused():
    assert games.get("slide").loss_reason is None
    explain = games.get("doublets").loss_reason
    with pytest.raises(TypeError):
        explain(games.get("the-game").deal(1, 2), 0, "end", None)
