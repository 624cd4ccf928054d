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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cardtable.games.doublets import GAME, KING, NEXT, NON_KINGS, RESERVES, DoubletsState
from cardtable.rl.doublets import ACTIONS, CARD_CODES, LAYOUT, MAX_WASTE, DoubletsEncoding
from cardtable.rl.vector import reset_seeds

#: seeds drawn for a reset without one, as ``CardtableGym`` draws them
_SEED_SPAN = 2**63
FLIP = ACTIONS.index("flip")
REDEAL = ACTIONS.index("redeal")
#: value -> the value the foundation takes after it (0 for kings and none)
_NEXT = np.zeros(KING + 1, dtype=np.int8)
for _v, _n in NEXT.items():
    _NEXT[_v] = _n
_F = LAYOUT.by_name
_SLOTS = np.arange(MAX_WASTE)
_RESERVE_COLS = _F["reserves"].start + np.arange(RESERVES) * CARD_CODES
_WASTE_COLS = _F["waste"].start + _SLOTS * CARD_CODES


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
        self.waste = np.zeros((n, MAX_WASTE), dtype=np.int8)
        self.n_stock = np.zeros(n, dtype=np.int64)
        self.n_waste = np.zeros(n, dtype=np.int64)
        self.reserves = np.zeros((n, RESERVES), dtype=np.int8)
        self.need = np.zeros(n, dtype=np.int64)
        self.found = np.zeros(n, dtype=np.int64)
        self.redeals = np.zeros(n, dtype=np.int64)
        self.counts = np.zeros((n, KING + 1), dtype=np.int64)
        self.over = np.zeros(n, dtype=bool)
        self.done = np.ones(n, dtype=bool)
        self.steps = np.zeros(n, dtype=np.int64)
        self.seeds = np.zeros(n, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._rows = np.arange(n)
        self._mask_now = np.zeros((n, len(ACTIONS)), dtype=np.int8)

    # -- dealing ------------------------------------------------------------------------------
    def _deal(self, i: int, seed: int) -> None:
        """Game ``i`` dealt ``seed`` by the rules' own deal (the same cards, once a game)."""
        state = GAME.deal(seed, 1, {})
        assert isinstance(state, DoubletsState)
        stock = [c >> 2 for c in state.stock]
        self.stock[i] = 0
        self.stock[i, : len(stock)] = stock
        self.n_stock[i], self.n_waste[i] = len(stock), 0
        self.reserves[i] = [0 if c is None else c >> 2 for c in state.reserves]
        self.need[i], self.found[i] = state.needed, len(state.foundation)
        self.redeals[i] = state.redeals_left
        self.counts[i] = np.bincount(stock, minlength=KING + 1)
        self.over[i] = state.over
        self.done[i] = state.over
        self.steps[i], self.seeds[i] = 0, seed

    def _redeal_game(self, i: int) -> None:
        """Game ``i`` dealt again without a seed: the next seed from its generator."""
        rng = self._rngs[i]
        if rng is None:
            rng = self._rngs[i] = seeding.np_random(None)[0]
        self._deal(i, int(rng.integers(_SEED_SPAN)))

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        for i, s in enumerate(reset_seeds(seed, self.num_envs)):
            if s is None:
                self._redeal_game(i)
            else:  # as ``CardtableGym.reset(seed=s)``: the deal is s, the generator seeded by s
                self._rngs[i] = seeding.np_random(s)[0]
                self._deal(i, s)
        return self._observe(), self._infos()

    # -- stepping -----------------------------------------------------------------------------
    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if ((actions < 0) | (actions >= len(ACTIONS))).any():
            raise ValueError(f"action indices must be in 0..{len(ACTIONS) - 1}")
        fresh = np.flatnonzero(self.done)  # NEXT_STEP: ended last step, dealt anew now
        for i in fresh:
            self._redeal_game(int(i))
        live = ~self.done
        live[fresh] = False
        legal = self._mask_now[self._rows, actions].astype(bool)
        illegal = live & ~legal
        moving = live & legal
        self._flip(np.flatnonzero(moving & (actions == FLIP)))
        self._redeal(np.flatnonzero(moving & (actions == REDEAL)))
        self._play(np.flatnonzero(moving & (actions < FLIP)), actions)
        self.over = self._finished()
        self.steps[live] += 1
        cut = moving & ~self.over
        if self.max_steps is not None:
            cut &= self.steps >= self.max_steps
        else:
            cut[:] = False
        rewards = np.where(moving & self.over, self.found / NON_KINGS, 0.0)
        rewards[illegal] = self.illegal_reward
        terminated = (moving & self.over) | illegal
        self.done = terminated | cut
        return self._observe(), rewards, terminated, cut, self._infos()

    def _flip(self, rows: np.ndarray) -> None:
        top = self.n_stock[rows] - 1
        card = self.stock[rows, top]
        self.waste[rows, self.n_waste[rows]] = card
        self.n_waste[rows] += 1
        self.n_stock[rows] = top
        self.counts[rows, card] -= 1

    def _redeal(self, rows: np.ndarray) -> None:
        # the stock becomes the waste turned over: its bottom card on top
        n = self.n_waste[rows]
        back = n[:, None] - 1 - _SLOTS
        cards = np.where(back >= 0, self.waste[rows[:, None], np.maximum(back, 0)], 0)
        self.stock[rows] = cards
        self.n_stock[rows], self.n_waste[rows] = n, 0
        self.redeals[rows] -= 1
        onehot = cards[:, :, None] == np.arange(KING + 1)
        self.counts[rows] = onehot.sum(axis=1)
        self.counts[rows, 0] = 0

    def _play(self, rows: np.ndarray, actions: np.ndarray) -> None:
        source = actions[rows]
        from_waste = source == 0
        wrows = rows[from_waste]
        self.n_waste[wrows] -= 1
        played = np.empty(len(rows), dtype=np.int8)
        played[from_waste] = self.waste[wrows, self.n_waste[wrows]]
        rrows, slot = rows[~from_waste], source[~from_waste] - 1
        played[~from_waste] = self.reserves[rrows, slot]
        # the emptied reserve refills: from the waste, else the stock, else stays empty
        nw, ns = self.n_waste[rrows], self.n_stock[rrows]
        by_waste, by_stock = nw > 0, (nw == 0) & (ns > 0)
        new = np.zeros(len(rrows), dtype=np.int8)
        new[by_waste] = self.waste[rrows[by_waste], nw[by_waste] - 1]
        new[by_stock] = self.stock[rrows[by_stock], ns[by_stock] - 1]
        self.n_waste[rrows[by_waste]] -= 1
        srows = rrows[by_stock]
        self.n_stock[srows] -= 1
        self.counts[srows, new[by_stock]] -= 1
        self.reserves[rrows, slot] = new
        self.found[rows] += 1
        self.need[rows] = _NEXT[played]

    # -- reading ------------------------------------------------------------------------------
    def _waste_top(self) -> np.ndarray:
        nw = self.n_waste
        return np.where(nw > 0, self.waste[self._rows, np.maximum(nw - 1, 0)], 0)

    def _plays(self) -> np.ndarray:
        """(N, 8) bool: which of the waste and r1..r7 fit the foundation now."""
        need = self.need[:, None]
        return np.concatenate([self._waste_top()[:, None] == need, self.reserves == need], 1)

    def _finished(self) -> np.ndarray:
        stuck = (self.n_stock == 0) & ((self.n_waste == 0) | (self.redeals == 0))
        return (self.found == NON_KINGS) | (stuck & ~self._plays().any(axis=1))

    def _mask(self) -> np.ndarray:
        out = np.zeros((self.num_envs, len(ACTIONS)), dtype=np.int8)
        out[:, :FLIP] = self._plays()
        out[:, FLIP] = self.n_stock > 0
        out[:, REDEAL] = (self.n_stock == 0) & (self.n_waste > 0) & (self.redeals > 0)
        out[self.over] = 0
        return out

    def _infos(self) -> dict[str, Any]:
        self._mask_now = self._mask()  # what the next step checks its actions against
        return {
            "action_mask": self._mask_now.copy(),
            "_action_mask": np.ones(self.num_envs, dtype=bool),
        }

    def _observe(self) -> np.ndarray:
        out = np.zeros((self.num_envs, LAYOUT.size), dtype=np.float32)
        back = self.n_waste[:, None] - 1 - _SLOTS  # the waste from its top card down
        cards = np.where(back >= 0, np.take_along_axis(self.waste, np.maximum(back, 0), 1), 0)
        hot = np.concatenate(  # the one-hot fields' 1s, as columns, then as flat indices
            [
                (_F["needed"].start - 1 + self.need)[:, None],
                _RESERVE_COLS + self.reserves,
                _WASTE_COLS + cards,
                (_F["redeals_left"].start + self.redeals)[:, None],
            ],
            axis=1,
        )
        hot += self._rows[:, None] * LAYOUT.size
        out.reshape(-1)[hot.reshape(-1)] = 1
        out[:, _F["waste_size"].start] = self.n_waste / MAX_WASTE
        out[:, _F["stock"].start] = self.n_stock / MAX_WASTE
        out[:, _F["foundation"].start] = self.found / NON_KINGS
        unseen = _F["unseen"].start
        out[:, unseen : unseen + KING] = self.counts[:, 1:] / 4
        out[:, _F["over"].start] = self.over
        return out
