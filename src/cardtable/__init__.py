"""cardtable: play and study Slide, Doublets and The Game.

>>> from cardtable import games
>>> games.names()
['doublets', 'slide', 'the-game']
>>> state = games.get("slide").deal(seed=7, players=3)
>>> state.to_act()
(0, 1, 2)
"""

from cardtable import games
from cardtable.core.errors import (
    BadOptions,
    BadRecord,
    BotError,
    CardtableError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    UnknownGame,
)
from cardtable.core.protocol import Game, Option, State

# the one version source: pyproject.toml reads it ([tool.hatch.version])
__version__ = "0.1.0"

__all__ = [
    "games",
    "Game",
    "State",
    "Option",
    "CardtableError",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "GameOver",
    "BadOptions",
    "BadRecord",
    "BotError",
    "UnknownGame",
]
