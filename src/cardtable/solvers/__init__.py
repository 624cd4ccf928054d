"""Solvers: full-knowledge tools that read the true state of a deal (hidden cards included).

They answer questions about a deal ("is it winnable, and how?"); they are not players. A bot
must never hand them a real state: bots see views only (``cardtable.bots``). Bots may use a
solver on a position they rebuilt from their own view (Doublets' fair bot, The Game's
endgame): the searches both need live here, below the bots, and nothing here imports a bot.

- ``doublets``: a position's or a whole deal's exact answer (the peek, ``cardtable solve``).
- ``the_game``: a whole deal with every hand open; ``the_game_endgame``: the exhaustive
  search once the draw pile is empty, shared with the bots that track every card played.
- ``batch``: many deals at once, for ``cardtable solve``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Solution:
    """What ``solve`` found. ``line`` replays through the engine to a win when ``status`` is
    ``"won"``; ``proof`` says why a lost deal is lost (or why the answer is unknown)."""

    status: str  # "won", "lost" or "unknown" (only when a node budget was given and hit)
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    proof: str = ""
    seconds: float = 0.0

    @property
    def won(self) -> bool:
        return self.status == "won"
