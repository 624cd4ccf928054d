"""The greedy bot, deciding from the seat's view alone: each game's own greedy policy.

A game's policy lives with that game's bots (``greedy`` in its package, registered in
``GAME_BOTS``), and is the same rules helper the game's fast playouts use (``greedy`` there),
so the bot and the fast path play the same game move for move; a test holds them to it.

A game without a greedy policy of its own (one added by another package) still gets a
``greedy`` bot, so that it has a fallback bot from its first day: it plays the first legal
move that is not talk, in the game's stable order (as weak as it is predictable).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable import games as registry
from cardtable.bots import BotLegal, BotView, game_bots
from cardtable.core.errors import BadOptions

#: a greedy policy: the action to take, from a seat's view and its legal actions
Policy = Callable[[BotView, BotLegal], str]


def first_move(is_talk: Callable[[str], bool]) -> Policy:
    """The policy of a game without its own: the first legal move that is not talk."""

    def choose(view: BotView, legal: BotLegal) -> str:
        for action in legal:
            if not is_talk(action):
                return action
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        return legal[0]

    return choose


class GreedyBot:
    games = None  # every game: its own policy, or the first legal move

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        self.game = game
        self.level = level
        own = game_bots(game)
        levels = getattr(own, "GREEDY_LEVELS", {})
        if level is not None:
            if level not in levels:
                if not levels:
                    raise BadOptions("the greedy bot has no levels in this game")
                raise BadOptions(
                    f"the greedy bot's levels here are {', '.join(levels)}, not {level!r}"
                )
            self._policy: Policy = levels[level](random.Random(seed))
            return
        self._policy = getattr(own, "greedy", None) or first_move(registry.get(game).is_talk)

    def choose(self, view: BotView, legal: BotLegal) -> str:
        return self._policy(view, legal)
