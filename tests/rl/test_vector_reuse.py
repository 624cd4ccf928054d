"""The vector environments reuse an observation's array only once the caller has let it go
(``cardtable.rl.vector.Reuse``): an observation handed out, or a view of it, never changes."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.rl import make_vector_env
from cardtable.rl.vector import Reuse

TABLES = [("doublets", 1), ("the-game", 1), ("the-game", 3), ("slide", 2)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_kept_observations_never_change(game: str, players: int) -> None:
    env = make_vector_env(game, 8, players)
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = [(obs, obs.copy())]
    views = []
    for step in range(40):
        mask = infos["action_mask"]
        obs, _, _, _, infos = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
        if step % 3 == 0:
            kept.append((obs, obs.copy()))
        elif step % 3 == 1:
            views.append((obs[2], obs[2].copy()))  # a view keeps its array from reuse
        for held, seen in kept + views:
            assert np.array_equal(held, seen)


def test_reuse_hands_out_an_array_only_when_let_go() -> None:
    reuse = Reuse((4, 3), np.float32)
    first = reuse.zeros()
    first[:] = 1
    second = reuse.zeros()
    assert second is not first and (first == 1).all()
    second[:] = 2
    del second
    third = reuse.zeros()  # the second one's array, let go: zeroed again
    assert (third == 0).all() and (first == 1).all()
    row = third[1]
    del third
    fourth = reuse.zeros()
    assert fourth.base is not row.base and not np.shares_memory(fourth, row)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_actions_out_of_range_raise(game: str, players: int) -> None:
    env = make_vector_env(game, 4, players)
    env.reset(seed=1)
    n = env.single_action_space.n
    for bad in (-1, n, -(2**62)):
        with pytest.raises(ValueError, match="action indices"):
            env.step(np.array([0, bad, 0, 0]))
