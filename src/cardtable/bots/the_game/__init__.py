"""The Game's own bots, and its greedy policy (the ``greedy`` bot's in The Game).

- ``expert``: ``ExpertBot``, planning each turn over sampled hands, with the exhaustive
  endgame (``cardtable.solvers.the_game_endgame``) once the draw pile is empty; never talks.
- ``team``: ``TeamBot``, the expert that also gives and reads the pile signals.
- here: ``greedy``, the policy of the ``greedy`` bot.
"""

from __future__ import annotations

from cardtable.bots import BotLegal, BotView
from cardtable.games import the_game


def greedy(view: BotView, legal: BotLegal) -> str:
    """Smallest jumps first, every backwards trick; extra cards only for tricks and jumps of 1."""
    tops = [view["piles"][p] for p in the_game.PILES]
    choice = the_game.greedy_play(view["hand"], tops, view["played_this_turn"], view["minimum"])
    if choice is None:
        return "end"
    return the_game.play_text(*choice)
