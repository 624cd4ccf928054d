"""The vector environments' observations handed out, or views of them, never change with
later steps; an action index out of range raises."""

from __future__ import annotations

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cardtable.rl import make_vector_env  # noqa: E402

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


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_actions_out_of_range_raise(game: str, players: int) -> None:
    env = make_vector_env(game, 4, players)
    env.reset(seed=1)
    n = env.single_action_space.n
    for bad in (-1, n, -(2**62)):
        with pytest.raises(ValueError, match="action indices"):
            env.step(np.array([0, bad, 0, 0]))
