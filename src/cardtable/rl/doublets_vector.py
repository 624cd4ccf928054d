"""Doublets as a Gymnasium vector environment: N games stepped at once on numpy arrays.

The companion ``cardtable.vector_envs`` of Doublets (``cardtable.rl.make_vector_env``). It plays
exactly the games of N ``CardtableGym("doublets")`` for the same seeds and actions, and gives
the same observations (``DoubletsEncoding``'s layout), masks, rewards, terminations and
truncations (``tests/rl/test_doublets_vector.py`` compares them step by step); ``step`` is array
operations over all N games, with no Python loop over them. docs/rl.md, "Vector environment".

Per game, suits never matter, so cards are their values (1..13, 0 for none):

- ``stock[i, :n_stock[i]]``, top last; ``waste[i, :n_waste[i]]``, top last (as the rules
  module keeps its lists); ``reserves[i]``, r1..r7; ``need[i]``, the value the foundation takes
  next; ``found[i]``, cards on it; ``redeals[i]``; ``counts[i, v]``, cards of value v in the
  stock (the observation's ``unseen``).

Seeds: ``reset(seed=s)`` deals game i as ``CardtableGym.reset(seed=s + i)`` does (Gymnasium's
own convention for vector seeds), or ``seed=[s0, s1, ...]`` one seed per game; each game keeps
the generator a single environment seeds with it, so a game reset later without a seed (the
autoreset) is dealt the seed that single environment would draw.

Autoreset: ``AutoresetMode.NEXT_STEP`` (Gymnasium 1.x's default): the step after a game ends
ignores that game's action and returns its new deal's observation, reward 0, not terminated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cardtable.core.rng import check_seed
from cardtable.games.doublets import (
    DECK,
    GAME,
    KING,
    NEXT,
    NON_KINGS,
    REDEALS,
    RESERVES,
)
from cardtable.rl.doublets import ACTIONS, CARD_CODES, LAYOUT, MAX_WASTE, DoubletsEncoding
from cardtable.rl.vector import deal_prefix, deal_seeds, gym_generator, next_seeds, reset_seeds

#: ``deal_key(GAME.name, seed)`` is this and the seed
_DEAL_PREFIX = deal_prefix(GAME.name)
FLIP = ACTIONS.index("flip")
REDEAL = ACTIONS.index("redeal")
#: value -> the value the foundation takes after it (0 for kings and none)
_NEXT = np.zeros(KING + 1, dtype=np.int8)
for _v, _n in NEXT.items():
    _NEXT[_v] = _n
_F = LAYOUT.by_name
_SLOTS = np.arange(MAX_WASTE)
_DECK_VALUES = np.array(DECK, dtype=np.int64) >> 2
#: of the 8 cards dealt face up, the foundation's and the reserves'
_FOUNDATION_SLOT = 6
_RESERVE_SLOTS = [0, 1, 2, 3, 4, 5, 7]
#: the columns of ``codes``: the value needed, redeals left, r1..r7, the waste (top last)
_NEED_AT, _REDEALS_AT, _RESERVES_AT = 0, 1, 2
_WASTE_AT = _RESERVES_AT + RESERVES
_CODES_SIZE = _WASTE_AT + MAX_WASTE
#: (waste size n, column of ``codes``): the observation's column of that column's one-hot's
#: value 0. The waste's slots count from the top card, so the card at position j of n is in
#: slot n - 1 - j; a position j >= n, no card (0), stands for the empty slot j
_HOT_COLUMNS = np.zeros((MAX_WASTE + 1, _CODES_SIZE), dtype=np.int64)
_HOT_COLUMNS[:, _NEED_AT] = _F["needed"].start - 1  # (needed: values 1..12)
_HOT_COLUMNS[:, _REDEALS_AT] = _F["redeals_left"].start
_HOT_COLUMNS[:, _RESERVES_AT:_WASTE_AT] = _F["reserves"].start + np.arange(RESERVES) * CARD_CODES
_SIZES = np.arange(MAX_WASTE + 1)[:, None]
_HOT_COLUMNS[:, _WASTE_AT:] = _F["waste"].start + CARD_CODES * np.where(
    _SIZES > _SLOTS, _SIZES - 1 - _SLOTS, _SLOTS
)
#: the observation's numbers from waste_size to unseen (one-hot redeals_left among them,
#: written after): ``nums`` over ``_DIVISORS``, column by column
_NUMS = slice(_F["waste_size"].start, _F["unseen"].start + KING)
_N_WASTE, _N_STOCK = _F["waste_size"].start - _NUMS.start, _F["stock"].start - _NUMS.start
_FOUND = _F["foundation"].start - _NUMS.start
_UNSEEN_AT = _F["unseen"].start - _NUMS.start
_DIVISORS = np.ones(_NUMS.stop - _NUMS.start)
_DIVISORS[[_N_WASTE, _N_STOCK]] = MAX_WASTE
_DIVISORS[_FOUND] = NON_KINGS
_DIVISORS[_UNSEEN_AT:] = 4


def deal_values(seeds: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The deals ``DoubletsState`` makes of ``seeds``, by value: the stocks (M, 44), top last,
    the reserves (M, 7) and the value each foundation needs. The deck is sorted by the 64-bit
    keys of ``deal_key("doublets", seed)`` (a stable sort, as ``shuffled``); its first 8 cards
    are the reserves and the foundation, the rest the stock, top first; a king dealt goes to
    the bottom of the stock and the stock's top card takes its place, as the rules do."""
    shake, size = hashlib.shake_256, 8 * len(DECK)
    data = b"".join([shake((_DEAL_PREFIX + str(s)).encode()).digest(size) for s in seeds])
    words = np.frombuffer(data, dtype="<u8").reshape(len(seeds), len(DECK))
    deck = _DECK_VALUES[np.argsort(words, axis=1, kind="stable")]
    slots, stock = deck[:, :8].copy(), deck[:, :7:-1].copy()
    for k in np.flatnonzero((slots == KING).any(axis=1)).tolist():
        row_slots, row_stock = slots[k].tolist(), stock[k].tolist()
        for j in range(8):
            while row_slots[j] == KING:
                row_stock.insert(0, row_slots[j])
                row_slots[j] = row_stock.pop()
        slots[k], stock[k] = row_slots, row_stock
    return stock, slots[:, _RESERVE_SLOTS], _NEXT[slots[:, _FOUNDATION_SLOT]]


def _value_counts(cards: np.ndarray) -> np.ndarray:
    """(M, 13): how many cards of each value 1..13 each row of ``cards`` (M, k) holds (0: no
    card), one ``bincount`` over all rows (a comparison with every value cost five times as
    much)."""
    m = len(cards)
    where = (np.arange(m)[:, None] * (KING + 1) + cards).reshape(-1)
    return np.bincount(where, minlength=m * (KING + 1)).reshape(m, KING + 1)[:, 1:]


class DoubletsVectorEnv(VectorEnv):
    """``num_envs`` Doublets games; the action mask is ``infos["action_mask"]`` (int8, one row
    per game, as ``CardtableGym``'s ``info["action_mask"]``). An action outside a game's mask
    ends that game's episode with ``illegal_reward``, as ``CardtableGym`` does."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1 (or None: no limit)")
        players, full = GAME.check_options(players, options or {})
        self.encoding = DoubletsEncoding(players, full)
        self.num_envs, self.max_steps, self.illegal_reward = num_envs, max_steps, illegal_reward
        self.single_observation_space = spaces.Box(low=0.0, high=LAYOUT.high(), dtype=np.float32)
        self.single_action_space = spaces.Discrete(len(ACTIONS))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self.stock = np.zeros((n, MAX_WASTE), dtype=np.int8)
        # the one-hot fields' values, one row a game (columns: ``_CODES``); the views below
        # name them, and one addition gives every 1 of the observation's one-hots
        self.codes = np.zeros((n, _CODES_SIZE), dtype=np.int64)
        self.waste = self.codes[:, _WASTE_AT:]  # top last, 0 after it
        self.wtop = np.zeros(n, dtype=np.int64)  # the waste's top card (0: none)
        self.reserves = self.codes[:, _RESERVES_AT : _RESERVES_AT + RESERVES]
        self.need = self.codes[:, _NEED_AT]
        self.redeals = self.codes[:, _REDEALS_AT]
        # the observation's numbers from waste_size on (columns: ``_NUMS``), and their views
        self.nums = np.zeros((n, len(_DIVISORS)), dtype=np.int64)
        self.n_waste = self.nums[:, _N_WASTE]
        self.n_stock = self.nums[:, _N_STOCK]
        self.found = self.nums[:, _FOUND]
        self.unseen = self.nums[:, _UNSEEN_AT : _UNSEEN_AT + KING]  # by value - 1
        self.over = np.zeros(n, dtype=bool)
        self.done = np.ones(n, dtype=bool)
        self.steps = np.zeros(n, dtype=np.int64)
        self.seeds = np.zeros(n, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._ahead: list[list[int]] = [[] for _ in range(n)]  # seeds drawn, next last
        self._rows = np.arange(n)
        self._row_starts = self._rows[:, None] * LAYOUT.size
        self._hot = np.zeros((n, _CODES_SIZE), dtype=np.int64)
        self._mask_now = np.zeros((n, len(ACTIONS)), dtype=np.int8)

    # -- dealing ------------------------------------------------------------------------------
    def _deal(self, rows: list[int], seeds: list[int]) -> None:
        """Games ``rows`` dealt ``seeds`` (the rules' cards: ``deal_values``)."""
        stock, reserves, need = deal_values([check_seed(s) for s in seeds])
        self.stock[rows] = stock
        self.n_stock[rows] = MAX_WASTE
        self.unseen[rows] = _value_counts(stock)
        self.waste[rows] = 0
        self.n_waste[rows] = self.wtop[rows] = 0
        self.reserves[rows] = reserves
        self.need[rows], self.found[rows] = need, 1
        self.redeals[rows] = REDEALS
        self.over[rows] = self.done[rows] = False
        self.steps[rows], self.seeds[rows] = 0, seeds

    def _redeal_games(self, rows: list[int]) -> None:
        """Games ``rows`` dealt again without a seed: the next seed from each one's generator."""
        self._deal(rows, next_seeds(rows, self._rngs, self._ahead))

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        # as ``CardtableGym.reset(seed=s)``: the deal is s, the generator seeded by s
        rows = list(range(self.num_envs))
        asked = reset_seeds(seed, self.num_envs)
        seeds = deal_seeds(rows, asked, self._rngs, self._ahead, reseed=gym_generator)
        self._deal(rows, seeds)
        self._read()
        return self._observe(), self._infos()

    # -- stepping -----------------------------------------------------------------------------
    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if (actions.view(np.uint64) >= len(ACTIONS)).any():  # (a negative one: huge)
            raise ValueError(f"action indices must be in 0..{len(ACTIONS) - 1}")
        fresh = np.flatnonzero(self.done).tolist()  # NEXT_STEP: ended last step, dealt anew now
        live = ~self.done
        if fresh:
            self._redeal_games(fresh)
        legal = self._mask_now.reshape(-1)[self._rows * len(ACTIONS) + actions] != 0
        moving = live & legal
        flip = moving & (actions == FLIP)
        self._flip(np.flatnonzero(flip))
        self._redeal(np.flatnonzero(moving & (actions == REDEAL)))
        self._play(np.flatnonzero(moving & (actions < FLIP)), actions)
        self.steps += live
        self._read()
        ended = moving & self.over
        rewards = np.where(ended, self.found / NON_KINGS, 0.0)
        illegal = live & ~legal
        rewards[illegal] = self.illegal_reward
        terminated = ended | illegal
        if self.max_steps is not None:
            cut = moving & ~self.over & (self.steps >= self.max_steps)
        else:
            cut = np.zeros(self.num_envs, dtype=bool)
        self.done = terminated | cut
        return self._observe(), rewards, terminated, cut, self._infos()

    def _flip(self, rows: np.ndarray) -> None:
        top = self.n_stock[rows] - 1
        card = self.stock[rows, top]
        size = self.n_waste[rows]
        self.waste[rows, size] = self.wtop[rows] = card
        self.n_waste[rows] = size + 1
        self.n_stock[rows] = top
        self.unseen[rows, card - 1] -= 1

    def _redeal(self, rows: np.ndarray) -> None:
        if rows.size == 0:
            return
        # the stock becomes the waste turned over: its bottom card on top
        n = self.n_waste[rows]
        back = n[:, None] - 1 - _SLOTS
        self.stock[rows] = np.where(back >= 0, self.waste[rows[:, None], np.maximum(back, 0)], 0)
        self.unseen[rows] = _value_counts(self.waste[rows])
        self.waste[rows] = 0
        self.n_stock[rows], self.n_waste[rows], self.wtop[rows] = n, 0, 0
        self.redeals[rows] -= 1

    def _play(self, rows: np.ndarray, actions: np.ndarray) -> None:
        source = actions[rows]
        from_waste = source == 0
        self._pop_waste(rows[from_waste])
        rrows, slot = rows[~from_waste], source[~from_waste] - 1
        # the emptied reserve refills: from the waste, else the stock, else stays empty
        nw, ns = self.n_waste[rrows], self.n_stock[rrows]
        by_waste, by_stock = nw > 0, (nw == 0) & (ns > 0)
        new = np.zeros(len(rrows), dtype=np.int64)
        new[by_waste] = self.wtop[rrows[by_waste]]
        self._pop_waste(rrows[by_waste])
        srows = rrows[by_stock]
        top = ns[by_stock] - 1
        new[by_stock] = self.stock[srows, top]
        self.n_stock[srows] = top
        self.unseen[srows, new[by_stock] - 1] -= 1
        self.reserves[rrows, slot] = new
        self.found[rows] += 1
        self.need[rows] = _NEXT[self.need[rows]]  # the card played was the one needed

    def _pop_waste(self, rows: np.ndarray) -> None:
        size = self.n_waste[rows] - 1
        self.waste[rows, size] = 0
        self.n_waste[rows] = size
        below = self.waste[rows, np.maximum(size - 1, 0)]
        self.wtop[rows] = np.where(size > 0, below, 0)

    # -- reading ------------------------------------------------------------------------------
    def _read(self) -> None:
        """Which of the waste's top and r1..r7 fit the foundation now, and which games are
        over (the position as the mask and the observation read it)."""
        mask = np.empty((self.num_envs, len(ACTIONS)), dtype=bool)
        np.equal(self.wtop, self.need, mask[:, 0])
        np.equal(self.reserves, self.need[:, None], mask[:, 1:FLIP])
        stock = np.greater(self.n_stock, 0, mask[:, FLIP])
        mask[:, REDEAL] = ~stock & (self.n_waste > 0) & (self.redeals > 0)
        # stuck: nothing to play, no card to flip, no redeal
        self.over = (self.found == NON_KINGS) | ~mask.any(axis=1)
        mask &= ~self.over[:, None]
        self._mask_now = mask.view(np.int8)

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask_now.copy(),  # the next step checks against its own
            "_action_mask": np.ones(self.num_envs, dtype=bool),
        }

    def _observe(self) -> np.ndarray:
        out = np.zeros((self.num_envs, LAYOUT.size), dtype=np.float32)
        out[:, _NUMS] = self.nums / _DIVISORS
        out[:, _F["over"].start] = self.over
        hot = np.take(_HOT_COLUMNS, self.n_waste, axis=0, out=self._hot, mode="clip")
        hot += self.codes
        hot += self._row_starts
        out.reshape(-1)[hot.reshape(-1)] = 1
        return out
