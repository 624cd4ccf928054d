"""The random bot: a uniform choice among the legal moves of the game.

Pile signals in The Game are talk, not moves: the random bot never signals (a random talker
would flood the table and never end a turn).
"""

from __future__ import annotations

import random


def is_talk(action: str) -> bool:
    return action.startswith("signal ")


class RandomBot:
    def __init__(self, game: str, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: list[str]) -> str:
        moves = [a for a in legal if not is_talk(a)] or legal
        if not moves:
            raise ValueError("the bot was asked to act with no legal action")
        return moves[int(self.rng.random() * len(moves))]
