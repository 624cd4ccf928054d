"""Solvers: full-knowledge tools that read the true state of a deal (hidden cards included).

They answer questions about a deal ("is it winnable, and how?"); they are not players. A bot
must never hand them a real state: bots see views only (``cardtable.bots``).
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
