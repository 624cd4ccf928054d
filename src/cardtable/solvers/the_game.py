"""The Game solver: can this deal be won by a team that sees everything, and how?

**Full knowledge: this solver peeks.** It reads every hand and the order of the draw pile, so
it is a tool for studying deals (which share of deals a perfect team could win at all, which
line wins one), not a player. The fair bots (``cardtable.bots.the_game_*``) get views only.
Talk (the pile signals) is no part of the search: with every card known there is nothing
left to tell, and a signal changes no turn, no pile and no hand.

The model
---------
A position is the four pile tops, every seat's hand as a bit mask over the cards 2..99, the
draw pointer (how many cards of the known draw order have been drawn), the seat to move and
the cards it has played this turn. The rules are the engine's (RULES.md section 3, with the
deal's options): a turn plays at least ``minimum`` cards (2, or 3 with ``pro``, while the draw
pile lasts; ``min_after_empty`` once it is empty), then ends and draws back up to the hand
size from the known draw order; a hand played out ends its turn by itself; a seat with an
empty hand is skipped; a turn that cannot reach its minimum loses.

The search
----------
Depth-first over whole turns, built a card at a time: the seat to move plays a card, or, once
it has played its minimum, ends the turn and draws the cards the draw order gives it. Every
sequence of plays of at least the minimum, followed by the draw, is a turn, so the search
sees every turn there is (the order of plays inside a turn matters, tricks depend on it).

*Move ordering* (only speed, never the answer): the cheapest plays first, a play's cost being
the live cards (in any hand or the draw pile) it puts out of that pile's direct reach, a
backwards trick costing -1; ending the turn is tried after the plays that cost nothing
(the endgame bot's ordering, ``cardtable.solvers.the_game_endgame``).

*The table* (transposition table of lost positions) keys a position by what its piles still
*accept*, not by their tops: a pile's accept set is the live cards it takes now (an up pile
with top t: the live cards above t, and t - 10). Two positions with the same hands, draw
pointer, seat, cards played this turn (counted up to the minimum: beyond it, more changes
nothing) and the same accept sets per direction (up1/up2 as a pair, down1/down2 as a pair)
are the same game: **why.** Every card that will ever be played is live now, so a play is
legal in one exactly when it is legal in the other; after it, that pile's top is the same
card in both, and the other piles' accept sets stay equal (each is intersected with the same
smaller live set). Draws, turn ends and the end of the game depend only on hands, the draw
pointer and these plays. So twins with equal tops, and tops that differ only in dead cards,
share one entry.

*Dominance* (a move skipped because another one is never worse). When a card ``c`` fits both
piles of a direction, with tops x and y, and x's accept set (of the live cards other than
c) is inside y's, playing c on y is skipped: c goes on x. **Proof.** After c on x the piles
of that direction accept {acc(c), acc(y)}; after c on y, {acc(x), acc(c)}; all else is
equal. Pair acc(c) with acc(c) and acc(y) with acc(x): each pile of the first position
accepts every live card its partner accepts. Then every line from the second position is
legal from the first, playing each card on the partner pile: a card its pile accepts is
accepted by the partner; after it both piles' tops are that card (equal from then on); the
other pairs keep the inclusion, since the live set only shrinks; turn ends, draws and the
minimum are the same. So if c on y wins, c on x wins too. (Equal accept sets: twins; one is
tried.) ``test_dominance_never_loses_a_win`` checks it against a search without it.

*Proofs of loss* (cheap cuts, each sound on its own):

- a live card that no pile can ever take again (``dead_card``, the endgame module's bound: relaxed
  so that every live card is at hand at once, in any order, a pile turns back only by chains
  of tens; a card outside every pile's reach then is out of it in every real line too);
- the seat to move starts its turn with fewer cards than its minimum (the engine ends the game
  there);
- the plain rules: a turn that runs out of plays before its minimum.

A ``"lost"`` answer is the exhaustion of this search: every line from the position was
followed until one of these cuts or a position in the table, so no line wins.

``budget`` counts positions searched; over it the answer is ``"unknown"`` (never without a
budget). The table's memory is capped (``TABLE_CAP``; over it, it is cleared): forgetting a
lost position costs time, never soundness.
"""

from __future__ import annotations

import time
from typing import Any

from cardtable import games
from cardtable.core.protocol import State
from cardtable.core.words import Text, translatable
from cardtable.games.the_game import PILE_WORDS, PILES, TheGameState
from cardtable.solvers import Solution
from cardtable.solvers.the_game_endgame import ABOVE, BELOW, cards_of

#: lost positions kept; over it the table is cleared (an entry only saves a search)
TABLE_CAP = 2_000_000

_END = (0, -1)  # the search's move for "end the turn"
#: the discrepancy allowances of the limited rounds (the k-th option of a position spends k)
ROUNDS = (0, 1, 2, 4, 8, 16)
#: "end the turn" comes among the options after the plays that cost no more than this
END_AFTER = 0


class _OutOfBudget(Exception):
    pass


def _bit(c: int) -> int:
    return 1 << c if 2 <= c <= 99 else 0


def accepts(pile: int, top: int) -> int:
    """The cards (bit mask over 2..99) that pile number ``pile`` with ``top`` takes now."""
    if pile < 2:
        return ABOVE[top] | _bit(top - 10)
    return BELOW[top] | _bit(top + 10)


# ACC[pile][top] = accepts(pile, top), looked up in the search's inner loops
ACC = [[accepts(p, t) for t in range(101)] for p in range(4)]


def dead_card(tops: list[int], live: int) -> bool:
    """Whether some live card is out of every pile's reach for good (``dead_cards``)."""
    return bool(dead_cards(tops, live))


def dead_cards(tops: list[int], live: int) -> int:
    """The endgame's dead-card bound (``the_game_endgame._dead_card``), in bit operations.

    Is some live card out of every pile's reach for good? Relaxed (every live card at hand at
    once, in any order), an up pile can turn back to any top it reaches by a chain of tricks
    (ten down each) from its top or from a live card it takes; the lowest such top bounds
    every real line's up piles from below, likewise the highest top of the down piles. A live
    card that no pile takes now and that lies strictly between the two is never played:
    the game is lost. Returns the mask of those cards (0: none; the same answer as the
    endgame's function, a test checks it).
    """
    lu, hd = min(tops[0], tops[1]), max(tops[2], tops[3])
    fitting = (
        ABOVE[lu]
        | BELOW[hd]
        | _bit(tops[0] - 10)
        | _bit(tops[1] - 10)
        | _bit(tops[2] + 10)
        | _bit(tops[3] + 10)
    )
    stuck = live & ~fitting
    if not stuck:
        return 0
    # the up piles: close the reachable tops under "ten down onto a live card", then add the
    # live cards above the lowest, until the lowest stops falling
    low = lu
    reach = 1 << tops[0] | 1 << tops[1] | live & ABOVE[low]
    while True:
        while True:
            more = reach | (reach >> 10) & live
            if more == reach:
                break
            reach = more
        lowest = (reach & -reach).bit_length() - 1
        if lowest >= low:
            break
        low = lowest
        reach |= live & ABOVE[low]
    if not stuck & BELOW[low]:
        return 0
    high = hd
    reach = 1 << tops[2] | 1 << tops[3] | live & BELOW[high]
    while True:
        while True:
            more = reach | (reach << 10) & live
            if more == reach:
                break
            reach = more
        highest = reach.bit_length() - 1
        if highest <= high:
            break
        high = highest
        reach |= live & BELOW[high]
    return stuck & ABOVE[high] & BELOW[low]


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _Search:
    """One search over a position's game tree (the module docstring says how)."""

    def __init__(
        self,
        tops: list[int],
        hands: list[int],
        order: list[int],
        ptr: int,
        hand_size: int,
        minimum_draw: int,
        minimum_empty: int,
        budget: int | None,
        dominance: bool = True,
        cuts: bool = True,
        table: bool = True,
    ) -> None:
        self.tops = list(tops)
        self.hands = list(hands)
        self.order = order  # the draw pile, first card drawn first
        self.ptr = ptr
        self.hand_size = hand_size
        self.minimum_draw = minimum_draw
        self.minimum_empty = minimum_empty
        # suffix[i]: the cards order[i:] as a mask
        self.suffix = [0] * (len(order) + 1)
        for i in range(len(order) - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] | 1 << order[i]
        self.left = budget if budget is not None else -1
        self.nodes = 0
        self.dominance, self.cuts, self.use_table = dominance, cuts, table
        self.failed: set[Any] = set()
        # positions that failed with only some options tried: key -> the discrepancy allowed
        self.limited: dict[Any, int] = {}
        self.cut = False
        self.dead_cuts = 0
        self.line: list[tuple[int, int, int]] = []  # (seat, card, pile); card 0: end

    def minimum(self) -> int:
        return self.minimum_draw if self.ptr < len(self.order) else self.minimum_empty

    def next_seat(self, seat: int) -> int:
        n = len(self.hands)
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self.hands[s]:
                return s
        return -1

    def plays(self, hand: int, live: int, acc: list[int]) -> list[tuple[int, int, int]]:
        """(cost, card, pile) for every play of ``hand``, cheapest first, dominated ones out.

        A play's cost is the number of live cards it jumps over on its pile (they are out of
        that pile's direct reach after it); a backwards trick costs -1."""
        tops = self.tops
        out = []
        for first in (0, 2):
            ax, ay = acc[first], acc[first + 1]
            for c in cards_of(hand & (ax | ay)):
                rest = live & ~(1 << c)
                if ax >> c & 1 and ay >> c & 1:
                    rx, ry = ax & rest, ay & rest
                    if self.dominance and rx & ~ry == 0:
                        on = [first]  # x accepts no more than y: keep y open
                    elif self.dominance and ry & ~rx == 0:
                        on = [first + 1]
                    else:
                        on = [first, first + 1]
                else:
                    on = [first] if ax >> c & 1 else [first + 1]
                for p in on:
                    t = tops[p]
                    if c == (t - 10 if p < 2 else t + 10):
                        cost = -1
                    elif p < 2:
                        cost = (live & ABOVE[t] & BELOW[c]).bit_count()
                    else:
                        cost = (live & BELOW[t] & ABOVE[c]).bit_count()
                    out.append((cost, c, p))
        out.sort()
        return out

    def search(self, seat: int, played: int, d: int) -> bool:
        """Can the seat to move, ``played`` cards into its turn, still win? Only the first
        ``d + 1`` options of each position in order are tried, the k-th one leaving ``d - k``
        further (``self.cut`` is set when that left some out)."""
        hands, tops = self.hands, self.tops
        hand = hands[seat]
        minimum = self.minimum()
        live = self.suffix[self.ptr]
        for h in hands:
            live |= h
        key = None
        a = [
            ACC[0][tops[0]] & live,
            ACC[1][tops[1]] & live,
            ACC[2][tops[2]] & live,
            ACC[3][tops[3]] & live,
        ]
        if self.use_table:
            key = (
                min(a[0], a[1]),
                max(a[0], a[1]),
                min(a[2], a[3]),
                max(a[2], a[3]),
                tuple(hands),
                self.ptr,
                seat,
                min(played, minimum),
            )
            if key in self.failed:
                return False
            if self.limited.get(key, -1) >= d:
                self.cut = True
                return False
        self.nodes += 1
        if self.nodes == self.left:
            raise _OutOfBudget
        if played == 0 and hand.bit_count() < minimum:
            return self.lost(key)
        if self.cuts and dead_cards(tops, live):
            self.dead_cuts += 1
            return self.lost(key)
        # the options in order: the plays, "end" among them after the free ones
        options: list[tuple[int, int]] = []
        ended = played < minimum  # "end" is not legal yet
        for cost, card, p in self.plays(hand, live, a):
            if not ended and cost > END_AFTER:
                ended = True
                options.append(_END)
            options.append((card, p))
        if not ended:
            options.append(_END)
        cut_before, self.cut = self.cut, False
        for k, (card, p) in enumerate(options):
            if k > d:
                self.cut = True
                break
            if p < 0:
                if self.end_turn(seat, d - k):
                    return True
                continue
            t = tops[p]
            tops[p] = card
            hands[seat] = hand & ~(1 << card)
            self.line.append((seat, card, p))
            if hands[seat]:
                ok = self.search(seat, played + 1, d - k)
            else:  # a hand played out ends its turn by itself
                ok = self.end_turn(seat, d - k, auto=True)
            if ok:
                return True
            self.line.pop()
            hands[seat] = hand
            tops[p] = t
        cut_here, self.cut = self.cut, cut_before or self.cut
        if cut_here:
            if key is not None:
                self.limited[key] = d
            return False
        return self.lost(key)

    def lost(self, key: Any) -> bool:
        """Record a position proved lost (its whole subtree searched) and answer False."""
        if key is not None:
            if len(self.failed) >= TABLE_CAP:
                self.failed.clear()
            self.failed.add(key)
        return False

    def draw(self, seat: int) -> None:
        """The seat's turn ends: it draws up to its hand size, while the draw pile lasts."""
        hand, ptr = self.hands[seat], self.ptr
        take = min(self.hand_size - hand.bit_count(), len(self.order) - ptr)
        for c in self.order[ptr : ptr + take]:
            hand |= 1 << c
        self.hands[seat] = hand
        self.ptr = ptr + take

    def end_turn(self, seat: int, d: int, auto: bool = False) -> bool:
        hands = self.hands
        hand, ptr = hands[seat], self.ptr
        self.draw(seat)
        if not auto:
            self.line.append((seat, 0, -1))
        nxt = self.next_seat(seat)
        if nxt < 0 or self.search(nxt, 0, d):
            return True
        if not auto:
            self.line.pop()
        hands[seat] = hand
        self.ptr = ptr
        return False

    def run(self, seat: int, played: int) -> bool:
        """Rounds of growing discrepancy (``ROUNDS``), then one without a limit, until a
        round wins or searches everything (no option left out: its "no" is a proof)."""
        for d in ROUNDS:
            self.cut = False
            self.limited = {}
            if self.search(seat, played, d):
                return True
            if not self.cut:
                return False
        self.cut = False
        return self.search(seat, played, 1 << 30)


def _actions(line: list[tuple[int, int, int]]) -> list[str]:
    return ["end" if card == 0 else f"play {card} {PILES[p]}" for _, card, p in line]


def search_from(
    state: TheGameState,
    budget: int | None = None,
    *,
    dominance: bool = True,
    cuts: bool = True,
    table: bool = True,
) -> tuple[str, list[str], int, str]:
    """Search ``state``: ``(status, line, nodes, proof)``. The switches turn off the
    dominance, the proofs of loss and the table (for tests: a plain exhaustive search)."""
    if state.over:
        if state.result()["won"]:
            return "won", [], 0, ""
        return "lost", [], 0, "the game is over: the seat to move cannot play its minimum"
    opts = state.options
    s = _Search(
        state.tops,
        [_mask(h) for h in state.hands],
        state.draw[::-1],
        0,
        state.hand_size,
        3 if opts["pro"] else 2,
        opts["min_after_empty"],
        budget,
        dominance,
        cuts,
        table,
    )
    try:
        won = s.run(state.turn, state.played)
    except _OutOfBudget:
        return "unknown", [], s.nodes, f"budget of {budget} positions spent before an answer"
    if won:
        return "won", _actions(s.line), s.nodes, ""
    live = s.suffix[0]
    for h in s.hands:
        live |= h
    if cuts and dead_cards(state.tops, live):
        dead = [
            c
            for c in cards_of(live)
            if not any(accepts(p, t) >> c & 1 for p, t in enumerate(state.tops))
        ]
        proof = (
            "a card still out can never be played again (no pile reaches it, even "
            f"with every card at hand): among {dead}"
        )
    else:
        proof = (
            f"exhaustive search: every line from here fails ({s.nodes} positions, "
            f"{s.dead_cuts} cut by a dead card, the rest by the rules or the table)"
        )
    return "lost", [], s.nodes, proof


def solve(state: TheGameState, budget: int | None = None) -> Solution:
    """Solve ``state`` from where it stands. **Peeks** at every hand and the draw order.

    ``status`` is ``"won"`` with a winning ``line`` (replay it on ``state.clone()``: each
    action by the seat to move), ``"lost"`` with a ``proof``, or ``"unknown"`` only when
    ``budget`` (positions) ran out.
    """
    start = time.perf_counter()
    status, line, nodes, proof = search_from(state, budget)
    return Solution(status, line, nodes, proof, time.perf_counter() - start)


def solve_seed(seed: int, budget: int | None = None, players: int = 1) -> Solution:
    """Solve deal ``seed`` for ``players`` from its start (standard rules). **Peeks**."""
    state = games.get("the-game").deal(seed, players)
    assert isinstance(state, TheGameState)
    return solve(state, budget)


def winnable_after(
    tops: list[int],
    hands: list[int],
    order: list[int],
    seat: int,
    played: int,
    action: tuple[int, int] | None,
    *,
    hand_size: int,
    minimum_draw: int,
    minimum_empty: int,
    budget: int,
    spent: list[int] | None = None,
) -> bool | None:
    """Every card known, given as plain values (a deal sampled from a seat's view, say): once
    ``seat``, ``played`` cards into its turn, plays ``action`` ((card, pile index), or None:
    it ends its turn and draws), can the game still be won? ``hands`` are bit masks,
    ``order`` the draw pile, first drawn first. None when ``budget`` positions ran out;
    ``spent[0]``, when given, grows by the positions visited."""
    s = _Search(tops, hands, order, 0, hand_size, minimum_draw, minimum_empty, budget)
    try:
        return _won_after(s, seat, played, action)
    except _OutOfBudget:
        return None
    finally:
        if spent is not None:
            spent[0] += s.nodes


def _won_after(s: _Search, seat: int, played: int, action: tuple[int, int] | None) -> bool:
    if action is not None:
        card, pile = action
        s.tops[pile] = card
        s.hands[seat] &= ~(1 << card)
        played += 1
        if s.hands[seat]:
            return s.run(seat, played)
    s.draw(seat)  # the turn ends (a hand played out ends it by itself)
    nxt = s.next_seat(seat)
    return nxt < 0 or s.run(nxt, 0)


def still_winnable(state: TheGameState, budget: int | None = None) -> bool | None:
    """**Peeking**: can ``state`` still be won with every card known? None: budget spent."""
    status = solve(state, budget).status
    return None if status == "unknown" else status == "won"


# -- why a move lost a winnable deal (a review's verdict: every card known) -----------------
_, _n = translatable("the-game")


def _live(state: TheGameState) -> int:
    """The cards still to be played: every hand's and the draw pile's."""
    live = _mask(state.draw)
    for hand in state.hands:
        live |= _mask(hand)
    return live


def why_lost(before: State, seat: int, played: str, alternative: str | None = None) -> Text | None:
    """**Peeking**: why ``played`` lost the deal that ``before`` could still win: a card
    it left out of every pile's reach for good, else the cards still to come that its jump
    passed over. None when neither is so (an ending of the turn, a jump over nothing)."""
    if not isinstance(before, TheGameState):
        raise TypeError(f"this explains The Game, not {before.game.title}")
    after = before.clone()
    after.act(seat, played)
    dead = dead_cards(after.tops, _live(after)) & ~dead_cards(before.tops, _live(before))
    if dead:
        card = (dead & -dead).bit_length() - 1
        # TRANSLATORS: a review's reason why a move lost the deal, every card known
        return _(
            "after it, the {card} could never be played: no pile would take it again", card=card
        )
    words = played.split(" ")
    if words[0] != "play" or len(words) != 3 or words[2] not in PILES:
        return None
    card, pile = int(words[1]), PILES.index(words[2])
    top = before.tops[pile]
    low, high = (top, card) if pile < 2 else (card, top)
    passed = _live(after) & ABOVE[low] & BELOW[high]
    if not passed:
        return None
    n = passed.bit_count()
    # TRANSLATORS: a review's reason why a move lost the deal: a jump on a pile over cards
    # that were still to come (in hands or the draw pile), every card known
    return _n(
        "it jumped from {top} to {card} on {pile}, over {n} card still to be played",
        "it jumped from {top} to {card} on {pile}, over {n} cards still to be played",
        n,
        top=top,
        card=card,
        pile=PILE_WORDS[words[2]],
    )


__all__ = [
    "Solution",
    "accepts",
    "dead_card",
    "dead_cards",
    "why_lost",
    "search_from",
    "solve",
    "solve_seed",
    "still_winnable",
    "winnable_after",
]
