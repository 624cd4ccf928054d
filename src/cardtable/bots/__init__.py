"""Bots: anything with ``choose(view, legal) -> action``.

A bot sees what its seat sees (``state.view(seat)``) and the legal actions, never the state.
Optional hooks, called by tables that support them (the simulator, the terminal, the server):

- ``react(view, legal) -> str | None``: after any action at the table, a seat that is not to
  act may answer with talk (The Game's pile signals); ``legal`` then holds only what that seat
  may do out of turn. Returning None says nothing.
- ``finish(result)``: the game is over.
- ``close()``: free what the bot holds (an external program).

``make_bot(spec, game, seed)`` builds a bot from a spec: a name (``greedy``), a name with a
level (``search:hard``), or ``cmd:COMMAND`` for an external program speaking JSON lines
(docs/bot-protocol.md). ``names(game)`` lists the built-in names that play ``game``;
``names(game, research=False)`` leaves out the research-only ones (a class with
``research = True``, such as a frozen baseline), which the server does not offer to players.

Bots of every game sit here (``random``, ``greedy``, ``external``: a program, with
``lifecycle`` and ``program`` for running one); each game's own bots and its greedy policy in
a package of that game (``slide``, ``doublets``, ``the_game``, named in ``GAME_BOTS``). Bots
may use the solvers (``cardtable.solvers``) on positions rebuilt from their views; no solver
imports a bot.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

from cardtable.core.errors import BadOptions

#: what a bot is handed: its seat's view, read-only (a dict, or from the bot loop a
#: ``Mapping`` built by its first read, ``bots.lazy``), and its legal actions (the bot's own
#: list, or a sequence built by its first read)
BotView = Mapping[str, Any]
BotLegal = Sequence[str]


class Bot(Protocol):
    """What a table asks of a bot. The view is read-only: its parts may be shared with other
    views (docs/protocol.md, "Views"), so a bot copies what it changes. The bot loop builds
    neither the view nor the legal list until the bot reads it."""

    def choose(self, view: BotView, legal: BotLegal) -> str: ...


# name -> "module:Class"; each class has ``games`` (tuple of names, or None for every game),
# may set ``research = True`` (benches only), and is built as ``cls(game, seed, level)``.
# Imported on first use.
BUILT_IN = {
    "random": "cardtable.bots.random:RandomBot",
    "greedy": "cardtable.bots.greedy:GreedyBot",
    "expert": "cardtable.bots.the_game.expert:ExpertBot",
    "team": "cardtable.bots.the_game.team:TeamBot",
    "fair": "cardtable.bots.doublets.fair:FairBot",
    "search": "cardtable.bots.slide.search:SearchBot",
    # the search bot as it was before issue #12, frozen: the evaluation panel's baseline
    "search-v1": "cardtable.bots.slide.search_v1:SearchBot",
}
# game -> the package of that game's own bots, which holds its ``greedy`` policy (and
# ``GREEDY_LEVELS``, the greedy bot's levels there); a game without one gets the greedy bot's
# plain policy. With ``BUILT_IN``, the one place the bots name the games.
GAME_BOTS = {
    "doublets": "cardtable.bots.doublets",
    "slide": "cardtable.bots.slide",
    "the-game": "cardtable.bots.the_game",
}
EXTERNAL = "cmd:"


def is_external(spec: str) -> bool:
    """Whether ``spec`` names a program (``cmd:COMMAND``, ``cmd(level=hard):COMMAND``)."""
    return spec.startswith((EXTERNAL, "cmd("))


def _load(name: str) -> Any:
    return _class_at(BUILT_IN[name])


@functools.cache
def _class_at(target: str) -> Any:
    """The class a "module:Class" text names, found once (a simulation builds a bot per seat
    and game: the import machinery's look-up cost as much as a random bot's other work)."""
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError:  # a bot listed before its module exists
        return None


def game_bots(game: str) -> ModuleType | None:
    """The package of ``game``'s own bots (``GAME_BOTS``), or None."""
    return importlib.import_module(GAME_BOTS[game]) if game in GAME_BOTS else None


def names(game: str | None = None, research: bool = True) -> list[str]:
    """Built-in bot names, those that play ``game`` if given; without the research-only
    ones if ``research`` is False."""
    out = []
    for name in BUILT_IN:
        cls = _load(name)
        if cls is None or (not research and is_research(name)):
            continue
        if game is None or cls.games is None or game in cls.games:
            out.append(name)
    return out


def is_research(name: str) -> bool:
    """Whether the built-in bot ``name`` is for research only (benches, ``simulate``)."""
    cls = _load(name) if name in BUILT_IN else None
    return bool(getattr(cls, "research", False))


def make_bot(spec: str, game: str, seed: int = 0, **kwargs: Any) -> Bot:
    """A bot for ``game`` from a spec (``greedy``, ``search:hard``, ``cmd:python bot.py``).

    ``seed`` fixes its random choices (a program gets it in its hello); ``kwargs`` go to
    external bots (``seat``, ``timeout``, ``players``, ``options``).
    """
    if is_external(spec):
        from cardtable.bots.external import ExternalBot, parse_spec

        command, bot_options = parse_spec(spec)
        return ExternalBot(command, game, seed=seed, bot_options=bot_options, **kwargs)
    name, _, level = spec.partition(":")
    cls = _load(name) if name in BUILT_IN else None
    if cls is None:
        raise BadOptions(
            f"no bot called {name!r}; the bots are {', '.join(names())}, or cmd:COMMAND"
        )
    if cls.games is not None and game not in cls.games:
        raise BadOptions(f"the {name} bot plays {', '.join(cls.games)}, not {game}")
    return cls(game, seed, level or None)


__all__ = ["Bot", "BotLegal", "BotView", "is_external", "is_research", "make_bot", "names"]
