"""A full-knowledge Slide player: how far could ``search:hard`` get if nothing were hidden?

It searches exactly as ``cardtable.bots.slide.search.SearchBot`` does (the same candidates,
rollout policies and scoring), but reads the true state: every face-down value, and the
reveals the other seats have already chosen. With nothing left to sample, one rollout per
candidate is the whole search. It is a study tool for ``bench/slide_bots.py`` (bot
``oracle``), not a player: like every solver it must never sit at a table.

What it measures: what knowing every card is worth to this search. It is no ceiling for Slide
(a different search could do better still), nor quite for the fair bot: one rollout per
candidate judges the future by a single playout of the other seats, whose future choices stay
unknown to it as to everyone, where the fair bot averages over many (docs/bots-lab.md, "How far
full knowledge takes this search").
"""

from __future__ import annotations

from cardtable.bots import BotView
from cardtable.bots.slide.search import SearchBot
from cardtable.games.slide import SlideState


class SlideOracle(SearchBot):
    """``search:hard`` with the true state instead of samples (one rollout per candidate)."""

    def __init__(self, state: SlideState, seed: int = 0) -> None:
        super().__init__("slide", seed, "hard")
        self.state = state  # read at every decision: the game moves it on
        self.samples = self.first_samples = 1

    def _grids(self, view: BotView) -> list[list[int]]:
        return [grid.copy() for grid in self.state.grids]  # face down: -value

    def _sample(self, view: BotView) -> tuple[None, list[int], None]:
        return None, list(self.state.pending), None
