"""A duplicate challenge: every entry plays the same deals; entries rank by the games' own
scores (The Game: cards left, fewest best; Doublets: cards on the foundation, most best).

An entry's score is the sum over the challenge's deals; an entry that has not finished every
deal ranks below every one that has (more deals finished first), then by score, then by the
time it took (less is better). Entries equal in all three share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """An entry (a player alone, or a team) and its deals' scores so far."""

    id: str
    #: per deal of the challenge, the game's own score once that deal is over (None: not yet)
    scores: tuple[int | None, ...]
    #: the time the entry took over its finished deals, in seconds
    seconds: float = 0.0

    @property
    def finished(self) -> int:
        return sum(1 for s in self.scores if s is not None)

    @property
    def total(self) -> int:
        return sum(s for s in self.scores if s is not None)


def rank_entries(entries: Sequence[Entry], better: str = "low") -> list[tuple[int, Entry]]:
    """The entries, best first, each with its place (equal entries share one: 1, 1, 3)."""
    sign = 1 if better == "low" else -1

    def key(e: Entry) -> tuple[int, int, float]:
        return (-e.finished, sign * e.total, e.seconds)

    ranked = sorted(entries, key=key)
    placed: list[tuple[int, Entry]] = []
    for i, entry in enumerate(ranked):
        tie = i > 0 and key(ranked[i - 1]) == key(entry)
        placed.append((placed[-1][0] if tie else i + 1, entry))
    return placed
