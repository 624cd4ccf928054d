"""The protocol every game follows. This module is its specification; ``docs/protocol.md``
explains it with examples.

A *game* (``Game``) is a stateless description: name, player counts, options, and ``deal``.
A *state* (``State``) is one table in progress. Everything that happens is an *action*: a short
text in the game's notation (RULES.md), acted by a *seat* (0 .. players-1).

Turn structure, hidden information and chance all fit one shape:

- ``to_act()`` is the tuple of seats that must act now. One seat in turn-based play, several
  during a simultaneous step (Slide's reveal), ``()`` when the game is over. Some actions are
  legal for seats outside ``to_act()`` (a pile signal in The Game, a change of mind in Slide's
  reveal); ``legal(seat)`` tells.
- Hidden information: a state holds the whole truth; ``view(seat)`` is the only way it leaves,
  redacted for that seat (``None`` is a spectator). Bots, clients, logs and replays get views.
- Chance: the only chance event is the shuffle, and it is fixed by the seed at ``deal``. The
  record (seed + actions) therefore rebuilds every state exactly.

Rules modules do no I/O, read no clock and use no global random state.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, ClassVar

try:  # pydantic reads TypedDicts (for JSON Schemas) only from typing_extensions before 3.12
    from typing_extensions import TypedDict
except ImportError:  # the rules core needs no third-party package
    from typing import TypedDict

from cardtable.core.errors import (
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from cardtable.core.rng import check_seed
from cardtable.core.words import Arg, Text, translatable, wire

_, _n = translatable("cardtable")

Action = str
Record = dict[str, Any]
View = dict[str, Any]


class _ResultFields(TypedDict):
    #: whether the game has ended (before the end: the position so far)
    over: bool
    #: per seat, in the game's own measure (``Game.better`` says which way is best)
    scores: list[int]
    #: the seats that won (all of them in a won cooperative game; none before the end)
    winners: list[int]
    #: per seat, 1 for the best; equal places share a rank (every seat 1 in a cooperative game)
    ranks: list[int]


class Result(_ResultFields, total=False):
    """What ``State.result()`` answers for every game (``over``, ``scores``, ``winners``,
    ``ranks``); games add figures of their own (``Game.result_type``)."""

    #: a cooperative game or a solitaire: whether the table won
    won: bool


class _ViewFields(TypedDict):
    #: the game's name
    game: str
    #: whose view this is (None: a spectator's)
    seat: int | None
    players: int
    #: the seats that must act now (``State.to_act``)
    to_act: list[int]


class ViewBase(_ViewFields, total=False):
    """What every view holds; each game's view type (``Game.view_type``) adds its own fields.
    (Optional keys are declared in ``total=False`` classes: with postponed annotations,
    ``NotRequired`` is not seen before Python 3.12.)"""

    #: once the game is over: its result (the game's own ``result_type``)
    result: Result


class Breakdown(TypedDict):
    """A finished game's figures (``Game.breakdown``): the one table the results panel, the
    terminal's end screen and a replay's end show, each with its own names for the seats."""

    #: the headings of each seat's figures ("sum", "cards left")
    columns: list[str]
    #: per seat, in seat order, its figures under ``columns`` (empty: no figures per seat)
    seats: list[list[int | str]]
    #: the table's own figures, ``[heading, figure]`` each ("draw pile", 12)
    table: list[list[int | str]]


def ordinal(n: int) -> Text:
    """1st, 2nd, 3rd, 4th, 11th, 21st (each its own message: "1." in most languages)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        # TRANSLATORS: an ordinal number (a place: 1st, 21st); "{n}." in Czech and German
        return _("{n}st", n=n)
    if suffix == "nd":
        # TRANSLATORS: an ordinal number (a place: 2nd, 22nd)
        return _("{n}nd", n=n)
    if suffix == "rd":
        # TRANSLATORS: an ordinal number (a place: 3rd, 23rd)
        return _("{n}rd", n=n)
    # TRANSLATORS: an ordinal number (a place: 4th, 11th)
    return _("{n}th", n=n)


def listing(items: list[Arg]) -> Arg:
    """Names (or any words) as a list people read: "Ann, Bob, Cy" (a message per comma, so a
    language may put its own mark between them); an empty list is ""."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        # TRANSLATORS: two items of a list of names: "Ann, Bob"
        out = _("{first}, {rest}", first=item, rest=out)
    return out


def seat_name(seat: int) -> Text:
    """A seat as people count them: "Seat 1" for seat 0."""
    return _("Seat {n}", n=seat + 1)


def ranks_of(scores: list[int], better: str = "low") -> list[int]:
    """1 for the best score; equal scores share a rank (1, 1, 3)."""
    sign = 1 if better == "low" else -1
    return [1 + sum(1 for t in scores if sign * t < sign * s) for s in scores]


@dataclass(frozen=True)
class Option:
    """One documented option of a game: its name, default, allowed values and meaning."""

    name: str
    default: Any
    doc: str
    kind: type = int
    #: for ints: inclusive bounds (None = open); for any kind: an explicit list of choices
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] | None = None
    #: None is allowed as "off"
    nullable: bool = False
    #: a rule between this option and the player count, checked after the plain checks
    check: Callable[[Any, int], str | None] | None = field(default=None, compare=False)
    #: what people read in a form ("First player"); empty: the name in words
    label: str = ""
    #: the value is a seat: 0-based here and in records, but people count seats from 1, so
    #: its messages do (and a form offers "Seat 1" to "Seat N" for N players)
    seat: bool = False

    @property
    def title(self) -> str:
        """The label people read: ``label``, else the name in words (``Min after empty``)."""
        return self.label or self.name.replace("_", " ").capitalize()

    def validate(self, value: Any, players: int) -> Any:
        if value is None and self.nullable:
            return None
        wrong_type = not isinstance(value, self.kind) or (
            self.kind is int and isinstance(value, bool)
        )
        if wrong_type:
            said = dict(option=repr(self.name), kind=self.kind.__name__, value=repr(value))
            if self.nullable:
                raise BadOptions(_("option {option} must be {kind} or null, not {value}", **said))
            raise BadOptions(_("option {option} must be {kind}, not {value}", **said))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            raise BadOptions(
                _(
                    "option {option} must be one of {allowed}, not {value}",
                    option=repr(self.name),
                    allowed=allowed,
                    value=repr(value),
                )
            )
        if self.seat and not 0 <= value < players:
            raise BadOptions(
                _(
                    "option {option} ({title}): there is no seat {seat} among {players} players "
                    "(seats 1 to {players}, sent as 0 to {last})",
                    option=repr(self.name),
                    title=self.title.lower(),
                    seat=value + 1,
                    players=players,
                    last=players - 1,
                )
            )
        if self.low is not None and value < self.low:
            raise BadOptions(
                _(
                    "option {option} must be at least {low}, not {value}",
                    option=repr(self.name),
                    low=self.low,
                    value=repr(value),
                )
            )
        if self.high is not None and value > self.high:
            raise BadOptions(
                _(
                    "option {option} must be at most {high}, not {value}",
                    option=repr(self.name),
                    high=self.high,
                    value=repr(value),
                )
            )
        if self.check is not None and (problem := self.check(value, players)):
            raise BadOptions(
                _("option {option}: {problem}", option=repr(self.name), problem=problem)
            )
        return value


#: the table tools a seated person may be offered, in the order pages show them: take back
#: and play again, a hint from the game's ``advisor``, "still winnable?" from its ``solver``
#: (peeking), the same deal again, a new deal
TOOLS = ("undo", "redo", "hint", "peek", "restart", "new_deal")
#: tools only a table played alone can have: taking back at a shared table would need every
#: seat's consent, a restart or a chosen deal would give the deal away, and the ``advisor``
#: behind a hint watches one person's views
ALONE_ONLY = frozenset({"undo", "redo", "hint", "restart", "new_deal"})


@dataclass(frozen=True)
class Tools:
    """The table tools a game offers a seated person, played alone and at a shared table:
    data a game declares (``Game.tools``), asked through ``Game.tools_for``. Spectators have
    none. A shared table has none by default, and only a peek if declared (it reads the other
    seats' cards: for a game whose players may all see them)."""

    alone: frozenset[str] = frozenset(TOOLS)
    shared: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = sorted((self.alone | self.shared) - set(TOOLS))
        if unknown:
            raise ValueError(f"no table tool {unknown[0]!r}: the tools are {', '.join(TOOLS)}")
        if self.shared & ALONE_ONLY:
            raise ValueError(
                f"{', '.join(sorted(self.shared & ALONE_ONLY))}: only for a table played alone"
            )


#: the entry-point groups of a game's companions, each registered under the game's name: a
#: position solver (the peek), a deal solver (``cardtable solve``), an encoding (``cardtable.rl``),
#: the words for why a move lost a winnable deal (a review's verdict), and a vector environment
#: (``cardtable.rl.make_vector_env``: N games stepped at once on arrays)
SOLVERS = "cardtable.solvers"
DEAL_SOLVERS = "cardtable.deal_solvers"
ENCODINGS = "cardtable.encodings"
LOSS_REASONS = "cardtable.loss_reasons"
VECTOR_ENVS = "cardtable.vector_envs"
COMPANIONS = (SOLVERS, DEAL_SOLVERS, ENCODINGS, LOSS_REASONS, VECTOR_ENVS)


@functools.cache
def companion(group: str, game: str) -> Any:
    """What the entry point ``game`` of ``group`` names, loaded (its module imported on first
    use); None when nothing is registered there."""
    found = entry_points(group=group, name=game)
    return next(iter(found)).load() if found else None


def winners_line(winners: list[Arg]) -> Text | None:
    """The headline of an ending with winners: "Winner: Ann", "Shared win: Ann, Bob"; None
    without any."""
    if not winners:
        return None
    if len(winners) > 1:
        return _("Shared win: {names}", names=listing(winners))
    return _("Winner: {name}", name=winners[0])


class Game(ABC):
    """A game's description and its ``deal``. Subclasses set the class attributes."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: bump when a rule change would make old records replay differently
    version: ClassVar[int] = 1
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: "low" when the lowest score is best (Slide, The Game), "high" otherwise (Doublets)
    better: ClassVar[str] = "low"
    #: True when all seats share one result (solitaire, cooperative games)
    cooperative: ClassVar[bool] = False
    #: the package whose ``locale/`` folder holds the catalog of this game's words (its
    #: domain is its ``name``: ``core/words.py``); None: cardtable's own folder
    catalogs: ClassVar[str | None] = None

    #: the TypedDicts that document this game's view and result (JSON Schema: ``schema.py``)
    view_type: ClassVar[type] = ViewBase
    result_type: ClassVar[type] = Result

    # -- capabilities: what adapters ask for instead of naming games ----------------------
    #: the bot a seat passes to when its own bot fails (any game's ``greedy`` works)
    fallback_bot: ClassVar[str] = "greedy"
    #: the bot that watches a person's game to give hints (a spec for ``make_bot`` whose bot
    #: has ``observe(view)`` and ``hint(view, legal) -> (action, reason)``), or None
    advisor: ClassVar[str | None] = None
    #: the bot that finds a seat's best move in a game review (``cardtable.review``): the
    #: strongest that decides from its view alone; None: the ``advisor``, else the fallback
    review_bot: ClassVar[str | None] = None
    #: how a review scores a position sampled from a seat's view: ``"playout"`` (the game's
    #: greedy playout for every seat: cheap, for games it plays well), ``"bots:SPEC"`` (every
    #: seat played by the bot ``SPEC``, ``make_bot``'s spec) or ``"solver"`` (the position
    #: ``solver`` on the sample: won or lost, for a solitaire whose solver answers in
    #: milliseconds)
    review_judge: ClassVar[str] = "playout"
    # A game's solvers and encoding live above the rules (they import them), so the game
    # cannot name them: they are registered by the game's name in entry-point groups
    # (``COMPANIONS``; pyproject.toml for the built-in games) and found through ``companion``.

    #: the table tools a seated person has, alone and at a shared table (``tools_for``): by
    #: default, alone, every tool (AisleRiot's comforts; an undo shows what it takes back, so
    #: it is peeking, accepted for a solitaire), and none at a shared table
    tools: ClassVar[Tools] = Tools()
    #: a game played alone shows its deal number (AisleRiot's "game number") so a player can
    #: deal it again; a shared table's deal stays secret until the game is over
    shows_deal_number: ClassVar[bool] = True
    #: results count toward the leaderboard's ratings (only games against each other can)
    rated: ClassVar[bool] = True
    #: the game has talk (``is_talk``): actions legal out of turn that change no turn
    has_talk: ClassVar[bool] = False
    #: a new table's free chat is on (False: only fixed phrases, where the rules limit talk)
    free_chat_default: ClassVar[bool] = True
    #: ``describe_action`` reads its ``view`` (to name a card the action does not carry);
    #: False lets a log skip building a view per action, which is most of its cost when views
    #: are dear (Slide's grids: a long game's log took seconds)
    words_need_view: ClassVar[bool] = True

    def deal_is_public(self, players: int, over: bool) -> bool:
        """Whether a table's deal number (its seed) may be shown to everyone now."""
        return over or (players == 1 and self.shows_deal_number)

    def is_rated(self, players: int) -> bool:
        """Whether a finished game of ``players`` changes ratings."""
        return self.rated and not self.cooperative and players >= 2

    def tools_for(self, players: int) -> tuple[str, ...]:
        """The table tools a seated person has at a table of ``players`` (``TOOLS`` order):
        the declared ones (``tools``) that the game can give (a ``hint`` needs an
        ``advisor``, a ``peek`` a ``solver``)."""
        known: dict[int, tuple[str, ...]] = self.__dict__.setdefault("_tools_for", {})
        if players not in known:  # (asked for every state message: the companions' look-ups)
            declared = self.tools.alone if players == 1 else self.tools.shared
            means = {"hint": self.advisor is not None, "peek": self.solver is not None}
            known[players] = tuple(t for t in TOOLS if t in declared and means.get(t, True))
        return known[players]

    @property
    def solver(self) -> Callable[[State, int | None], bool | None] | None:
        """A full-knowledge solver for "can this position still be won?" (peeking), called
        as ``(state, budget)`` and answering True, False or None (budget spent); registered
        in ``cardtable.solvers`` under the game's name. None: the game has none."""
        return companion(SOLVERS, self.name)

    @property
    def deal_solver(self) -> Callable[[int, int | None, int], Any] | None:
        """A full-knowledge solver of whole deals from their seed (peeking), for ``cardtable
        solve GAME``: called as ``(seed, budget, players)``, answering a ``Solution``
        (``status`` "won", "lost" or "unknown" when the node ``budget`` ran out, ``nodes``,
        ``seconds``, a winning ``line`` or a ``proof``); registered in
        ``cardtable.deal_solvers``. None: the game has none."""
        return companion(DEAL_SOLVERS, self.name)

    @property
    def loss_reason(self) -> Callable[[State, int, Action, Action | None], str | None] | None:
        """**Peeking**: why an action lost a deal that was winnable before it, in words
        (``Text``), for a review's verdict: called as ``(before, seat, played, alternative)``
        with the true position before the action and a move that would have kept the deal
        winnable (or None); None when it has nothing plainer to say than the move itself.
        Registered in ``cardtable.loss_reasons``. None: the game has none."""
        return companion(LOSS_REASONS, self.name)

    @property
    def encoding(self) -> type | None:
        """What learning agents need (``cardtable.rl``, the ``rl`` extra): a
        ``cardtable.rl.encoding.Encoding`` class built as ``(players, options)``, giving the
        fixed action space (index <-> notation) and a numeric observation of a view;
        registered in ``cardtable.encodings``. None: the game has no environment."""
        return companion(ENCODINGS, self.name)

    @property
    def vector_env(self) -> Callable[..., Any] | None:
        """A Gymnasium vector environment of many games stepped at once on arrays
        (``cardtable.rl.make_vector_env``, the ``rl`` extra): a ``gymnasium.vector.VectorEnv``
        class (or a function that picks one by the player count) built as ``(num_envs,
        players, options)``, playing the games of as many ``CardtableGym`` (one player) or of
        as many all-learner ``CardtableAEC`` stepped in order (several: self-play);
        registered in ``cardtable.vector_envs``. None: the game has none."""
        return companion(VECTOR_ENVS, self.name)

    def offers_undo(self, players: int) -> bool:
        """Whether a table of ``players`` offers undo (and redo)."""
        return "undo" in self.tools_for(players)

    # -- words for people: the log, the move buttons, the end of a game ------------------
    def describe_action(
        self, action: Action, who: str, view: View | None = None, public: bool = False
    ) -> str:
        """``action`` in words for a game log: "Ann took the 7 and pushed it in from the left".

        ``view`` is the describer's view *before* the action (it lets a game name a card the
        action text does not carry); with ``public`` only what every seat may learn
        (``public_action``). The default: the action as notation.
        """
        if public and self.public_action(action) is None:
            return _("{who} acted", who=who)
        # TRANSLATORS: an action in the game's notation ("take 7 left"), not words
        return _("{who}: {action}", who=who, action=action)

    def public_action(self, action: Action) -> Action | None:
        """The action as the other seats learn it when it happens; None while it stays secret
        (Slide's reveal, known to all once every seat has chosen)."""
        return action

    def move_label(self, view: View, action: Action) -> str:
        """A short label for a move button, with a hint from the seat's view
        (``play r3 · 8♥``). The default: the action itself."""
        return action

    def move_labels(self, view: View, actions: list[Action]) -> list[str]:
        """``move_label`` of each of ``actions`` (a state message labels every legal action
        of its seat: a game may label them all at once, faster, but never differently)."""
        return [self.move_label(view, a) for a in actions]

    def describe_resolved(self, action: Action, seat: int, who: str, view: View) -> str | None:
        """A secret action (``public_action`` None) in words once it resolved, for every
        viewer, its own seat too: ``view`` is the spectator's, right after the simultaneous
        choice ended (Slide: "Ann revealed a 7 from b2", the card now in the centre). None:
        ``describe_action`` of it without ``public``, from the spectator's view before it."""
        return None

    def replaces(self, earlier: Action, later: Action) -> bool:
        """Whether ``later`` takes the place of ``earlier``, the same seat's own action
        still secret in the same simultaneous step (Slide: a change of mind): a log keeps
        only the later one."""
        return False

    def news_after(self, action: Action, to_act: tuple[int, ...]) -> bool:
        """Whether ``action``, after which ``to_act`` must act, may bring news a log tells
        beyond the action (``describe_news``): a log builds the spectator's view after such
        an action only (views are dear). The default: none."""
        return False

    def describe_news(self, view: View, names: list[str]) -> list[str]:
        """News every seat may read, each a log entry of its own, from the spectator's
        ``view`` after an action that may bring it (``news_after``): Slide's scoring of a
        deal. ``names`` are the seats' names."""
        return []

    def breakdown(self, view: View) -> Breakdown | None:
        """A finished game's figures, per seat and for the table, from a view of it (the
        result and what the board shows); None before the end. The default: each seat's
        score."""
        result = view.get("result")
        if not result or not result.get("over"):
            return None
        return {
            "columns": [_("score")],
            "seats": [[s] for s in result["scores"]],
            "table": [],
        }

    def result_notes(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        """What the figures (``breakdown``) do not say: why the game ended, how it is
        scored; shown under them. The default: nothing."""
        return []

    def describe_hint(self, view: View, action: Action | None, note: str = "") -> str:
        """A hint in words for the person, from their ``view``: the ``action`` the advisor
        suggests, as a sentence saying what to do and why, with the advisor's own ``note``
        (None: no move is left). Pages and the terminal show it; the notation stays with the
        hint's ``action``. The default: the action and the note."""
        if action is None:
            return _("No move is left.")
        return _("{action}: {note}", action=action, note=note) if note else action

    def result_lines(self, result: Mapping[str, Any], names: list[str]) -> list[str]:
        """The end of a game in words, one line each, for text clients (a state message's
        ``ending.lines``). The first line is the headline, for everyone (who won, or how it
        went): pages show it above ``breakdown`` and ``result_notes``."""
        if not result.get("over"):
            return []
        ranks = result["ranks"]
        lines: list[str] = [winners_line([names[s] for s in result["winners"]]) or _("Nobody won.")]
        for s in sorted(range(len(names)), key=lambda s: ranks[s]):
            # TRANSLATORS: a seat's place, name and score at the end: "#1 Ann: 12"
            lines.append(
                _(
                    "#{rank} {name}: {score}",
                    rank=ranks[s],
                    name=names[s],
                    score=result["scores"][s],
                )
            )
        return lines

    def verdict(self, result: Mapping[str, Any], seat: int) -> str:
        """One seat's own verdict at the end, addressed to its player: "You came 2nd of 3",
        "You shared 1st place with 1 other", "The team won"; "" before the end."""
        if not result.get("over"):
            return ""
        if self.cooperative:
            alone, won = len(result["ranks"]) == 1, result.get("won")
            if alone:
                return _("You won!") if won else _("You did not win.")
            return _("The team won!") if won else _("The team did not win.")
        ranks, rank = result["ranks"], result["ranks"][seat]
        shared = ranks.count(rank) - 1
        if shared:
            return _n(
                "You shared {place} place with {n} other (of {players}).",
                "You shared {place} place with {n} others (of {players}).",
                shared,
                place=ordinal(rank),
                players=len(ranks),
            )
        return _("You came {place} of {players}.", place=ordinal(rank), players=len(ranks))

    def still_winnable(self, state: State, budget: int | None = None) -> bool | None:
        """**Peeking**: the game's ``solver`` on the true state (it reads hidden cards, so its
        answer is for a player who asked to peek at a solitaire). ``ValueError`` without one."""
        solver = self.solver
        if solver is None:
            raise ValueError(f"{self.title} has no solver")
        return solver(state, budget)

    def is_talk(self, action: str) -> bool:
        """Whether ``action`` is talk (The Game's pile signals): legal at any time, changing
        no turn. Bots that ``react`` are offered only talk."""
        return False

    def check_options(self, players: int | None, options: Mapping[str, Any]) -> tuple[int, dict]:
        """Validate the player count and options; return them complete, with defaults."""
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(
                _(
                    "the number of players must be a whole number, not {players}",
                    players=repr(players),
                )
            )
        if not self.min_players <= players <= self.max_players:
            low, high = self.min_players, self.max_players
            if low == high:
                raise BadOptions(
                    _(
                        "{game} is for exactly {n} players, not {players}",
                        game=self.title,
                        n=low,
                        players=players,
                    )
                )
            raise BadOptions(
                _(
                    "{game} is for {low} to {high} players, not {players}",
                    game=self.title,
                    low=low,
                    high=high,
                    players=players,
                )
            )
        if not options:  # the common case, kept cheap for simulations
            return players, self._defaults_checked(players)
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            if not known:
                raise BadOptions(
                    _(
                        "{game} has no option {option} (its options: none)",
                        game=self.title,
                        option=repr(unknown[0]),
                    )
                )
            raise BadOptions(
                _(
                    "{game} has no option {option} (its options: {options})",
                    game=self.title,
                    option=repr(unknown[0]),
                    options=", ".join(known),
                )
            )
        full = {}
        for name, opt in known.items():
            full[name] = opt.validate(options.get(name, opt.default), players)
        return players, full

    def _defaults_checked(self, players: int) -> dict[str, Any]:
        cache = self.__dict__.setdefault("_defaults_cache", {})
        if players not in cache:
            cache[players] = {o.name: o.validate(o.default, players) for o in self.options}
        return dict(cache[players])

    def deal(
        self, seed: int, players: int | None = None, options: Mapping[str, Any] | None = None
    ) -> State:
        """A new game from ``seed``: same seed, players and options, the same deal, always.

        ``options`` is one mapping (as it comes from a record, a request or a command line);
        each key is an option name to check (``BadOptions``), missing ones take their default.
        """
        seed = check_seed(seed)
        if options is None:
            options = {}
        elif not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise BadOptions(f"the options must be an object with text keys, not {options!r}")
        players, full = self.check_options(players, options)
        return self._deal(seed, players, full)

    @abstractmethod
    def _deal(self, seed: int, players: int, options: dict[str, Any]) -> State: ...

    def describe(self) -> dict[str, Any]:
        """Players and options as JSON-ready data, for menus and the command line."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "better": self.better,
            "cooperative": self.cooperative,
            "advisor": self.advisor is not None,
            "solver": self.solver is not None,
            "undo_alone": self.offers_undo(1),
            "tools": {"alone": list(self.tools_for(1)), "shared": list(self.tools_for(2))},
            "shows_deal_number": self.shows_deal_number,
            "rated": self.rated and not self.cooperative,
            "has_talk": self.has_talk,
            "free_chat_default": self.free_chat_default,
            "fallback_bot": self.fallback_bot,
            "options": [
                {
                    "name": o.name,
                    "label": o.title,
                    "default": o.default,
                    "doc": o.doc,
                    # the same words for the reader's language (``core.words.wire``)
                    "msg": {"label": wire(o.title), "doc": wire(o.doc)},
                    "seat": o.seat,
                    "choices": list(o.choices) if o.choices else None,
                }
                for o in self.options
            ],
        }

    def __repr__(self) -> str:
        return f"games.get({self.name!r})"


class State(ABC):
    """One game in progress. Mutable: ``act`` changes it; ``clone`` copies it."""

    game: ClassVar[Game]

    def __init__(self, seed: int, players: int, options: dict[str, Any]) -> None:
        self.seed = seed
        self.players = players
        self.options = options
        #: every accepted action, in order: the truth from which the state is rebuilt
        self.actions: list[tuple[int, Action]] = []

    # -- asking ---------------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now; several during a simultaneous step; ``()`` when over."""

    @abstractmethod
    def legal(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in RULES.md notation, in a stable order."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """A JSON-ready dict of exactly what ``seat`` may know (``None``: a spectator).

        Read-only: a new dict each call, but its lists and dicts may be shared with other
        views until they change (docs/protocol.md, "Views"); copy a part before changing it.
        """

    @abstractmethod
    def result(self) -> Result:
        """At the end: ``scores`` and ``ranks`` (per seat), ``winners`` (seats), and
        game-specific figures (``Result``). Before the end: the position so far, ``over``
        false."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Everything, hidden cards included, JSON-ready. Never for a player's eyes."""

    @abstractmethod
    def redraw_hidden(self, seat: int | None, rng: random.Random) -> State:
        """A copy in which everything ``seat`` may not know is drawn again at random.

        The audit of the one redaction: ``view(seat)`` of the copy must equal this state's.
        (A tool for tests and leak checks; bots never get states.)
        """

    def cards(self) -> Counter[Any] | None:
        """Every card of the game wherever it lies (hands, piles, grids, boxed), counted: a
        game's cards are conserved, so this never changes from the deal to the end (the
        property tests check it). None for a game without cards to count."""
        return None

    # -- changing -------------------------------------------------------------------------
    def act(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` or raise ``IllegalAction`` leaving the state as it was."""
        if not isinstance(action, str):
            raise MalformedAction(
                _("an action is a text like those legal() lists, not {action}", action=repr(action))
            )
        # (a plain int is the one common case: its type said first, the subclasses after)
        if (type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))) or (
            not 0 <= seat < self.players
        ):
            raise NotYourTurn(
                _(
                    "there is no seat {seat} at this table of {players}",
                    seat=repr(seat),
                    players=self.players,
                )
            )
        if self.over:
            raise GameOver(_("the game is over: no action is legal"))
        self._apply(seat, action)
        self.actions.append((seat, action))

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Parse, check and apply. Must raise before changing anything."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: used by search)."""

    def _clone_base(self, other: State) -> None:
        """Copy the fields this base class owns into ``other`` (a fresh instance)."""
        other.seed = self.seed
        other.players = self.players
        other.options = self.options  # never mutated after deal
        other.actions = self.actions.copy()

    # -- fast play ------------------------------------------------------------------------
    #: the built-in policies ``playout`` knows, by name; a game with fast paths adds its own
    playout_policies: ClassVar[tuple[str, ...]] = ("random",)

    def playout(self, policies: Iterable[str], rng: random.Random) -> None:
        """Play to the end in place, fast: seat ``i`` plays the built-in policy ``policies[i]``.

        The fastest way to play whole games (simulation, search rollouts). Each seat decides
        only from what it may see, like the bots of the same names; the actions go into
        ``actions`` like any others, so the record replays through ``act``.
        """
        names = list(policies)
        if len(names) != self.players:
            raise ValueError(f"playout needs {self.players} policies, got {len(names)}")
        for name in names:
            if name not in self.playout_policies:
                raise ValueError(f"no built-in policy {name!r}: {', '.join(self.playout_policies)}")
        self._playout(names, rng)

    def _playout(self, policies: list[str], rng: random.Random) -> None:
        """The generic playout, on ``legal`` and ``act``: ``random`` picks uniformly among the
        moves that are not talk (a random talker would never let a turn end). Games override
        it with fast paths that play the same way."""
        talk = self.game.is_talk
        while not self.over:
            for seat in self.to_act():
                if self.over or seat not in self.to_act():
                    continue
                legal = self.legal(seat)
                moves = [a for a in legal if not talk(a)] or legal
                self.act(seat, moves[int(rng.random() * len(moves))])

    # -- records --------------------------------------------------------------------------
    def record(self) -> Record:
        """The game as JSON-ready data: enough to replay it on any machine."""
        return {
            "game": self.game.name,
            "version": self.game.version,
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "actions": [[seat, action] for seat, action in self.actions],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        status = "over" if self.over else f"to act {list(self.to_act())}"
        return (
            f"<{self.game.title} seed={self.seed} players={self.players} "
            f"actions={len(self.actions)} {status}>"
        )


#: fields a record may carry beyond what replays it; ``replay`` ignores them
OPTIONAL_RECORD_FIELDS = frozenset({"played_by"})


def replay(game: Game, record: Any) -> State:
    """Rebuild a state from a record, action by action. Refuses a bad record whole."""
    if not isinstance(record, Mapping):
        raise BadRecord(
            "a record is a JSON object with game, version, seed, players, options, actions"
        )
    expected = {"game", "version", "seed", "players", "options", "actions"}
    missing = sorted(expected - set(record))
    if missing:
        raise BadRecord(f"the record has no {', '.join(missing)}")
    # optional fields that say nothing about the play itself, accepted and ignored:
    # ``played_by`` (who played each seat, written by the server; docs/protocol.md)
    extra = sorted(set(record) - expected - OPTIONAL_RECORD_FIELDS)
    if extra:
        raise BadRecord(f"the record has unknown fields: {', '.join(map(str, extra))}")
    if record["game"] != game.name:
        raise BadRecord(f"the record is of {record['game']!r}, not {game.name!r}")
    if record["version"] != game.version:
        raise BadRecord(
            f"the record is of rules version {record['version']!r}; "
            f"this cardtable plays version {game.version}"
        )
    options = record["options"]
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BadRecord("the record's options must be an object with text keys")
    try:
        state = game.deal(record["seed"], record["players"], options)
    except BadOptions as e:
        raise BadRecord(f"the record cannot be dealt: {e.reason}") from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise BadRecord("the record's actions must be a list of [seat, action] pairs")
    for n, pair in enumerate(actions, 1):
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise BadRecord(f"action {n} is not a [seat, action] pair: {pair!r}")
        seat, action = pair
        try:
            state.act(seat, action)
        except IllegalAction as e:
            raise BadRecord(f"action {n} ({seat!r}, {action!r}) is refused: {e.reason}") from None
    return state
