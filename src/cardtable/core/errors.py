"""The error taxonomy. Every refusal is a ``ValueError`` subclass with a reason a person reads.

``IllegalAction`` is what ``State.act`` raises for anything it refuses; its subclasses say why,
so a client (or the server) can react to the kind without parsing the message:

- ``MalformedAction``: the text is not an action of this game at all (bad syntax, unknown word).
- ``NotYourTurn``: a well-formed action from a seat that is not asked to act.
- ``GameOver``: any action after the end.
- the plain ``IllegalAction``: well formed, the seat's turn, but the rules forbid it here.

A refused action never changes the state.
"""

from __future__ import annotations


class CardtableError(ValueError):
    """Base of every error the library raises on bad input."""

    code = "error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalAction(CardtableError):
    """The action was refused; ``reason`` says why. The state is unchanged."""

    code = "illegal"


class MalformedAction(IllegalAction):
    """The text is not an action in this game's notation."""

    code = "malformed"


class NotYourTurn(IllegalAction):
    """The seat is not among ``to_act()`` (or is not a seat at this table)."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """The game has ended; nothing more is legal."""

    code = "game_over"


class BadOptions(CardtableError):
    """Unknown option, wrong type or value, wrong player count or seed."""

    code = "bad_options"


class BadRecord(CardtableError):
    """A record that cannot be replayed: wrong shape, unknown game or version, illegal action."""

    code = "bad_record"


class UnknownGame(BadOptions):
    """No game of that name is registered."""

    code = "unknown_game"


class BotError(CardtableError):
    """A bot failed: crashed, answered nonsense or an illegal action, or ran out of time.

    ``bot`` names the bot (its spec, e.g. ``cmd:python mybot.py``), ``answer`` is what it said
    (None if nothing), ``reason`` what was wrong with it.
    """

    code = "bot_error"

    def __init__(self, bot: str, reason: str, answer: str | None = None) -> None:
        shown = "nothing" if answer is None else repr(answer[:200])
        super().__init__(f"bot {bot} failed: {reason} (it answered {shown})")
        self.bot = bot
        self.answer = answer
        self.bot_reason = reason
