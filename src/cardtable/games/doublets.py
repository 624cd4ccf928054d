"""Doublets (AisleRiot's Double or Quits): build one foundation by doubling mod 13.

Rules: RULES.md section 2, in the project's words in ``docs/rules/doublets.md``.

Representation (internal): a card is ``value * 4 + suit`` (value 1..13, suit 0..3), so its value
is ``card >> 2``. Stock and waste are lists with the top card last.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardtable.core.errors import IllegalAction, MalformedAction, NotYourTurn
from cardtable.core.protocol import Breakdown, Game, Result, State, View, ViewBase
from cardtable.core.rng import deal_key, reorder, shuffled
from cardtable.core.words import Text, translatable

_, _n = translatable("doublets")

KING = 13
NON_KINGS = 48
RESERVES = 7
REDEALS = 2
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
DECK = tuple(v * 4 + s for s in range(4) for v in range(1, 14))
RESERVE_NAMES = tuple(f"r{i}" for i in range(1, RESERVES + 1))
#: the value the foundation wants on top of each value: the doubling cycle A 2 4 8 3 6 Q J 9 5 10 7
NEXT = {v: (2 * v) % 13 for v in range(1, 13)}

_PLAY_TEXT = ("play waste", *(f"play {r}" for r in RESERVE_NAMES))
_FLIP = (0, "flip")
_REDEAL = (0, "redeal")
_PLAYS = tuple((0, t) for t in _PLAY_TEXT)  # index 0: waste, 1..7: r1..r7


def card_name(card: int) -> str:
    """``'QH'``, ``'10S'``, ``'AC'``."""
    v = card >> 2
    return f"{RANKS.get(v, v)}{SUITS[card & 3]}"


#: card id -> its name, and None -> None (an empty reserve): views map cards through it
_NAMES: dict[int | None, str | None] = {
    None: None,
    **{(v << 2) | suit: card_name((v << 2) | suit) for v in range(1, 14) for suit in range(4)},
}


def rank_name(value: int) -> str:
    return str(RANKS.get(value, value))


def with_article(rank: str) -> str:
    """'a 6', 'an 8', 'an A'."""
    return f"{'an' if rank in ('A', '8') else 'a'} {rank}"


def needed_words(rank: str) -> Text:
    """'a 6', 'an 8', 'an A' as a message (the article is English's)."""
    if rank in ("A", "8"):
        # TRANSLATORS: a rank the foundation needs, with English's article ("an 8", "an A")
        return _("an {rank}", rank=rank)
    # TRANSLATORS: a rank the foundation needs, with English's article ("a 6")
    return _("a {rank}", rank=rank)


def source_words(where: str) -> Text:
    """A place a card is played from: "the waste", "reserve 3"."""
    if where == "waste":
        return _("the waste")
    return _("reserve {n}", n=int(where[1:]))


def with_note(hint: Text, note: str) -> Text:
    """A hint with its advisor's note in brackets, if any."""
    return _("{hint} ({note})", hint=hint, note=note) if note else hint


def card_symbol(name: str) -> str:
    """A card named ``QH`` as people read it: ``Q♥``."""
    return f"{name[:-1]}{SUIT_SYMBOLS.get(name[-1], name[-1])}"


def card_value(name: str) -> int:
    """The value of a card named like ``'QH'`` or ``'10S'``; 0 for None."""
    if not name:
        return 0
    # a view's names are found in one look-up (bots read them on every move)
    return _VALUE_OF.get(name) or _RANK_VALUES.get(name[:-1]) or int(name[:-1])


_RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}
#: every card's name -> its value
_VALUE_OF = {name: card >> 2 for card, name in _NAMES.items() if card is not None and name}


class DoubletsResult(Result):
    # ``won``: all 48 cards on the foundation
    #: cards on the foundation (the score; 48 is a win)
    foundation: int


class DoubletsView(ViewBase):
    #: cards left in the face-down stock
    stock: int
    #: the waste, bottom first (its last card is the one that plays)
    waste: list[str]
    #: the seven reserves, r1 to r7: a card like "QH", None when empty
    reserves: list[str | None]
    #: the foundation, bottom first
    foundation: list[str]
    #: the value the foundation takes next (1 to 12)
    needed: int
    redeals_left: int
    #: cards on the foundation
    score: int
    over: bool


class DoubletsGame(Game):
    cooperative = True
    name = "doublets"
    title = "Doublets"
    view_type = DoubletsView
    result_type = DoubletsResult
    advisor = "fair"  # the fair bot gives hints from the player's own view
    min_players = 1
    max_players = 1
    review_bot = "fair"
    review_judge = "solver"  # a sampled stock is solved in about a millisecond
    better = "high"
    options = ()

    def _deal(self, seed: int, players: int, options: dict[str, Any]) -> DoubletsState:
        return DoubletsState(seed, players, options)

    def _card_played(self, view: Mapping[str, Any] | None, action: str) -> str | None:
        """The card a ``play`` takes, named from the view before it (``8♥``)."""
        if view is None:
            return None
        where = action.split(" ")[-1]
        if where == "waste":
            return card_symbol(view["waste"][-1]) if view.get("waste") else None
        if where in RESERVE_NAMES:
            name = view["reserves"][RESERVE_NAMES.index(where)]
            return card_symbol(name) if name else None
        return None

    def describe_action(
        self, action: str, who: str, view: View | None = None, public: bool = False
    ) -> str:
        if action == "flip":
            return _("{who} turned a card from the stock", who=who)
        if action == "redeal":
            return _("{who} turned the waste over for another pass", who=who)
        if action.startswith("play "):
            source = source_words(action.split(" ")[-1])
            card = self._card_played(view, action)
            if card:
                return _(
                    "{who} played {card} from {source} to the foundation",
                    who=who,
                    card=card,
                    source=source,
                )
            return _("{who} played from {source} to the foundation", who=who, source=source)
        return super().describe_action(action, who, view, public)

    def move_label(self, view: View, action: str) -> str:
        if action == "flip":
            # TRANSLATORS: a move button: "flip" is the notation, then the cards in the stock
            return _("flip · stock {n}", n=view["stock"])
        if action == "redeal":
            # TRANSLATORS: a move button: "redeal" is the notation, then the redeals left
            return _("redeal · {n} left", n=view["redeals_left"])
        card = self._card_played(view, action) if action.startswith("play ") else None
        # TRANSLATORS: a move button: the action in notation, the card it plays
        return _("{action} · {card}", action=action, card=card) if card else action

    def breakdown(self, view: View) -> Breakdown | None:
        result = view.get("result")
        if not result or not result.get("over"):
            return None
        on = result["foundation"]
        return {
            "columns": [],
            "seats": [],
            "table": [[_("on the foundation"), on], [_("left"), NON_KINGS - on]],
        }

    def result_notes(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over") or result["won"]:
            return []
        return [
            _(
                "The {n} cards other than kings count; kings never go on the foundation.",
                n=NON_KINGS,
            )
        ]

    def describe_hint(self, view: Mapping[str, Any], action: str | None, note: str = "") -> str:
        """ "Turn the next stock card: nothing on the table fits the foundation (needs a 6);
        12 cards left in the stock"; "Play the 8♥ from reserve 3: the foundation needs an
        8"."""
        need = needed_words(rank_name(view["needed"]))
        if action is None:
            return _(
                "No move is left: nothing on the table fits the foundation (needs {need}), "
                "and the stock and its redeals are used up.",
                need=need,
            )
        if action.startswith("play "):
            source = source_words(action.split(" ")[-1])
            card = self._card_played(view, action)
            if card is None:
                said = _(
                    "Play the card from {source}: the foundation needs {need}",
                    source=source,
                    need=need,
                )
            else:
                said = _(
                    "Play the {card} from {source}: the foundation needs {need}",
                    card=card,
                    source=source,
                    need=need,
                )
            return with_note(said, note)
        if action == "redeal":
            said = _n(
                "Turn the waste over for another pass: the stock is empty, and {n} "
                "redeal will be left after this",
                "Turn the waste over for another pass: the stock is empty, and {n} "
                "redeals will be left after this",
                view["redeals_left"] - 1,
            )
            return with_note(said, note)
        n = view["stock"]
        if _fits(view):
            said = _n(
                "Turn the next stock card rather than play the {rank} now: a later card may "
                "serve better; {n} card left in the stock",
                "Turn the next stock card rather than play the {rank} now: a later card may "
                "serve better; {n} cards left in the stock",
                n,
                rank=rank_name(view["needed"]),
            )
        else:
            said = _n(
                "Turn the next stock card: nothing on the table fits the foundation (needs "
                "{need}); {n} card left in the stock",
                "Turn the next stock card: nothing on the table fits the foundation (needs "
                "{need}); {n} cards left in the stock",
                n,
                need=need,
            )
        return with_note(said, note)

    def result_lines(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over"):
            return []
        if result["won"]:
            return [_("All {n} cards are on the foundation: won!", n=NON_KINGS)]
        return [
            _(
                "Score {score} of {n} cards on the foundation.",
                score=result["scores"][0],
                n=NON_KINGS,
            )
        ]


def _fits(view: Mapping[str, Any]) -> bool:
    """Whether a card of the view fits the foundation now (the waste's top or a reserve)."""
    tops = [*view["reserves"], *view["waste"][-1:]]
    return any(card_value(c) == view["needed"] for c in tops if c)


def _renamed(
    cards: list[int], seen: list[int], names: list[str | None]
) -> tuple[list[int], list[str | None]]:
    """A copy of ``cards`` and their names, from ``names`` (of the cards ``seen``) when the
    pile only gained or lost its top card. ``seen`` is the caller's own copy: it is brought
    in step and checked whole, not sliced."""
    n = len(cards)
    if n == len(seen) + 1:
        seen.append(cards[-1])
        if seen == cards:
            return seen, [*names, _NAMES[cards[-1]]]
    elif n == len(seen) - 1:
        seen.pop()
        if seen == cards:
            return seen, names[:-1]
    return cards.copy(), list(map(_NAMES.__getitem__, cards))


class _Shown:
    """The parts of a state's views (and legal lists) shared between them
    (``DoubletsState._shown``): each with a copy of the cards it shows."""

    __slots__ = (
        "waste_of",
        "waste",
        "reserves_of",
        "reserves",
        "foundation_of",
        "foundation",
        "plays_of",
        "plays_need",
        "plays",
    )

    def __init__(self) -> None:
        self.waste_of: list[int] = []
        self.waste: list[str | None] = []
        self.reserves_of: list[int | None] | None = None
        self.reserves: list[str | None] = []
        self.foundation_of: list[int] = []
        self.foundation: list[str | None] = []
        #: the reserves' plays in legal(), for these reserves and this needed value
        self.plays_of: list[int | None] | None = None
        self.plays_need = 0
        self.plays: list[str] = []


class DoubletsState(State):
    game: ClassVar[DoubletsGame]  # narrower: this game's states
    playout_policies: ClassVar[tuple[str, ...]] = ("random", "greedy")
    # the views' shared parts, in a slot: no field of the state (``clone``)
    __slots__ = ("_parts",)
    _parts: _Shown

    def __init__(self, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(seed, players, options)
        deck = shuffled(DECK, deal_key("doublets", seed))  # deck[0] is the top
        slots = deck[:8]
        stock = deck[8:][::-1]  # top last
        for k in range(8):
            while slots[k] >> 2 == KING:  # a king dealt: to the bottom, deal again
                stock.insert(0, slots[k])
                slots[k] = stock.pop()
        self.reserves: list[int | None] = [*slots[:6], *slots[7:]]
        self.foundation = [slots[6]]
        self.needed = NEXT[slots[6] >> 2]
        self.stock = stock
        self.waste: list[int] = []
        self.redeals_left = REDEALS
        self._ended = False

    # -- asking -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._ended

    @property
    def won(self) -> bool:
        return len(self.foundation) == NON_KINGS

    def to_act(self) -> tuple[int, ...]:
        return () if self._ended else (0,)

    def _playable(self) -> list[int]:
        """Sources that can play now: 0 for the waste, 1..7 for r1..r7."""
        need = self.needed
        out = [0] if self.waste and self.waste[-1] >> 2 == need else []
        out.extend(i + 1 for i, c in enumerate(self.reserves) if c is not None and c >> 2 == need)
        return out

    def legal(self, seat: int) -> list[str]:
        if self._ended or seat != 0:
            return []
        need, waste = self.needed, self.waste
        out = ["play waste"] if waste and waste[-1] >> 2 == need else []
        # the reserves' plays change only with a play: remembered with the reserves and need
        try:
            parts = self._parts
        except AttributeError:
            parts = self._shown()
        if parts.plays_need != need or parts.plays_of != self.reserves:
            parts.plays = [
                _PLAY_TEXT[i + 1]
                for i, c in enumerate(self.reserves)
                if c is not None and c >> 2 == need
            ]
            parts.plays_of, parts.plays_need = self.reserves.copy(), need
        out += parts.plays
        if self.stock:
            out.append("flip")
        elif self.waste and self.redeals_left:
            out.append("redeal")
        return out

    # -- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        # A flip from a stock with cards (most of a game's actions) in one piece; anything
        # else goes the base class's way, to be refused with its reason or applied.
        stock = self.stock
        if action != "flip" or type(seat) is not int or seat != 0 or not stock or self._ended:
            return super().act(seat, action)
        self.waste.append(stock.pop())
        # (``_finished`` can only be true with a full foundation or no flip nor redeal left)
        if len(self.foundation) == NON_KINGS or not (stock or self.redeals_left):
            self._ended = self._finished()
        self.actions.append(_FLIP)
        return None

    def _apply(self, seat: int, action: str) -> None:
        if seat != 0:
            raise NotYourTurn(_("Doublets is played alone, by seat 0"))
        if action == "flip":
            if not self.stock:
                raise IllegalAction(
                    _("the stock is empty: redeal the waste")
                    if self.waste and self.redeals_left
                    else _("the stock is empty")
                )
            self.waste.append(self.stock.pop())
        elif action == "redeal":
            if self.stock:
                raise IllegalAction(_("the stock is not empty yet: redeal only when it is"))
            if not self.redeals_left:
                raise IllegalAction(
                    _("both redeals are used: the stock goes round three times only")
                )
            if not self.waste:
                raise IllegalAction(_("the waste is empty: there is nothing to redeal"))
            self._redeal()
        elif action.startswith("play "):
            source = action[5:]
            if source == "waste":
                index = 0
            elif source in RESERVE_NAMES:
                index = RESERVE_NAMES.index(source) + 1
            else:
                raise MalformedAction(
                    _("{source} is not a source: play waste, or r1 to r7", source=repr(source))
                )
            self._check_play(index)
            self._play(index)
        else:
            raise MalformedAction(
                _(
                    "{action} is not a Doublets action: flip, redeal, play waste, play r1..r7",
                    action=repr(action),
                )
            )
        self._ended = self._finished()

    def _check_play(self, index: int) -> None:
        card = (self.waste[-1] if self.waste else None) if index == 0 else self.reserves[index - 1]
        if card is None:
            if index == 0:
                raise IllegalAction(_("the waste is empty"))
            raise IllegalAction(_("{reserve} is empty", reserve=RESERVE_NAMES[index - 1]))
        value = card >> 2
        if value == KING:
            raise IllegalAction(
                _("{card} is a king: kings can never be played", card=card_name(card))
            )
        if value != self.needed:
            raise IllegalAction(
                _(
                    "{card} does not go on {top}: the foundation needs {need} (double of "
                    "{rank}, mod 13)",
                    card=card_name(card),
                    top=card_name(self.foundation[-1]),
                    need=needed_words(rank_name(self.needed)),
                    rank=rank_name(self.foundation[-1] >> 2),
                )
            )

    def _play(self, index: int) -> None:
        if index == 0:
            card = self.waste.pop()
        else:
            in_slot = self.reserves[index - 1]
            assert in_slot is not None  # _check_play refused an empty reserve
            card = in_slot
            # the emptied slot refills at once: from the waste, else the stock, else stays empty
            self.reserves[index - 1] = (
                self.waste.pop() if self.waste else self.stock.pop() if self.stock else None
            )
        self.foundation.append(card)
        self.needed = NEXT[card >> 2]

    def _redeal(self) -> None:
        self.stock = self.waste[::-1]  # the first card flipped comes up first again
        self.waste = []
        self.redeals_left -= 1

    def _finished(self) -> bool:
        if len(self.foundation) == NON_KINGS:
            return True
        if self.stock or (self.waste and self.redeals_left):
            return False
        return not self._playable()

    # -- fast play --------------------------------------------------------------------------
    def _playout(self, policies: list[str], rng: random.Random) -> None:
        # The steps of _apply, inlined: this loop is the simulation hot path.
        if policies[0] == "greedy":
            self._playout_greedy()
        else:
            self._playout_random(rng)
        self._ended = self._finished()

    def _play_fast(self, choice: int, rvals: list[int]) -> None:
        """_play for playouts, keeping ``rvals`` (the reserve values, 0 when empty) in step."""
        self.actions.append(_PLAYS[choice])
        self._play(choice)
        if choice:
            new = self.reserves[choice - 1]
            rvals[choice - 1] = new >> 2 if new is not None else 0

    def _playout_greedy(self) -> None:
        """Play when possible (waste first), never pull a king into a reserve while a flip can
        wait, and flip straight through cards that open no play."""
        log = self.actions
        res, found, waste, stock = self.reserves, self.foundation, self.waste, self.stock
        rvals = [c >> 2 if c is not None else 0 for c in res]
        need = self.needed
        while len(found) < NON_KINGS:
            top = waste[-1] >> 2 if waste else 0
            if top == need:
                log.append(_PLAYS[0])
                card = waste.pop()
                found.append(card)
                need = NEXT[card >> 2]
                continue
            can_flip = bool(stock) or (bool(waste) and self.redeals_left > 0)
            in_reserve = need in rvals
            if in_reserve and (top != KING or not can_flip):
                k = rvals.index(need)
                log.append(_PLAYS[k + 1])
                card = res[k]  # type: ignore[assignment]  # rvals[k] == need: not empty
                new = waste.pop() if waste else stock.pop() if stock else None
                res[k] = new
                rvals[k] = new >> 2 if new is not None else 0
                found.append(card)
                need = NEXT[card >> 2]
                continue
            if stock:
                while stock:
                    card = stock.pop()
                    waste.append(card)
                    log.append(_FLIP)
                    value = card >> 2
                    if value == need or (in_reserve and value != KING):
                        break
            elif can_flip:
                self._redeal()
                waste, stock = self.waste, self.stock
                log.append(_REDEAL)
            else:
                break
        self.needed = need

    def _playout_random(self, rng: random.Random) -> None:
        """Uniform over the legal actions, like the random bot."""
        rvals = [c >> 2 if c is not None else 0 for c in self.reserves]
        while len(self.foundation) < NON_KINGS:
            waste, need = self.waste, self.needed
            options = [0] if waste and waste[-1] >> 2 == need else []
            options.extend(i + 1 for i in range(RESERVES) if rvals[i] == need)
            if self.stock or (waste and self.redeals_left):
                options.append(-1)
            if not options:
                break
            choice = options[int(rng.random() * len(options))]
            if choice >= 0:
                self._play_fast(choice, rvals)
            elif self.stock:
                waste.append(self.stock.pop())
                self.actions.append(_FLIP)
            else:
                self._redeal()
                self.actions.append(_REDEAL)

    # -- showing ----------------------------------------------------------------------------
    # A view is a fresh dict, but its lists of card names are built once and shared by every
    # view until they change: views are read-only (docs/protocol.md, "Views"). Each is
    # remembered with the cards it names and checked against them; a card more or less on top
    # of a pile is a new list with one name more or less, not every name again.
    def _shown(self) -> _Shown:
        try:
            return self._parts
        except AttributeError:
            self._parts = _Shown()
            return self._parts

    def view(self, seat: int | None) -> dict[str, Any]:
        try:
            parts = self._parts
        except AttributeError:
            parts = self._shown()
        if parts.reserves_of != self.reserves:
            parts.reserves = list(map(_NAMES.__getitem__, self.reserves))
            parts.reserves_of = self.reserves.copy()
        waste, foundation = self.waste, self.foundation
        if parts.waste_of != waste:
            parts.waste_of, parts.waste = _renamed(waste, parts.waste_of, parts.waste)
        if parts.foundation_of != foundation:
            parts.foundation_of, parts.foundation = _renamed(
                foundation, parts.foundation_of, parts.foundation
            )
        view: dict[str, Any] = {
            "game": "doublets",
            "seat": seat,
            "players": 1,
            "to_act": [] if self._ended else [0],
            "stock": len(self.stock),
            "waste": parts.waste,
            "reserves": parts.reserves,
            "foundation": parts.foundation,
            "needed": self.needed,
            "redeals_left": self.redeals_left,
            "score": len(foundation),
            "over": self._ended,
        }
        if self._ended:
            view["result"] = self.result()
        return view

    def result(self) -> DoubletsResult:
        won = self.won
        return {
            "over": self._ended,
            "scores": [len(self.foundation)],
            "won": won,
            "winners": [0] if won else [],
            "ranks": [1],
            "foundation": len(self.foundation),
        }

    def cards(self) -> Counter[Any]:
        return Counter(
            [
                *self.stock,
                *self.waste,
                *self.foundation,
                *(c for c in self.reserves if c is not None),
            ]
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": "doublets",
            "seed": self.seed,
            "stock": [card_name(c) for c in self.stock],  # top last
            "waste": list(map(_NAMES.__getitem__, self.waste)),
            "reserves": list(map(_NAMES.__getitem__, self.reserves)),
            "foundation": list(map(_NAMES.__getitem__, self.foundation)),
            "needed": self.needed,
            "redeals_left": self.redeals_left,
            "over": self._ended,
            "actions": [list(a) for a in self.actions],
        }

    def redraw_hidden(self, seat: int | None, rng: random.Random) -> DoubletsState:
        other = self.clone()
        if self.redeals_left < REDEALS:
            # once the stock has gone round, the player has seen it all in order: the waste,
            # turned over, is the stock they remember (perfect recall, as the fair bot keeps)
            return other
        # only the stock's order is hidden; sorted first so that the redraw depends on what
        # the player sees, never on the true order (a game review must not change with it)
        other.stock.sort()
        reorder(other.stock, rng)
        return other

    def clone(self) -> DoubletsState:
        other = DoubletsState.__new__(DoubletsState)
        self._clone_base(other)
        other.reserves = self.reserves.copy()
        other.foundation = self.foundation.copy()
        other.needed = self.needed
        other.stock = self.stock.copy()
        other.waste = self.waste.copy()
        other.redeals_left = self.redeals_left
        other._ended = self._ended
        return other


GAME = DoubletsGame()
DoubletsState.game = GAME
