"""Slide as a Gymnasium vector environment: N games of 2-6 seats stepped at once on arrays.

The companion ``cardtable.vector_envs`` of Slide (``make_vector_env("slide", N, players=P)``).
Every seat is a learner (self-play): a vector step is one step of N ``CardtableAEC("slide")``
stepped in order (``cardtable.rl.seats_vector``), the observation and mask those of the seat
to act (``infos["seat"]``), rewards per seat ``(N, P)``. ``tests/rl/test_slide_vector.py``
compares it with N AEC environments step by step. docs/rl.md, "Vector environment".

The reveal is simultaneous, and the AEC takes it one seat after another in seat order, each
choice **buffered** until every seat has chosen: so here, ``pending[i, s]`` holds seat s's
chosen cell, which no observation shows (the view before the reveal stays what every seat
sees, ``chosen`` and ``choice`` 0), and the last choice applies them all.

Per env, as ``SlideState`` keeps it: ``grid[i, s]``, 16 cells (a face-up card its value, a
face-down card minus its value, the hole 0), ``hole[i, s]`` (-1: none), ``centre[i, v]`` the
count of centre cards of value v, ``phase`` (0 reveal, 1 take, 2 over), ``round``, ``first``,
``taken``, the deal's number and each seat's totals and cards left over the deals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardtable.core.rng import deal_key
from cardtable.games.slide import (
    ADJACENT_PAIRS,
    CELLS,
    DECK,
    DIRECTIONS,
    GAME,
    MAX_TARGET,
    ROUNDS,
    _slide_path,
)
from cardtable.rl.encoding import load_encoding
from cardtable.rl.seats_vector import SeatsVectorEnv
from cardtable.rl.slide import _F, CELL_CODES, MAX_SEATS, VALUES

REVEAL, TAKE, OVER = 0, 1, 2
TAKE0 = CELLS  # actions 16..55: take V D, 16 + 4 (V - 1) + D
N_ACTIONS = TAKE0 + VALUES * len(DIRECTIONS)
DECK_VALUES = np.array(DECK, dtype=np.int64)
BLOCK = _F["seat1.present"].start - _F["seat0.present"].start  # 197 numbers a seat
SEAT0 = _F["seat0.present"].start


def _push_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per hole (0..15, and -1 for none: row 16) and direction: whether the push is legal, the
    cell each cell takes its card from, and the cell the new card enters."""
    ok = np.zeros((CELLS + 1, 4), dtype=bool)
    perm = np.tile(np.arange(CELLS), (CELLS + 1, 4, 1))
    entry = np.zeros((CELLS + 1, 4), dtype=np.int64)
    for hole in range(CELLS):
        for d, name in enumerate(DIRECTIONS):
            path = _slide_path(hole, name)
            if path is None:
                continue
            ok[hole, d] = True
            for k in range(len(path) - 1):
                perm[hole, d, path[k]] = path[k + 1]
            entry[hole, d] = path[-1]
    return ok, perm, entry


PUSH_OK, PUSH_FROM, PUSH_ENTRY = _push_tables()
#: PUSH_OK's four bools of a hole as the four bytes of one word (the mask's takes of one
#: value), whatever the byte order
PUSH_WORD = np.ascontiguousarray(PUSH_OK.astype(np.uint8)).view(np.uint32)[:, 0]


def _centre_numbers() -> np.ndarray:
    """The encoding's ``centre`` number for k cards of a value: k additions of 1/6 in float32,
    as ``SlideEncoding.observe`` sums them."""
    out = np.zeros(MAX_SEATS + 1, dtype=np.float32)
    for k in range(1, MAX_SEATS + 1):
        cell = np.zeros(1, dtype=np.float32)
        for _ in range(k):
            cell[0] += 1 / MAX_SEATS
        out[k] = cell[0]
    return out


CENTRE_NUMBERS = _centre_numbers()
#: a cell's one-hot code by its int + 10 (-10..10): the hole 0, face down 1, face up 1 + value;
#: once the game is over every card shows its value
CODE = np.array([1] * VALUES + [0] + [1 + v for v in range(1, VALUES + 1)], dtype=np.int64)
CODE_OVER = np.array([1 + v for v in range(VALUES, 0, -1)] + [0] + list(CODE[VALUES + 1 :]))


def _cell_columns(players: int) -> np.ndarray:
    """(viewer, seat * 16 + cell): the first column of that cell's one-hot code in the
    observation of ``viewer`` (seats counted from the viewer)."""
    seats = np.arange(players)
    block = (seats[None, :] - seats[:, None]) % players  # (viewer, seat)
    first = SEAT0 + BLOCK * block + _F["seat0.cells"].start - SEAT0
    return (first[:, :, None] + np.arange(CELLS) * CELL_CODES).reshape(players, -1)


def deals(seeds: list[int], deal_nos: np.ndarray) -> np.ndarray:
    """(M, 100) the cards ``SlideState`` deals for each seed's deal number: the deck sorted by
    the 64-bit keys of ``deal_key("slide", seed, deal)`` (a stable sort, as ``shuffled``)."""
    data = b"".join(
        hashlib.shake_256(deal_key(GAME.name, s, int(d)).encode()).digest(8 * len(DECK))
        for s, d in zip(seeds, deal_nos, strict=True)
    )
    words = np.frombuffer(data, dtype="<u8").reshape(len(seeds), len(DECK))
    return DECK_VALUES[np.argsort(words, axis=1, kind="stable")]


class SlideVectorEnv(SeatsVectorEnv):
    """``num_envs`` games of Slide for ``players`` seats (2..6), every seat a learner, as N
    ``make_env("slide", players, options, max_steps=...)`` stepped in order (module
    docstring); ``illegal_reward`` for an action the mask refuses."""

    def __init__(
        self,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        count, self.options = GAME.check_options(players, options or {})
        super().__init__(
            num_envs, count, load_encoding(GAME, count, self.options), max_steps, illegal_reward
        )
        n, p = num_envs, count
        self.target: int | None = self.options["target"]
        # a byte a cell (-10..10, codes 0..11): each step reads every seat's codes and a push
        # moves whole rows, so int64's eight times the bytes missed the caches (9 % of a step
        # at 6 seats)
        self.grid = np.zeros((n, p, CELLS), dtype=np.int8)
        #: each cell's one-hot code in the observation (``CODE``: the hole 0, face down 1,
        #: face up 1 + value), kept beside the grid: a lookup over every cell costs more
        self.codes = np.zeros((n, p, CELLS), dtype=np.int8)
        self.hole = np.full((n, p), -1, dtype=np.int64)
        self.pending = np.full((n, p), -1, dtype=np.int64)
        self.centre = np.zeros((n, VALUES + 1), dtype=np.int64)
        self.phase = np.full(n, OVER, dtype=np.int64)
        self.round = np.ones(n, dtype=np.int64)
        self.first = np.zeros(n, dtype=np.int64)
        self.taken = np.zeros(n, dtype=np.int64)
        self.deal_no = np.zeros(n, dtype=np.int64)
        self.totals = np.zeros((n, p), dtype=np.int64)
        self.counts = np.zeros((n, p), dtype=np.int64)
        #: per value, the cards face up this deal (the centre's and the grids': a card once
        #: revealed stays face up, so this counts the reveals)
        self.shown = np.zeros((n, VALUES + 1), dtype=np.int64)
        self._cells = _cell_columns(p)
        #: (viewer, seat): the first column of that seat's block in the viewer's observation
        self._blocks = SEAT0 + BLOCK * ((np.arange(p)[None, :] - np.arange(p)[:, None]) % p)
        self._row_starts = self.rows[:, None] * self.encoding.size

    # -- deals ------------------------------------------------------------------------------
    def _deal(self, rows: np.ndarray, seeds: list[int]) -> None:
        self.first[rows] = self.options["start"]
        self.totals[rows] = 0
        self.counts[rows] = 0
        self.deal_no[rows] = 0
        self._new_deal(rows)

    def _new_deal(self, rows: np.ndarray) -> None:
        """The next deal of the envs ``rows`` (``SlideState._new_deal``)."""
        p = self.players
        self.deal_no[rows] += 1
        cards = deals([self.seeds[i] for i in rows], self.deal_no[rows])
        self.grid[rows] = -cards[:, : p * CELLS].reshape(rows.size, p, CELLS)
        self.codes[rows] = CODE[VALUES - 1]  # all face down
        self.hole[rows] = -1
        self.pending[rows] = -1
        self.centre[rows] = 0
        self.shown[rows] = 0
        self.phase[rows] = REVEAL
        self.round[rows] = 1
        self.taken[rows] = 0
        self.over[rows] = False

    # -- the rules --------------------------------------------------------------------------
    def _turn(self) -> np.ndarray:
        return (self.first + self.taken) % self.players

    def _actor(self) -> np.ndarray:
        # the reveal: the first seat in seat order that has not chosen (the AEC's order)
        waiting = np.argmax(self.pending < 0, axis=1)
        return np.where(self.phase == REVEAL, waiting, self._turn())

    def _apply(self, rows: np.ndarray, seat: np.ndarray, a: np.ndarray) -> None:
        """A reveal is buffered in ``pending`` (the last seat's applies them all); a take
        pushes the card into the seat's grid from its side, toward the hole."""
        act, who = a[rows], seat[rows]
        reveal = act < TAKE0
        chose = rows[reveal]
        self.pending[chose, who[reveal]] = act[reveal]
        self._resolve(chose[(self.pending[chose] >= 0).all(axis=1)])
        took, who, take = rows[~reveal], who[~reveal], act[~reveal] - TAKE0
        value, d = take // 4 + 1, take % 4
        self.centre[took, value] -= 1
        hole = self.hole[took, who]
        first = (took * self.players + who)[:, None] * CELLS  # each grid's first flat index
        source, entry = first + PUSH_FROM[hole, d], PUSH_ENTRY[hole, d]
        for cells, new in ((self.grid, value), (self.codes, 1 + value)):  # face up
            pushed = np.take(cells, source)
            pushed[np.arange(took.size), entry] = new
            cells.reshape(-1)[first + np.arange(CELLS)] = pushed
        self.hole[took, who] = -1
        self.taken[took] += 1
        self._end_round(took[self.taken[took] == self.players])

    def _resolve(self, rows: np.ndarray) -> None:
        """Every seat has chosen: the chosen cards go face up to the centre, in seat order."""
        if rows.size == 0:
            return
        cells = self.pending[rows]
        for s in range(self.players):
            card = -self.grid[rows, s, cells[:, s]]
            self.centre[rows, card] += 1
            self.shown[rows, card] += 1
            self.grid[rows, s, cells[:, s]] = 0
            self.codes[rows, s, cells[:, s]] = 0
        self.hole[rows] = cells
        self.pending[rows] = -1
        self.phase[rows] = TAKE
        self.taken[rows] = 0

    def _end_round(self, rows: np.ndarray) -> None:
        if rows.size == 0:
            return
        self.first[rows] = (self.first[rows] + 1) % self.players
        more = self.round[rows] < ROUNDS
        self.round[rows[more]] += 1
        self.phase[rows[more]] = REVEAL
        self._score(rows[~more])

    def _score(self, rows: np.ndarray) -> None:
        """A deal's end: cards with an equal orthogonal neighbour cancel, the rest count; the
        game ends at the target (or after one deal without one), else the next deal."""
        if rows.size == 0:
            return
        grid = self.grid[rows]
        gone = np.zeros(grid.shape, dtype=bool)
        for i, j in ADJACENT_PAIRS:
            same = grid[:, :, i] == grid[:, :, j]
            gone[:, :, i] |= same
            gone[:, :, j] |= same
        self.totals[rows] += np.where(gone, 0, grid).sum(axis=2)
        self.counts[rows] += (~gone).sum(axis=2)
        if self.target is None:
            ended = np.ones(rows.size, dtype=bool)
        else:
            ended = self.totals[rows].max(axis=1) >= self.target
        self.phase[rows[ended]] = OVER
        self.over[rows[ended]] = True
        self._new_deal(rows[~ended])

    def _rewards(self, rows: np.ndarray) -> np.ndarray:
        """``place_rewards`` of the ranks (totals, then cards left: fewer is better)."""
        tot, cnt = self.totals[rows], self.counts[rows]
        t_s, t_o = tot[:, :, None], tot[:, None, :]
        c_s, c_o = cnt[:, :, None], cnt[:, None, :]
        rank = 1 + ((t_o < t_s) | ((t_o == t_s) & (c_o < c_s))).sum(axis=2)
        equal = (rank[:, :, None] == rank[:, None, :]).sum(axis=2)
        place = rank - 1 + (equal + 1) / 2
        return np.asarray(1.0 - 2.0 * (place - 1) / (self.players - 1), dtype=np.float64)

    # -- what a seat sees -------------------------------------------------------------------
    def _legal(self, seat: np.ndarray) -> np.ndarray:
        n, p = self.num_envs, self.players
        at = self.rows * p + seat  # (env, seat) as one index
        mask = np.empty((n, N_ACTIONS), dtype=bool)
        revealing = (self.phase == REVEAL) & (self.pending.reshape(-1)[at] < 0)
        down = np.take(self.codes.reshape(n * p, CELLS), at, axis=0) == CODE[VALUES - 1]
        np.logical_and(down, revealing[:, None], out=mask[:, :TAKE0])
        taking = (self.phase == TAKE) & (self._turn() == seat)
        pushes = np.take(PUSH_WORD, self.hole.reshape(-1)[at]) * taking  # (N,) words
        takes = mask[:, TAKE0:].view(np.uint32)  # (N, 10): a value's four takes a word
        np.multiply(self.centre[:, 1:] > 0, pushes[:, None], out=takes)
        return mask.view(np.int8)

    def _observe(self, seat: np.ndarray) -> np.ndarray:
        """``SlideEncoding.observe`` of each env's view for ``seat`` (the buffered reveal
        choices never shown). The 1s of the one-hots go in by flat index, one write."""
        n, p = self.num_envs, self.players
        out = np.zeros((n, self.encoding.size), dtype=np.float32)
        flat = out.reshape(-1)
        starts = self._row_starts  # (N, 1): each row's first flat index
        base = np.take(self._blocks, seat, axis=0)  # (N, P): each seat's block, by seat
        base += starts
        hot = np.take(self._cells, seat, axis=0)
        hot += self.codes.reshape(n, p * CELLS)
        ended = np.flatnonzero(self.over)  # (at the end of a deal every card is face up anyway)
        grid = self.grid[ended].reshape(ended.size, p * CELLS)
        hot[ended] += CODE_OVER[grid + VALUES] - self.codes[ended].reshape(ended.size, p * CELLS)
        hot += starts
        flat[hot] = 1
        flat[base] = 1  # present
        flat[starts[:, 0] + (_F["phase"].start + self.phase)] = 1
        out[:, _F["players"].start + p - 2] = 1
        taking = np.flatnonzero(self.phase == TAKE)
        turn = base[taking, self._turn()[taking]]
        flat[turn + (_F["seat0.turn"].start - SEAT0)] = 1
        going = np.flatnonzero(~self.over)
        flat[base[going, self.first[going]] + (_F["seat0.first"].start - SEAT0)] = 1
        flat[base + (_F["seat0.total"].start - SEAT0)] = self.totals / 100
        out[:, _F["round"].start] = self.round / ROUNDS
        if self.target is not None:
            out[:, _F["target"].start] = self.target / MAX_TARGET
        f = _F["centre"].start
        out[:, f : f + VALUES] = np.take(CENTRE_NUMBERS, self.centre[:, 1:])
        f = _F["unseen"].start
        out[:, f : f + VALUES] = np.maximum(VALUES - self.shown[:, 1:], 0) / VALUES
        return out
