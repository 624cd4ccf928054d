"""A first game that teaches: the shape of a game's tutorial, and the tutor that follows a
learner through it (issue #27).

A tutorial is a game's companion: a fixed deal (a seed chosen so the lesson shows each idea),
the seats around the learner (bot specs, as text: the rules know no bot), and, for any
position, the move it suggests and a sentence or two on what to do and why. The words are in
the game's own catalog domain (each tutorial module marks them with its game's
``translatable``). The tutor is keyed by the kind of decision the learner faces, never by a
fixed list of moves, so a learner who plays another move is told what that move did and the
next step is explained from the position it made.

Pure like the rest of the core: no I/O, no clock, no global random state. A tutorial reads
the state only through ``view(seat)`` and ``legal(seat)`` (and views of copies it acted on),
so its advice never uses a card the learner could not see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.core.words import Text

if TYPE_CHECKING:
    from cardtable.core.protocol import Action, Game, State, View

#: the learner's seat name in ``Tutorial.seats``
LEARNER = "me"


@dataclass(frozen=True)
class Coaching:
    """What the tutor says now to the learner (``coach``)."""

    #: the learner's moves so far (talk not counted)
    moves: int
    #: the step's explanation, a short paragraph each: what to do now and why (or, once
    #: over, the lesson's end)
    text: tuple[Text, ...]
    #: the move the tutor suggests now (None: not the learner's turn, or over)
    suggest: Action | None
    #: the learner's last move in the game's words, when it was not the one suggested
    played: str | None
    #: the move that was suggested instead (notation), with ``played``
    instead: Action | None
    #: the game is over: the tutorial is finished
    done: bool


class Tutorial(ABC):
    """One game's tutorial. Subclasses set the class attributes and write the steps."""

    #: the game's name (``Game.name``)
    game: ClassVar[str]
    #: the fixed deal
    seed: ClassVar[int]
    #: the seats in order: ``LEARNER`` once, the others bot specs ("greedy", "team")
    seats: ClassVar[tuple[str, ...]]
    #: the game's options (checked by ``Game.deal``)
    options: ClassVar[Mapping[str, Any]] = {}

    @property
    def learner(self) -> int:
        return self.seats.index(LEARNER)

    @property
    def bots(self) -> dict[int, str]:
        """The other seats' bot specs, by seat."""
        return {i: s for i, s in enumerate(self.seats) if s != LEARNER}

    def deal(self, game: Game) -> State:
        return game.deal(self.seed, len(self.seats), dict(self.options))

    @abstractmethod
    def suggest(self, state: State, seat: int) -> Action | None:
        """The move the tutor suggests to ``seat`` now, one of ``state.legal(seat)``, chosen
        from what the seat may see; None when it has nothing to do."""

    @abstractmethod
    def explain(self, view: View, suggest: Action | None, moves: int) -> list[Text]:
        """The step's words for the learner's ``view``, a sentence or two per paragraph:
        what to do (``suggest``) and why. ``moves``: the learner's moves so far (a first
        time is told more)."""

    def equivalent(self, view: View, played: Action, suggested: Action) -> bool:
        """Whether ``played`` is as good as ``suggested`` from ``view`` (the same card on
        the twin pile): then it is no deviation. By default only the same move is."""
        return played == suggested

    def is_move(self, game: Game, action: Action) -> bool:
        """Whether ``action`` is a decision the tutor judges (talk is not: it is welcome)."""
        return not game.is_talk(action)


def coach(
    tutorial: Tutorial, game: Game, actions: Sequence[tuple[int, Action]], who: str
) -> Coaching:
    """The tutor's words after ``actions`` (the table's log): the step's explanation and
    suggestion for the position now, and, if the learner's last move was not the one
    suggested then, that move in the game's words (``Game.describe_action``, ``who`` naming
    the learner). Replays the deal: a tutorial's game is short."""
    seat = tutorial.learner
    state = tutorial.deal(game)
    played: str | None = None
    instead: Action | None = None
    moves = 0
    last = max(
        (n for n, (s, a) in enumerate(actions) if s == seat and tutorial.is_move(game, a)),
        default=-1,
    )
    for n, (s, action) in enumerate(actions):
        if n == last:
            suggested = tutorial.suggest(state, seat)
            if suggested is not None and not tutorial.equivalent(
                state.view(seat), action, suggested
            ):
                played = game.describe_action(action, who, state.view(seat))
                instead = suggested
        if s == seat and tutorial.is_move(game, action):
            moves += 1
        state.act(s, action)
    view = state.view(seat)
    now = None if state.over or seat not in state.to_act() else tutorial.suggest(state, seat)
    return Coaching(
        moves=moves,
        text=tuple(tutorial.explain(view, now, moves)),
        suggest=now,
        played=played,
        instead=instead,
        done=state.over,
    )


def line(tutorial: Tutorial, game: Game, bots: Mapping[int, Any]) -> State:
    """The tutorial played to its end along its suggestions, the other seats by ``bots``
    (seat -> an object with ``choose(view, legal)``, as ``bots.make_bot`` makes): the tests'
    proof that the suggested line is legal and reaches the end."""
    state = tutorial.deal(game)
    while not state.over:
        for s in state.to_act():
            if state.over or s not in state.to_act():
                continue
            if s == tutorial.learner:
                move = tutorial.suggest(state, s)
                assert move is not None and move in state.legal(s), (move, state.legal(s))
            else:
                move = bots[s].choose(state.view(s), state.legal(s))
            state.act(s, move)
    return state
