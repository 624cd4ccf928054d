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

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardtable.core.errors import (
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from cardtable.core.rng import check_seed

Action = str
Record = dict[str, Any]
View = dict[str, Any]


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

    def validate(self, value: Any, players: int) -> Any:
        if value is None and self.nullable:
            return None
        wrong_type = not isinstance(value, self.kind) or (
            self.kind is int and isinstance(value, bool)
        )
        if wrong_type:
            raise BadOptions(
                f"option {self.name!r} must be {self.kind.__name__}"
                + (" or null" if self.nullable else "")
                + f", not {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            raise BadOptions(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if self.low is not None and value < self.low:
            raise BadOptions(f"option {self.name!r} must be at least {self.low}, not {value!r}")
        if self.high is not None and value > self.high:
            raise BadOptions(f"option {self.name!r} must be at most {self.high}, not {value!r}")
        if self.check is not None and (problem := self.check(value, players)):
            raise BadOptions(f"option {self.name!r}: {problem}")
        return value


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

    # -- capabilities: what adapters ask for instead of naming games ----------------------
    #: the bot a seat passes to when its own bot fails (any game's ``greedy`` works)
    fallback_bot: ClassVar[str] = "greedy"
    #: the bot that watches a person's game to give hints (a spec for ``make_bot`` whose bot
    #: has ``observe(view)`` and ``hint(view, legal) -> (action, reason)``), or None
    advisor: ClassVar[str | None] = None
    #: a full-knowledge solver for "can this position still be won?" (peeking), as
    #: ``"module:function"`` taking ``(state, budget)`` and answering True, False or None
    #: (budget spent), or None when the game has none
    solver: ClassVar[str | None] = None

    def still_winnable(self, state: State, budget: int | None = None) -> bool | None:
        """**Peeking**: the game's ``solver`` on the true state (it reads hidden cards, so its
        answer is for a player who asked to peek at a solitaire). ``ValueError`` without one."""
        if self.solver is None:
            raise ValueError(f"{self.title} has no solver")
        import importlib

        module, _, function = self.solver.partition(":")
        return getattr(importlib.import_module(module), function)(state, budget)

    def is_talk(self, action: str) -> bool:
        """Whether ``action`` is talk (The Game's pile signals): legal at any time, changing
        no turn. Bots that ``react`` are offered only talk."""
        return False

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def check_options(self, players: int | None, options: Mapping[str, Any]) -> tuple[int, dict]:
        """Validate the player count and options; return them complete, with defaults."""
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise BadOptions(f"{self.title} is for {span} players, not {players}")
        if not options:  # the common case, kept cheap for simulations
            return players, self._defaults_checked(players)
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise BadOptions(
                f"{self.title} has no option {unknown[0]!r} (its options: {names})"
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

    def deal(self, seed: int, players: int | None = None, **options: Any) -> State:
        """A new game from ``seed``. Same seed, players and options: the same deal, always."""
        seed = check_seed(seed)
        players, full = self.check_options(players, options)
        return self._deal(seed, players, full)

    def deal_from(self, seed: Any, players: Any, options: Any) -> State:
        """``deal`` with the options as one mapping, as they come from a record, a request or
        a command line. Use it for options nobody has checked: ``deal(s, n, **options)`` with
        a key ``"seed"``, ``"players"`` or ``"self"`` is Python's ``TypeError`` (a second value
        for an argument); here every key is an option name to check (``BadOptions``)."""
        seed = check_seed(seed)
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
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
            "options": [
                {"name": o.name, "default": o.default, "doc": o.doc} for o in self.options
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
        """A JSON-ready dict of exactly what ``seat`` may know (``None``: a spectator)."""

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """At the end: ``scores`` (per seat), ``winners`` (seats), and game-specific figures.

        Before the end it describes the position so far, with ``over`` false.
        """

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Everything, hidden cards included, JSON-ready. Never for a player's eyes."""

    @abstractmethod
    def redraw_hidden(self, seat: int | None, rng: random.Random) -> State:
        """A copy in which everything ``seat`` may not know is drawn again at random.

        The audit of the one redaction: ``view(seat)`` of the copy must equal this state's.
        (A tool for tests and leak checks; bots never get states.)
        """

    # -- changing -------------------------------------------------------------------------
    def act(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` or raise ``IllegalAction`` leaving the state as it was."""
        if not isinstance(action, str):
            raise MalformedAction(f"an action is a text like those legal() lists, not {action!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurn(f"there is no seat {seat!r} at this table of {self.players}")
        if self.over:
            raise GameOver("the game is over: no action is legal")
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
    #: the built-in policies ``playout`` knows, by name
    playout_policies: ClassVar[tuple[str, ...]] = ("random", "greedy")

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

    @abstractmethod
    def _playout(self, policies: list[str], rng: random.Random) -> None: ...

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
    try:  # not deal(**options): an option called "seed" would be a TypeError
        state = game.deal_from(record["seed"], record["players"], options)
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
