"""Doublets' vector environment: the same games as N single ``CardtableGym`` step by step, and
masks that only ever allow what the rules accept (docs/rl.md, "Vector environment")."""

from __future__ import annotations

import random

import pytest

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.games.doublets import DoubletsState  # noqa: E402
from cardtable.rl import CardtableGym, make_gym_env, make_vector_env  # noqa: E402
from cardtable.rl.doublets import ACTIONS  # noqa: E402
from cardtable.rl.doublets_vector import DoubletsVectorEnv  # noqa: E402


class Singles:
    """N single environments with Gymnasium's NEXT_STEP autoreset, done by hand: the step after
    an episode ends resets that env (no seed: its own generator draws the deal) and ignores
    its action."""

    def __init__(self, n: int, **kwargs: object) -> None:
        self.envs: list[CardtableGym] = [make_gym_env("doublets", **kwargs) for _ in range(n)]
        self.done = [False] * n

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        out = [env.reset(seed=seed + i) for i, env in enumerate(self.envs)]
        self.done = [False] * len(self.envs)
        return np.stack([o for o, _ in out]), np.stack([i["action_mask"] for _, i in out])

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        rows = []
        for i, env in enumerate(self.envs):
            if self.done[i]:
                obs, info = env.reset()
                rows.append((obs, 0.0, False, False, info["action_mask"]))
                self.done[i] = False
                continue
            obs, reward, term, trunc, info = env.step(int(actions[i]))
            self.done[i] = term or trunc
            rows.append((obs, reward, term, trunc, info["action_mask"]))
        return tuple(np.stack([r[k] for r in rows]) for k in range(5))


def _choose(rng: random.Random, mask: np.ndarray, wild: float) -> np.ndarray:
    """A random legal action per row; with probability ``wild`` any action (maybe illegal)."""
    out = []
    for row in mask:
        legal = np.flatnonzero(row)
        if rng.random() < wild or not len(legal):
            out.append(rng.randrange(len(ACTIONS)))
        else:
            out.append(int(rng.choice(legal)))
    return np.array(out)


@pytest.mark.parametrize(
    ("seed", "kwargs", "wild"),
    [
        (1, {}, 0.0),
        (40, {}, 0.01),
        (9000, {"max_steps": 60}, 0.0),
        (7, {"illegal_reward": -3.0}, 0.02),
    ],
)
def test_the_same_games_as_single_environments_step_by_step(seed, kwargs, wild):
    n, rng = 6, random.Random(seed)
    vec = make_vector_env("doublets", n, **kwargs)
    singles = Singles(n, **kwargs)
    obs, info = vec.reset(seed=seed)
    want_obs, want_mask = singles.reset(seed)
    assert obs.dtype == np.float32 and obs.shape == (n, vec.single_observation_space.shape[0])
    assert np.array_equal(obs, want_obs)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], want_mask)
    ended = np.zeros(n, dtype=int)
    for _ in range(500):
        actions = _choose(rng, info["action_mask"], wild)
        obs, reward, term, trunc, info = vec.step(actions)
        want = singles.step(actions)
        assert np.array_equal(obs, want[0])
        assert np.array_equal(reward, want[1])
        assert np.array_equal(term, want[2])
        assert np.array_equal(trunc, want[3])
        assert np.array_equal(info["action_mask"], want[4])
        ended += term | trunc
    assert (ended >= 2).all(), ended  # several episodes each: the autoreset is compared too
    if "max_steps" in kwargs:
        assert vec.steps.max() <= kwargs["max_steps"]


def test_seeds_a_list_and_the_autoreset_mode():
    vec = make_vector_env("doublets", 3)
    assert isinstance(vec, DoubletsVectorEnv) and isinstance(vec, VectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = vec.reset(seed=[5, 17, 5])
    single = make_gym_env("doublets")
    assert np.array_equal(obs[1], single.reset(seed=17)[0])
    assert np.array_equal(obs[0], obs[2])
    with pytest.raises(ValueError, match="one seed per game"):
        vec.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="action indices"):
        vec.step(np.array([0, 10, 0]))


def test_a_game_without_a_vector_environment_is_refused():
    assert games.get("doublets").vector_env is DoubletsVectorEnv
    with pytest.raises(ValueError, match="offers no vector environment"):
        make_vector_env(_WithoutVector(), 2)  # (every game has one now: Slide's came last)


class _WithoutVector(type(games.get("doublets"))):
    """Doublets as if it offered no vector environment."""

    vector_env = None


def _assert_same_position(vec: DoubletsVectorEnv, i: int, state: DoubletsState) -> None:
    """Game ``i``'s arrays hold the Python state's position (cards by value)."""
    assert list(vec.stock[i, : vec.n_stock[i]]) == [c >> 2 for c in state.stock]
    assert list(vec.waste[i, : vec.n_waste[i]]) == [c >> 2 for c in state.waste]
    assert list(vec.reserves[i]) == [0 if c is None else c >> 2 for c in state.reserves]
    assert (vec.need[i], vec.found[i], vec.redeals[i]) == (
        state.needed,
        len(state.foundation),
        state.redeals_left,
    )
    assert bool(vec.over[i]) == state.over


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choices=st.lists(st.floats(0, 1), min_size=100, max_size=400))
def test_the_mask_never_allows_what_the_rules_refuse(seed, choices):
    """Random seeds, random masked actions: each action a mask allows is one the rules' own
    state accepts, each it refuses one they refuse, and the arrays stay the state's position."""
    n = 4
    vec = make_vector_env("doublets", n)
    _, info = vec.reset(seed=seed)
    states = [games.get("doublets").deal(seed + i, 1) for i in range(n)]
    for pick in choices:
        mask = info["action_mask"]
        actions = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(states):
            assert isinstance(state, DoubletsState)
            _assert_same_position(vec, i, state)
            legal = {ACTIONS.index(a) for a in state.legal(0)}
            assert set(np.flatnonzero(mask[i])) == legal
            for a in range(len(ACTIONS)):
                trial = state.clone()
                try:
                    trial.act(0, ACTIONS[a])
                    accepted = True
                except Exception:
                    accepted = False
                assert accepted == bool(mask[i, a]), (i, ACTIONS[a])
            allowed = np.flatnonzero(mask[i])
            if len(allowed):
                actions[i] = allowed[int(((pick + i / n) % 1) * len(allowed))]
        was_done = vec.done.copy()
        _, _, _, _, info = vec.step(actions)
        for i in range(n):
            if was_done[i]:  # dealt anew: the seed its generator drew
                states[i] = games.get("doublets").deal(int(vec.seeds[i]), 1)
            elif mask[i].any():
                states[i].act(0, ACTIONS[actions[i]])


def test_the_same_as_gymnasiums_own_sync_vector_env():
    """Gymnasium's ``SyncVectorEnv`` over single environments (its seeds ``s + i``, its
    NEXT_STEP autoreset) agrees too: the seed mapping and the autoreset are Gymnasium's own."""
    from gymnasium.vector import SyncVectorEnv

    n, rng = 5, random.Random(3)
    vec = make_vector_env("doublets", n)
    sync = SyncVectorEnv(
        [lambda: make_gym_env("doublets")] * n, autoreset_mode=AutoresetMode.NEXT_STEP
    )
    obs, info = vec.reset(seed=11)
    want_obs, want_info = sync.reset(seed=11)
    assert np.array_equal(obs, want_obs)
    assert np.array_equal(info["action_mask"], want_info["action_mask"])
    ended = 0
    for _ in range(400):
        actions = _choose(rng, info["action_mask"], 0.005)
        obs, reward, term, trunc, info = vec.step(actions)
        want = sync.step(actions)
        assert np.array_equal(obs, want[0]) and np.array_equal(reward, want[1])
        assert np.array_equal(term, want[2]) and np.array_equal(trunc, want[3])
        assert np.array_equal(info["action_mask"], want[4]["action_mask"])
        ended += int(term.sum())
    assert ended >= n
    sync.close()
