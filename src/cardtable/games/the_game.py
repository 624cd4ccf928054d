"""The Game (Steffen Benndorf): cooperative, 1-5 players, 98 cards onto four piles.

Rules: RULES.md section 3, in the project's words in ``docs/rules/the-game.md``.

Representation (internal): piles are a list of four top cards in PILES order; hands are
sorted lists; the draw pile is a list with the top card last.
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
from bisect import bisect_left, bisect_right, insort
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardtable.core.errors import IllegalAction, MalformedAction, NotYourTurn
from cardtable.core.protocol import Breakdown, Game, Option, Result, State, View, ViewBase
from cardtable.core.rng import deal_key, reorder, shuffled
from cardtable.core.words import Text, translatable

_, _n = translatable("the-game")

PILES = ("up1", "up2", "down1", "down2")
UP = (True, True, False, False)
START_TOPS = (1, 1, 100, 100)
CARDS = tuple(range(2, 100))
SIGNALS = ("avoid", "small", "good")
HAND_SIZE = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}

#: every play's text, interned (as the learning environments' action texts are: the same
#: text is then the same object, and a look-up or a comparison of it an identity check)
_PLAY_TEXT = {(c, p): sys.intern(f"play {c} {PILES[p]}") for c in CARDS for p in range(4)}
_CARD_VALUES = {str(c): c for c in CARDS}
_END = "end"
#: card -> its four play texts, in PILES order
_PLAYS_OF = {c: tuple(_PLAY_TEXT[(c, p)] for p in range(4)) for c in CARDS}
#: every play's text, parsed: what ``_apply`` looks up before it splits words
_PLAY_OF = {text: cp for cp, text in _PLAY_TEXT.items()}
#: (pile, the seat's signal on it) -> the signal moves it may make there, in legal()'s order
_SIGNAL_MOVES = {
    (pile, current): tuple(
        [sys.intern(f"signal {pile} {s}") for s in SIGNALS if s != current]
        + ([sys.intern(f"signal {pile} clear")] if current is not None else [])
    )
    for pile in PILES
    for current in (None, *SIGNALS)
}
#: every signal move's text, parsed (pile, word; "clear" included): ``act``'s one look-up
_SIGNAL_OF = {
    sys.intern(f"signal {pile} {word}"): (pile, word)
    for pile in PILES
    for word in (*SIGNALS, "clear")
}
#: the signal moves of a seat with no signal set, in legal()'s order
_FIRST_SIGNALS = tuple(move for pile in PILES for move in _SIGNAL_MOVES[(pile, None)])
#: a seat's signal moves, in legal()'s order, by its signal on each pile in PILES order
#: (None: none): all 256 made at once
_SIGNAL_TAILS = {
    said: tuple(m for pile, s in zip(PILES, said, strict=True) for m in _SIGNAL_MOVES[(pile, s)])
    for said in itertools.product((None, *SIGNALS), repeat=len(PILES))
}


#: piles as people read them
PILE_WORDS = {
    # TRANSLATORS: the piles: two going up (from 1) and two going down (from 100)
    "up1": _("▲ up 1"),
    "up2": _("▲ up 2"),
    "down1": _("▼ down 1"),
    "down2": _("▼ down 2"),
}
SIGNAL_WORDS = {
    # TRANSLATORS: the signals a player may give on a pile (the rules forbid naming numbers)
    "avoid": _("please avoid"),
    "small": _("only a small jump, please"),
    "good": _("I have something good"),
}


def play_text(card: int, pile: int) -> str:
    """The action that plays ``card`` on pile number ``pile`` (PILES order): one text per
    play, made once (the game finds it by one look-up)."""
    return _PLAY_TEXT[(card, pile)]


def fits(card: int, pile: int, top: int) -> bool:
    """May ``card`` go on pile number ``pile`` (PILES order) whose top card is ``top``?"""
    if UP[pile]:
        return card > top or card == top - 10
    return card < top or card == top + 10


def fitting_cards(hand: list[int], tops: list[int], enough: int = 99) -> int:
    """How many cards of ``hand`` fit some pile now (counting stops at ``enough``)."""
    lowest_up, highest_down = min(tops[0], tops[1]), max(tops[2], tops[3])
    backs = (tops[0] - 10, tops[1] - 10, tops[2] + 10, tops[3] + 10)
    count = 0
    for c in hand:
        if c > lowest_up or c < highest_down or c in backs:
            count += 1
            if count >= enough:
                break
    return count


def can_play_run(hand: list[int], tops: list[int], count: int) -> bool:
    """Can ``count`` cards from ``hand`` be played one after another (whole sequences)?"""
    if count <= 0:
        return True
    # Cards that fit now can always all be played (per pile: the trick first, then toward
    # the far end), so counting them settles most cases without a search.
    fitting = fitting_cards(hand, tops, count)
    if fitting >= count:
        return True
    if fitting == 0:
        return False
    for i, card in enumerate(hand):
        for p in range(4):
            top = tops[p]
            if fits(card, p, top):
                tops[p] = card
                ok = can_play_run(hand[:i] + hand[i + 1 :], tops, count - 1)
                tops[p] = top
                if ok:
                    return True
    return False


def greedy_play(
    hand: list[int], tops: list[int], played: int, minimum: int
) -> tuple[int, int] | None:
    """The greedy play (card, pile index) for a sorted ``hand``, or None to end the turn.

    The smallest jump first (a backwards trick is the best jump there is; ties: the lower
    card, then the pile in PILES order); beyond the minimum, only tricks and jumps of one.
    """
    best_cost, best_card, best_pile = 1000, 0, -1
    for p in range(4):
        top = tops[p]
        if p < 2:  # up piles
            if top - 10 in hand:
                cost, card = -10, top - 10
            else:
                i = bisect_right(hand, top)
                if i == len(hand):
                    continue
                card = hand[i]
                cost = card - top
        else:
            if top + 10 in hand:
                cost, card = -10, top + 10
            else:
                i = bisect_left(hand, top)
                if i == 0:
                    continue
                card = hand[i - 1]
                cost = top - card
        if cost < best_cost or (cost == best_cost and card < best_card):
            best_cost, best_card, best_pile = cost, card, p
    if best_pile < 0 or (played >= minimum and best_cost > 1):
        return None
    return best_card, best_pile


class TheGameResult(Result):
    # ``won``: all 98 cards played
    #: why a lost game ended: the seat that could not play its minimum (None: won or going on)
    stuck_seat: int | None
    #: how many more cards that seat had to play and could not
    short_by: int
    #: cards not played (in hands and the draw pile): the score, 0 is a win
    cards_left: int
    #: 10 or fewer left, "a good result" in the rules
    good: bool


class TheGameView(ViewBase):
    #: each pile's top card: up1, up2 (rising, from 1), down1, down2 (falling, from 100)
    piles: dict[str, int]
    #: the viewer's own hand, sorted (None for a spectator)
    hand: list[int] | None
    hand_sizes: list[int]
    #: cards left in the face-down draw pile
    draw_pile: int
    #: whose turn it is (None once over)
    turn: int | None
    played_this_turn: int
    #: cards the seat to move must play this turn
    minimum: int
    #: the table's rule: cards a turn must play once the draw pile is empty
    minimum_empty: int
    #: per seat, its signals: pile -> "avoid", "small" or "good"
    signals: list[dict[str, str]]
    cards_left: int
    #: every card played so far, sorted: public (the piles lie face up), so a player who
    #: joins or a bot built mid-game knows as much as one who watched every card go down
    played: list[int]
    over: bool


def _not_a_pile(pile: str) -> Text:
    return _("{pile} is not a pile: up1, up2, down1 or down2", pile=repr(pile))


def _misfit(card: int, pile: str, top: int, up: bool) -> Text:
    """The refusal of ``card`` on ``pile`` whose top is ``top``."""
    if up:
        return _(
            "{card} does not go on {pile} (top {top}): it takes a card higher than "
            "{top}, or exactly {back} (ten back)",
            card=card,
            pile=pile,
            top=top,
            back=top - 10,
        )
    return _(
        "{card} does not go on {pile} (top {top}): it takes a card lower than "
        "{top}, or exactly {back} (ten back)",
        card=card,
        pile=pile,
        top=top,
        back=top + 10,
    )


class TheGame(Game):
    cooperative = True
    name = "the-game"
    title = "The Game"
    view_type = TheGameView
    result_type = TheGameResult
    min_players = 1
    max_players = 5
    review_bot = "expert"
    # the greedy playout wins 2 % of three-player games, the expert about half: only its
    # playouts tell a good position from a bad one (``quick``: without its sampled endgame,
    # at half the cost: a review plays thousands)
    review_judge = "bots:expert:quick"
    better = "low"
    options = (
        Option(
            "start",
            0,
            _("the seat that plays first"),
            low=0,
            high=4,
            label=_("First player"),
            seat=True,
        ),
        # the words players read in the lobby (the rules page says the same)
        Option(
            "min_after_empty",
            1,
            _(
                "the fewest cards a turn once the draw pile is empty: 1 "
                "is the published rule; 2 is how some rule pages read it"
            ),
            choices=(1, 2),
            label=_("Cards a turn once the draw pile is empty"),
        ),
        Option(
            "pro",
            False,
            _("at least 3 cards a turn while the draw pile lasts"),
            kind=bool,
            label=_("Pro variant"),
        ),
    )

    has_talk = True
    #: the rules forbid naming numbers: a table's chat starts with fixed phrases only
    free_chat_default = False

    def is_talk(self, action: str) -> bool:
        return action.startswith("signal ")

    def describe_action(
        self, action: str, who: str, view: View | None = None, public: bool = False
    ) -> str:
        words = action.split(" ")
        if action == _END:
            return _("{who} ended the turn", who=who)
        if len(words) == 3 and words[0] == "play" and words[2] in PILE_WORDS:
            card = int(words[1]) if words[1].isdigit() else words[1]
            pile = PILE_WORDS[words[2]]
            if view is not None and isinstance(card, int):
                gap = card - view["piles"][words[2]]
                if gap == (-10 if words[2].startswith("up") else 10):
                    # TRANSLATORS: the "Backwards Trick": a card exactly 10 back
                    return _(
                        "{who} played {card} on {pile} (10 back)", who=who, card=card, pile=pile
                    )
            return _("{who} played {card} on {pile}", who=who, card=card, pile=pile)
        if len(words) == 3 and words[0] == "signal" and words[1] in PILE_WORDS:
            pile = PILE_WORDS[words[1]]
            if words[2] == "clear":
                return _("{who} cleared the signal on {pile}", who=who, pile=pile)
            said = SIGNAL_WORDS.get(words[2], words[2])
            return _("{who} signals on {pile}: {signal}", who=who, pile=pile, signal=said)
        return super().describe_action(action, who, view, public)

    def move_label(self, view: View, action: str) -> str:
        if action == _END:
            return _("end the turn")
        play = _PLAY_OF.get(action)  # (a state message labels every legal play)
        if play is not None:
            return _play_label(action, view["piles"][PILES[play[1]]])
        if not action.startswith("play "):  # a signal: its notation is its label
            return action
        words = action.split(" ")
        if len(words) == 3 and words[2] in view["piles"]:
            return _play_label(action, view["piles"][words[2]])
        return action

    def move_labels(self, view: View, actions: list[str]) -> list[str]:
        # a well-formed play by one look-up here; anything else as ``move_label`` says
        tops = view["piles"]
        return [
            self.move_label(view, a)
            if (play := _PLAY_OF.get(a)) is None
            else _play_label(a, tops[PILES[play[1]]])
            for a in actions
        ]

    def breakdown(self, view: View) -> Breakdown | None:
        result = view.get("result")
        if not result or not result.get("over"):
            return None
        return {
            "columns": [_("cards in hand")],
            "seats": [[n] for n in view["hand_sizes"]],
            "table": [
                [_("draw pile"), view["draw_pile"]],
                [_("cards left"), result["cards_left"]],
            ],
        }

    def result_notes(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over") or result["won"]:
            return []
        notes: list[str] = []
        if result.get("stuck_seat") is not None:
            short = result["short_by"]
            notes.append(
                _n(
                    "{name} could not play {n} more card.",
                    "{name} could not play {n} more cards.",
                    short,
                    name=names[result["stuck_seat"]],
                )
            )
        notes.append(
            _("10 or fewer cards left counts as a good result.")
            if result.get("good")
            else _("More than 10 cards left: 10 or fewer counts as a good result.")
        )
        return notes

    def result_lines(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over"):
            return []
        left = result["cards_left"]
        if result["won"]:
            return [_("The team won: all {n} cards are played!", n=len(CARDS))]
        lines: list[str] = [
            _n(
                # TRANSLATORS: English says "Cards left: 1" too; use your forms per count
                "The team did not win. Cards left: {n} (played {played}).",
                "The team did not win. Cards left: {n} (played {played}).",
                left,
                played=len(CARDS) - left,
            )
        ]
        if result.get("stuck_seat") is not None:
            lines.append(
                _n(
                    "{name} could not play {n} card.",
                    "{name} could not play {n} cards.",
                    result["short_by"],
                    name=names[result["stuck_seat"]],
                )
            )
        if result.get("good"):
            lines.append(_("10 or fewer left counts as a good result."))
        return lines

    def _deal(self, seed: int, players: int, options: dict[str, Any]) -> TheGameState:
        return TheGameState(seed, players, options)


def turn_minimum(options: Mapping[str, Any], draw: list[int]) -> int:
    """Cards the seat to move must play this turn: two (three in pro) while the draw pile
    lasts, then ``min_after_empty``. (A plain function: the rules' hot paths call it, where
    a property's call goes through a slot and costs about four times as much.)"""
    if draw:
        return 3 if options["pro"] else 2
    return options["min_after_empty"]


class _Shown:
    """The parts of a state's views (and its legal plays) shared between calls
    (``TheGameState._shown``)."""

    __slots__ = (
        "signals_seen",
        "signals",
        "played_of",
        "played_sizes",
        "played",
        "tops",
        "piles",
        "plays_seat",
        "plays_end",
        "plays_tops",
        "plays_hand",
        "plays",
        "tails",
    )

    def __init__(self) -> None:
        #: a copy of the signals ``signals`` shows (None: not built yet)
        self.signals_seen: list[dict[str, str]] | None = None
        self.signals: list[dict[str, str]] = []
        #: the ``piles_played`` list, and its piles' sizes, that ``played`` shows
        self.played_of: list[list[int]] | None = None
        self.played_sizes: list[int] = []
        self.played: list[int] = []
        #: the tops (a copy) that the ``piles`` mapping shows
        self.tops: list[int] = []
        self.piles: dict[str, int] = {}
        #: ``legal``'s plays (and "end") of the seat in turn, and what they were made of
        self.plays_seat, self.plays_end = -1, False
        self.plays_tops: list[int] = []
        self.plays_hand: list[int] = []
        self.plays: list[str] = []
        #: ``legal``'s signal moves by seat, with the signals (a copy) they were made for
        self.tails: dict[int, tuple[dict[str, str], tuple[str, ...]]] = {}


class TheGameState(State):
    game: ClassVar[TheGame]  # narrower: this game's states
    playout_policies: ClassVar[tuple[str, ...]] = ("random", "greedy")
    # the views' shared parts, in a slot: no field of the state (``clone``)
    __slots__ = ("_parts",)
    _parts: _Shown

    def __init__(self, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(seed, players, options)
        deck = shuffled(CARDS, deal_key("the-game", seed))  # deck[0] is the top
        size = HAND_SIZE[players]
        self.hand_size = size
        self.hands = [sorted(deck[s * size : (s + 1) * size]) for s in range(players)]
        self.draw = deck[players * size :][::-1]  # top last
        self.tops = list(START_TOPS)
        self.piles_played: list[list[int]] = [[] for _ in PILES]  # every card played, per pile
        self.turn = options["start"]
        self.played = 0
        self.signals: list[dict[str, str]] = [{} for _ in range(players)]
        self._ended = False
        self._start_turn()

    # -- asking -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._ended

    @property
    def minimum(self) -> int:
        """Cards the seat to move must play this turn."""
        return turn_minimum(self.options, self.draw)

    def cards_left(self) -> int:
        return len(self.draw) + sum(map(len, self.hands))

    def to_act(self) -> tuple[int, ...]:
        return () if self._ended else (self.turn,)

    def legal(self, seat: int) -> list[str]:
        if self._ended or not 0 <= seat < self.players:
            return []
        try:
            parts = self._parts
        except AttributeError:
            parts = self._shown()
        mine = self.signals[seat]
        if mine:
            # the seat's signal moves of the last call while its signals are the same (a
            # comparison of two small dicts costs less than a look-up by their items)
            known = parts.tails.get(seat)
            if known is not None and known[0] == mine:
                tail = known[1]
            else:
                said = mine.get  # (the key's four look-ups written out: cheaper than a map)
                tail = _SIGNAL_TAILS[said("up1"), said("up2"), said("down1"), said("down2")]
                parts.tails[seat] = (dict(mine), tail)
        else:
            tail = _FIRST_SIGNALS
        if seat != self.turn:
            return list(tail)
        hand = self.hands[seat]
        # a signal changes no play: the plays of the position before are kept, checked by
        # what they are made of (the seat, its hand, the tops, whether it may end)
        need = turn_minimum(self.options, self.draw)  # (a plain call: cheaper than the property)
        may_end = self.played >= need
        tops = self.tops
        # (each compared as it is: a tuple of them all cost more to build than to compare)
        if (
            hand != parts.plays_hand
            or tops != parts.plays_tops
            or may_end is not parts.plays_end
            or seat != parts.plays_seat
        ):
            parts.plays_seat, parts.plays_end = seat, may_end
            parts.plays_tops, parts.plays_hand = tops.copy(), hand.copy()
            parts.plays = self._plays(hand, may_end)
        out = parts.plays.copy()
        out += tail
        return out

    def _plays(self, hand: list[int], may_end: bool) -> list[str]:
        """The plays of ``hand`` on the piles now, then "end" if the turn ``may_end``."""
        out: list[str] = []
        u1, u2, d1, d2 = self.tops  # ``fits`` written out: legal() is on every path
        b1, b2, b3, b4 = u1 - 10, u2 - 10, d1 + 10, d2 + 10  # the backward tricks
        add = out.append
        for c in hand:
            texts = _PLAYS_OF[c]
            if c > u1 or c == b1:
                add(texts[0])
            if c > u2 or c == b2:
                add(texts[1])
            if c < d1 or c == b3:
                add(texts[2])
            if c < d2 or c == b4:
                add(texts[3])
        if may_end:
            add(_END)
        return out

    # -- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        # A play that fits, by the seat in turn, is checked and played here in one piece (the
        # plain path's common case); anything else goes the base class's way, to be refused
        # with its reason or applied word by word.
        play = _PLAY_OF.get(action) if type(action) is str else None
        if play is None or type(seat) is not int or seat != self.turn or self._ended:
            if action == _END and type(seat) is int and seat == self.turn and not self._ended:
                return self._act_end(seat)
            signal = _SIGNAL_OF.get(action) if type(action) is str else None
            if signal is not None and type(seat) is int and not self._ended:
                on, word = signal  # (not ``*signal``: a call with a star is not inlined)
                return self._act_signal(seat, action, on, word)
            return super().act(seat, action)
        card, pile = play
        top = self.tops[pile]
        # ``fits`` written out, as in ``legal`` (the two rising piles are the first two)
        fitting = (card > top or card == top - 10) if pile < 2 else (card < top or card == top + 10)
        if not fitting or not 0 <= seat < self.players or card not in self.hands[seat]:
            return super().act(seat, action)
        self._play(seat, card, pile)
        self.actions.append((seat, action))
        return None

    def _act_signal(self, seat: int, action: str, pile: str, word: str) -> None:
        """``act`` of a well-formed signal (about half of a random agent's actions): set or
        cleared here (``_signal``'s change, the pile and the word known good); one that
        changes nothing goes the base class's way, to be refused with its reason."""
        mine = self.signals[seat] if 0 <= seat < self.players else None
        current = None if mine is None else mine.get(pile)
        if mine is None or word == current or (word == "clear" and current is None):
            return super().act(seat, action)
        if word == "clear":
            del mine[pile]
        else:
            mine[pile] = word
        self.actions.append((seat, action))
        return None

    def _act_end(self, seat: int) -> None:
        """``act`` of "end" by the seat in turn: the turn ended if the minimum is played."""
        need = turn_minimum(self.options, self.draw)  # (a plain call: cheaper than the property)
        if not 0 <= seat < self.players or self.played < need:
            return super().act(seat, _END)  # refused, with the base class's reason
        self._end_turn()
        self.actions.append((seat, _END))
        return None

    def _apply(self, seat: int, action: str) -> None:
        play = _PLAY_OF.get(action)  # a well-formed play is one look-up; the rest word by word
        if play is not None:
            card, pile = play
            if seat != self.turn:
                self._check_turn(seat)
            if card not in self.hands[seat]:
                raise IllegalAction(_("you do not hold the {card}", card=card))
            top = self.tops[pile]
            if not fits(card, pile, top):
                raise IllegalAction(_misfit(card, PILES[pile], top, UP[pile]))
            self._play(seat, card, pile)
            return
        words = action.split(" ")
        if words[0] == "signal" and len(words) == 3:
            self._signal(seat, words[1], words[2])
        elif words[0] == "play" and len(words) == 3:
            value = _CARD_VALUES.get(words[1])  # exact ASCII "2".."99" only (not "07", "²", "٣٤")
            if value is None:
                raise MalformedAction(
                    _("{card} is not a card: the cards are 2 to 99", card=repr(words[1]))
                )
            if words[2] not in PILES:
                raise MalformedAction(_not_a_pile(words[2]))
            # (a card and a pile: the text is one of _PLAY_OF's, played above)
            self._apply(seat, _PLAY_TEXT[(value, PILES.index(words[2]))])
        elif action == "end":
            self._check_turn(seat)
            need = self.minimum
            if self.played < need:
                raise IllegalAction(
                    _n(
                        "play at least {n} card this turn before you end it ({played} played)",
                        "play at least {n} cards this turn before you end it ({played} played)",
                        need,
                        played=self.played,
                    )
                )
            self._end_turn()
        else:
            raise MalformedAction(
                _(
                    "{action} is not an action of The Game: 'play 34 up1', 'end', "
                    "'signal up1 avoid' (or small, good, clear)",
                    action=repr(action),
                )
            )

    def _check_turn(self, seat: int) -> None:
        if seat != self.turn:
            # seats counted from 1, as people count them
            raise NotYourTurn(_("it is seat {seat}'s turn", seat=self.turn + 1))

    def _signal(self, seat: int, pile: str, signal: str) -> None:
        if pile not in PILES:
            raise MalformedAction(_not_a_pile(pile))
        if signal not in SIGNALS and signal != "clear":
            raise MalformedAction(
                _("{signal} is not a signal: avoid, small, good or clear", signal=repr(signal))
            )
        current = self.signals[seat].get(pile)
        if signal == "clear":
            if current is None:
                raise IllegalAction(_("you have no signal on {pile} to clear", pile=pile))
            del self.signals[seat][pile]
        elif signal == current:
            raise IllegalAction(
                _("your signal on {pile} is already {signal}", pile=pile, signal=signal)
            )
        else:
            self.signals[seat][pile] = signal

    def _play(self, seat: int, card: int, pile: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.tops[pile] = card
        self.piles_played[pile].append(card)
        self.played += 1
        if not hand:
            self._end_turn()  # a hand played out ends its turn by itself
        # (no minimum is above 3: a third card is past it without asking for it)
        elif self.played < 3:
            need = turn_minimum(
                self.options, self.draw
            )  # (a plain call: cheaper than the property)
            if self.played < need and not fitting_cards(hand, self.tops, 1):
                self._ended = True  # stuck before the minimum

    def _end_turn(self) -> None:
        hand = self.hands[self.turn]
        draw = self.draw
        if draw:
            take = min(self.hand_size - len(hand), len(draw))
            hand.extend(draw[len(draw) - take :])
            del draw[len(draw) - take :]
            hand.sort()
        self.played = 0
        n = self.players
        for k in range(1, n + 1):  # the next seat holding cards; empty hands are skipped
            seat = (self.turn + k) % n
            if self.hands[seat]:
                self.turn = seat
                self._start_turn()
                return
        self._ended = True  # every card is played: won

    def _start_turn(self) -> None:
        # The game ends as soon as the seat to move cannot reach its minimum.
        if not can_play_run(self.hands[self.turn], self.tops.copy(), self.minimum):
            self._ended = True

    # -- fast play --------------------------------------------------------------------------
    def _playout(self, policies: list[str], rng: random.Random) -> None:
        # The steps of _play, inlined a turn at a time: this loop is the simulation hot path.
        greedy = [p == "greedy" for p in policies]
        rand = rng.random
        log = self.actions
        tops, piles_played = self.tops, self.piles_played
        while not self._ended:
            seat = self.turn
            hand = self.hands[seat]
            minimum = self.minimum  # the draw pile changes only between turns
            played = self.played
            while True:
                if greedy[seat]:
                    choice = greedy_play(hand, tops, played, minimum)
                else:
                    plays: list[tuple[int, int] | None] = [
                        (c, p) for c in hand for p in range(4) if fits(c, p, tops[p])
                    ]
                    if played >= minimum:
                        plays.append(None)
                    choice = plays[int(rand() * len(plays))] if plays else None
                if choice is None:
                    self.played = played
                    if played < minimum:
                        self._ended = True  # stuck before the minimum
                    else:
                        log.append((seat, _END))
                        self._end_turn()
                    break
                card, p = choice
                log.append((seat, _PLAY_TEXT[choice]))
                hand.remove(card)
                tops[p] = card
                piles_played[p].append(card)
                played += 1
                if not hand or (played < minimum and not fitting_cards(hand, tops, 1)):
                    self.played = played
                    if hand:
                        self._ended = True  # stuck before the minimum
                    else:
                        self._end_turn()  # a hand played out ends its turn by itself
                    break

    # -- showing ----------------------------------------------------------------------------
    # A view is a fresh dict, but the parts that change seldom (the piles, the signals, the cards
    # played) are built once and shared by every view until they change: views are read-only
    # (docs/protocol.md, "Views"). Each is remembered with what it shows and checked against it.
    def _shown(self) -> _Shown:
        try:
            return self._parts
        except AttributeError:
            self._parts = _Shown()
            return self._parts

    def _shown_signals(self, parts: _Shown) -> list[dict[str, str]]:
        seen, signals = parts.signals_seen, self.signals
        if seen is None or len(seen) != len(signals):
            parts.signals = [dict(s) for s in signals]
            parts.signals_seen = [dict(s) for s in signals]
        elif seen != signals:
            # a new list, as views hold the old one; the seats whose signals are the same
            # keep their dicts (shown already: never changed), the others' are copied (one
            # copy both shown and remembered: neither is ever changed)
            shown = parts.signals.copy()
            for s, mine in enumerate(signals):
                if seen[s] != mine:
                    seen[s] = shown[s] = dict(mine)
            parts.signals = shown
        return parts.signals

    def _shown_played(self, parts: _Shown, sizes: list[int]) -> list[int]:
        """Every card played, sorted, for piles of ``sizes`` now (``view`` has found them
        changed): a card more is put in place, not sorted again (the piles only grow)."""
        piles = self.piles_played
        if parts.played_of is piles:
            old = parts.played_sizes
            for p in range(len(old)):
                if sizes[p] == old[p] + 1:  # the one pile that grew, by its top card?
                    old[p] += 1
                    if old == sizes:
                        played = parts.played.copy()
                        insort(played, piles[p][-1])
                        parts.played, parts.played_sizes = played, sizes
                        return played
                    break
        parts.played = sorted([c for p in piles for c in p])
        parts.played_of, parts.played_sizes = piles, sizes
        return parts.played

    def view(self, seat: int | None) -> dict[str, Any]:
        over, hands, draw, options = self._ended, self.hands, self.draw, self.options
        turn = self.turn
        try:
            parts = self._parts
        except AttributeError:
            parts = self._shown()
        sizes = list(map(len, hands))
        tops = self.tops
        if tops != parts.tops:  # (a signal, an end of turn: the same piles, shared)
            u1, u2, d1, d2 = parts.tops = tops.copy()
            parts.piles = {"up1": u1, "up2": u2, "down1": d1, "down2": d2}
        piles = self.piles_played
        p1, p2, p3, p4 = piles  # (a list of four sizes is built fastest written out)
        played_sizes = [len(p1), len(p2), len(p3), len(p4)]
        empty = options["min_after_empty"]
        view = {
            "game": "the-game",
            "seat": seat,
            "players": self.players,
            "to_act": [] if over else [turn],
            "piles": parts.piles,
            "hand": hands[seat].copy() if seat is not None and 0 <= seat < self.players else None,
            "hand_sizes": sizes,
            "draw_pile": len(draw),
            "turn": None if over else turn,
            "played_this_turn": self.played,
            "minimum": turn_minimum(options, draw),
            "minimum_empty": empty,
            "signals": (
                parts.signals if parts.signals_seen == self.signals else self._shown_signals(parts)
            ),
            "cards_left": len(draw) + sum(sizes),
            "played": (
                parts.played
                if parts.played_of is piles and parts.played_sizes == played_sizes
                else self._shown_played(parts, played_sizes)
            ),
            "over": over,
        }
        if over:
            view["result"] = self.result()
        return view

    def result(self) -> TheGameResult:
        left = self.cards_left()
        won = self._ended and left == 0
        return {
            "over": self._ended,
            "scores": [left] * self.players,
            "won": won,
            "winners": list(range(self.players)) if won else [],
            "ranks": [1] * self.players,
            "stuck_seat": self.turn if self._ended and left else None,
            "short_by": max(self.minimum - self.played, 0) if self._ended and left else 0,
            "cards_left": left,
            "good": self._ended and left <= 10,
        }

    def cards(self) -> Counter[Any]:
        return Counter(
            [
                *(c for h in self.hands for c in h),
                *self.draw,
                *(c for p in self.piles_played for c in p),
            ]
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": "the-game",
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "hands": [list(h) for h in self.hands],
            "draw": list(self.draw),  # top last
            "piles": {p: list(cards) for p, cards in zip(PILES, self.piles_played, strict=True)},
            "tops": list(self.tops),
            "turn": self.turn,
            "played": self.played,
            "signals": [dict(s) for s in self.signals],
            "over": self._ended,
            "actions": [list(a) for a in self.actions],
        }

    def redraw_hidden(self, seat: int | None, rng: random.Random) -> TheGameState:
        other = self.clone()
        # other seats' hands and the draw pile, redealt with the same sizes
        hidden = [s for s in range(other.players) if s != seat]
        # sorted first: the redraw depends on what the seat sees, never on where the hidden
        # cards truly lie (a game review's marks must not change with them)
        pool = sorted([c for s in hidden for c in other.hands[s]] + other.draw)
        reorder(pool, rng)
        for s in hidden:
            k = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:k]), pool[k:]
        other.draw = pool
        return other

    def clone(self) -> TheGameState:
        other = TheGameState.__new__(TheGameState)
        self._clone_base(other)
        other.hand_size = self.hand_size
        other.hands = [h.copy() for h in self.hands]
        other.draw = self.draw.copy()
        other.tops = self.tops.copy()
        other.piles_played = [p.copy() for p in self.piles_played]
        other.turn = self.turn
        other.played = self.played
        other.signals = [dict(s) for s in self.signals]
        other._ended = self._ended
        return other


GAME = TheGame()
TheGameState.game = GAME


@functools.lru_cache(maxsize=4096)
def _play_label(action: str, top: int) -> str:
    """A play's move button: the same words for the same card on the same top, built once
    (every state message labels each legal play; the ``Text`` is read-only)."""
    _play, card, pile = action.split(" ")
    gap = int(card) - top if pile.startswith("up") else top - int(card)
    if gap == -10:
        # TRANSLATORS: a move button: the action (notation), the pile's top card
        return _("{action} · on {top} (10 back)", action=action, top=top)
    # TRANSLATORS: a move button: the action (notation), the pile's top, the jump
    return _("{action} · on {top} (+{gap})", action=action, top=top, gap=gap)
