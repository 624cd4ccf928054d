"""Each game's terminal board and keys, one module a game; ``board_for`` finds a game's.

A game's module is named after the game (``the-game`` -> ``the_game.py``) and sets ``ADAPTER``
to a ``GameBoard`` subclass: how its view is drawn, what a click on a card and its shortcut
keys do, what the status line and the log add. A game without a module of its own (a game
from another package) gets ``generic.GenericBoard``: the view as a tree and the legal actions
as a list, so every registered game is playable in the terminal.

Everything else is common and lives in the play app: the move list (labels from
``Game.move_label``), the log (``Table.log``: the game's words, as the server's log has
them), the end (``Game.result_lines``,
``breakdown``, ``result_notes``), the bots, and undo, hint and peek as the game offers them.
"""

from __future__ import annotations

import importlib

from cardtable.core.protocol import Game
from cardtable.i18n.reader import Reader
from cardtable.tui.games.base import GameBoard


def module_name(game: str) -> str:
    """The module of a game's terminal adapter: ``the-game`` -> ``the_game``."""
    return game.replace("-", "_")


def board_for(rules: Game, read: Reader | None = None) -> GameBoard:
    """The terminal adapter of a game: its own module's ``ADAPTER``, else the generic one;
    its words in ``read``'s language (English without one)."""
    name = module_name(rules.name)
    adapter: type[GameBoard] | None = None
    if name.isidentifier():
        path = f"{__name__}.{name}"
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as e:
            if e.name != path:  # the adapter exists but fails to import: say so
                raise
        else:
            adapter = getattr(module, "ADAPTER", None)
    if adapter is None:
        from cardtable.tui.games.generic import GenericBoard

        adapter = GenericBoard
    return adapter(rules, read)
