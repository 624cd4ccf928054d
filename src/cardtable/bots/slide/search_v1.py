"""FROZEN: the Slide search bot as it was before issue #12 (``search-v1``), a baseline.

A verbatim copy of ``cardtable.bots.slide.search`` at that time, kept so that the evaluation
panel (bench/slide_bots.py) always measures against the same opponent. Do not change its play:
tests/bots/slide/test_search.py holds it to decisions recorded before the copy was made.

The original description follows.

A Monte Carlo search bot for Slide, deciding from its seat's view alone.

Slide hides nothing but face-down values (unknown to everyone, their owner too) and the other
seats' pending reveals, so the search samples those from the view (``slide.sample_state``) and
plays each candidate action out to the end of the deal with every seat greedy, scoring the
margin against the best other seat. Averages over samples pick the action.

Two things keep it cheap and steady:

- Common random numbers. Face-down cards are exchangeable, so instead of fixing a value per
  cell, each sample fixes per seat the *sequence* of values its reveals will show. Every
  candidate then meets the same cards in the same order, and the comparison between candidates
  is not drowned by which card happened to lie under which cell.
- A rollout engine of its own on plain lists (face up: value, face down: -1, hole: 0), whose
  greedy take scores each push once for every value instead of once per (value, push), and
  plays exactly like ``slide.greedy_take`` (same choices, same tie order).

Candidates are narrowed by successive halving: all are tried on a few samples, the better half
on more, and so on, so the budget goes to the close calls.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cardtable.bots import BotLegal, BotView
from cardtable.core.errors import BadOptions
from cardtable.games import slide

CELLS = slide.CELLS
NEIGHBOURS = slide.NEIGHBOURS
SLICES = slide.SLICES
CELL_INDEX = slide.CELL_INDEX
ROUNDS = slide.ROUNDS
# the greedy reveal as a fixed preference order: most pushes first, then lowest index
REVEAL_ORDER = tuple(sorted(range(CELLS), key=lambda i: (-len(slide.PUSHES[i]), i)))
# per hole: (direction, dst, src, entry, entry's neighbours) for each legal push
_PUSHES = tuple(
    tuple((d, dst, src, entry, NEIGHBOURS[entry]) for d, dst, src, entry in SLICES[h])
    for h in range(CELLS)
)


# -- the rollout engine ---------------------------------------------------------------------
def _unpaired(t: list[int]) -> int:
    """Sum of the face-up cards with no equal orthogonal neighbour (``slide.unpaired_sum``)."""
    total = 0
    for i in range(CELLS):
        v = t[i]
        if v > 0:
            for j in NEIGHBOURS[i]:
                if t[j] == v:
                    break
            else:
                total += v
    return total


def _is_unpaired(t: list[int], i: int) -> bool:
    v = t[i]
    if v <= 0:
        return False
    return all(t[j] != v for j in NEIGHBOURS[i])


def greedy_take_fast(grid: list[int], hole: int, values: list[int]) -> tuple[int, int]:
    """``slide.greedy_take`` for distinct sorted ``values``: (value, push index in _PUSHES).

    Each push is scored once with the entry cell empty; a value then only changes the entry
    cell and the neighbours it pairs with.
    """
    pushes = _PUSHES[hole]
    scores = []  # per push: (base sum, [(neighbour value, neighbour unpaired)])
    for _d, dst, src, entry, nbs in pushes:
        t = grid.copy()
        t[dst] = t[src]
        t[entry] = 0  # empty for now: pairs with nothing
        scores.append((_unpaired(t), [(t[j], _is_unpaired(t, j)) for j in nbs]))
    best = None
    best_v = best_k = 0
    for v in values:
        for k in range(len(pushes)):
            base, around = scores[k]
            paired = False
            score = base
            for w, alone in around:
                if w == v:
                    paired = True
                    if alone:
                        score -= v
            if not paired:
                score += v
            if best is None or score < best:
                best, best_v, best_k = score, v, k
    return best_v, best_k


def rollout(
    grids: list[list[int]],
    holes: list[int],
    first: int,
    rnd: int,
    centre: list[int],
    taken: int,
    draws: list[list[int]],
    n: int,
) -> list[int]:
    """Play the deal out from a take phase, every seat greedy; return each seat's deal score.

    ``grids`` and ``centre`` are changed in place. ``draws[s]`` lists the values seat ``s``
    reveals from now on, in order (face-down cells hold -1, whatever they hide).
    """
    ptr = [0] * n
    while True:
        for k in range(taken, n):
            s = (first + k) % n
            grid = grids[s]
            hole = holes[s]
            v, p = greedy_take_fast(grid, hole, sorted(set(centre)))
            _d, dst, src, entry, _nbs = _PUSHES[hole][p]
            grid[dst] = grid[src]
            grid[entry] = v
            centre.remove(v)
        first = (first + 1) % n
        if rnd == ROUNDS:
            return [_unpaired(g) for g in grids]
        rnd += 1
        taken = 0
        for s in range(n):
            grid = grids[s]
            for cell in REVEAL_ORDER:
                if grid[cell] < 0:
                    break
            grid[cell] = 0
            holes[s] = cell
            centre.append(draws[s][ptr[s]])
            ptr[s] += 1


# -- reading the view -----------------------------------------------------------------------
def _grid_of(rows: list[list[Any]]) -> list[int]:
    return [0 if c is None else -1 if c == "?" else c for row in rows for c in row]


class SearchBot:
    """Determinized Monte Carlo search with greedy rollouts; the level sets the budget."""

    games = ("slide",)
    #: a frozen baseline for benches: the server does not offer it to players
    research = True
    #: level -> samples a finalist is tried on, samples in the first halving stage, whether
    #: reveals are searched (else greedy), and a safety cap in CPU seconds per decision
    LEVELS: dict[str, dict[str, Any]] = {
        "easy": {"samples": 1, "first": 1, "search_reveals": False, "cap": 0.5},
        "normal": {"samples": 3, "first": 3, "search_reveals": True, "cap": 0.5},
        "hard": {"samples": 8, "first": 2, "search_reveals": True, "cap": 0.8},
    }

    def __init__(self, game: str, seed: int = 0, level: str | None = None) -> None:
        level = level or "normal"
        if level not in self.LEVELS:
            raise BadOptions(f"the search bot's levels are {', '.join(self.LEVELS)}, not {level!r}")
        self.game = game
        self.level = level
        self.rng = random.Random(seed)
        config = self.LEVELS[level]
        self.samples: int = config["samples"]
        self.first_samples: int = config["first"]
        self.search_reveals: bool = config["search_reveals"]
        self.cap: float = config["cap"]

    def choose(self, view: BotView, legal: BotLegal) -> str:
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == "reveal" and not self.search_reveals:
            seat = view["seat"]
            down = [i for i, c in enumerate(_grid_of(view["grids"][seat])) if c < 0]
            pick = slide.CELL_NAMES[slide.greedy_reveal(down)]
            if f"reveal {pick}" in legal:
                return f"reveal {pick}"
        return legal[self._search(view, legal)]

    def _sample(self, view: BotView) -> tuple[list[list[int]], list[int]]:
        """One sample: per seat the values its reveals will show, and every pending reveal."""
        state = slide.sample_state(view, self.rng)
        # the sampler draws face-down values at random, so cell order is a random order
        draws = [[-v for v in grid if v < 0] for grid in state.grids]
        return draws, state.pending

    def _search(self, view: BotView, legal: BotLegal) -> int:
        """Successive halving over the legal actions; the index of the best."""
        start = time.process_time()
        n = view["players"]
        seat = view["seat"]
        grids = [_grid_of(rows) for rows in view["grids"]]
        holes = [CELL_INDEX[h] if h is not None else -1 for h in view["holes"]]
        first = view["first"]
        rnd = view["round"]
        totals = view["totals"]
        taken = 0  # seats that took before this one (take phase)
        if view["phase"] == "take":
            taken = (view["turn"] - first) % n + 1
        actions = [a.split() for a in legal]

        def evaluate(words: list[str], draws: list[list[int]], pending: list[int]) -> float:
            g = [grid.copy() for grid in grids]
            h = holes.copy()
            if words[0] == "reveal":
                pend = pending.copy()
                pend[seat] = CELL_INDEX[words[1]]
                centre = []
                for s in range(n):
                    grid = g[s]
                    cell = pend[s]
                    if cell < 0:  # not chosen yet: it will reveal greedily
                        for cell in REVEAL_ORDER:
                            if grid[cell] < 0:
                                break
                    grid[cell] = 0
                    h[s] = cell
                    centre.append(draws[s][0])
                rest = [d[1:] for d in draws]
                done = 0
            else:
                centre = list(view["centre"])
                v = int(words[1])
                slide.push(g[seat], h[seat], words[2], v)
                centre.remove(v)
                rest = draws
                done = taken
            scores = rollout(g, h, first, rnd, centre, done, rest, n)
            mine = totals[seat] + scores[seat]
            # the margin over the best other seat: what decides a win
            return min(totals[s] + scores[s] for s in range(n) if s != seat) - mine

        candidates = list(range(len(legal)))
        sums = [0.0] * len(legal)
        seen = 0
        per_stage = self.first_samples
        while True:
            for _ in range(per_stage):
                draws, pending = self._sample(view)
                for i in candidates:
                    sums[i] += evaluate(actions[i], draws, pending)
            seen += per_stage
            # stable sort: ties keep legal order, so the choice is reproducible
            candidates.sort(key=lambda i: -sums[i])
            if (
                len(candidates) <= 1
                or seen >= self.samples
                or time.process_time() - start > self.cap
            ):
                break
            candidates = candidates[: (len(candidates) + 1) // 2]
            per_stage = min(self.samples - seen, max(per_stage, seen))
        return candidates[0]
