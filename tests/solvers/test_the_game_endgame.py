"""The Game's endgame search: winning lines replay to a win, losses are real, bots use it."""

from __future__ import annotations

import random

from cardtable import games
from cardtable.bots import make_bot
from cardtable.games.the_game import PILES
from cardtable.sim import play_one
from cardtable.solvers import the_game_endgame as endgame
from cardtable.solvers.the_game_endgame import LOST, UNKNOWN, WON, solve

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
        play_one(
            state,
            [_Watch(make_bot("expert", "the-game", seed * 16 + s), state, seen) for s in range(2)],
        )
        if seen.get("winnable"):
            checked += 1
            assert state.result()["won"], seed
    assert checked >= 5


def _to_shared_endgame(seed: int, players: int):
    """Like ``_to_endgame``, but only when two or more other seats still hold cards."""
    state = _to_endgame(seed, players)
    if state is None:
        return None
    holders = [s for s in range(players) if s != state.turn and state.hands[s]]
    return state if len(holders) >= 2 else None


def test_sampled_choice_on_the_true_split_agrees_with_the_exact_endgame():
    # Every sample the same split (the true one): the sampled choice is the exact endgame's
    # answer, and the lines it hands back replay through the engine to a win.
    won = lost = 0
    for seed in range(1, 80):
        state = _to_shared_endgame(seed, 3)
        if state is None:
            continue
        hands = [_mask(h) for h in state.hands]
        me = state.turn
        status, _ = solve(state.tops, hands, me, 0, 1, 200000)
        choice = endgame.sampled_choice(state.tops, [list(hands)] * 3, me, 0, 1, 200000)
        if status == LOST:
            assert choice is None
            lost += 1
            continue
        assert status == WON and choice is not None
        action, wins, winnable, lines = choice
        assert wins == winnable == 3
        assert action is not None  # nothing is played yet: the turn cannot end
        card, pile = action
        state.act(me, f"play {card} {PILES[pile]}")
        for seat, c, p in lines[0]:
            assert not state.over and seat == state.turn
            state.act(seat, "end" if not c else f"play {c} {PILES[p]}")
        assert state.over and state.result()["won"], seed
        won += 1
    assert won >= 3 and lost >= 3


def _small_sampled_position(rng: random.Random, tight: bool = False):
    """Random small endgames: three seats, 1-6 cards each, and three splits of the others'
    (``tight``: piles half way already, so fewer actions win)."""
    cards = rng.sample(range(2, 100), 12)
    if tight:
        tops = [rng.randint(15, 50), rng.randint(15, 50), rng.randint(50, 85), rng.randint(50, 85)]
        cards = [c for c in cards if c not in tops]
    else:
        tops = [rng.randint(1, 45), rng.randint(1, 45), rng.randint(55, 100), rng.randint(55, 100)]
    mine = _mask(cards[:3])
    rest = cards[3 : 3 + rng.randint(3, 7)]
    cut = rng.randint(1, len(rest) - 1)
    samples = []
    for _ in range(3):
        rng.shuffle(rest)
        samples.append([mine, _mask(rest[:cut]), _mask(rest[cut:])])
    return tops, samples


def _wins_after(tops, hands, played, action) -> bool:
    t, h, seat, p = endgame.after(tops, hands, 0, played, action)
    return seat < 0 or solve(t, h, seat, p, 1, 10**6)[0] == WON


def test_sampled_choice_wins_on_the_most_samples():
    # Against brute force: the chosen action wins on exactly the samples it says, and no
    # first action wins on more (the candidates' pruning never drops a better one).
    rng = random.Random(12)
    checked = 0
    for _ in range(150):
        tops, samples = _small_sampled_position(rng)
        played = rng.randint(0, 1)

        moves = endgame.first_moves(samples[0][0], tops, played, 1)
        counts = {a: sum(_wins_after(tops, s, played, a) for s in samples) for a in moves}
        choice = endgame.sampled_choice(tops, samples, 0, played, 1, 10**6)
        if not moves or max(counts.values()) == 0:
            assert choice is None
            continue
        assert choice is not None
        action, won, winnable, lines = choice
        assert action in moves and won == counts[action] == max(counts.values())
        assert winnable == sum(solve(tops, s, 0, played, 1, 10**6)[0] == WON for s in samples)
        assert sum(line is not None for line in lines) == won
        checked += 1
    assert checked >= 30


def test_sampled_choice_looks_past_misleading_lines():
    # Lines handed in that all start with a weak first action (where it wins at all): the
    # votes then point at it, and only searching the other candidates finds the action that
    # wins on the most samples.
    rng = random.Random(5)
    misled = 0
    for _ in range(300):
        tops, samples = _small_sampled_position(rng, tight=True)
        played = rng.randint(0, 1)
        moves = endgame.first_moves(samples[0][0], tops, played, 1)
        counts = {a: sum(_wins_after(tops, s, played, a) for s in samples) for a in moves}
        if not moves or max(counts.values()) == 0:
            continue
        weak = min((a for a in moves if counts[a]), key=lambda a: counts[a])
        lines = []
        for hands in samples:
            status, line = solve(tops, hands, 0, played, 1, 10**6)
            if status != WON:
                lines.append(None)
                continue
            t, h, seat, p = endgame.after(tops, hands, 0, played, weak)
            if seat < 0:
                line = [(0, weak[0], weak[1])] if weak else [(0, 0, -1)]
            else:
                status, rest = solve(t, h, seat, p, 1, 10**6)
                if status == WON:
                    line = [(0, weak[0], weak[1]) if weak else (0, 0, -1)] + rest
            lines.append(line)
        choice = endgame.sampled_choice(tops, samples, 0, played, 1, 10**6, lines=lines)
        assert choice is not None
        action, won, _, _ = choice
        assert won == counts[action] == max(counts.values())
        misled += counts[weak] < max(counts.values())
    assert misled >= 5
