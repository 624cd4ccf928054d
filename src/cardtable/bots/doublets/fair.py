"""The fair Doublets bot: it decides from the views it is shown, never from the state.

What it knows is what a player at the table knows: the cards face up (waste, reserves,
foundation), the stock count, and every card it has seen flipped. A redeal keeps the order, so
once the stock has been gone through (the first time the stock is empty, the waste shows the
whole deck in flip order) it knows the stock order exactly, and from then on it plays a line
the solver proves (``cardtable.solvers.doublets.solve_position``) on a position rebuilt from
that knowledge. Before that the unseen cards' order is unknown: at each real choice (play now,
or flip on) it deals the unseen cards at random, solves those possible stocks after the
choice, and takes the choice that wins in more of them. A waste play is the default, a reserve
play is put off (flip on: the reserve card waits, and the flips show which card should refill
its slot). Most choices are clear: a few possible stocks screen the default (a waste play
many), and when it wins in all of them it is taken; a close call is judged on both actions over
the same stocks, with more stocks while it stays close; with very few unseen cards every order
is tried. One move's sampling spends at most ``MOVE_BUDGET`` search nodes.

After the first pass every decision is bounded too, by a count of search nodes, never by a
clock (so a seed gives the same game on any machine): ``EXACT_BUDGET`` nodes a move, shared
between the move's (at most two) actions in rounds of rising allowances, a table of the
positions proved lost kept across the moves of a game (each search goes on from what the
earlier ones proved). An action proved to win is played and its line followed; one proved
lost is dropped; when the budget runs out first, the bot flips on (or redeals) unless that is
proved lost, as in the first pass, and searches again at the next move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import permutations
from math import factorial
from typing import Any

from cardtable.bots import BotLegal, BotView
from cardtable.core.errors import BadOptions
from cardtable.core.words import translatable
from cardtable.games.doublets import GAME, KING, NEXT, NON_KINGS, card_value
from cardtable.solvers.doublets import (
    BoundMemo,
    Position,
    moves_to_actions,
    pack_reserves,
    solve_position,
)

_, _n = translatable("doublets")

#: possible stocks dealt at a choice of the first pass that the screen finds unclear, per
#: level (a batch: more batches follow while the call is close, up to ``LIMIT``)
LEVELS = {"easy": 0, "normal": 16, "hard": 32}
LIMIT = {"easy": 0, "normal": 64, "hard": 128}
#: the first few stocks screen a choice: if the first action wins in all, it is taken at once;
#: a waste play is screened on more: nearly every loss left in the last measurement was a
#: waste play that won all 6 stocks of the screen but lost 7-23 % of possible stocks where
#: flipping on lost none. A winning stock is cheap to solve (a line is found fast), so a long
#: screen costs little where the play is clear; 24 stocks miss a 10 % gap 8 % of the time.
SCREEN = {"easy": 0, "normal": 3, "hard": 6}
SCREEN_WASTE = {"easy": 0, "normal": 24, "hard": 32}
#: a call is decided once one action wins in this many more of the same stocks than the other
MARGIN = 3
#: with at least this many cards in the stock, a reserve play is put off (flip on) unsolved:
#: on the tuning deals playing it was almost never better then (see ``decide``); None: always
#: solve
FREE_FLIP = {"easy": None, "normal": 15, "hard": None}
#: search nodes one move may spend on possible stocks (about 1 s of CPU at ~75,000 nodes a
#: second): past it the call is made on the stocks solved for both actions
MOVE_BUDGET = {"easy": 0, "normal": 70_000, "hard": 300_000}
#: search nodes for one possible stock (a choice's estimate)
SAMPLE_BUDGET = 20_000
#: search nodes one move after the first pass may spend on the exact line (about 0.5 s of
#: CPU at the 70,000-90,000 nodes a second measured here): the actions are searched in
#: rounds, each with ``EXACT_START`` nodes in the first and four times more in each next one
#: (their share of what is left at most), until one is proved to win or the budget is spent
EXACT_BUDGET = 40_000
EXACT_START = 1_000
#: the same, when every order of the few unseen cards is tried: each is the true one as likely
#: as not, so an undecided search (taken as a loss) would cost a winnable game
ORDER_BUDGET = 300_000


def position_from_view(view: BotView, stock: list[str]) -> Position:
    """The solver's position from a view and a stock order (``stock``: card names, top first;
    known, remembered or guessed). Reads nothing but its arguments."""
    waste = [card_value(c) for c in view["waste"]]
    deck = bytes(waste + [card_value(c) for c in stock])
    reserves = pack_reserves(card_value(c) for c in view["reserves"])
    return Position(
        deck,
        len(waste),
        reserves,
        view["redeals_left"],
        view["needed"],
        NON_KINGS - len(view["foundation"]),
    )


def legal_from_view(view: BotView) -> list[str]:
    """The legal actions, worked out from a view (the engine's order)."""
    if view.get("over"):
        return []
    need = view["needed"]
    out = ["play waste"] if view["waste"] and card_value(view["waste"][-1]) == need else []
    out.extend(
        f"play r{i + 1}" for i, c in enumerate(view["reserves"]) if c and card_value(c) == need
    )
    if view["stock"]:
        out.append("flip")
    elif view["waste"] and view["redeals_left"]:
        out.append("redeal")
    return out


def unseen_cards(view: BotView) -> list[str]:
    """Every card not face up in the view: the stock's cards, in no known order."""
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    shown = set(view["waste"]) | set(view["foundation"]) | {c for c in view["reserves"] if c}
    return [f"{r}{s}" for r in ranks for s in "CDHS" if f"{r}{s}" not in shown]


def _after(pos: Position, action: str) -> Position:
    """``pos`` after ``action`` ('play ...', 'flip' or 'redeal'), in values."""
    deck, p, res, r, need, left = pos
    if action == "flip":
        return Position(deck, p + 1, res, r, need, left)
    if action == "redeal":
        return Position(deck, 0, res, r - 1, need, left)
    if action == "play waste":
        return Position(deck[: p - 1] + deck[p:], p - 1, res, r, NEXT[need], left - 1)
    # a reserve: its slot refills from the waste top, else the stock top
    if p:
        refill, deck, p = deck[p - 1], deck[: p - 1] + deck[p:], p - 1
    elif deck:
        refill, deck = deck[0], deck[1:]
    else:
        refill = 0
    res = res - (1 << (3 * need)) + ((1 << (3 * refill)) if refill else 0)
    return Position(deck, p, res, r, NEXT[need], left - 1)


def _slots_after(view: BotView, stock: list[str], action: str) -> list[int]:
    """The reserve values in slot order (0: empty) after ``action``, the stock known (top
    first): a reserve played refills from the waste top, else the stock top."""
    slots = [card_value(c) for c in view["reserves"]]
    if action.startswith("play r"):
        k = int(action[len("play r") :]) - 1
        if view["waste"]:
            slots[k] = card_value(view["waste"][-1])
        else:
            slots[k] = card_value(stock[0]) if stock else 0
    return slots


def _value_orders(cards: list[str], most: int) -> list[list[str]] | None:
    """Every distinct order of the values of ``cards`` (one card of each value standing for
    its copies), if there are at most ``most``; else None. Each is as likely as any other."""
    if len(cards) > 8:  # at least 9! / (4! 4!) = 630 orders: more than any level tries
        return None
    distinct = factorial(len(cards))
    for k in Counter(card_value(c) for c in cards).values():
        distinct //= factorial(k)
    if distinct > most:
        return None
    by_value: dict[int, list[str]] = {}
    for c in cards:
        by_value.setdefault(card_value(c), []).append(c)
    out = []
    for values in sorted(set(permutations(card_value(c) for c in cards))):
        spare = {v: list(cs) for v, cs in by_value.items()}
        out.append([spare[v].pop() for v in values])
    return out


class _Spent(Exception):
    """The move's search budget ran out before a call was made."""


class FairBot:
    """Plays Doublets from its views alone (see the module docstring)."""

    games = ("doublets",)

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        if level is not None and level not in LEVELS:
            raise BadOptions(f"the fair bot's levels are {', '.join(LEVELS)}, not {level!r}")
        self.game = game
        self.samples = LEVELS[level or "normal"]
        self.limit = LIMIT[level or "normal"]
        self.screen = SCREEN[level or "normal"]
        self.screen_waste = SCREEN_WASTE[level or "normal"]
        self.free_flip = FREE_FLIP[level or "normal"]
        self.move_budget = MOVE_BUDGET[level or "normal"]
        self.spent = 0  # search nodes spent on the current move
        # the move's searches share the last-pass bound's saved work (dropped after the move:
        # it saves time only, and a bot is pickled between moves)
        self.memo: BoundMemo | None = None
        self.rng = random.Random(seed)
        self._forget()

    def _forget(self) -> None:
        self.order: list[str] | None = None  # the whole deck in flip order, once seen
        self.plan: list[str] = []  # the rest of a proved winning line
        self.plan_pos: Position | None = None  # the position the plan's next action expects
        self.hopeless = False  # the exact search proved every action lost: play on for score
        # positions proved lost (``solve_position``'s table), kept across the moves of a game
        self.table: dict[bytes, int] = {}

    # -- memory -------------------------------------------------------------------------------
    def observe(self, view: BotView) -> None:
        """Remember what this view shows (called by ``choose``; a UI may call it too)."""
        # a fresh deal (views carry no deal number: the seed would name the whole stock)
        # (both redeals left: a first pass with no play, redealt, looks the same otherwise)
        if (
            len(view["foundation"]) == 1
            and not view["waste"]
            and view["stock"] == 44
            and view["redeals_left"] == 2
        ):
            self._forget()
        if view["stock"] == 0 and view["waste"]:
            # the stock is gone through: the waste is the whole deck in flip order
            self.order = list(view["waste"])

    def known_stock(self, view: BotView) -> list[str] | None:
        """The stock, top first, if it is known from memory; else None."""
        if view["stock"] == 0:
            return []
        if self.order is None:
            return None
        # the stock is what is left of the flip order once the face-up cards are taken out
        shown = set(view["waste"]) | set(view["foundation"]) | {c for c in view["reserves"] if c}
        stock = [c for c in self.order if c not in shown]
        return stock if len(stock) == view["stock"] else None

    # -- deciding -----------------------------------------------------------------------------
    def choose(self, view: BotView, legal: BotLegal) -> str:
        return self.decide(view, legal)[0]

    def finish(self, result: dict[str, Any]) -> None:
        self._forget()

    def hint(self, view: BotView, legal: BotLegal | None = None) -> tuple[str, str]:
        """The bot's move with a one-line reason, for a UI's hint button."""
        return self.decide(view, legal if legal is not None else legal_from_view(view))

    def decide(self, view: BotView, legal: BotLegal) -> tuple[str, str]:
        """``(action, reason)``."""
        self.memo = BoundMemo()
        try:
            return self._decide(view, legal)
        finally:
            self.memo = None

    def _decide(self, view: BotView, legal: BotLegal) -> tuple[str, str]:
        self.observe(view)
        self.spent = 0
        plays = [a for a in legal if a.startswith("play")]
        other = next((a for a in legal if a in ("flip", "redeal")), None)
        stock = self.known_stock(view)
        if stock is not None and not self.hopeless:
            found = self._exact(view, legal, stock)
            if found is not None:
                action, proved = found
                note = (
                    _("a winning line is known")
                    if proved
                    else f"no line proved within the move's {EXACT_BUDGET} search nodes"
                )
                return action, GAME.describe_hint(view, action, note)
        if not plays or other is None:
            action = plays[0] if plays else legal[0]
            return action, GAME.describe_hint(view, action, "")
        play = plays[0]  # the waste first: a reserve play would refill with that very card
        first, second = play, other
        if play != "play waste" and (
            self.samples or (view["waste"] and card_value(view["waste"][-1]) == KING)
        ):
            # a reserve card waits where it is while the stock is flipped on, and the flips
            # show which card should refill its slot: on the possible stocks, flipping on first
            # wins wherever playing now does (tuning deals 20001..20030: in 318 such choices
            # never once the other way round), so it is the default. Without sampling (easy)
            # only a king on the waste, which would freeze the slot, makes it flip first.
            first, second = other, play
            if (
                stock is None
                and self.free_flip is not None
                and first == "flip"
                and view["stock"] >= self.free_flip
            ):
                # early in the stock flipping on is safe: no solving (the costly part)
                return first, GAME.describe_hint(view, first, _("the reserve card can wait"))
        if stock is None and self.samples:
            first, note = self._sampled(view, first, second)
        else:
            note = ""
        return first, GAME.describe_hint(view, first, note)

    def _exact(self, view: BotView, legal: BotLegal, stock: list[str]) -> tuple[str, bool] | None:
        """The move when the stock is known: ``(action, proved)``, ``proved`` when a winning
        line is known (then followed). None when there is one action only (nothing to
        search), or when every action is proved lost (then ``hopeless``)."""
        pos = position_from_view(view, stock)
        # follow the plan only from the very position it expects (a UI's player may stray)
        if not (self.plan and pos == self.plan_pos and self.plan[0] in legal):
            self.plan = []
            plays = [a for a in legal if a.startswith("play")]
            other = next((a for a in legal if a in ("flip", "redeal")), None)
            # the waste first: a reserve play of the same value reaches the same position
            choices = plays[:1] + ([other] if other else [])
            if len(choices) < 2:
                return None  # nothing to choose: the next choice searches on from there
            found = self._search(view, stock, pos, choices)
            if found is None:
                self.hopeless = True
                return None
            if not self.plan:
                return found, False
        action = self.plan.pop(0)
        self.plan_pos = _after(pos, action)
        return action, True

    def _search(
        self, view: BotView, stock: list[str], pos: Position, choices: list[str]
    ) -> str | None:
        """Search ``choices`` after ``pos`` within ``EXACT_BUDGET`` nodes, in rounds of
        rising allowances, each action its share: the first proved to win is returned with its
        line in ``self.plan``; None if all are proved lost; else, out of budget, the last one
        not proved lost (the flip or redeal: a play can wait, as in the first pass)."""
        open_ = list(choices)
        allowance = EXACT_START
        while open_:
            share = min(allowance, (EXACT_BUDGET - self.spent) // len(open_))
            if share < EXACT_START // 10:
                break
            for action in list(open_):
                after = _after(pos, action)
                status, moves, nodes, _proof = solve_position(
                    after, share, table=self.table, memo=self.memo
                )
                self.spent += min(nodes, share)  # (the node past the share is not searched)
                if status == "won":
                    slots = _slots_after(view, stock, action)
                    rest = moves_to_actions(slots, after.deck, after.pointer, after.needed, moves)
                    self.plan = [action, *rest]
                    return action
                if status == "lost":
                    open_.remove(action)
            allowance *= 4
        return open_[-1] if open_ else None

    def _sampled(self, view: BotView, first: str, second: str) -> tuple[str, str]:
        """Pick between two actions by solving possible stocks; the first wins ties.

        Both actions are judged on the SAME possible stocks (common random numbers), so only
        the stocks where exactly one of them wins count: ``d1`` where only the first does,
        ``d2`` where only the second does. The first few stocks screen: when the first action
        wins in all of them it is taken. Otherwise stocks are added a batch at a time until one
        action leads by ``MARGIN`` such stocks, or ``limit`` stocks are spent: a close call is
        never decided on a handful of stocks."""
        unseen = unseen_cards(view)
        stocks: list[list[str]] = []
        firsts: list[bool] = []
        # suits never matter: stocks with the same values in the same order are one stock
        known: dict[tuple[str, tuple[int, ...]], bool] = {}
        orders = _value_orders(unseen, self.samples)
        nominal = SAMPLE_BUDGET if orders is None else ORDER_BUDGET

        def wins(action: str, stock: list[str]) -> bool:
            key = action, tuple(card_value(c) for c in stock)
            if key not in known:
                budget = min(nominal, self.move_budget - self.spent)
                if budget <= 0:
                    raise _Spent
                won = self._wins(view, action, stock, budget)
                if not won and budget < nominal and self.spent >= self.move_budget:
                    raise _Spent  # cut short by the move's budget: not an answer
                known[key] = won
            return known[key]

        seconds: dict[int, bool] = {}
        try:
            return self._judge(first, second, unseen, stocks, firsts, seconds, orders, wins)
        except _Spent:
            pass
        # the move's budget ran out before the call was made: judge on the stocks solved for
        # both actions. The second is solved first where the first lost, so the stocks where
        # only the first wins are scaled up to all the stocks the first won (nothing known of
        # those: no case for the second). Undecided, it flips on: on the tuning deals' truth
        # flipping on was almost never worse than playing (docs/bots-lab.md: 0 of 16,873 choices
        # on the bot's own games), and three of the reported deals were lost by playing here
        # (the second is judged as in ``_judge``; the play needs a lead of MARGIN stocks)
        d2 = sum(seconds.get(i, False) for i, won in enumerate(firsts) if not won)
        won_first = [i for i, won in enumerate(firsts) if won]
        judged = [i for i in won_first if i in seconds]
        d1 = sum(not seconds[i] for i in judged) * len(won_first) / max(1, len(judged))
        if "flip" not in (first, second):
            action = second if d2 > d1 and (judged or not won_first) else first
        elif first == "flip":
            # the play only on a clear lead (a stock or two is no case against flipping)
            action = second if d2 - d1 >= MARGIN and (judged or not won_first) else first
        else:
            action = first if d1 - d2 >= MARGIN else second
        return (
            action,
            f"{len(firsts)} possible stocks tried within the move's budget, "
            f"{d2} won by {second} alone, about {d1:.0f} by {first} alone",
        )

    def _judge(
        self,
        first: str,
        second: str,
        unseen: list[str],
        stocks: list[list[str]],
        firsts: list[bool],
        seconds: dict[int, bool],
        orders: list[list[str]] | None,
        wins: Callable[[str, list[str]], bool],
    ) -> tuple[str, str]:
        """``_sampled``'s call, on the stocks it deals (``wins`` solves one, memoised)."""
        if orders is not None:
            # so few unseen cards that every order of their values can be tried: exact
            for stock in orders:
                stocks.append(stock)
                firsts.append(wins(first, stock))
            if all(firsts):
                return first, _("wins in all {n} possible orders of the stock", n=len(stocks))

        def more(n: int) -> None:
            if orders is not None:
                return
            for _turn in range(n):
                self.rng.shuffle(unseen)
                stocks.append(list(unseen))
                firsts.append(wins(first, stocks[-1]))
                if not firsts[-1]:
                    # the second is solved on each stock the first loses (the loop below
                    # would anyway): so a move that runs out of budget has compared them
                    seconds[len(firsts) - 1] = wins(second, stocks[-1])

        if orders is None:
            # screening: most choices are clear, and a few stocks show it (the first wins in all)
            for _turn in range(self.screen_waste if first == "play waste" else self.screen):
                more(1)
                if not firsts[-1]:
                    break
            else:
                return first, _("wins in all {n} possible stocks tried", n=len(firsts))
            more(self.samples - len(stocks))
        d1 = d2 = 0
        while True:
            # the second can only do better where the first lost: solve those first
            for i, won in enumerate(firsts):
                if not won and i not in seconds:
                    seconds[i] = wins(second, stocks[i])
            d2 = sum(seconds[i] for i, won in enumerate(firsts) if not won)
            if d2:
                for i, won in enumerate(firsts):
                    if won and i not in seconds:
                        seconds[i] = wins(second, stocks[i])
                d1 = sum(not seconds[i] for i, won in enumerate(firsts) if won)
            # no stock the second rescues: it cannot do better; else go on while it is close
            if not d2 or abs(d2 - d1) >= MARGIN or len(stocks) >= self.limit or orders is not None:
                break
            more(self.samples)
        n, w1 = len(stocks), sum(firsts)
        w2 = w1 - d1 + d2
        if d2 > d1:
            said = _(
                "wins in {won} of {n} possible stocks tried, against {other}", won=w2, n=n, other=w1
            )
            return second, said
        if not d2:
            return first, _(
                "wins in {won} of {n} possible stocks tried; the other in no more", won=w1, n=n
            )
        return first, _(
            "wins in {won} of {n} possible stocks tried, against {other}", won=w1, n=n, other=w2
        )

    def _wins(
        self, view: BotView, action: str, stock: list[str], budget: int = SAMPLE_BUDGET
    ) -> bool:
        pos = _after(position_from_view(view, stock), action)
        status, _moves, nodes, _proof = solve_position(pos, budget, memo=self.memo)
        self.spent += nodes if status != "unknown" else budget
        return status == "won"


def hint(view: BotView, bot: FairBot | None = None) -> tuple[str, str]:
    """The fair bot's move for ``view`` with a one-line reason. Pass the bot that has watched
    the game so far (it remembers the flipped cards); a fresh one knows only this view."""
    return (bot or FairBot("doublets")).hint(view)


__all__ = ["FairBot", "hint", "legal_from_view", "position_from_view", "unseen_cards"]
