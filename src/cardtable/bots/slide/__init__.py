"""Slide's own bots, and its greedy policy (the ``greedy`` bot's in Slide).

- ``search``: ``SearchBot``, sampling the hidden cards and rolling out (``search``, levels
  easy, normal, hard); ``search_v1``: the same bot frozen as it was before issue #12, the
  evaluation panel's baseline (research only).
- ``oracle``: ``search:hard`` reading the true state, a study tool that never sits at a table.
- here: ``greedy``, the policy of the ``greedy`` bot, and its levels (``GREEDY_LEVELS``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import chain

from cardtable.bots import BotLegal, BotView
from cardtable.bots.slide.search import REVEAL_ORDER, greedy_take_fast
from cardtable.games import slide

#: a cell as a view shows it -> as the greedy policy reads it (every value a view holds)
_CELL_OF: dict[int | str | None, int] = {None: 0, "?": -1, **{v: v for v in range(1, 11)}}


def greedy(view: BotView, legal: BotLegal) -> str:
    """Reveal where the hole leaves most pushes; take where the unpaired sum is lowest."""
    seat = view["seat"]
    # face up: the value; face down: -1 (never equal to a face-up card); hole: 0
    cells = list(map(_CELL_OF.__getitem__, chain.from_iterable(view["grids"][seat])))
    if view["phase"] == "reveal":
        # slide.greedy_reveal's choice: the first face-down cell in its order of preference
        return f"reveal {slide.CELL_NAMES[next(i for i in REVEAL_ORDER if cells[i] < 0)]}"
    hole = slide.CELL_INDEX[view["holes"][seat]]
    # slide.greedy_take's choice, each push scored once for every value (the search's own)
    value, k = greedy_take_fast(cells, hole, sorted(set(view["centre"])))
    return f"take {value} {slide.PUSHES[hole][k][0]}"


def random_reveal(rng: random.Random) -> Callable[[BotView, BotLegal], str]:
    """Reveal a uniformly random face-down cell (drawn with ``rng``); take like ``greedy``.

    Frozen as an opponent of the evaluation panel (bench/slide_bots.py): revealing at random
    beats the centre-first reveal of ``greedy`` by about 71 to 29 with two players.
    """

    def choose(view: BotView, legal: BotLegal) -> str:
        if view["phase"] != "reveal":
            return greedy(view, legal)
        down = [
            i
            for i, c in enumerate(c for row in view["grids"][view["seat"]] for c in row)
            if c == "?"
        ]
        return f"reveal {slide.CELL_NAMES[down[int(rng.random() * len(down))]]}"

    return choose


#: level -> a policy built from the bot's seeded rng (``greedy:random-reveal``)
GREEDY_LEVELS: dict[str, Callable[[random.Random], Callable[[BotView, BotLegal], str]]] = {
    "random-reveal": random_reveal,
}
