"""The random bot: a uniform choice among the legal moves of the game.

Pile signals in The Game are talk, not moves: the random bot never signals (a random talker
would flood the table and never end a turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import filterfalse

from cardtable import games as registry
from cardtable.bots import BotLegal, BotView
from cardtable.core.errors import BadOptions
from cardtable.core.protocol import Game


class TalkMemo(dict[str, bool]):
    """``is_talk`` remembered per action text: a legal list is then sorted out by one call in
    C (``filterfalse``) instead of one Python call per action. Bounded: a game whose texts never
    repeat starts again after ``LIMIT``."""

    LIMIT = 4096

    def __init__(self, is_talk: Callable[[str], bool]) -> None:
        super().__init__()
        self.is_talk = is_talk

    def __missing__(self, action: str) -> bool:
        if len(self) >= self.LIMIT:
            self.clear()
        talk = self[action] = self.is_talk(action)
        return talk


#: per game, its talk remembered (shared by every random bot of that game)
_TALK: dict[Game, TalkMemo] = {}


class RandomBot:
    games = None  # plays every game

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        if level is not None:
            raise BadOptions("the random bot has no levels")
        self.game = game
        rules = registry.get(game)
        # a game without talk has none to leave out: its legal list is the moves
        self.talk: TalkMemo | None = None
        if rules.has_talk:
            if rules not in _TALK:
                _TALK[rules] = TalkMemo(rules.is_talk)
            self.talk = _TALK[rules]
        self.rng = random.Random(seed)

    def choose(self, view: BotView, legal: BotLegal) -> str:
        # (the view is never read: the bot loop then never builds it, bots.lazy)
        talk = self.talk
        moves = (list(filterfalse(talk.__getitem__, legal)) or legal) if talk is not None else legal
        count = len(moves)
        if not count:
            raise ValueError("the bot was asked to act with no legal action")
        return moves[int(self.rng.random() * count)]
