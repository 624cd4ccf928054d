"""The Game's endgame search: winning lines replay to a win, losses are real, bots use it."""

from __future__ import annotations

import random

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots import the_game_endgame as endgame
from cardtable.bots.the_game_endgame import LOST, UNKNOWN, WON, solve
from cardtable.games.the_game import PILES
from cardtable.sim import play_one

RULES = games.get("the-game")


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _to_endgame(seed: int, players: int):
    """A game played by greedy bots up to the first turn with the draw pile empty, or None."""
    state = RULES.deal(seed, players)
    greedy = make_bot("greedy", "the-game")
    while not state.over and (state.draw or state.played):
        seat = state.to_act()[0]
        state.act(seat, greedy.choose(state.view(seat), state.legal(seat)))
    return None if state.over else state


def test_winning_lines_replay_through_the_engine_to_a_win():
    replayed = 0
    for seed in range(1, 60):
        state = _to_endgame(seed, 2)
        if state is None:
            continue
        status, line = solve(state.tops, [_mask(h) for h in state.hands], state.turn, 0)
        if status != WON:
            continue
        for seat, card, pile in line:
            assert seat == state.turn
            state.act(seat, "end" if not card else f"play {card} {PILES[pile]}")
        assert state.over and state.result()["won"]
        replayed += 1
    assert replayed >= 5


def test_a_card_out_of_every_pile_is_a_proved_loss():
    # 45 fits no pile (up at 50, down at 40) and no trick can turn a pile back to it
    status, line = solve([50, 50, 40, 40], [_mask([45, 60]), _mask([30])], 0, 0)
    assert (status, line) == (LOST, [])
    # with the 40 still to come the up pile turns back (50, then 40 by the trick): won
    status, line = solve([50, 50, 30, 30], [_mask([45, 40]), _mask([20])], 0, 0)
    assert status == WON


def test_the_dead_card_proof_agrees_with_the_plain_search():
    rng = random.Random(7)
    plain = endgame._dead_card
    lost = 0
    for _ in range(400):
        cards = rng.sample(range(20, 80), rng.randint(2, 8))
        k = rng.randint(1, len(cards))
        hands = [_mask(cards[:k]), _mask(cards[k:])]
        tops = [rng.randint(30, 70) for _ in range(4)]
        fast = solve(tops, hands, 0, 0, 1, 10**7)[0]
        try:
            endgame._dead_card = lambda tops, live: False
            slow = solve(tops, hands, 0, 0, 1, 10**7)[0]
        finally:
            endgame._dead_card = plain
        assert fast == slow
        lost += fast == LOST
    assert lost > 10


def test_a_small_budget_says_unknown():
    hands = [_mask(range(20, 34, 2)), _mask(range(21, 35, 2))]
    assert solve([1, 1, 100, 100], hands, 0, 0, 1, budget=3)[0] == UNKNOWN


class _Watch:
    """Passes a bot's moves on; at the first turn with the draw pile empty, asks (peeking at
    the whole state, which the bot never sees) whether the game can still be won."""

    def __init__(self, bot, state, seen: dict) -> None:
        self.bot, self.react, self.state, self.seen = bot, bot.react, state, seen

    def choose(self, view: dict, legal: list[str]) -> str:
        state = self.state
        if "winnable" not in self.seen and not state.draw and not state.played:
            hands = [_mask(h) for h in state.hands]
            self.seen["winnable"] = solve(state.tops, hands, state.turn, 0, 1, 10**6)[0] == WON
        return self.bot.choose(view, legal)


def test_bots_win_every_endgame_that_can_be_won():
    # Two bots that track every card know both hands once the draw pile is empty: when a win
    # is there (with full knowledge), they find it and play it out together.
    checked = 0
    for seed in range(1, 40):
        state = RULES.deal(seed, 2)
        seen: dict = {}
        play_one(state, [_Watch(make_bot("expert", "the-game", seed * 16 + s), state, seen)
                         for s in range(2)])
        if seen.get("winnable"):
            checked += 1
            assert state.result()["won"], seed
    assert checked >= 5
