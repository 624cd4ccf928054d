"""Slide: 2-6 players, a face-down 4x4 grid each, reveal together, draft and slide, lowest wins.

Rules: RULES.md section 1, in the project's words in ``docs/rules/slide.md``.

Representation (internal): a grid is a list of 16 ints, row-major (index = row * 4 + col):
a face-up card is its value (1..10), a face-down card is minus its value, the hole is 0.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardtable.core.errors import IllegalAction, MalformedAction, NotYourTurn
from cardtable.core.protocol import (
    Breakdown,
    Game,
    Option,
    Result,
    State,
    View,
    ViewBase,
    listing,
    winners_line,
)
from cardtable.core.rng import deal_key, reorder, shuffled
from cardtable.core.words import Text, translatable

_, _n = translatable("slide")

SIZE = 4
CELLS = SIZE * SIZE
ROUNDS = CELLS
DECK = tuple(v for v in range(1, 11) for _ in range(10))
DIRECTIONS = ("left", "right", "top", "bottom")
COLUMNS = "abcd"
CELL_NAMES = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
NEIGHBOURS = tuple(
    tuple(
        (r + dr) * SIZE + (c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)


def _hole_refusal(edge: str, cell: str) -> Text:
    """The refusal of a push straight into the hole at ``cell`` on ``edge``."""
    if edge == "left":
        return _(
            "your hole is {cell}, on the left column: a card may not go straight "
            "into the hole, so push from another side",
            cell=cell,
        )
    if edge == "right":
        return _(
            "your hole is {cell}, on the right column: a card may not go straight "
            "into the hole, so push from another side",
            cell=cell,
        )
    if edge == "top":
        return _(
            "your hole is {cell}, on the top row: a card may not go straight "
            "into the hole, so push from another side",
            cell=cell,
        )
    return _(
        "your hole is {cell}, on the bottom row: a card may not go straight "
        "into the hole, so push from another side",
        cell=cell,
    )


def _slide_path(hole: int, direction: str) -> tuple[int, ...] | None:
    """Cells from the hole back to the entry edge, or None when the push is illegal.

    Pushing moves each cell one step toward the hole: path[k] takes what was in path[k+1],
    and the new card enters at path[-1].
    """
    r, c = divmod(hole, SIZE)
    if direction == "left":
        return tuple(r * SIZE + k for k in range(c, -1, -1)) if c > 0 else None
    if direction == "right":
        return tuple(r * SIZE + k for k in range(c, SIZE)) if c < SIZE - 1 else None
    if direction == "top":
        return tuple(k * SIZE + c for k in range(r, -1, -1)) if r > 0 else None
    return tuple(k * SIZE + c for k in range(r, SIZE)) if r < SIZE - 1 else None


#: PUSHES[hole] = ((direction, path), ...) in DIRECTIONS order, legal pushes only
PUSHES: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] = tuple(
    tuple((d, p) for d in DIRECTIONS if (p := _slide_path(h, d)) is not None) for h in range(CELLS)
)
_PATH = {(h, d): p for h in range(CELLS) for d, p in PUSHES[h]}


def _as_slices(path: tuple[int, ...]) -> tuple[slice, slice, int]:
    """A push as one slice assignment: grid[dst] = grid[src], then the card at ``entry``."""
    step = path[1] - path[0]
    dst = path[:-1]
    return (
        slice(min(dst), max(dst) + 1, abs(step)),
        slice(min(path[1:]), max(path[1:]) + 1, abs(step)),
        path[-1],
    )


#: SLICES[hole] = ((direction, dst, src, entry), ...): PUSHES as slice assignments
SLICES = tuple(tuple((d, *_as_slices(p)) for d, p in PUSHES[h]) for h in range(CELLS))
_SLICE = {(h, d): _as_slices(p) for h in range(CELLS) for d, p in PUSHES[h]}
_TAKE_TEXT = {(v, d): f"take {v} {d}" for v in range(1, 11) for d in DIRECTIONS}
_REVEAL_TEXT = tuple(f"reveal {name}" for name in CELL_NAMES)
_VALUES = {str(v): v for v in range(1, 11)}
# how a cell shows (indexed by the cell's int; a negative index counts from the end):
# the hole None, face up its value, face down "?" (or its value once the game is over)
_SHOW = tuple([None, *range(1, 11), *(["?"] * 10)])
_SHOW_ALL = tuple([None, *range(1, 11), *range(10, 0, -1)])
#: a hole's name by its cell, -1 (no hole) naming None
_HOLE_NAME = (*CELL_NAMES, None)
#: _TAKES[hole][value]: the take texts of ``value`` at a grid with that hole, in legal()'s order
_TAKES = tuple(
    ((), *(tuple(_TAKE_TEXT[(v, d)] for d, _cells in PUSHES[h]) for v in range(1, 11)))
    for h in range(CELLS)
)
#: every well-formed action's text, parsed: what ``_apply`` looks up before it splits words
_REVEAL_OF = {text: i for i, text in enumerate(_REVEAL_TEXT)}
_TAKE_OF = {text: vd for vd, text in _TAKE_TEXT.items()}


def _rows(g: list[int], show: tuple[Any, ...]) -> list[list[Any]]:
    """A grid's four rows as a view shows its cells (``show``), written out: twice as fast as
    a comprehension and four slices."""
    return [
        [show[g[0]], show[g[1]], show[g[2]], show[g[3]]],
        [show[g[4]], show[g[5]], show[g[6]], show[g[7]]],
        [show[g[8]], show[g[9]], show[g[10]], show[g[11]]],
        [show[g[12]], show[g[13]], show[g[14]], show[g[15]]],
    ]


# -- rules helpers: pure functions on a plain list of 16 cells, shared with bots ---------------
def push(grid: list, hole: int, direction: str, card: Any) -> None:
    """Slide ``card`` into ``grid`` (16 cells) from ``direction`` toward ``hole``, in place."""
    dst, src, entry = _SLICE[(hole, direction)]
    grid[dst] = grid[src]
    grid[entry] = card


#: every orthogonally adjacent pair of cells once
ADJACENT_PAIRS = tuple((i, j) for i in range(CELLS) for j in NEIGHBOURS[i] if i < j)


def removed_cells(values: list[int]) -> list[int]:
    """Indexes of the cards that cancel: those with an orthogonal neighbour of equal value."""
    gone = [False] * CELLS
    for i, j in ADJACENT_PAIRS:
        if values[i] == values[j]:
            gone[i] = gone[j] = True
    return [i for i in range(CELLS) if gone[i]]


def unpaired_sum(grid: list) -> int:
    """Sum of the face-up cards (ints > 0) with no equal face-up orthogonal neighbour.

    The greedy bots' measure of a grid: face-down cards and the hole count nothing.
    """
    total = 0
    for i in range(CELLS):
        v = grid[i]
        if type(v) is int and v > 0:
            for j in NEIGHBOURS[i]:
                if grid[j] == v:
                    break
            else:
                total += v
    return total


def greedy_reveal(face_down: list[int]) -> int:
    """The greedy reveal: the face-down cell that leaves the most pushes, first in order."""
    return max(face_down, key=lambda i: (len(PUSHES[i]), -i))


def greedy_take(grid: list, hole: int, centre_values: list[int]) -> tuple[int, str]:
    """The greedy take: the (value, direction) leaving the lowest unpaired sum, first in order."""
    best = None
    for v in sorted(set(centre_values)):
        for d, _cells in PUSHES[hole]:
            trial = grid.copy()
            push(trial, hole, d, v)
            score = unpaired_sum(trial)
            if best is None or score < best[0]:
                best = (score, v, d)
    assert best is not None
    return best[1], best[2]


#: the highest ``target``: a few dozen deals. Without a bound a table of bots could play for
#: ever (a target of 10**18) and hold the server's bot workers (docs/rules/slide.md, Options)
MAX_TARGET = 1000


class SlideResult(Result):
    #: cards left in each seat's grid (summed over the deals): the tie-break, fewer is better
    remaining: list[int]
    #: each deal's scoring: per seat the cells that cancelled, the score and the cards left
    deals: list[dict[str, Any]]


class SlideView(ViewBase):
    #: the deal being played (1 unless the option ``target`` plays several)
    deal: int
    #: 1 to 16
    round: int
    #: the seat holding the first-player token (None once over)
    first: int | None
    #: "reveal" (every seat at once), "take" (in turn) or "over"
    phase: str
    #: the seat to take a centre card (the take phase only)
    turn: int | None
    #: per seat, 4 rows of 4 cells: a face-up value, "?" face down, None the hole
    grids: list[list[list[int | str | None]]]
    #: per seat, the hole's cell ("b3") or None
    holes: list[str | None]
    #: the revealed cards waiting to be taken, sorted
    centre: list[int]
    #: per seat, the card it revealed this round, once every seat has chosen (the take
    #: phase); None while the reveal is secret
    revealed: list[int | None]
    #: per seat, whether it has chosen its reveal this round
    chosen: list[bool]
    #: the viewer's own chosen cell during the reveal (secret from the others)
    choice: str | None
    #: per seat, the score summed over the deals played
    totals: list[int]
    #: each deal's scoring so far
    deal_results: list[dict[str, Any]]
    #: the option ``target`` (None: one deal)
    target: int | None


def _semicolons(parts: list[Any]) -> Any:
    """Parts of one line joined by semicolons ("a; b; c"), a message per mark."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        # TRANSLATORS: two parts of a scoring line, joined by a semicolon
        out = _("{first}; {rest}", first=part, rest=out)
    return out


class SlideGame(Game):
    name = "slide"
    title = "Slide"
    view_type = SlideView
    result_type = SlideResult
    min_players = 2
    max_players = 6
    review_bot = "search"
    better = "low"
    #: the words name the cells and cards the action carries (``describe_action``)
    words_need_view = False
    options = (
        Option(
            "start",
            0,
            _("the seat that holds the first-player token at the start"),
            low=0,
            high=5,
            label=_("First player"),
            seat=True,
        ),
        Option(
            "target",
            None,
            _(
                "play deals, adding up scores, until a player's total reaches "
                "this (100 is usual); off: one deal"
            ),
            nullable=True,
            low=1,
            high=MAX_TARGET,
            label=_("Target total"),
        ),
    )

    def _deal(self, seed: int, players: int, options: dict[str, Any]) -> SlideState:
        return SlideState(seed, players, options)

    def public_action(self, action: str) -> str | None:
        # a reveal is secret until every seat has chosen (then the centre shows the cards)
        return None if action.startswith("reveal ") else action

    def describe_resolved(self, action: str, seat: int, who: str, view: View) -> str | None:
        # the card is in the centre now: the view after the reveal says whose it was
        words = action.split(" ")
        revealed = view.get("revealed") or []
        if (
            words[0] != "reveal"
            or len(words) != 2
            or seat >= len(revealed)
            or revealed[seat] is None
        ):
            return None
        card, cell = revealed[seat], words[1]
        if card == 8:
            # TRANSLATORS: "an" is English's article before "8": translate as the other one
            return _("{who} revealed an {card} from {cell}", who=who, card=card, cell=cell)
        return _("{who} revealed a {card} from {cell}", who=who, card=card, cell=cell)

    def replaces(self, earlier: str, later: str) -> bool:
        # another reveal before every seat has chosen is a change of mind
        return earlier.startswith("reveal ") and later.startswith("reveal ")

    def news_after(self, action: str, to_act: tuple[int, ...]) -> bool:
        # the last take of a round: a new reveal (every seat) or the end; a deal may be scored
        return action.startswith("take ") and len(to_act) != 1

    def describe_news(self, view: View, names: list[str]) -> list[str]:
        over = view["phase"] == "over"
        scored = over or (view["phase"] == "reveal" and view["round"] == 1)
        if not scored or not view["deal_results"]:
            return []
        deal = view["deal_results"][-1]
        several = len(view["deal_results"]) > 1 or view.get("target") is not None
        parts: list[Any] = [
            # TRANSLATORS: a seat's scoring of a deal (English says "cards" for 1 too)
            _n(
                "{name} cancelled {n} cards, {left} left sum to {score}",
                "{name} cancelled {n} cards, {left} left sum to {score}",
                len(seat["removed"]),
                name=names[s],
                left=seat["remaining"],
                score=seat["score"],
            )
            for s, seat in enumerate(deal["seats"])
        ]
        if several:
            totals = [
                _("{name} {total}", name=names[s], total=t) for s, t in enumerate(view["totals"])
            ]
            parts.append(_("totals {totals}", totals=listing(totals)))
        scores = _semicolons(parts)
        if several:
            return [_("Deal {deal} scoring: {scores}", deal=deal["deal"], scores=scores)]
        return [_("Scoring: {scores}", scores=scores)]

    def breakdown(self, view: View) -> Breakdown | None:
        result = view.get("result")
        if not result or not result.get("over"):
            return None
        deals = result["deals"]
        cancelled = [
            sum(len(d["seats"][s]["removed"]) for d in deals) for s in range(len(result["scores"]))
        ]
        several = len(deals) > 1 or view.get("target") is not None
        return {
            "columns": [_("total") if several else _("sum"), _("cards left"), _("cancelled")],
            "seats": [
                [result["scores"][s], result["remaining"][s], cancelled[s]]
                for s in range(len(cancelled))
            ],
            "table": [[_("deals"), len(deals)]] if several else [],
        }

    def result_notes(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over"):
            return []
        if len(result["deals"]) > 1:
            return [
                _(
                    "Cards that touch a card of the same number are cancelled; the lowest "
                    "total of the cards left wins, a tie goes to fewer cards left."
                )
            ]
        return [
            _(
                "Cards that touch a card of the same number are cancelled; the lowest "
                "sum of the cards left wins, a tie goes to fewer cards left."
            )
        ]

    def describe_action(
        self, action: str, who: str, view: View | None = None, public: bool = False
    ) -> str:
        words = action.split(" ")
        if words[0] == "reveal" and len(words) == 2:
            if public:
                return _("{who} chose a card to reveal", who=who)
            return _("{who} chose {cell} to reveal", who=who, cell=words[1])
        if words[0] == "take" and len(words) == 3 and words[2] in DIRECTIONS:
            card = int(words[1]) if words[1].isdigit() else words[1]
            if words[2] == "left":
                return _("{who} took the {card} and pushed it in from the left", who=who, card=card)
            if words[2] == "right":
                return _(
                    "{who} took the {card} and pushed it in from the right", who=who, card=card
                )
            if words[2] == "top":
                return _("{who} took the {card} and pushed it in from the top", who=who, card=card)
            return _("{who} took the {card} and pushed it in from the bottom", who=who, card=card)
        return super().describe_action(action, who, view, public)

    def verdict(self, result: Mapping[str, Any], seat: int) -> str:
        said = super().verdict(result, seat)
        score, rank = result["scores"][seat], result["ranks"][seat]
        # the tie-break decided when another seat had the same score but another place
        tied = [
            s for s, v in enumerate(result["scores"]) if v == score and result["ranks"][s] != rank
        ]
        if said and tied:
            mine, theirs = result["remaining"][seat], result["remaining"][tied[0]]
            return _(
                "{verdict} Tied on {score} points; the tie-break is fewer cards left:"
                " you had {mine}, against {theirs}.",
                verdict=said,
                score=score,
                mine=mine,
                theirs=theirs,
            )
        return said

    def result_lines(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        if not result.get("over"):
            return []
        lines = [winners_line([names[s] for s in result["winners"]]) or ""]
        several = len(result["deals"]) > 1
        for s in sorted(range(len(names)), key=lambda s: result["ranks"][s]):
            rank, score, left = result["ranks"][s], result["scores"][s], result["remaining"][s]
            if several:
                # TRANSLATORS: a seat's place at the end (English says "cards" for 1 too)
                line = _n(
                    "#{rank} {name}: total {score} ({n} cards)",
                    "#{rank} {name}: total {score} ({n} cards)",
                    left,
                    rank=rank,
                    name=names[s],
                    score=score,
                )
            else:
                # TRANSLATORS: a seat's place at the end (English says "cards" for 1 too)
                line = _n(
                    "#{rank} {name}: {score} ({n} cards)",
                    "#{rank} {name}: {score} ({n} cards)",
                    left,
                    rank=rank,
                    name=names[s],
                    score=score,
                )
            lines.append(line)
        return lines


class _Shown:
    """The parts of a state's views that are shared between them (``SlideState._shown``)."""

    __slots__ = (
        "seen",
        "rows",
        "over",
        "grids",
        "deals_of",
        "deals_len",
        "deals",
        "pending_of",
        "chosen",
        "waiting",
        "holes_of",
        "holes",
    )

    def __init__(self) -> None:
        #: per seat, a copy of the grid its rows show (None: none built yet)
        self.seen: list[list[int] | None] = []
        self.rows: list[list[list[Any]]] = []
        self.over: bool | None = None
        self.grids: list[list[list[Any]]] = []
        #: the ``deal_results`` list (and its length) that ``deals`` shows
        self.deals_of: list[dict[str, Any]] | None = None
        self.deals_len = 0
        self.deals: list[dict[str, Any]] = []
        #: a copy of the seats' pending reveals that ``chosen`` and ``waiting`` (the seats
        #: still to reveal) show, and of the holes that ``holes`` names
        self.pending_of: list[int] | None = None
        self.chosen: list[bool] = []
        self.waiting: list[int] = []
        self.holes_of: list[int] | None = None
        self.holes: list[str | None] = []


class SlideState(State):
    game: ClassVar[SlideGame]  # narrower: this game's states
    playout_policies: ClassVar[tuple[str, ...]] = ("random", "greedy")
    # the views' shared parts, in a slot: no field of the state (``FIELDS``, ``clone``)
    __slots__ = ("_parts",)
    _parts: _Shown

    def __init__(self, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(seed, players, options)
        self.totals = [0] * players
        self.total_counts = [0] * players
        self.deal_results: list[dict[str, Any]] = []  # entries are never mutated
        self.deal_no = 0
        self.first = options["start"]
        self._ended = False
        self._new_deal()

    def _new_deal(self) -> None:
        n = self.players
        self.deal_no += 1
        dealt = shuffled(DECK, deal_key("slide", self.seed, self.deal_no))
        self.grids = [[-v for v in dealt[s * CELLS : (s + 1) * CELLS]] for s in range(n)]
        self.boxed = tuple(dealt[n * CELLS :])  # out of play for this deal, never seen
        self.holes = [-1] * n
        self.round = 1
        self.phase = "reveal"
        self.pending = [-1] * n
        self.centre: list[int] = []
        self.revealed: tuple[int, ...] = ()  # per seat, this round's card once all chose
        self.taken = 0  # seats that have taken this round

    #: every field of a state beyond the base class's, with how a copy takes it: the one list
    #: ``clone`` and ``sample_state`` build a state from (lists are copied, the rest shared)
    FIELDS = (
        "totals",
        "total_counts",
        "deal_results",
        "deal_no",
        "first",
        "_ended",
        "grids",
        "boxed",
        "holes",
        "round",
        "phase",
        "pending",
        "centre",
        "revealed",
        "taken",
    )

    @classmethod
    def assemble(
        cls,
        seed: int,
        players: int,
        options: dict[str, Any],
        actions: list[tuple[int, str]],
        **fields: Any,
    ) -> SlideState:
        """A state from its parts (every name of ``FIELDS``), without dealing."""
        if set(fields) != set(cls.FIELDS):
            raise TypeError(f"a Slide state needs exactly {', '.join(cls.FIELDS)}")
        state = cls.__new__(cls)
        state.seed, state.players, state.options, state.actions = seed, players, options, actions
        state.__dict__.update(fields)
        return state

    # -- asking -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._ended

    def to_act(self) -> tuple[int, ...]:
        if self._ended:
            return ()
        if self.phase == "reveal":
            return tuple([s for s in range(self.players) if self.pending[s] < 0])
        return (self._taker(),)

    def legal(self, seat: int) -> list[str]:
        if self._ended or not 0 <= seat < self.players:
            return []
        if self.phase == "reveal":
            grid, mine = self.grids[seat], self.pending[seat]
            return [_REVEAL_TEXT[i] for i in range(CELLS) if grid[i] < 0 and i != mine]
        if seat != self._taker():
            return []
        takes = _TAKES[self.holes[seat]]
        out: list[str] = []
        for v in sorted(set(self.centre)):
            out += takes[v]
        return out

    def turn(self) -> int | None:
        """The seat to take a centre card, during the take phase."""
        if self._ended or self.phase != "take":
            return None
        return self._taker()

    # -- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        # A reveal or a take that the rules allow, by an ordinary seat, in one piece (the
        # plain path's every action); anything else goes the base class's way, to be refused
        # with its reason.
        if type(action) is not str or type(seat) is not int or self._ended:
            return super().act(seat, action)
        cell = _REVEAL_OF.get(action)
        if cell is not None:
            if not (0 <= seat < self.players and self.phase == "reveal"):
                return super().act(seat, action)
            if self.pending[seat] == cell or self.grids[seat][cell] >= 0:
                return super().act(seat, action)
            self._reveal(seat, cell)
        else:
            take = _TAKE_OF.get(action)
            if take is None or self.phase != "take" or seat != self._taker():
                return super().act(seat, action)
            value, direction = take
            if value not in self.centre or (self.holes[seat], direction) not in _PATH:
                return super().act(seat, action)
            self._take(seat, value, direction)
        self.actions.append((seat, action))
        return None

    def _taker(self) -> int:
        """The seat to take a centre card now, during the take phase."""
        return (self.first + self.taken) % self.players

    def _apply(self, seat: int, action: str) -> None:
        # a well-formed text is one dict look-up; the rest are parsed word by word, to say why
        cell = _REVEAL_OF.get(action)
        if cell is not None:
            self._check_reveal(seat, cell)
            self._reveal(seat, cell)
            return
        take = _TAKE_OF.get(action)
        if take is not None:
            self._check_take(seat, *take)
            self._take(seat, *take)
            return
        words = action.split(" ")
        if len(words) == 2 and words[0] == "reveal":
            cell = CELL_INDEX.get(words[1])
            if cell is None:
                raise MalformedAction(
                    _(
                        "{cell} is not a cell: cells are a1 (top left) to d4 (bottom right)",
                        cell=repr(words[1]),
                    )
                )
            self._check_reveal(seat, cell)
            self._reveal(seat, cell)
        elif len(words) == 3 and words[0] == "take":
            value = _VALUES.get(words[1])  # exact ASCII "1".."10" only (not "07", "²", "١")
            if value is None:
                raise MalformedAction(
                    _("{card} is not a card: Slide's cards are 1 to 10", card=repr(words[1]))
                )
            if words[2] not in DIRECTIONS:
                raise MalformedAction(
                    _(
                        "{side} is not a side: push from left, right, top or bottom",
                        side=repr(words[2]),
                    )
                )
            self._check_take(seat, value, words[2])
            self._take(seat, value, words[2])
        else:
            raise MalformedAction(
                _(
                    "{action} is not a Slide action: 'reveal b3' or 'take 7 left'",
                    action=repr(action),
                )
            )

    def _check_reveal(self, seat: int, cell: int) -> None:
        if self.phase != "reveal":
            raise IllegalAction(
                _("the cards are revealed already: now each seat in turn takes a centre card")
            )
        if self.pending[seat] == cell:
            raise IllegalAction(_("{cell} is already your chosen card", cell=CELL_NAMES[cell]))
        if self.grids[seat][cell] == 0:
            raise IllegalAction(_("{cell} is the hole in your grid", cell=CELL_NAMES[cell]))
        if self.grids[seat][cell] > 0:
            raise IllegalAction(
                _("{cell} is face up: reveal a face-down card", cell=CELL_NAMES[cell])
            )

    def _check_take(self, seat: int, value: int, direction: str) -> None:
        if self.phase != "take":
            raise NotYourTurn(_("every seat must first choose a card to reveal"))
        turn = self._taker()
        if seat != turn:
            # seats counted from 1, as people count them
            raise NotYourTurn(_("it is seat {seat}'s turn to take a card", seat=turn + 1))
        if value not in self.centre:
            shown = listing(sorted(self.centre))
            raise IllegalAction(
                _("there is no {card} in the centre (it holds {cards})", card=value, cards=shown)
            )
        hole = self.holes[seat]
        if (hole, direction) not in _PATH:
            raise IllegalAction(_hole_refusal(direction, CELL_NAMES[hole]))

    def _reveal(self, seat: int, cell: int) -> None:
        self.pending[seat] = cell
        if -1 not in self.pending:
            self._resolve_reveals()

    def _resolve_reveals(self) -> None:
        centre = self.centre
        for s in range(self.players):
            cell = self.pending[s]
            grid = self.grids[s]
            centre.append(-grid[cell])
            grid[cell] = 0
            self.holes[s] = cell
            self.pending[s] = -1
        self.revealed = tuple(centre)  # (in seat order, before the sort)
        centre.sort()
        self.phase = "take"
        self.taken = 0

    def _take(self, seat: int, value: int, direction: str) -> None:
        self.centre.remove(value)
        push(self.grids[seat], self.holes[seat], direction, value)
        self.holes[seat] = -1
        self.taken += 1
        if self.taken == self.players:
            self._end_round()

    def _end_round(self) -> None:
        self.first = (self.first + 1) % self.players
        self.revealed = ()
        if self.round < ROUNDS:
            self.round += 1
            self.phase = "reveal"
            return
        self._score_deal()

    def _score_deal(self) -> None:
        seats = []
        for s, grid in enumerate(self.grids):
            removed = removed_cells(grid)
            gone = set(removed)
            left = [grid[i] for i in range(CELLS) if i not in gone]
            seats.append(
                {
                    "removed": [CELL_NAMES[i] for i in removed],
                    "score": sum(left),
                    "remaining": len(left),
                }
            )
            self.totals[s] += sum(left)
            self.total_counts[s] += len(left)
        self.deal_results.append({"deal": self.deal_no, "seats": seats})
        target = self.options["target"]
        if target is None or max(self.totals) >= target:
            self.phase = "over"
            self._ended = True
        else:
            self._new_deal()

    # -- fast play --------------------------------------------------------------------------
    def _playout(self, policies: list[str], rng: random.Random) -> None:
        # The same steps as _reveal/_take, inlined: this loop is the simulation hot path.
        greedy = [p == "greedy" for p in policies]
        rand = rng.random
        log = self.actions
        n = self.players
        while not self._ended:
            # read every round: a new deal (option target) brings new lists
            grids, pending, holes = self.grids, self.pending, self.holes
            if self.phase == "reveal":
                for s in range(n):
                    if pending[s] >= 0:
                        continue
                    grid = grids[s]
                    if greedy[s]:
                        cell = greedy_reveal([i for i in range(CELLS) if grid[i] < 0])
                    else:
                        cell = int(rand() * CELLS)
                        while grid[cell] >= 0:  # rejection: uniform over face-down cells
                            cell = int(rand() * CELLS)
                    log.append((s, _REVEAL_TEXT[cell]))
                    pending[s] = cell
                self._resolve_reveals()
                continue
            centre = self.centre
            first = self.first
            for k in range(self.taken, n):
                s = (first + k) % n
                hole = holes[s]
                grid = grids[s]
                if greedy[s]:
                    value, direction = greedy_take(grid, hole, centre)
                    push(grid, hole, direction, value)
                else:
                    values = sorted(set(centre))
                    value = values[int(rand() * len(values))]
                    pushes = SLICES[hole]
                    direction, dst, src, entry = pushes[int(rand() * len(pushes))]
                    grid[dst] = grid[src]
                    grid[entry] = value
                log.append((s, _TAKE_TEXT[(value, direction)]))
                centre.remove(value)
                holes[s] = -1
            self.taken = n
            self._end_round()

    # -- showing ----------------------------------------------------------------------------
    # A view is a fresh dict, but the parts that change seldom (each seat's rows, the deals'
    # scoring) are built once and shared by every view until they change: views are read-only
    # (docs/protocol.md, "Views"). The parts are remembered with the content they show and
    # checked against it, so a state changed by any means never shows a stale part.
    def _shown(self) -> _Shown:
        try:
            return self._parts
        except AttributeError:
            self._parts = _Shown()
            return self._parts

    def _shown_grids(self) -> list[list[list[Any]]]:
        """Every seat's rows as a view shows them, rebuilt only for a grid that changed."""
        parts, grids, over = self._shown(), self.grids, self._ended
        if parts.over is over and parts.seen == grids:
            return parts.grids
        if parts.over is not over or len(parts.seen) != len(grids):
            parts.seen, parts.rows, parts.over = [None] * len(grids), [[]] * len(grids), over
        show = _SHOW_ALL if over else _SHOW
        seen, rows = parts.seen, parts.rows
        for s, grid in enumerate(grids):
            if seen[s] != grid:
                rows[s] = _rows(grid, show)
                seen[s] = grid.copy()
        parts.grids = list(rows)  # a new list: views handed out keep the one they have
        return parts.grids

    def view(self, seat: int | None) -> dict[str, Any]:
        over, pending, holes, n = self._ended, self.pending, self.holes, self.players
        try:
            parts = self._parts
        except AttributeError:
            parts = self._shown()
        if parts.pending_of != pending:  # (unchanged through a take phase)
            chosen, waiting = parts.chosen, parts.waiting = [], []  # one loop for both
            for s, cell in enumerate(pending):
                chosen.append(cell >= 0)
                if cell < 0:
                    waiting.append(s)
            parts.pending_of = pending.copy()
        if parts.holes_of != holes:  # (unchanged through a reveal phase)
            parts.holes = [_HOLE_NAME[h] for h in holes]
            parts.holes_of = holes.copy()
        phase, turn = self.phase, None
        if over:
            to_act: list[int] = []
        elif phase == "reveal":
            to_act = parts.waiting
        else:
            turn = (self.first + self.taken) % n
            to_act = [turn]
        deals = self.deal_results
        revealed = self.revealed
        view: dict[str, Any] = {
            "game": "slide",
            "seat": seat,
            "players": n,
            "deal": self.deal_no,
            "round": self.round,
            "first": self.first if not over else None,
            "phase": phase,
            "to_act": to_act,
            "turn": turn,
            # the shared parts' checks written out where they hold (most views)
            "grids": (
                parts.grids
                if parts.over is over and parts.seen == self.grids
                else self._shown_grids()
            ),
            "holes": parts.holes,
            "centre": self.centre.copy(),
            "revealed": list(revealed) if revealed else [None] * n,
            "chosen": parts.chosen,
            "choice": (
                CELL_NAMES[pending[seat]]
                if seat is not None and 0 <= seat < n and pending[seat] >= 0
                else None
            ),
            "totals": self.totals.copy(),
            "deal_results": (
                parts.deals
                if parts.deals_of is deals and parts.deals_len == len(deals)
                else self._shown_deal_results()
            ),
            "target": self.options["target"],
        }
        if over:
            view["result"] = self.result()
        return view

    def _shown_deal_results(self) -> list[dict[str, Any]]:
        """The deals' scoring as views show it, shared until a deal is scored (entries of
        ``deal_results`` are never changed: a new deal appends one)."""
        parts = self._shown()
        if parts.deals_of is not self.deal_results or parts.deals_len != len(self.deal_results):
            parts.deals = self._deal_results()
            parts.deals_of, parts.deals_len = self.deal_results, len(self.deal_results)
        return parts.deals

    def _deal_results(self) -> list[dict[str, Any]]:
        """A deep copy: what leaves the state must not share lists with it."""
        return [
            {
                "deal": d["deal"],
                "seats": [{**seat, "removed": list(seat["removed"])} for seat in d["seats"]],
            }
            for d in self.deal_results
        ]

    def result(self) -> SlideResult:
        n = self.players
        key = [(self.totals[s], self.total_counts[s]) for s in range(n)]
        ranks = [1 + sum(1 for t in range(n) if key[t] < key[s]) for s in range(n)]
        return {
            "over": self._ended,
            "scores": list(self.totals),
            "remaining": list(self.total_counts),
            "ranks": ranks,
            "winners": [s for s in range(n) if ranks[s] == 1] if self._ended else [],
            "deals": self._deal_results(),
        }

    def snapshot(self) -> dict[str, Any]:
        # (``revealed`` is left out: the actions say it, and pinned snapshots stay as they were)
        return {
            "game": "slide",
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "deal": self.deal_no,
            "round": self.round,
            "first": self.first,
            "phase": self.phase,
            # cells: value face up, minus value face down, 0 the hole
            "grids": [list(g) for g in self.grids],
            "holes": list(self.holes),
            "pending": [CELL_NAMES[p] if p >= 0 else None for p in self.pending],
            "centre": list(self.centre),
            "taken": self.taken,
            "totals": list(self.totals),
            "total_counts": list(self.total_counts),
            "deal_results": self._deal_results(),
            "over": self._ended,
            "actions": [list(a) for a in self.actions],
        }

    def redraw_hidden(self, seat: int | None, rng: random.Random) -> SlideState:
        other = self.clone()
        # face-down values, wherever they lie, are unknown to everyone, their owners too
        # sorted first: the redraw depends on the view alone, not on where the cards truly lie
        values = sorted(v for g in self.grids for v in g if v < 0)
        reorder(values, rng)
        drawn = iter(values)  # back into the face-down cells, in the same reading order
        other.grids = [[v if v >= 0 else next(drawn) for v in g] for g in self.grids]
        # another seat's pending reveal is its own secret
        for s in range(other.players):
            if s != seat and other.pending[s] >= 0:
                down = [i for i, v in enumerate(other.grids[s]) if v < 0]
                other.pending[s] = rng.choice(down)
        return other

    def clone(self) -> SlideState:
        # field by field, not through ``assemble``: search clones millions of times and this is
        # twice as fast; tests/games/test_slide.py checks it copies exactly ``FIELDS``
        other = SlideState.__new__(SlideState)
        self._clone_base(other)
        other.totals = self.totals.copy()
        other.total_counts = self.total_counts.copy()
        other.deal_results = list(self.deal_results)  # entries are never mutated
        other.deal_no = self.deal_no
        other.first = self.first
        other._ended = self._ended
        other.grids = [g.copy() for g in self.grids]
        other.boxed = self.boxed
        other.holes = self.holes.copy()
        other.round = self.round
        other.phase = self.phase
        other.pending = self.pending.copy()
        other.centre = self.centre.copy()
        other.revealed = self.revealed  # a tuple, replaced whole
        other.taken = self.taken
        return other

    def cards(self) -> Counter[Any]:
        return Counter([*(abs(v) for g in self.grids for v in g if v), *self.centre, *self.boxed])


GAME = SlideGame()
SlideState.game = GAME


# -- search support: a concrete state consistent with one seat's view -------------------------
def sample_state(view: Mapping[str, Any], rng: random.Random) -> SlideState:
    """A full state that ``view`` could have come from, the unknowns drawn with ``rng``.

    Uses the view alone. Face-down values are drawn from the cards nobody has seen (the deck
    minus every face-up card in the grids and the centre; boxed cards are unseen too). Another
    seat that has chosen its reveal gets a random face-down cell as its choice (choices are
    secret); the viewer's own choice is kept. The seed and the action log are unknown: the
    state has seed 0 and no actions, so it plays on but does not replay.
    """
    n = view["players"]
    seat = view["seat"]
    over = view["phase"] == "over"
    counts = [10] * 11  # counts[v]: cards of value v not yet seen
    grids: list[list[int]] = []
    down_cells = 0
    for rows in view["grids"]:
        grid = []
        for row in rows:
            for cell in row:
                if cell is None:
                    grid.append(0)
                elif cell == "?":
                    grid.append(-1)  # a value is drawn below
                    down_cells += 1
                else:
                    grid.append(cell)
                    if not over:
                        counts[cell] -= 1
        grids.append(grid)
    for v in view["centre"]:
        counts[v] -= 1
    unseen = [v for v in range(1, 11) for _ in range(max(counts[v], 0))]
    drawn = rng.sample(unseen, down_cells) if down_cells else []
    k = 0
    for grid in grids:
        for i in range(CELLS):
            if grid[i] == -1:
                grid[i] = -drawn[k]
                k += 1
    pending = [-1] * n
    if view["phase"] == "reveal":
        for s in range(n):
            if not view["chosen"][s]:
                continue
            if s == seat and view["choice"] is not None:
                pending[s] = CELL_INDEX[view["choice"]]
            else:
                pending[s] = rng.choice([i for i in range(CELLS) if grids[s][i] < 0])
    first = view["first"] if view["first"] is not None else 0
    # deal 1 began with seat ``start``; the token moves one seat a round
    options = {
        "start": (first - view["round"] + 1) % n if view["deal"] == 1 else 0,
        "target": view["target"],
    }
    deal_results = [dict(d) for d in view["deal_results"]]
    rest = unseen.copy()
    for v in drawn:
        rest.remove(v)
    return SlideState.assemble(
        0,
        n,
        options,
        [],
        totals=list(view["totals"]),
        total_counts=[sum(d["seats"][s]["remaining"] for d in deal_results) for s in range(n)],
        deal_results=deal_results,
        deal_no=view["deal"],
        first=first,
        _ended=over,
        grids=grids,
        boxed=tuple(rest),
        holes=[CELL_INDEX[h] if h is not None else -1 for h in view["holes"]],
        round=view["round"],
        phase=view["phase"],
        pending=pending,
        centre=sorted(view["centre"]),
        revealed=tuple(view["revealed"]) if view["phase"] == "take" else (),
        taken=(view["turn"] - first) % n if view["turn"] is not None else 0,
    )
