"""Bots: anything with ``choose(view, legal) -> action``.

A bot sees what its seat sees (``state.view(seat)``) and the legal actions, never the state.
``make_bot(name, game, seed)`` builds a built-in bot; ``names()`` lists them.
"""

from __future__ import annotations

from typing import Protocol

from cardtable.bots.greedy import GreedyBot
from cardtable.bots.random import RandomBot
from cardtable.core.errors import BadOptions


class Bot(Protocol):
    """What the table asks of a bot."""

    def choose(self, view: dict, legal: list[str]) -> str: ...


BUILT_IN = {"random": RandomBot, "greedy": GreedyBot}


def names() -> list[str]:
    return list(BUILT_IN)


def make_bot(name: str, game: str, seed: int = 0) -> Bot:
    """A built-in bot for ``game``; ``seed`` fixes its random choices."""
    try:
        cls = BUILT_IN[name]
    except KeyError:
        raise BadOptions(f"no bot called {name!r}; the bots are {', '.join(BUILT_IN)}") from None
    return cls(game, seed)


__all__ = ["Bot", "make_bot", "names", "RandomBot", "GreedyBot"]
