"""The fair Doublets bot: it decides from the views it is shown, never from the state.

What it knows is what a player at the table knows: the cards face up (waste, reserves,
foundation), the stock count, and every card it has seen flipped. A redeal keeps the order, so
once the stock has been gone through (the first time the stock is empty, the waste shows the
whole deck in flip order) it knows the stock order exactly, and from then on it plays a line
the solver proves (``cardtable.solvers.doublets.solve_position``) on a position rebuilt from
that knowledge. Before that the unseen cards' order is unknown: at each real choice (play now,
or flip on) it deals the unseen cards at random a few times, solves each of those possible
stocks after each choice, and takes the choice that wins in most of them (ties: play). Most
choices are clear: the first few possible stocks screen a choice, and when the first action wins
in all of them it is taken without solving the rest.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.core.errors import BadOptions
from cardtable.games.doublets import KING, NEXT, NON_KINGS, card_value, rank_name
from cardtable.solvers.doublets import Position, moves_to_actions, pack_reserves, solve_position

#: possible stocks dealt at each choice of the first pass, per level
LEVELS = {"easy": 0, "normal": 8, "hard": 24}
#: the first few of them screen a choice: if the first action wins in all, it is taken at once
SCREEN = {"easy": 0, "normal": 3, "hard": 6}
#: search nodes for one possible stock (a choice's estimate), and for the exact line
SAMPLE_BUDGET = 20_000
EXACT_BUDGET = 3_000_000


def position_from_view(view: dict[str, Any], stock: list[str]) -> Position:
    """The solver's position from a view and a stock order (``stock``: card names, top first;
    known, remembered or guessed). Reads nothing but its arguments."""
    waste = [card_value(c) for c in view["waste"]]
    deck = bytes(waste + [card_value(c) for c in stock])
    reserves = pack_reserves(card_value(c) for c in view["reserves"])
    return Position(deck, len(waste), reserves, view["redeals_left"], view["needed"],
                    NON_KINGS - len(view["foundation"]))


def legal_from_view(view: dict[str, Any]) -> list[str]:
    """The legal actions, worked out from a view (the engine's order)."""
    if view.get("over"):
        return []
    need = view["needed"]
    out = ["play waste"] if view["waste"] and card_value(view["waste"][-1]) == need else []
    out.extend(f"play r{i + 1}" for i, c in enumerate(view["reserves"])
               if c and card_value(c) == need)
    if view["stock"]:
        out.append("flip")
    elif view["waste"] and view["redeals_left"]:
        out.append("redeal")
    return out


def unseen_cards(view: dict[str, Any]) -> list[str]:
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
        return Position(deck[:p - 1] + deck[p:], p - 1, res, r, NEXT[need], left - 1)
    # a reserve: its slot refills from the waste top, else the stock top
    if p:
        refill, deck, p = deck[p - 1], deck[:p - 1] + deck[p:], p - 1
    elif deck:
        refill, deck = deck[0], deck[1:]
    else:
        refill = 0
    res = res - (1 << (3 * need)) + ((1 << (3 * refill)) if refill else 0)
    return Position(deck, p, res, r, NEXT[need], left - 1)


class FairBot:
    """Plays Doublets from its views alone (see the module docstring)."""

    games = ("doublets",)

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        if level is not None and level not in LEVELS:
            raise BadOptions(f"the fair bot's levels are {', '.join(LEVELS)}, not {level!r}")
        self.game = game
        self.samples = LEVELS[level or "normal"]
        self.screen = SCREEN[level or "normal"]
        self.rng = random.Random(seed)
        self._forget()

    def _forget(self) -> None:
        self.order: list[str] | None = None  # the whole deck in flip order, once seen
        self.plan: list[str] = []  # the rest of a proved winning line
        self.plan_pos: Position | None = None  # the position the plan's next action expects
        self.hopeless = False  # the exact search found no win: play on for score

    # -- memory -------------------------------------------------------------------------------
    def observe(self, view: dict[str, Any]) -> None:
        """Remember what this view shows (called by ``choose``; a UI may call it too)."""
        # a fresh deal (views carry no deal number: the seed would name the whole stock)
        if len(view["foundation"]) == 1 and not view["waste"] and view["stock"] == 44:
            self._forget()
        if view["stock"] == 0 and view["waste"]:
            # the stock is gone through: the waste is the whole deck in flip order
            self.order = list(view["waste"])

    def known_stock(self, view: dict[str, Any]) -> list[str] | None:
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
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return self.decide(view, legal)[0]

    def finish(self, result: dict[str, Any]) -> None:
        self._forget()

    def hint(self, view: dict[str, Any], legal: list[str] | None = None) -> tuple[str, str]:
        """The bot's move with a one-line reason, for a UI's hint button."""
        return self.decide(view, legal if legal is not None else legal_from_view(view))

    def decide(self, view: dict[str, Any], legal: list[str]) -> tuple[str, str]:
        """``(action, reason)``."""
        self.observe(view)
        need = rank_name(view["needed"])
        plays = [a for a in legal if a.startswith("play")]
        other = next((a for a in legal if a in ("flip", "redeal")), None)
        stock = self.known_stock(view)
        if stock is not None and not self.hopeless:
            action = self._exact(view, legal, stock)
            if action is not None:
                return action, self._reason(view, action, need, "a winning line is known")
        if not plays or other is None:
            action = plays[0] if plays else legal[0]
            return action, self._reason(view, action, need, "")
        play = plays[0]  # the waste first: a reserve play would refill with that very card
        first, second = play, other
        if play != "play waste" and view["waste"] and card_value(view["waste"][-1]) == KING:
            first, second = other, play  # pulling a king into a reserve freezes it: flip first
        if stock is None and self.samples:
            first, note = self._sampled(view, first, second)
        else:
            note = ""
        return first, self._reason(view, first, need, note)

    def _exact(self, view: dict[str, Any], legal: list[str], stock: list[str]) -> str | None:
        """Follow (or find) a proved winning line; None when there is none."""
        pos = position_from_view(view, stock)
        # follow the plan only from the very position it expects (a UI's player may stray)
        if not (self.plan and pos == self.plan_pos and self.plan[0] in legal):
            status, moves, _, _ = solve_position(pos, EXACT_BUDGET)
            if status != "won":
                self.hopeless = True
                return None
            slots = [card_value(c) for c in view["reserves"]]
            self.plan = moves_to_actions(slots, pos.deck, pos.pointer, pos.needed, moves)
            if not self.plan or self.plan[0] not in legal:
                return None
        action = self.plan.pop(0)
        self.plan_pos = _after(pos, action)
        return action

    def _sampled(self, view: dict[str, Any], first: str, second: str) -> tuple[str, str]:
        """Pick between two actions by solving possible stocks; the first wins ties."""
        unseen = unseen_cards(view)
        stocks = []
        for _ in range(self.samples):
            self.rng.shuffle(unseen)
            stocks.append(list(unseen))
        # screening: most choices are clear, and a few stocks show it (the first wins in all)
        firsts = [self._wins(view, first, stock) for stock in stocks[:self.screen]]
        if all(firsts):
            return first, f"wins in all {len(firsts)} possible stocks tried"
        firsts += [self._wins(view, first, stock) for stock in stocks[self.screen:]]
        w1 = sum(firsts)
        if w1 == len(stocks):
            return first, f"wins in all {len(stocks)} possible stocks tried"
        # the second choice can only do better where the first lost: try those stocks first
        failed = [s for s, won in zip(stocks, firsts, strict=True) if not won]
        rescued = sum(self._wins(view, second, s) for s in failed)
        w2 = rescued
        if rescued:
            w2 += sum(self._wins(view, second, s)
                      for s, won in zip(stocks, firsts, strict=True) if won)
        if w2 > w1:
            return second, f"wins in {w2} of {len(stocks)} possible stocks tried, against {w1}"
        return first, f"wins in {w1} of {len(stocks)} possible stocks tried, against {w2}" \
            if rescued else f"wins in {w1} of {len(stocks)} possible stocks tried"

    @staticmethod
    def _wins(view: dict[str, Any], action: str, stock: list[str]) -> bool:
        pos = _after(position_from_view(view, stock), action)
        return solve_position(pos, SAMPLE_BUDGET)[0] == "won"

    @staticmethod
    def _reason(view: dict[str, Any], action: str, need: str, note: str) -> str:
        tail = f" ({note})" if note else ""
        if action.startswith("play"):
            return f"{action}: the foundation needs a {need}{tail}"
        if action == "redeal":
            left = view["redeals_left"] - 1
            return f"redeal: the stock is empty; {left} redeal{'s' * (left != 1)} left after " \
                   f"this{tail}"
        n = view["stock"]
        fits = any(a.startswith("play") for a in legal_from_view(view))
        why = f"a later card will serve better than playing the {need} now" if fits \
            else "nothing fits"
        return f"flip: {why}; {n} card{'s' * (n != 1)} left in the stock{tail}"


def hint(view: dict[str, Any], bot: FairBot | None = None) -> tuple[str, str]:
    """The fair bot's move for ``view`` with a one-line reason. Pass the bot that has watched
    the game so far (it remembers the flipped cards); a fresh one knows only this view."""
    return (bot or FairBot("doublets")).hint(view)


__all__ = ["FairBot", "hint", "legal_from_view", "position_from_view", "unseen_cards"]
