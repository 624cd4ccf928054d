"""The reference the self-play vector environments are compared with: N ``CardtableAEC``
stepped in order, each taking the action of its ``agent_selection`` (docs/rl.md, "Vector
environment", "Several seats"), with Gymnasium's NEXT_STEP autoreset done by hand."""

from __future__ import annotations

import numpy as np

from cardtable.rl import CardtableAEC, make_env
from cardtable.rl.env import agent_name


class Tables:
    """N AEC environments of all-learner tables. ``step`` gives what the vector environment
    should: the observation, mask and seat of each ``agent_selection``, every seat's reward
    (``env.rewards``), terminated, truncated. An action the AEC refuses (``ValueError``) ends
    that game: ``illegal_reward`` to its seat, the observation unchanged."""

    def __init__(self, game: str, n: int, players: int, illegal_reward: float = -1.0, **kw):
        self.envs: list[CardtableAEC] = [make_env(game, players, **kw) for _ in range(n)]
        self.players, self.illegal_reward = players, illegal_reward
        self.done = [False] * n

    def _seen(self, env: CardtableAEC) -> tuple[np.ndarray, np.ndarray, int]:
        seen = env.observe(env.agent_selection)
        return seen["observation"], seen["action_mask"], env.seat_of[env.agent_selection]

    def reset(self, seed: int) -> tuple[np.ndarray, ...]:
        rows = []
        for i, env in enumerate(self.envs):
            env.reset(seed=seed + i)
            rows.append(self._seen(env))
        self.done = [False] * len(self.envs)
        return tuple(np.stack([r[k] for r in rows]) for k in range(3))

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        rows = []
        zero = [0.0] * self.players
        for i, env in enumerate(self.envs):
            if self.done[i]:
                env.reset()
                rows.append((*self._seen(env), zero, False, False))
                self.done[i] = False
                continue
            seat = env.seat_of[env.agent_selection]
            try:
                env.step(int(actions[i]))
            except ValueError:
                rewards = list(zero)
                rewards[seat] = self.illegal_reward
                rows.append((*self._seen(env), rewards, True, False))
                self.done[i] = True
                continue
            rewards = [env.rewards[agent_name(s)] for s in range(self.players)]
            term = any(env.terminations.values())
            trunc = any(env.truncations.values())
            rows.append((*self._seen(env), rewards, term, trunc))
            self.done[i] = term or trunc
        return tuple(np.stack([r[k] for r in rows]) for k in range(6))


def same_games(vec, tables: Tables, seed: int, steps: int, wild: float, choose=None) -> int:
    """Step ``vec`` and ``tables`` with the same random actions (legal ones; with probability
    ``wild`` any action, mostly illegal; ``choose(env, mask, rng)``, if given, picks the legal
    ones, e.g. a bot's) and demand equal observations, masks, seats, rewards, terminations
    and truncations at every step; returns the episodes ended."""
    rng = np.random.default_rng(seed)
    obs, info = vec.reset(seed=seed)
    want = tables.reset(seed)
    _equal((obs, info["action_mask"], info["seat"]), want, "reset")
    episodes = 0
    actions_n = vec.single_action_space.n
    for t in range(steps):
        mask = info["action_mask"]
        actions = np.array(
            [
                rng.integers(actions_n)
                if rng.random() < wild or not m.any()
                else (choose(env, m, rng) if choose else rng.choice(np.flatnonzero(m)))
                for env, m in zip(tables.envs, mask, strict=True)
            ]
        )
        obs, rewards, term, trunc, info = vec.step(actions)
        want = tables.step(actions)
        _equal((obs, info["action_mask"], info["seat"], rewards, term, trunc), want, f"step {t}")
        episodes += int(term.sum() + trunc.sum())
    return episodes


def _equal(got: tuple, want: tuple, when: str) -> None:
    names = ("observation", "mask", "seat", "rewards", "terminated", "truncated")
    for name, g, w in zip(names[: len(got)], got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        if not np.array_equal(g, w.astype(g.dtype)):
            rows = sorted({int(r) for r in np.argwhere(g != w)[:, 0]}) if g.shape == w.shape else []
            raise AssertionError(
                f"{name} differs at {when} (envs {rows}, shapes {g.shape} {w.shape})"
            )
