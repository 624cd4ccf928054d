"""The greedy bot of each game, deciding from the seat's view alone.

The policies are the same rules helpers the games' fast playouts use (``greedy`` there), so
the bot and the fast path play the same game move for move; a test holds them to it.

A game without a greedy policy of its own (one added by another package) still gets a
``greedy`` bot, so that it has a fallback bot from its first day: it plays the first legal
move that is not talk, in the game's stable order (as weak as it is predictable).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable import games as registry
from cardtable.core.errors import BadOptions
from cardtable.games import doublets, slide, the_game


def slide_greedy(view: dict, legal: list[str]) -> str:
    """Reveal where the hole leaves most pushes; take where the unpaired sum is lowest."""
    seat = view["seat"]
    # face up: the value; face down: -1 (never equal to a face-up card); hole: 0
    cells = [c if isinstance(c, int) else 0 if c is None else -1
             for row in view["grids"][seat] for c in row]
    if view["phase"] == "reveal":
        down = [i for i, c in enumerate(cells) if c < 0]
        return f"reveal {slide.CELL_NAMES[slide.greedy_reveal(down)]}"
    hole = slide.CELL_INDEX[view["holes"][seat]]
    value, direction = slide.greedy_take(cells, hole, view["centre"])
    return f"take {value} {direction}"


def slide_random_reveal(rng: random.Random) -> Callable[[dict, list[str]], str]:
    """Reveal a uniformly random face-down cell (drawn with ``rng``); take like ``slide_greedy``.

    Frozen as an opponent of the evaluation panel (bench/slide_bots.py): revealing at random
    beats the centre-first reveal of ``slide_greedy`` by about 71 to 29 with two players.
    """
    def choose(view: dict, legal: list[str]) -> str:
        if view["phase"] != "reveal":
            return slide_greedy(view, legal)
        down = [i for i, c in enumerate(c for row in view["grids"][view["seat"]] for c in row)
                if c == "?"]
        return f"reveal {slide.CELL_NAMES[down[int(rng.random() * len(down))]]}"
    return choose


def doublets_greedy(view: dict, legal: list[str]) -> str:
    """Play when possible (waste first); never pull a king into a reserve while a flip can wait."""
    need = view["needed"]
    top = doublets.card_value(view["waste"][-1]) if view["waste"] else 0
    can_flip = view["stock"] > 0 or (bool(view["waste"]) and view["redeals_left"] > 0)
    if top == need:
        return "play waste"
    values = [doublets.card_value(c) for c in view["reserves"]]
    if need in values and (top != doublets.KING or not can_flip):
        return f"play r{values.index(need) + 1}"
    if view["stock"]:
        return "flip"
    return "redeal" if "redeal" in legal else legal[0]


def the_game_greedy(view: dict, legal: list[str]) -> str:
    """Smallest jumps first, every backwards trick; extra cards only for tricks and jumps of 1."""
    tops = [view["piles"][p] for p in the_game.PILES]
    choice = the_game.greedy_play(view["hand"], tops, view["played_this_turn"], view["minimum"])
    if choice is None:
        return "end"
    card, pile = choice
    return f"play {card} {the_game.PILES[pile]}"


POLICIES: dict[str, Callable[[dict, list[str]], str]] = {
    "slide": slide_greedy,
    "doublets": doublets_greedy,
    "the-game": the_game_greedy,
}


def first_move(is_talk: Callable[[str], bool]) -> Callable[[dict, list[str]], str]:
    """The policy of a game without its own: the first legal move that is not talk."""
    def choose(view: dict, legal: list[str]) -> str:
        for action in legal:
            if not is_talk(action):
                return action
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        return legal[0]
    return choose


#: game -> level -> a policy built from the bot's seeded rng (``greedy:random-reveal``)
VARIANTS: dict[str, dict[str, Callable[[random.Random], Callable[[dict, list[str]], str]]]] = {
    "slide": {"random-reveal": slide_random_reveal},
}


class GreedyBot:
    games = None  # every game: its own policy, or the first legal move

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        self.game = game
        self.level = level
        if level is not None:
            variants = VARIANTS.get(game, {})
            if level not in variants:
                if not variants:
                    raise BadOptions("the greedy bot has no levels in this game")
                raise BadOptions(f"the greedy bot's levels here are {', '.join(variants)}, "
                                 f"not {level!r}")
            self._policy = variants[level](random.Random(seed))
            return
        self._policy = POLICIES.get(game) or first_move(registry.get(game).is_talk)

    def choose(self, view: dict, legal: list[str]) -> str:
        return self._policy(view, legal)
