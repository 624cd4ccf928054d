"""One game at the keyboard, without any screen: the state, the bots in their seats, undo, saving.

``Table`` is the only holder of the state. Everything it hands out is a view, a legal list,
the log as a seat may read it or ``result()``: the screen asks for the view of the person's
seat, each bot gets its own seat's view and legal actions, and nothing else leaves.

A deal played alone that has no move left and is not won is **stuck**, and held open as the
server holds it (docs/server.md, "A stuck solitaire"): undo and the hint still work; it is
saved, lost as it stands, when the person leaves it, restarts it or deals anew.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any, Protocol, cast

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.lifecycle import BotSeats, SeatFailed, build
from cardtable.core.errors import CardtableError, IllegalAction, NotYourTurn
from cardtable.core.logbook import Logbook, add, as_read, new_logbook
from cardtable.core.protocol import Result
from cardtable.core.words import Text as Words
from cardtable.core.words import translatable
from cardtable.paths import save_record
from cardtable.seeds import new_key
from cardtable.tui.boards import seat_label

_, _n = translatable("tui")

HUMAN = "me"


class Advisor(Protocol):
    """A game's advisor (``Game.advisor``): it watches the person's views and gives hints."""

    def observe(self, view: dict[str, Any]) -> None: ...

    def hint(self, view: dict[str, Any], legal: list[str]) -> tuple[str, str]: ...


class BotFailed(Exception):
    """A bot failed or answered what the rules refuse (never replaced by another move). Its
    ``words`` are read on the screen: the seat in them is counted from 1."""

    def __init__(self, words: Words) -> None:
        super().__init__(words)
        self.words = words


class Table:
    """A seeded game with people (``"me"``) and bots in its seats.

    A bot seat holds any spec ``make_bot`` knows: ``greedy``, ``random``, ``search:hard``,
    ``cmd:python mybot.py`` ... Bots with the optional hooks get them as in ``cardtable.sim``:
    ``react`` after every action of another seat, ``finish`` at the end, ``close`` from
    ``close()``.
    """

    def __init__(
        self, game: str, seats: list[str], seed: int, options: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.seed = seed
        self.options = dict(options or {})
        rules = games.get(game)
        self.rules = rules
        self.title = rules.title
        self._state = rules.deal(seed, len(self.seats), self.options)
        # each bot its own random stream, unrelated to the deal
        self._bots = BotSeats(
            build(
                {s: spec for s, spec in enumerate(self.seats) if spec != HUMAN},
                game,
                lambda _s: new_key(),
                lambda s, _spec: {"seat": s, "players": len(self.seats), "options": self.options},
            )
        )
        self.humans: tuple[int, ...] = tuple(
            s for s, name in enumerate(self.seats) if name == HUMAN
        )
        self.saved: Path | None = None
        #: the log as each reader reads it, each with its own names ("you (seat 1)")
        self._logs: dict[int | None, Logbook] = {}
        # the game's advisor (Doublets: the fair bot) watches the person's game, so a hint
        # remembers what was shown (flipped cards)
        self._advisor = cast(Advisor, make_bot(rules.advisor, game)) if rules.advisor else None
        if self._advisor is not None:
            self._advisor.observe(self._state.view(0))

    # -- asking -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._state.over

    @property
    def stuck(self) -> bool:
        """A deal played alone by the person, with undo, that has no move left and is not
        won: not at its end yet for undo and the hint (as AisleRiot keeps Undo)."""
        return (
            self.over
            and self.humans == (0,)
            and len(self.seats) == 1
            and self.rules.offers_undo(1)
            and not self.result().get("won")
        )

    @property
    def finished(self) -> bool:
        """Over for good: over, and not stuck."""
        return self.over and not self.stuck

    @property
    def moves(self) -> int:
        """How many actions have been taken."""
        return len(self._state.actions)

    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act()

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of a person's seat, or the spectator's (``None``). Never a bot's seat:
        a bot's view goes only to the bot."""
        if seat is not None and seat not in self.humans:
            raise ValueError(f"seat {seat} is not played at this keyboard")
        return self._state.view(seat)

    def legal(self, seat: int) -> list[str]:
        return self._state.legal(seat) if seat in self.humans else []

    def result(self) -> Result:
        return self._state.result()

    def log(self, viewer: int | None) -> list[tuple[int, str]]:
        """The game's log so far as ``viewer`` (a person's seat; None: watching) may read
        it, in the game's words as the server's log has them (``core.logbook``): another
        seat's secret (a reveal) in public words until every seat has chosen, a change of
        mind gone, the news (a deal's scoring) after the action that brought it. Each line
        with the number of the action it follows from."""
        if viewer is not None and viewer not in self.humans:
            raise ValueError(f"seat {viewer} is not played at this keyboard")
        log = self._logs.get(viewer)
        actions = self._state.actions
        if log is None or log.actions != actions[: len(log.actions)]:  # new, or undone
            log = self._logs[viewer] = new_logbook(
                self.rules, self.seed, len(self.seats), self.options
            )
        names = self.names(viewer)
        for seat, action in actions[len(log.actions) :]:
            add(self.rules, log, seat, action, seat_label(seat, names))
        return [(e["n"], e["text"]) for e in as_read(log.entries, viewer)]

    def record(self) -> dict[str, Any]:
        return self._state.record()

    def names(self, viewer: int | None) -> list[str]:
        """Seat names for the boards: ``you`` for the seat at the keyboard, ``player`` for
        another person sharing it (words a reader puts into a language), else the bot."""
        return [
            _("you") if s == viewer else _("player") if name == HUMAN else name
            for s, name in enumerate(self.seats)
        ]

    @property
    def has_bots(self) -> bool:
        return bool(self._bots.bots)

    def bots_to_act(self) -> list[int]:
        return [s for s in self._state.to_act() if s in self._bots]

    # -- acting -------------------------------------------------------------------------------
    def act(self, seat: int, action: str, quiet: Collection[int] = ()) -> list[tuple[int, str]]:
        """A person's action; raises ``IllegalAction`` (with ``reason``) when refused.

        Returns the talk the bots answered with (see ``react``); bots in ``quiet`` (busy
        choosing a move) are not asked."""
        if seat not in self.humans:
            raise NotYourTurn(f"seat {seat} is not played at this keyboard")
        self._state.act(seat, action)
        if self._advisor:
            self._advisor.observe(self._state.view(0))
        return self._after(seat, quiet)

    # A bot's move comes in three steps, so that the screen can let the bot think in another
    # thread: the question (its view and legal actions, taken on the screen's thread), the
    # choice (touches only the bot), and the move (back on the screen's thread).
    def bot_question(self, seat: int) -> tuple[dict[str, Any], list[str]]:
        """What the bot in ``seat`` is asked with: its own view and legal actions."""
        return self._state.view(seat), self._state.legal(seat)

    def bot_choose(self, seat: int, view: dict[str, Any], legal: list[str]) -> str:
        """The bot's answer; ``BotFailed`` if it fails (an external bot crashed or timed out)."""
        try:
            return self._bots.bots[seat].choose(view, legal)
        except CardtableError as e:
            raise BotFailed(
                _("the bot at seat {n} failed: {error}", n=seat + 1, error=e.reason)
            ) from None

    def bot_move(
        self, seat: int, action: str, quiet: Collection[int] = ()
    ) -> list[tuple[int, str]]:
        """Play the bot's answer; ``BotFailed`` if the rules refuse it (it is not replaced)."""
        try:
            self._state.act(seat, action)
        except IllegalAction as e:
            raise BotFailed(
                _(
                    "the bot at seat {n} chose {action}: {reason}",
                    n=seat + 1,
                    action=repr(action),
                    reason=e.reason,
                )
            ) from None
        return self._after(seat, quiet)

    def bot_act(self, seat: int) -> tuple[str, list[tuple[int, str]]]:
        """The three steps at once: the action and the talk the other bots answered with."""
        action = self.bot_choose(seat, *self.bot_question(seat))
        return action, self.bot_move(seat, action)

    def _after(self, actor: int, quiet: Collection[int] = ()) -> list[tuple[int, str]]:
        """After an action: other bots may answer with talk (once; talk is not answered)."""
        try:
            said = self._bots.react(self._state, actor, quiet, wrap=True)
        except SeatFailed as e:
            raise BotFailed(
                _("the bot at seat {n} failed to answer: {error}", n=e.seat + 1, error=str(e.error))
            ) from None
        self._bots.finish(self._state)
        return said

    def close(self) -> None:
        """Free what the bots hold (an external bot's program). Safe to call twice."""
        self._bots.close()

    # -- undo (alone only: with other seats, taking back would need their consent) ------------
    @property
    def can_undo(self) -> bool:
        return (
            self.rules.offers_undo(len(self.seats))
            and bool(self._state.actions)
            and not self.finished
        )

    def undo(self) -> str:
        """Take back the last action by replaying the record without it; return that action.
        A stuck deal plays on from there."""
        if not self.can_undo:
            raise IllegalAction(
                "there is nothing to undo" if not self.finished else "the game is over"
            )
        record = self._state.record()
        last = record["actions"].pop()
        self._state = games.replay(record)
        return last[1]

    # -- advice (the game's advisor and solver) --------------------------------------------
    @property
    def tools(self) -> tuple[str, ...]:
        """The table tools the game offers at this table (``Game.tools_for``), as the server
        offers them: undo, hint and peek alone, none at a shared table unless it says so."""
        return self.rules.tools_for(len(self.seats))

    def hint(self) -> tuple[str | None, str] | None:
        """The fair bot's move for the person's view, with a one-line reason; at a stuck
        deal no move (None) and why, in the game's words (``Game.describe_hint``)."""
        if self._advisor is None or "hint" not in self.tools or self.finished:
            return None
        if self.stuck:
            return None, self.rules.describe_hint(self._state.view(0), None)
        return self._advisor.hint(self._state.view(0), self._state.legal(0))

    def peek_winnable(self) -> bool | None:
        """**Peeking** (the solver reads the face-down stock): can this deal still be won?
        None when the solver found no answer within its budget."""
        if "peek" not in self.tools:
            raise ValueError("this table offers no peeking (it reads the others' cards)")
        return self._state.game.still_winnable(self._state.clone(), budget=2_000_000)

    # -- saving -------------------------------------------------------------------------------
    def save(self, folder: Path | None = None) -> Path:
        """Save the record (once; a second call returns the same file)."""
        if self.saved is None:
            self.saved = save_record(self._state.record(), folder)
        return self.saved
