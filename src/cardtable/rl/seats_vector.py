"""Self-play vector environments: N games of several seats stepped at once on numpy arrays.

``SeatsVectorEnv`` is what the vector environments of the games of several seats (Slide, The
Game of 2-5) share: every seat is the learner, and a vector step is one step of N
``CardtableAEC`` stepped in order, each taking the action of its ``agent_selection``
(docs/rl.md, "Vector environment", "Several seats"):

- the observation and mask of env ``i`` are those of the seat to act (``infos["seat"][i]``),
  as ``CardtableAEC.observe(agent_selection)`` gives them; once a game is over or truncated,
  seat 0's (the AEC's ``agent_selection`` then);
- rewards are **per seat**, shape ``(N, players)``: ``CardtableAEC.rewards`` after the step
  (0 before the end, the encoding's rewards of the result at the end);
- an action the mask refuses (the AEC raises) ends that game, ``illegal_reward`` to the seat
  that chose it and 0 to the others, the game unchanged, as ``CardtableGym`` ends its episode;
- seeds as the AEC's: ``reset(seed=s)`` deals env ``i`` seed ``s + i``; a game dealt again
  without a seed (the autoreset) gets the next seed of its generator,
  ``np.random.default_rng(s + i)``, as ``CardtableAEC.reset()`` draws it;
- ``AutoresetMode.NEXT_STEP``: the step after a game ends deals it again, its action ignored.

A game's class fills in the rules on arrays: the deal, the seat to act, the effect of legal
actions, the observation and mask of a seat, the rewards at the end. An action is checked
against the mask of the seat to act computed after the last step (its own copy: the one
handed out may be written to), which the tests compare with the rules' legal actions.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cardtable.rl.encoding import Encoding
from cardtable.rl.vector import deal_seeds, next_seeds, reset_seeds


class SeatsVectorEnv(VectorEnv):
    """``num_envs`` games of ``players`` seats, all learners (module docstring). Subclasses
    keep their state as arrays with one row per env and set ``self.over`` (N,) bools."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int,
        encoding: Encoding,
        max_steps: int | None,
        illegal_reward: float,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1 (or None: no limit)")
        self.num_envs, self.players, self.encoding = num_envs, players, encoding
        self.max_steps, self.illegal_reward = max_steps, float(illegal_reward)
        self.metadata = {**self.metadata}
        self.single_observation_space = spaces.Box(
            low=0.0, high=encoding.layout.high(), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(len(encoding.actions))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self.rows = np.arange(n)
        self.over = np.ones(n, dtype=bool)
        self.steps = np.zeros(n, dtype=np.int64)
        self._autoreset = np.zeros(n, dtype=bool)
        self._gens: list[np.random.Generator | None] = [None] * n
        self._ahead: list[list[int]] = [[] for _ in range(n)]  # seeds drawn, next last
        #: each env's deal seed this episode (``game.deal(seed, players, options)`` deals it)
        self.seeds: list[int] = [0] * n
        self._mask = np.zeros((n, len(encoding.actions)), dtype=np.int8)
        self._allowed = np.zeros((n, len(encoding.actions)), dtype=bool)
        self._seat = np.zeros(n, dtype=np.int64)
        self._mask_first = self.rows * len(encoding.actions)  # each env's first flat index
        self._dealt = False

    # -- what a game fills in ---------------------------------------------------------------
    @abstractmethod
    def _deal(self, rows: np.ndarray, seeds: list[int]) -> None:
        """Deal the envs ``rows`` their seeds (``over`` false)."""

    @abstractmethod
    def _actor(self) -> np.ndarray:
        """(N,) the seat to act in each env (any seat where the game is over)."""

    @abstractmethod
    def _apply(self, rows: np.ndarray, seat: np.ndarray, a: np.ndarray) -> None:
        """The legal actions ``a[rows]`` of the seats ``seat[rows]`` in the envs ``rows``."""

    @abstractmethod
    def _observe(self, seat: np.ndarray) -> np.ndarray:
        """(N, size) float32: the encoding of each env's view for ``seat[i]``."""

    @abstractmethod
    def _legal(self, seat: np.ndarray) -> np.ndarray:
        """(N, actions) int8: the mask of ``seat[i]``, as the AEC's (0 unless it must act)."""

    @abstractmethod
    def _rewards(self, rows: np.ndarray) -> np.ndarray:
        """(len(rows), players) float64: the encoding's rewards of the finished envs ``rows``."""

    # -- seeds and resets -------------------------------------------------------------------
    def _deal_rows(self, rows: np.ndarray, seeds: Sequence[int | None]) -> None:
        """Deal the envs ``rows`` ``seeds`` (each re-seeding its generator, as
        ``CardtableAEC.reset(seed)`` does), None the next draw of its generator."""
        self._deal(rows, deal_seeds(rows.tolist(), seeds, self._gens, self._ahead, self.seeds))
        self.steps[rows] = 0

    def _redeal_rows(self, rows: np.ndarray) -> None:
        """Deal the envs ``rows`` again without a seed (the autoreset): the next of each one's
        generator, in one loop."""
        self._deal(rows, next_seeds(rows, self._gens, self._ahead, self.seeds))
        self.steps[rows] = 0

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every env: ``seed + i`` for env ``i``, or a list of one seed per env (None:
        drawn). ``options`` is accepted as the API asks; the game's are the constructor's."""
        n = self.num_envs
        seeds = reset_seeds(seed, n)
        self._deal_rows(self.rows, seeds)
        self._autoreset[:] = False
        self._dealt = True
        return self._show(self._actor())

    # -- steps ------------------------------------------------------------------------------
    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env, from the seat to act (``infos["seat"]``); module docstring."""
        if not self._dealt:
            raise RuntimeError("reset the environment first")
        n = self.num_envs
        a = np.asarray(actions, dtype=np.int64).reshape(n)
        if a.view(np.uint64).max() >= len(self.encoding.actions):  # (a negative one: huge)
            raise ValueError(
                f"action indices are 0..{len(self.encoding.actions) - 1}, not {a.tolist()}"
            )
        fresh = np.flatnonzero(self._autoreset)
        live = ~self._autoreset
        seat = self._seat  # the seat to act where the game goes on (the others': unused)
        # the mask of the seat to act, as computed from the state after the last step (a
        # private copy: the one handed out may have been written to)
        ok = live & self._allowed.reshape(-1)[self._mask_first + a]
        illegal = live ^ ok  # (ok only where live)
        self.steps += ok  # (a bool adds 0 or 1: cheaper than a masked write)
        self._apply(np.flatnonzero(ok), seat, a)
        ended = ok & self.over
        rewards = np.zeros((n, self.players), dtype=np.float64)
        done = np.flatnonzero(ended)
        if done.size:
            rewards[done] = self._rewards(done)
        bad = np.flatnonzero(illegal)
        if bad.size:
            rewards[bad, seat[bad]] = self.illegal_reward
        terminated = ended | illegal
        if self.max_steps is None:
            truncated, stopped = np.zeros(n, dtype=bool), terminated
        else:
            truncated = ok & ~self.over & (self.steps >= self.max_steps)
            stopped = terminated | truncated
        if fresh.size:
            self._redeal_rows(fresh)
        self._autoreset = stopped
        # the AEC's agent_selection: the seat to act, seat 0 once over or truncated
        over = self.over if self.max_steps is None else self.over | truncated
        seat = np.where(over, 0, self._actor())
        obs, infos = self._show(seat)
        return obs, rewards, terminated, truncated, infos

    def _show(self, seat: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
        """The observation of ``seat`` in each env, and the infos: its mask and the seat."""
        self._mask = self._legal(seat)  # handed out as it is: the steps never read it
        self._allowed = self._mask.view(bool).copy()
        self._seat = seat
        every = np.ones(self.num_envs, dtype=bool)
        infos = {"action_mask": self._mask, "_action_mask": every, "seat": seat, "_seat": every}
        return self._observe(seat), infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of the seat to act now, as booleans (MaskablePPO's hook)."""
        return self._mask.astype(bool)
