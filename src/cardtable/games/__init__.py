"""The registry of games: ``names()``, ``get(name)``, ``replay(record)``.

Adding a game: write one module whose ``GAME`` is a ``Game`` subclass's instance, then either
add it to ``BUILT_IN`` or, from a package of your own, declare it in the entry-point group
``cardtable.games`` (``name = "module"`` or ``"module:OBJECT"``); docs/protocol.md shows how.
Every adapter (server, terminal, simulator, command line) then offers it.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from cardtable.core.errors import BadRecord, UnknownGame
from cardtable.core.protocol import Game, State, companion
from cardtable.core.protocol import replay as _replay
from cardtable.core.tutorial import Tutorial

#: the entry-point group through which other packages add games
ENTRY_POINT_GROUP = "cardtable.games"

# name -> "module" (whose GAME is the game) or "module:OBJECT"; imported on first use so a
# command-line start stays quick
BUILT_IN = {
    "doublets": "cardtable.games.doublets",
    "slide": "cardtable.games.slide",
    "the-game": "cardtable.games.the_game",
}
#: the entry-point group through which other packages add a game's tutorial (by its name)
TUTORIAL_GROUP = "cardtable.tutorials"
# name -> "module:CLASS" of each built-in game's tutorial (``core/tutorial.py``)
BUILT_IN_TUTORIALS = {
    "doublets": "cardtable.games.tutorials.doublets:DoubletsTutorial",
    "slide": "cardtable.games.tutorials.slide:SlideTutorial",
    "the-game": "cardtable.games.tutorials.the_game:TheGameTutorial",
}
_modules: dict[str, str] | None = None
_loaded: dict[str, Game] = {}


def _registry() -> dict[str, str]:
    global _modules
    if _modules is None:
        found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
        _modules = {**found, **BUILT_IN}  # a package cannot replace a built-in game
    return _modules


def refresh() -> None:
    """Look for installed games again (after installing a package in a running process)."""
    global _modules
    _modules = None
    _loaded.clear()


def names() -> list[str]:
    """The registered games, sorted."""
    return sorted(_registry())


def get(name: str) -> Game:
    """The game called ``name``; ``UnknownGame`` (a ``ValueError``) otherwise."""
    registry = _registry()
    if name not in registry:
        raise UnknownGame(f"no game called {name!r}; the games are {', '.join(names())}")
    if name not in _loaded:
        module, _, attribute = registry[name].partition(":")
        game = getattr(importlib.import_module(module), attribute or "GAME")
        if not isinstance(game, Game) or game.name != name:
            raise UnknownGame(f"{registry[name]} does not define the game {name!r}")
        _loaded[name] = game
    return _loaded[name]


def tutorial(name: str) -> Tutorial | None:
    """The tutorial of the game called ``name`` (a first game that teaches), or None: a
    built-in game's own, else the one a package registers by the game's name in the
    entry-point group ``cardtable.tutorials`` (like a game's solvers: ``companion``)."""
    get(name)  # UnknownGame for a name that is no game
    spec = BUILT_IN_TUTORIALS.get(name)
    if spec is None:
        found = companion(TUTORIAL_GROUP, name)
    else:
        module, _, attribute = spec.partition(":")
        found = getattr(importlib.import_module(module), attribute)
    made = found() if isinstance(found, type) else found
    return made if isinstance(made, Tutorial) and made.game == name else None


def replay(record: Any) -> State:
    """The state a record describes, rebuilt action by action through the checked path."""
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise BadRecord("a record is a JSON object whose 'game' names one of " + ", ".join(names()))
    try:
        game = get(record["game"])
    except UnknownGame as e:
        raise BadRecord(e.reason) from None
    return _replay(game, record)


__all__ = [
    "ENTRY_POINT_GROUP",
    "TUTORIAL_GROUP",
    "names",
    "get",
    "refresh",
    "replay",
    "tutorial",
    "Game",
    "State",
    "Tutorial",
]
