"""The Game's endgame, searched exhaustively: every hand known, the draw pile empty.

Once the draw pile is empty, a seat that has tracked every card played knows the *set* of cards
still out. When only one other seat still holds cards (always so with two players), that set is
that seat's hand: the rest of the game is a puzzle with full knowledge, which a depth-first
search with a table of failed positions settles (won with a line, or proved lost) within a
budget of positions. Both seats can solve it: each plays its own turn of a winning line, and
the next seat finds a winning line again from where it stands.

Rules as in RULES.md section 3 once the draw pile is empty: at least ``minimum`` cards a turn (1
by the published rule), a seat whose hand runs empty is skipped, and the game is lost when the
seat to move cannot play its minimum.
"""

from __future__ import annotations

from typing import Any

# ABOVE[t]: the cards above t; BELOW[t]: the cards below t (bit masks over 2..99)
_ALL = sum(1 << c for c in range(2, 100))
ABOVE = [_ALL & ~((1 << (t + 1)) - 1) for t in range(102)]
BELOW = [_ALL & ((1 << t) - 1) for t in range(102)]

WON, LOST, UNKNOWN = "won", "lost", "unknown"


class _OutOfBudget(Exception):
    pass


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _plays(hand: int, tops: list[int], live: int) -> list[tuple[int, int, int]]:
    """The plays (cost, card, pile) of ``hand``, cheapest first; twins with equal tops once.

    The cost of a play is the number of live cards it puts out of that pile's reach (a
    backwards trick costs -1): the search tries the cheap plays first.
    """
    out = []
    for p in range(4):
        t = tops[p]
        if p == 1 and tops[0] == t or p == 3 and tops[2] == t:
            continue
        if p < 2:
            if t - 10 >= 2 and hand >> (t - 10) & 1:
                out.append((-1, t - 10, p))
            for c in cards_of(hand & ABOVE[t]):
                out.append(((live & ABOVE[t] & BELOW[c]).bit_count(), c, p))
        else:
            if t + 10 <= 99 and hand >> (t + 10) & 1:
                out.append((-1, t + 10, p))
            for c in cards_of(hand & BELOW[t]):
                out.append(((live & BELOW[t] & ABOVE[c]).bit_count(), c, p))
    out.sort()
    return out


def _reach(a: int, b: int, live: int, step: int) -> int:
    """The furthest back two like piles with tops ``a`` and ``b`` can ever turn (relaxed).

    ``step`` is -10 for up piles (the lowest top reachable) and +10 for down piles (the
    highest): a pile takes any live card ahead of its top, and turns back by a trick chain
    from there; repeated until nothing further back is reached.
    """
    up = step < 0
    far = min(a, b) if up else max(a, b)
    starts = [a, b] + cards_of(live & (ABOVE[far] if up else BELOW[far]))
    while True:
        before = far
        for s in starts:
            while 2 <= s + step <= 99 and live >> (s + step) & 1:
                s += step
            if s < far if up else s > far:
                far = s
        if far == before:
            return far
        starts = cards_of(live & (ABOVE[far] if up else BELOW[far]))


def _dead_card(tops: list[int], live: int) -> bool:
    """Is some live card out of every pile's reach for good? (A proof of loss.)

    A card no pile takes now can only be played after a pile turns back by backwards tricks.
    Relaxed (every live card at hand at once, in any order), the lowest top an up pile can
    ever reach is the end of a chain of tricks, ten down each, from its top or from any live
    card it takes now; likewise the highest top of a down pile. A card that no pile takes now
    and that lies strictly between those two is dead.
    """
    lu = min(tops[0], tops[1])
    hd = max(tops[2], tops[3])
    fitting = ABOVE[lu] | BELOW[hd]
    for c in (tops[0] - 10, tops[1] - 10, tops[2] + 10, tops[3] + 10):
        if 2 <= c <= 99:
            fitting |= 1 << c
    stuck = live & ~fitting
    if not stuck:
        return False
    low = _reach(tops[0], tops[1], live, -10)
    high = _reach(tops[2], tops[3], live, 10)
    return bool(stuck & ABOVE[high] & BELOW[low])


def solve(
    tops: list[int],
    hands: list[int],
    turn: int,
    played: int,
    minimum: int = 1,
    budget: int = 20000,
    spent: list[int] | None = None,
) -> tuple[str, list[tuple[int, int, int]]]:
    """Can every card still be played? ``hands`` are bit masks of cards, one per seat.

    ``turn`` is the seat to move and ``played`` the cards it has played this turn. Returns
    ``(WON, line)`` with the line of moves ``(seat, card, pile)`` (``card`` 0 ends the turn; a
    turn whose hand runs empty ends by itself), ``(LOST, [])`` when no line wins, or
    ``(UNKNOWN, [])`` when the search visited ``budget`` positions without settling it.
    ``spent[0]``, when given, grows by the positions visited.
    """
    n = len(hands)
    hands = list(hands)
    tops = list(tops)
    failed: set[Any] = set()
    line: list[tuple[int, int, int]] = []
    count = [budget]

    def next_seat(seat: int) -> int:
        for k in range(1, n + 1):
            s = (seat + k) % n
            if hands[s]:
                return s
        return -1

    def search(seat: int, played: int) -> bool:
        hand = hands[seat]
        u0, u1, d0, d1 = tops
        key = (
            min(u0, u1),
            max(u0, u1),
            min(d0, d1),
            max(d0, d1),
            tuple(hands),
            seat,
            min(played, minimum),
        )
        if key in failed:
            return False
        count[0] -= 1
        if count[0] < 0:
            raise _OutOfBudget
        live = 0
        for h in hands:
            live |= h
        if _dead_card(tops, live):
            failed.add(key)
            return False
        plays = _plays(hand, tops, live)
        # ending the turn is tried after the plays that put no live card out of reach
        ended = played < minimum
        for cost, card, p in plays:
            if not ended and cost > 0:
                ended = True
                if end_turn(seat):
                    return True
            t = tops[p]
            tops[p] = card
            hands[seat] = hand & ~(1 << card)
            line.append((seat, card, p))
            if hands[seat]:
                ok = search(seat, played + 1)
            else:
                nxt = next_seat(seat)
                ok = nxt < 0 or search(nxt, 0)
            if ok:
                return True
            line.pop()
            hands[seat] = hand
            tops[p] = t
        if not ended and end_turn(seat):
            return True
        failed.add(key)
        return False

    def end_turn(seat: int) -> bool:
        nxt = next_seat(seat)
        line.append((seat, 0, -1))
        if search(nxt, 0):
            return True
        line.pop()
        return False

    if not any(hands):
        return WON, []
    try:
        won = search(turn, played)
    except _OutOfBudget:
        return UNKNOWN, []
    finally:
        if spent is not None:
            spent[0] += budget - max(0, count[0])
    return (WON, line) if won else (LOST, [])


def after(
    tops: list[int], hands: list[int], seat: int, played: int, action: tuple[int, int] | None
) -> tuple[list[int], list[int], int, int]:
    """The position after ``seat`` plays ``action`` (card, pile), or ends its turn (None).

    Returns (tops, hands, seat to move, cards it has played this turn); the seat to move is -1
    when every hand is empty (won).
    """
    tops = list(tops)
    hands = list(hands)
    n = len(hands)
    if action is not None:
        card, pile = action
        tops[pile] = card
        hands[seat] &= ~(1 << card)
        if hands[seat]:
            return tops, hands, seat, played + 1
    for k in range(1, n + 1):  # the next seat holding cards (the turn ended)
        s = (seat + k) % n
        if hands[s]:
            return tops, hands, s, 0
    return tops, hands, -1, 0


def first_moves(
    hand: int, tops: list[int], played: int, minimum: int
) -> list[tuple[int, int] | None]:
    """Every distinct first action of a turn position: plays (twins with equal tops once),
    and ending the turn (None) once the minimum is played."""
    out: list[tuple[int, int] | None] = [(c, p) for _, c, p in _plays(hand, tops, 0)]
    if played >= minimum:
        out.append(None)
    return out


Line = list[tuple[int, int, int]]


def sampled_choice(
    tops: list[int],
    hands: list[list[int]],
    me: int,
    played: int,
    minimum: int,
    budget: int,
    prefer: tuple[int, int] | None = None,
    lines: list[Line | None] | None = None,
    total: int | None = None,
) -> tuple[tuple[int, int] | None, int, int, list[Line | None]] | None:
    """The action that wins on the most sampled deals of the unseen cards, each searched to
    the end with full knowledge (``solve``): perfect-information sampling of the endgame.

    ``hands[k]`` is sample k: a bit mask per seat, ``me``'s hand the same in every sample.
    ``lines[k]``, when given, is a winning line from here for sample k, or None when sample k
    is not known to be winnable (it is then left out); without ``lines`` every sample is
    searched first. Returns (action, samples it wins, samples winnable at all, the winning
    line after the action per sample, None where it is not known to win), ``action`` a
    (card, pile) or None for ending the turn; or None when no sample is winnable.

    A sample lost from here is lost after every action, so only the winnable ones are scored.
    The first action of each sample's winning line is a candidate that wins there; each
    candidate (most such wins first, ``prefer`` first among equals) is then searched on the
    other winnable samples, and the search stops at a candidate that wins them all. Each
    ``solve`` gets ``budget`` positions; an unsettled one counts as not won. ``total`` bounds
    the positions of all the searches together (the time of a move): once it is spent, the
    best candidate so far is the answer (searches count positions, not seconds, so the
    answer never depends on the machine).
    """
    spent = [0]
    cap = total if total is not None else budget * len(hands) * 50

    def bounded(t: list[int], h: list[int], seat: int, p: int) -> tuple[str, Line]:
        return solve(t, h, seat, p, minimum, max(1, min(budget, cap - spent[0])), spent)

    if lines is None:
        lines = []
        for sample in hands:
            status, line = bounded(tops, sample, me, played)
            lines.append(line if status == WON else None)
    winnable = [k for k, line in enumerate(lines) if line is not None]
    if not winnable:
        return None
    wins_at: dict[tuple[int, int] | None, dict[int, Line]] = {}
    for k in winnable:
        found = lines[k]
        assert found is not None
        line = found
        first: tuple[int, int] | None = None
        if line and line[0][0] == me and line[0][1]:
            first = (line[0][1], line[0][2])
        # after the first action the rest of the line still wins (a hand played out ends
        # its turn by itself: no "end" of its own follows)
        rest = line[1:] if line and line[0][0] == me else line
        wins_at.setdefault(first, {})[k] = rest
    order = sorted(wins_at, key=lambda a: (-len(wins_at[a]), a != prefer))
    if prefer not in wins_at and prefer in first_moves(hands[0][me], tops, played, minimum):
        order.append(prefer)
    best: tuple[tuple[int, int] | None, dict[int, Line]] = (order[0], {})
    count = -1
    for action in order:
        won = dict(wins_at.get(action, {}))
        for i, k in enumerate(winnable):
            if k in won:
                continue
            if len(won) + len(winnable) - i <= count or spent[0] >= cap:
                break  # cannot beat the best any more, or out of positions
            t, h, seat, p = after(tops, hands[k], me, played, action)
            if seat < 0:
                won[k] = []
                continue
            status, line = bounded(t, h, seat, p)
            if status == WON:
                won[k] = line
        if len(won) > count:
            best, count = (action, won), len(won)
        if count == len(winnable) or spent[0] >= cap:
            break
    action, won = best
    return action, count, len(winnable), [won.get(k) for k in range(len(hands))]
