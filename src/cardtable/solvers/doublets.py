"""Doublets solver: can this deal still be won, and how?

**Full knowledge: this solver peeks.** It reads the true state of a deal, the order of the
face-down stock included, so it is a tool for studying deals (which share is winnable, is this
position still winnable, a winning line to replay), not a player. Bots get views only; the fair
bot (``cardtable.bots.doublets.fair``) calls ``solve_position`` on a position it rebuilt from
what it has seen, never on a real state.

The model
---------
Suits never matter (RULES.md section 2), so a position keeps card values only:

- ``deck``: the waste (bottom first) followed by the stock (top first), i.e. the order in which
  the cards come up. Flips and redeals never reorder it: a flip moves ``pointer`` (how many deck
  cards lie on the waste) one on, a redeal sets it back to 0.
- ``reserves``: the multiset of reserve values, packed as 3-bit counts (``1 << 3 * value``). A
  king in a reserve stays in the multiset for good: that slot is frozen.
- ``redeals``, ``needed`` (the value the foundation wants) and ``left`` (cards still to play).

The search
----------
Depth-first, one of at most two choices at a time:

- the waste top is needed: play it, or flip on. (Playing a reserve of the needed value instead
  gives the very same position, since its slot refills with that waste card; it is not tried.)
- a reserve holds the needed value: play it (its slot refills with the waste top, or the stock
  top when the waste is empty), or flip on first to refill it with a later card.
- nothing fits: the only sensible moves are flips, so flip straight to the next card of the
  needed value (redealing if need be) as one macro move.

A transposition table is keyed by ``(deck, reserves, needed)`` (within one deal the needed
value follows from the other two; it is in the key so that a caller's table, see
``solve_position``, may outlive a deal). Two positions with the same key differ
only in pointer and redeals left, and the one with more flips ahead
(``phi = redeals * (len(deck) + 1) + len(deck) - pointer``) reaches the other by flipping; so
once a position is proved lost, every position with the same key and no larger ``phi`` is lost
too. The table keeps the largest ``phi`` proved lost.

Iterative widening keeps the search from thrashing in hopeless last passes: in each round, the
subtree below a redeal gets a node allowance; a subtree that runs over it is left undecided (and
not recorded as lost) and the search moves on. The next round raises the allowances, keeping
what was proved. A round that cut nothing was exhaustive, so its "no win" is a proof.

The table's memory is capped (``TABLE_CAP`` entries): when it is full, the older half is
dropped. An entry only saves a search, so forgetting one costs time, never soundness.

The last-pass bound
-------------------
With no redeal left (the last pass) a position is cut as lost when ``last_pass_possible`` says
no. Why that is sound:

1. Every play takes exactly one card off the top of the waste while the waste is not empty:
   ``play waste`` takes the top itself, a reserve play refills its slot from the waste top.
   Flips only put cards on top. So a waste card with ``d`` cards above it cannot leave the
   waste before the ``(d + 1)``-th play from now, and with no redeal left there is no other
   way to it.
2. The foundation's order is fixed (the doubling cycle), so the times at which each value is
   still needed are known: value ``v`` first at play ``t_v`` (1 for the value needed now), then
   every 12 plays. A win plays every remaining non-king, so the remaining copies of ``v`` are
   exactly as many as the times ``v`` is still needed.
3. The ``k``-th time ``v`` is needed, at least ``k`` copies of ``v`` must have left the deck or
   sit in the reserves. Copies in the reserves or the stock can be there in time at best (play
   1 at the earliest); copies in the waste come off in top-down order no earlier than their
   depth allows. Matching the copies by earliest arrival to the needed times in order, the
   bottom-most waste copy serves the last time ``v`` is needed, the next one up 12 plays
   earlier, and so on: that time is the latest at which that waste card can come off in any
   winning line (after it, too few copies are left to come).
4. Flipping buries. If by play ``T`` the copies of some value that can be there in time from
   the reserves and the waste (counted generously, as if each waste copy came off as early as
   its depth allows) fall short, the rest must come from the stock, so the first ``q`` stock
   cards up to the needed copy are flipped before play ``T``. A waste card still in the waste
   then has those ``q`` cards on top of it (a reserve play takes the stock top directly only
   when the waste is empty), so if it comes off at play ``T`` or later it comes off no earlier
   than play ``depth + q``. Iterating this from its depth gives the earliest play at which it
   can come off; if that is after its latest time (3), no line wins.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple

from cardtable import games
from cardtable.core.protocol import State
from cardtable.core.words import Text, translatable
from cardtable.games.doublets import (
    KING,
    NEXT,
    NON_KINGS,
    RESERVE_NAMES,
    DoubletsState,
    card_name,
    card_symbol,
    rank_name,
    source_words,
)
from cardtable.solvers import Solution

_ALL = 1 << 62
#: the node allowance of one last-pass subtree, round by round; the last round is unlimited
SCHEDULE = (100, 1_000, 10_000, 100_000, _ALL)
#: the allowance of a subtree below the first redeal, in last-pass allowances
WIDEN_SECOND_PASS = 30
#: positions kept in the transposition table; over it, the older half is dropped
TABLE_CAP = 400_000
#: entries kept in each of the last-pass bound's two caches (a search's own); over it, cleared
BOUND_CACHE_CAP = 40_000

# move codes of the search's line: a positive number is that many flips
_WASTE, _RESERVE, _REDEAL = -1, -2, -3


class Position(NamedTuple):
    """A Doublets position in values only (see the module docstring)."""

    deck: bytes
    pointer: int
    reserves: int
    redeals: int
    needed: int
    left: int


class _OutOfBudget(Exception):
    pass


def _cycle_position() -> dict[int, int]:
    out, v = {}, 1
    for i in range(12):
        out[v] = i
        v = NEXT[v]
    return out


_CYCLE = _cycle_position()


def _last_needed() -> dict[tuple[int, int], tuple[int, ...]]:
    """``[need, left][v]``: the play (1 = the next one) at which value ``v`` is needed for the
    last time when ``need`` is wanted now and ``left`` cards are still to play; 0 if never."""
    table = {}
    for need in range(1, 13):
        for left in range(NON_KINGS + 1):
            last = [0] * (KING + 1)
            for v in range(1, 13):
                first = (_CYCLE[v] - _CYCLE[need]) % 12 + 1
                if first <= left:
                    last[v] = first + 12 * ((left - first) // 12)
            table[need, left] = tuple(last)
    return table


_LAST_NEEDED = _last_needed()


_FIRST_NEEDED = {
    need: tuple([0] + [(_CYCLE[v] - _CYCLE[need]) % 12 + 1 for v in range(1, 13)])
    for need in range(1, 13)
}


#: ``[need, left]``: for each value still needed, in the order of its first play, ``(value,
#: its bit shift in the packed reserves, the plays at which it is needed, from the next on)``
_NEEDED_AT = {
    (need, left): tuple(
        (v, 3 * v, tuple(range(_FIRST_NEEDED[need][v], left + 1, 12)))
        for v in sorted(range(1, KING), key=_FIRST_NEEDED[need].__getitem__)
        if _FIRST_NEEDED[need][v] <= left
    )
    for need in range(1, 13)
    for left in range(NON_KINGS + 1)
}


def last_pass_possible(deck: bytes, pointer: int, reserves: int, need: int, left: int) -> bool:
    """False when a position **with no redeal left** is surely lost: some waste card cannot come
    off the waste (one card per play, top first, after every stock card flipped onto it) by the
    time its value is needed for the last copies. The argument is in the module docstring.
    True says nothing."""
    return _last_pass_possible(deck, pointer, reserves, need, left, {}, {})


#: what the waste, the reserves and the foundation ask of the stock (``_waste_needs``), as
#: bytes (kept by the thousand, they give the garbage collector nothing to scan): the plays
#: by which the stock must have given up a copy, in play order, as triples ``play, value,
#: which copy in the stock (from 0)`` (up to the last play at which a card below is due);
#: how many copies of each value the stock must hold, in one int, a byte a value (byte v:
#: value v; see ``_BYTE_TOPS``); the waste cards to check, as pairs ``depth, the last play
#: that can take it off``, in that play's order; and True when no stock can do (lost)
_Needs = tuple[bytes, int, bytes, bool]
_HOPELESS: _Needs = (b"", 0, b"", True)
#: the top bit of each value's byte in an int of counts: ``(have | TOPS) - want`` keeps a
#: byte's top bit iff that byte of ``have`` is at least ``want``'s (counts up to 127: a byte
#: never borrows from the next)
_BYTE_TOPS = sum(128 << (8 * v) for v in range(KING + 1))


class BoundMemo:
    """The last-pass bound's saved work (see ``_last_pass_possible``), for searches that
    share it: each search keeps its own unless it is given one (the fair bot gives one to all
    the searches of a move, whose decks share the cards it has seen). Only saved work: the
    answers are the same with or without it, and each half is cleared when it reaches
    ``BOUND_CACHE_CAP`` entries."""

    __slots__ = ("needs", "stocks")

    def __init__(self) -> None:
        self.needs: dict[tuple[bytes, int, int, int], _Needs] = {}
        self.stocks: dict[bytes, tuple[int, tuple[bytes, ...]]] = {}


def _last_pass_possible(
    deck: bytes,
    pointer: int,
    reserves: int,
    need: int,
    left: int,
    needs: dict[tuple[bytes, int, int, int], _Needs],
    stocks: dict[bytes, tuple[int, tuple[bytes, ...]]],
) -> bool:
    """``last_pass_possible``, in two parts that a search meets again and again: what the waste
    asks of the stock (the same waste, reserves and needed value recur under many stocks) and
    where each value lies in the stock (one stock under many wastes), each kept in its dict
    (``needs``, ``stocks``: a search's own). The answer is the plain form's (the module
    docstring's argument; ``tests/solvers`` compares them on every kind of position), only
    cheaper: this is the search's hot spot.

    Flipping: ``F(x)`` stock cards must be flipped by play ``x`` (a step function of ``x``).
    A waste card at depth ``d``, due by play ``D``, comes off in time iff some play
    ``x <= D`` has ``d + F(x) <= x`` (the plain form iterates ``x = d + F(x)`` from ``d``);
    that is, iff ``x - F(x)`` reaches ``d`` by ``D``, and ``x - F(x)`` peaks just before each
    step of ``F`` and at ``D``."""
    key = deck[:pointer], reserves, need, left
    asked = needs.get(key)
    if asked is None:
        if len(needs) >= BOUND_CACHE_CAP:
            needs.clear()  # only saved work
        asked = needs[key] = _waste_needs(*key)
    events, copies, cards, hopeless = asked
    if not copies:
        # no copy must come from the stock: the waste's depths alone decide
        return not hopeless
    stock = deck[pointer:]
    held = stocks.get(stock)
    if held is None:
        if len(stocks) >= BOUND_CACHE_CAP:
            stocks.clear()
        at: list[list[int]] = [[] for _ in range(KING + 1)]
        for i, v in enumerate(stock, 1):
            at[v].append(i)
        # each value's copies counted (a byte a value), and their places (from 1)
        count = sum(len(places) << (8 * v) for v, places in enumerate(at))
        held = stocks[stock] = count, tuple(map(bytes, at))
    count, where = held
    if ((count | _BYTE_TOPS) - copies) & _BYTE_TOPS != _BYTE_TOPS:
        return False  # fewer copies in the stock than the waste and the reserves leave to it
    flipped = peak = i = 0  # F so far; the highest x - F(x) before F's last step
    n = len(events)
    step = iter(cards)
    for depth, due in zip(step, step, strict=True):
        while i < n and events[i] <= due:
            f = where[events[i + 1]][events[i + 2]]
            if f > flipped:
                if events[i] - 1 - flipped > peak:
                    peak = events[i] - 1 - flipped
                flipped = f
            i += 3
        if due - flipped < depth and peak < depth:
            return False  # flipped before it comes off: those come off first, too late
    return True


def _waste_needs(waste_part: bytes, reserves: int, need: int, left: int) -> _Needs:
    """What a last pass's waste (bottom first), reserves and foundation ask of the stock: see
    ``_Needs``. The cards to check are only those no other card's check implies (a deeper
    card due no later)."""
    pointer = len(waste_part)
    # the waste, bottom first: the bottom copy serves the last time
    last = list(_LAST_NEEDED[need, left])
    cards: list[int] = []
    # the waste copies of each value, by the earliest play that can take them off (top first)
    waste: list[list[int]] = [[] for _ in range(KING + 1)]
    soonest = left + 1
    for i, v in enumerate(waste_part):
        if v != KING:
            due = last[v]
            depth = pointer - i  # plays to take it off, if nothing is flipped onto it
            if depth > due:
                return _HOPELESS
            if due < soonest:
                # (a card deeper than this one and due no later is checked: this one passes
                # whenever that one does)
                cards += due, depth
                soonest = due
            last[v] = due - 12
            waste[v].append(depth)
    until = cards[0] if cards else 0
    # the plays by which copies are asked, in play order: by round of the cycle (12 plays;
    # at most 48 plays are left), and in a round by the values' first plays (``_NEEDED_AT``)
    rounds: list[list[int]] = [[], [], [], []]
    copies = 0
    for v, shift, times in _NEEDED_AT[need, left]:
        have = (reserves >> shift) & 7
        if have >= len(times):
            continue  # never short
        early = waste[v]
        if not early:
            # every copy not in the reserves is in the stock: each time v is needed, one more
            # (times[k] is play round k of the cycle)
            copies += (len(times) - have) << (8 * v)
            for k in range(have, len(times)):
                t = times[k]
                if t > until:
                    break
                rounds[k] += t, v, k - have
            continue
        early.reverse()
        ne = len(early)
        ready = taken = 0
        short = -have
        for k, t in enumerate(times):
            short += 1  # copies that only the stock can give by play t (less ``ready``)
            while ready < ne and early[ready] <= t:
                ready += 1
            if short - ready > taken:
                taken = short - ready  # the taken-th stock copy must be up by play t
                if t <= until:
                    rounds[k] += t, v, taken - 1
        copies += taken << (8 * v)
    cards.reverse()  # (depth, due) pairs, the soonest due first
    events = bytes(rounds[0] + rounds[1] + rounds[2] + rounds[3])
    return events, copies, bytes(cards), False


def pack_reserves(values: Iterable[int]) -> int:
    """The packed multiset of reserve values (0 or None for an empty slot)."""
    packed = 0
    for v in values:
        if v:
            packed += 1 << (3 * v)
    return packed


def position_from_state(state: DoubletsState) -> Position:
    """The position of a real state. **Peeks** at the stock: for solvers and tests only."""
    deck = bytes([c >> 2 for c in state.waste] + [c >> 2 for c in reversed(state.stock)])
    reserves = pack_reserves(c >> 2 if c is not None else 0 for c in state.reserves)
    return Position(
        deck,
        len(state.waste),
        reserves,
        state.redeals_left,
        state.needed,
        NON_KINGS - len(state.foundation),
    )


def solve_position(
    pos: Position,
    budget: int | None = None,
    bound: bool = True,
    table: dict[bytes, int] | None = None,
    memo: BoundMemo | None = None,
) -> tuple[str, list[int], int, str]:
    """Search ``pos``: ``(status, moves, nodes, proof)``. ``moves`` is the search's own line
    (see ``moves_to_actions``); ``budget`` caps the nodes over all rounds. ``bound=False``
    switches the last-pass bound off (for testing that it never changes an answer).

    ``table``: the positions proved lost, kept by the caller across searches (a fresh one
    each call when None). Its entries are facts about positions (the key holds the deck, the
    reserves and the needed value), so one table may serve any searches, of any positions; a
    search cut short by its budget still leaves what it proved, and the next one starts from
    there. ``memo``: the last-pass bound's saved work, shared by the caller's searches (a
    fresh one each call when None); it saves time only, never changes an answer or a count."""
    if pos.left <= 0:
        return "won", [], 0, ""
    limit = budget if budget is not None else 1 << 62
    lost: dict[bytes, int] = {} if table is None else table
    table_cap = TABLE_CAP
    bounded = 0  # last-pass positions cut by the bound
    memo = BoundMemo() if memo is None else memo
    needs, stocks = memo.needs, memo.stocks
    possible = _last_pass_possible
    path: list[int] = []
    nodes = 0
    cuts = 0
    sub0 = sub1 = 0  # nodes in the current last-pass / second-pass subtree
    cap0 = cap1 = 0

    def visit(
        deck: bytes, p: int, res: int, r: int, need: int, left: int, flipped: bool = True
    ) -> bool:
        nonlocal nodes, cuts, sub0, sub1, bounded
        n = len(deck)
        phi = r * (n + 1) + n - p
        # the deck, the reserves and the needed value (bits 42-45), in one bytes: within one
        # search the needed value follows from the others, but a caller's table may span deals
        key = deck + (res | need << 42).to_bytes(6, "little")
        if lost.get(key, -1) >= phi:
            return False
        nodes += 1
        if nodes > limit:
            raise _OutOfBudget
        if r < 2:
            # the widening allowances: abandon (without recording) a subtree over its allowance
            sub1 += 1
            if sub1 > cap1:
                cuts += 1
                return False
            if r == 0:
                sub0 += 1
                if sub0 > cap0:
                    cuts += 1
                    return False
        before = cuts
        # the bound is checked where cards were flipped (plays seldom make a line hopeless;
        # skipping the check anywhere only costs pruning, never soundness)
        if r == 0 and flipped and bound and not possible(deck, p, res, need, left, needs, stocks):
            bounded += 1
        elif expand(deck, p, res, r, need, left, n):
            return True
        if cuts == before and phi > lost.get(key, -1):
            if len(lost) >= table_cap:
                # full: forget the older half (an entry only saves work; dicts keep order)
                for old in list(islice(lost, table_cap // 2)):
                    del lost[old]
            lost[key] = phi
        return False

    def after_redeal(deck: bytes, p: int, res: int, r: int, need: int, left: int) -> bool:
        # a new pass: a fresh allowance for its subtree, the outer one resumes afterwards
        nonlocal sub0, sub1
        if r == 1:
            saved, sub1 = sub1, 0
            try:
                return visit(deck, p, res, r, need, left)
            finally:
                sub1 = saved + sub1
        saved, sub0 = sub0, 0
        try:
            return visit(deck, p, res, r, need, left)
        finally:
            sub0 = saved + sub0

    def expand(deck: bytes, p: int, res: int, r: int, need: int, left: int, n: int) -> bool:
        shift = 3 * need
        top = deck[p - 1] if p else 0
        nxt = NEXT[need]
        if top == need:
            path.append(_WASTE)
            if left == 1 or visit(deck[: p - 1] + deck[p:], p - 1, res, r, nxt, left - 1, False):
                return True
            path.pop()
        elif (res >> shift) & 7:
            if p:
                refill, rest, p2 = top, deck[: p - 1] + deck[p:], p - 1
            elif n:
                refill, rest, p2 = deck[0], deck[1:], 0
            else:
                refill, rest, p2 = 0, deck, 0
            res2 = res - (1 << shift) + ((1 << (3 * refill)) if refill else 0)
            if refill == KING and p < n:
                # a king pulled in freezes its slot: first try flipping on to another refill
                if flip_on(deck, p, res, r, need, left, n):
                    return True
                path.append(_RESERVE)
                if left == 1 or visit(rest, p2, res2, r, nxt, left - 1, False):
                    return True
                path.pop()
                return False
            path.append(_RESERVE)
            if left == 1 or visit(rest, p2, res2, r, nxt, left - 1, False):
                return True
            path.pop()
        else:
            # nothing fits: flip straight to the next needed card, through a redeal if need be
            q = deck.find(need, p)
            if q >= 0:
                path.append(q + 1 - p)
                if visit(deck, q + 1, res, r, need, left):
                    return True
                path.pop()
                return False
            if not r:
                return False  # last pass, no needed card ahead and none on top: stuck
            q = deck.find(need)  # never -1: a needed value not in the reserves is in the deck
            mark = len(path)
            if n > p:
                path.append(n - p)
            path.append(_REDEAL)
            path.append(q + 1)
            if after_redeal(deck, q + 1, res, r - 1, need, left):
                return True
            del path[mark:]
            return False
        return flip_on(deck, p, res, r, need, left, n)

    def flip_on(deck: bytes, p: int, res: int, r: int, need: int, left: int, n: int) -> bool:
        # the other choice: flip one on (or redeal) and decide again
        if p < n:
            path.append(1)
            if visit(deck, p + 1, res, r, need, left):
                return True
            path.pop()
        elif r and n:
            path.append(_REDEAL)
            if after_redeal(deck, 0, res, r - 1, need, left):
                return True
            path.pop()
        return False

    rounds = 0
    try:
        for cap in SCHEDULE:
            rounds += 1
            cap0, cap1 = cap, min(cap * WIDEN_SECOND_PASS, _ALL)
            cuts = 0
            sub0 = sub1 = 0  # a search started inside a later pass counts against it
            del path[:]
            if visit(*pos):
                return "won", list(path), nodes, ""
            if cuts == 0:
                break
    except _OutOfBudget:
        return (
            "unknown",
            [],
            nodes,
            f"node budget of {budget} spent after {rounds} widening round(s); undecided",
        )
    proof = (
        f"exhaustive: {nodes} search nodes over {rounds} widening round(s); the last round cut "
        f"no branch, every line ends stuck short of 48 cards ({bounded} last-pass positions cut "
        f"by the bound, {len(lost)} lost positions in the table)"
    )
    return "lost", [], nodes, proof


def moves_to_actions(
    slots: Sequence[int], deck: bytes, pointer: int, needed: int, moves: Iterable[int]
) -> list[str]:
    """The search's line as actions in RULES.md notation. ``slots`` are the reserve values in
    slot order (0 when empty): they decide which ``play rN`` a reserve play becomes."""
    slots = list(slots)
    cards = bytearray(deck)
    p, need = pointer, needed
    out: list[str] = []
    for m in moves:
        if m > 0:
            out.extend(["flip"] * m)
            p += m
        elif m == _REDEAL:
            out.append("redeal")
            p = 0
        elif m == _WASTE:
            out.append("play waste")
            del cards[p - 1]
            p -= 1
            need = NEXT[need]
        else:
            k = slots.index(need)
            out.append(f"play {RESERVE_NAMES[k]}")
            if p:
                slots[k] = cards.pop(p - 1)
                p -= 1
            elif cards:
                slots[k] = cards.pop(0)
            else:
                slots[k] = 0
            need = NEXT[need]
    return out


def solve(state: DoubletsState, budget: int | None = None) -> Solution:
    """Solve ``state`` from where it stands. **Peeks** at the stock (see the module docstring).

    ``status`` is ``"won"`` with a winning ``line`` (replay it on ``state.clone()``),
    ``"lost"`` with a ``proof``, or ``"unknown"`` only when ``budget`` (nodes) ran out.
    """
    start = time.perf_counter()
    if state.over:
        status = "won" if state.won else "lost"
        proof = "" if state.won else "the game is over: no action is legal"
        return Solution(status, [], 0, proof, time.perf_counter() - start)
    pos = position_from_state(state)
    status, moves, nodes, proof = solve_position(pos, budget)
    line = []
    if status == "won":
        slots = [c >> 2 if c is not None else 0 for c in state.reserves]
        line = moves_to_actions(slots, pos.deck, pos.pointer, pos.needed, moves)
    return Solution(status, line, nodes, proof, time.perf_counter() - start)


def solve_seed(seed: int, budget: int | None = None, players: int = 1) -> Solution:
    """Solve deal ``seed`` from its start. **Peeks** (see the module docstring). A solitaire:
    ``players`` (the batch's uniform argument) can only be 1."""
    if players != 1:
        raise ValueError(f"Doublets is played alone, not by {players}")
    state = games.get("doublets").deal(seed)
    assert isinstance(state, DoubletsState)
    return solve(state, budget)


def still_winnable(state: State, budget: int | None = None) -> bool | None:
    """**Peeking**: can ``state`` still be won, knowing the stock order? None if ``budget``
    (nodes) ran out before an answer. For "is this deal still winnable from here?" in a UI."""
    if not isinstance(state, DoubletsState):
        raise TypeError(f"the Doublets solver solves Doublets, not {state.game.title}")
    status = solve(state, budget).status
    return None if status == "unknown" else status == "won"


@dataclass(frozen=True)
class Mistake:
    """Where a lost game went wrong (``first_mistake``): after action number ``move`` (1-based)
    the deal could no longer be won; ``alternative`` would have kept it winnable."""

    move: int
    played: str
    alternative: str
    first_pass: bool  # played with both redeals left: the stock order was still unseen
    needed: str  # the value the foundation wanted then, e.g. "8"


def first_mistake(
    state: DoubletsState, actions: Sequence[str], budget: int | None = None
) -> Mistake | None:
    """**Peeking** study tool: replay ``actions`` from ``state`` (not changed) and find the
    first action after which the true position is no longer winnable. None if the start is
    already lost or the line never loses its win. Once a position is lost every later one is,
    so a bisection on the action count finds it with a handful of solves."""
    states = [state.clone()]
    for action in actions:
        nxt = states[-1].clone()
        nxt.act(0, action)
        states.append(nxt)

    def winnable(i: int) -> bool:
        # an undecided answer (only with a budget) is taken as winnable: it never blames a move
        return still_winnable(states[i], budget) is not False

    if not winnable(0) or winnable(len(states) - 1):
        return None
    lo, hi = 0, len(states) - 1  # winnable(lo), not winnable(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if winnable(mid):
            lo = mid
        else:
            hi = mid
    before = states[lo]
    played = actions[lo]
    alternative = ""
    for action in before.legal(0):
        if action != played:
            trial = before.clone()
            trial.act(0, action)
            if still_winnable(trial, budget) is not False:
                alternative = action
                break
    return Mistake(hi, played, alternative, before.redeals_left == 2, rank_name(before.needed))


# -- why a move lost a winnable deal (a review's verdict: every card known) -----------------
_, _n = translatable("doublets")


def _is_king(card: int | None) -> bool:
    return card is not None and card >> 2 == KING


def _shown(card: int | None) -> str:
    return card_symbol(card_name(card)) if card is not None else ""


def _card_at(state: DoubletsState, where: str) -> int | None:
    """The card ``play WHERE`` would play: the waste's top or a reserve's."""
    if where == "waste":
        return state.waste[-1] if state.waste else None
    return state.reserves[RESERVE_NAMES.index(where)]


def why_lost(before: State, seat: int, played: str, alternative: str | None = None) -> Text | None:
    """**Peeking**: why ``played`` lost the deal that ``before`` could still win, when it
    is plain: a reserve it refilled with a king (frozen for good: AisleRiot players' first
    lesson), a flip that buried a card the foundation needed, a redeal that spent a pass
    while a card could still be played. None otherwise: the order of the stock decided it,
    which the verdict's better move shows."""
    if not isinstance(before, DoubletsState):
        raise TypeError(f"this explains Doublets, not {before.game.title}")
    after = before.clone()
    after.act(seat, played)
    for i, (was, now) in enumerate(zip(before.reserves, after.reserves, strict=True)):
        if _is_king(now) and not _is_king(was):
            if not any(c is not None and not _is_king(c) for c in after.reserves):
                # TRANSLATORS: a review's reason why a move lost the deal, every card known
                return _(
                    "it refilled reserve {n} with a king, which froze the last free reserve",
                    n=i + 1,
                )
            # TRANSLATORS: a review's reason why a move lost the deal, every card known
            return _("it refilled reserve {n} with a king, which froze it for good", n=i + 1)
    if not (alternative and alternative.startswith("play ")):
        return None
    source = alternative.split(" ")[-1]
    card = _card_at(before, source)
    if card is None:
        return None
    if played == "flip" and source == "waste":
        # TRANSLATORS: a review's reason why a move lost the deal, every card known
        return _(
            "the flip covered the {card} on the waste, which the foundation needed",
            card=_shown(card),
        )
    if played == "flip" and source != "waste":
        return _flip_before_reserve(before, card, int(source[1:]))
    if played == "redeal":
        # TRANSLATORS: a review's reason why a move lost the deal, every card known
        return _(
            "turning the waste over spent a pass while the {card} from {source} could still go "
            "on the foundation",
            card=_shown(card),
            source=source_words(source),
        )
    return None


def _flip_before_reserve(before: DoubletsState, card: int, n: int) -> Text | None:
    """A flip where reserve ``n``'s ``card`` could have been played: that play would have
    refilled the reserve with the waste's top (or the stock's), which the flip moved away."""
    if before.waste:
        # TRANSLATORS: a review's reason why a move lost the deal, every card known
        return _(
            "the flip covered the {refill} on the waste; playing the {card} from reserve {n} "
            "first would have moved it into the reserve",
            refill=_shown(before.waste[-1]),
            card=_shown(card),
            n=n,
        )
    if before.stock:
        # TRANSLATORS: a review's reason why a move lost the deal, every card known
        return _(
            "the flip sent the {refill} to the waste; playing the {card} from reserve {n} first "
            "would have put it into the reserve",
            refill=_shown(before.stock[-1]),
            card=_shown(card),
            n=n,
        )
    return None


__all__ = [
    "BoundMemo",
    "Mistake",
    "Position",
    "Solution",
    "first_mistake",
    "last_pass_possible",
    "moves_to_actions",
    "pack_reserves",
    "position_from_state",
    "solve",
    "solve_position",
    "solve_seed",
    "still_winnable",
    "why_lost",
]
