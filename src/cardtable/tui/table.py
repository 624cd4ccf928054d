"""One game at the keyboard, without any screen: the state, the bots in their seats, undo, saving.

``Table`` is the only holder of the state. Everything it hands out is a view, a legal list or
``result()``: the screen asks for the view of the person's seat, each bot gets its own seat's
view and legal actions, and nothing else leaves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable import games
from cardtable.bots import Bot, make_bot
from cardtable.core.errors import IllegalAction, NotYourTurn
from cardtable.paths import save_record

HUMAN = "me"


class BotFailed(Exception):
    """A bot answered with something the rules refuse (never replaced by another move)."""


class Table:
    """A seeded game with people (``"me"``) and bots (``"greedy"``, ``"random"``) in its seats."""

    def __init__(
        self, game: str, seats: list[str], seed: int, options: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.seed = seed
        self.options = dict(options or {})
        self.title = games.get(game).title
        self._state = games.get(game).deal(seed, len(self.seats), **self.options)
        # each bot gets its own random stream (as in cardtable.sim), fixed by the deal's seed
        self._bots: dict[int, Bot] = {
            s: make_bot(name, game, seed * 16 + s)
            for s, name in enumerate(self.seats)
            if name != HUMAN
        }
        self.humans: tuple[int, ...] = tuple(
            s for s, name in enumerate(self.seats) if name == HUMAN
        )
        self.saved: Path | None = None

    # -- asking -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._state.over

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

    def result(self) -> dict[str, Any]:
        return self._state.result()

    def record(self) -> dict[str, Any]:
        return self._state.record()

    def names(self, viewer: int | None) -> list[str]:
        """Seat names for the boards: ``you`` for the seat at the keyboard, else the bot."""
        return ["you" if s == viewer else name for s, name in enumerate(self.seats)]

    def bots_to_act(self) -> list[int]:
        return [s for s in self._state.to_act() if s in self._bots]

    # -- acting -------------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        """A person's action; raises ``IllegalAction`` (with ``reason``) when refused."""
        if seat not in self.humans:
            raise NotYourTurn(f"seat {seat} is not played at this keyboard")
        self._state.act(seat, action)

    def bot_act(self, seat: int) -> str:
        """Let the bot in ``seat`` choose from its own view and legal list, and act."""
        bot = self._bots[seat]
        action = bot.choose(self._state.view(seat), self._state.legal(seat))
        try:
            self._state.act(seat, action)
        except IllegalAction as e:
            raise BotFailed(f"the bot at seat {seat} chose {action!r}: {e.reason}") from None
        return action

    # -- undo (solitaire only: with other seats, taking back would need their consent) ---------
    @property
    def can_undo(self) -> bool:
        return self.game == "doublets" and bool(self._state.actions) and not self.over

    def undo(self) -> str:
        """Take back the last action by replaying the record without it; return that action."""
        if not self.can_undo:
            raise IllegalAction("there is nothing to undo" if not self.over
                                else "the game is over")
        record = self._state.record()
        last = record["actions"].pop()
        self._state = games.replay(record)
        return last[1]

    # -- saving -------------------------------------------------------------------------------
    def save(self, folder: Path | None = None) -> Path:
        """Save the record (once; a second call returns the same file)."""
        if self.saved is None:
            self.saved = save_record(self._state.record(), folder)
        return self.saved
