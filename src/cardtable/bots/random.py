"""The random bot: a uniform choice among the legal moves of the game.

Pile signals in The Game are talk, not moves: the random bot never signals (a random talker
would flood the table and never end a turn).
"""

from __future__ import annotations

import random

from cardtable import games as registry
from cardtable.core.errors import BadOptions


class RandomBot:
    games = None  # plays every game

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        if level is not None:
            raise BadOptions("the random bot has no levels")
        self.game = game
        self.talk = registry.get(game).is_talk
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: list[str]) -> str:
        moves = [a for a in legal if not self.talk(a)] or legal
        if not moves:
            raise ValueError("the bot was asked to act with no legal action")
        return moves[int(self.rng.random() * len(moves))]
