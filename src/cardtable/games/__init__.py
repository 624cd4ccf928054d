"""The registry of games: ``names()``, ``get(name)``, ``replay(record)``.

Adding a game: write one module with a ``Game`` subclass and add it to ``_MODULES``.
"""

from __future__ import annotations

import importlib
from typing import Any

from cardtable.core.errors import BadRecord, UnknownGame
from cardtable.core.protocol import Game, State
from cardtable.core.protocol import replay as _replay

# name -> module that defines GAME; imported on first use so a CLI start stays quick
_MODULES = {
    "doublets": "cardtable.games.doublets",
    "slide": "cardtable.games.slide",
    "the-game": "cardtable.games.the_game",
}
_loaded: dict[str, Game] = {}


def names() -> list[str]:
    """The registered games, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The game called ``name``; ``UnknownGame`` (a ``ValueError``) otherwise."""
    if name not in _MODULES:
        raise UnknownGame(f"no game called {name!r}; the games are {', '.join(names())}")
    if name not in _loaded:
        _loaded[name] = importlib.import_module(_MODULES[name]).GAME
    return _loaded[name]


def replay(record: Any) -> State:
    """The state a record describes, rebuilt action by action through the checked path."""
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise BadRecord("a record is a JSON object whose 'game' names one of " + ", ".join(names()))
    try:
        game = get(record["game"])
    except UnknownGame as e:
        raise BadRecord(e.reason) from None
    return _replay(game, record)


__all__ = ["names", "get", "replay", "Game", "State"]
