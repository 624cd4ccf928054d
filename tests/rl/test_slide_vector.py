"""Slide's vector environment (self-play, 2-6 seats): the same games as N AEC environments
stepped in order, step by step, masks that never allow what the rules refuse, and
observations that never read what the seat to act may not know (docs/rl.md, "Vector
environment")."""

from __future__ import annotations

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl import make_vector_env  # noqa: E402
from cardtable.rl.encoding import place_rewards  # noqa: E402
from cardtable.rl.slide import ACTIONS  # noqa: E402
from cardtable.rl.slide_vector import SlideVectorEnv, deals  # noqa: E402
from seats_reference import Tables, same_games  # noqa: E402

GAME = games.get("slide")


@pytest.mark.parametrize(
    ("players", "seed", "kwargs", "wild"),
    [
        (2, 1, {}, 0.0),
        (3, 2, {}, 0.01),
        (4, 2**40, {}, 0.0),
        (5, 7, {"illegal_reward": -3.0}, 0.02),
        (6, 11, {}, 0.005),
        (2, 5, {"options": {"target": 120, "start": 1}}, 0.0),
        (3, 9, {"options": {"target": 60}, "max_steps": 90}, 0.0),
    ],
)
def test_the_same_games_as_aec_environments_step_by_step(players, seed, kwargs, wild):
    """Random legal actions (with probability ``wild`` any action, mostly illegal) through
    several episodes each, autoresets included: observations, masks, the seat to act, every
    seat's rewards, terminations and truncations equal N AEC environments' at every step."""
    n = 5
    vec = make_vector_env("slide", n, players, **kwargs)
    assert isinstance(vec, SlideVectorEnv)
    tables = Tables("slide", n, players, **kwargs)
    deal = 2 * players * 16  # agent steps of a deal: a reveal and a take a seat, 16 rounds
    steps = deal * 3 + 20 if kwargs.get("options", {}).get("target") else deal + 30
    episodes = same_games(vec, tables, seed, steps, wild)
    assert episodes >= n  # every env played at least one episode to its end, on average


def test_seeds_deals_and_spaces():
    """reset(seed=s) deals env i seed s + i; a list gives each its own; the arrays' deals are
    the rules' (every deal of a game, not just the first); spaces and autoreset mode."""
    vec = SlideVectorEnv(3, players=4)
    obs, info = vec.reset(seed=40)
    assert vec.seeds == [40, 41, 42]
    assert obs.shape == (3, 1228) and obs.dtype == np.float32
    assert info["action_mask"].shape == (3, 56) and info["action_mask"].dtype == np.int8
    assert list(info["seat"]) == [0, 0, 0]
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert vec.single_action_space.n == len(ACTIONS)
    vec.reset(seed=[7, 3, 7])
    assert vec.seeds == [7, 3, 7]
    for s in range(20):
        state = GAME.deal(s, 6, {"target": 1000})
        for deal in (1, 2, 3):
            cards = deals([s], np.array([deal]))[0]
            assert [[-v for v in g] for g in state.grids] == cards[:96].reshape(6, 16).tolist()
            assert sorted(state.boxed) == sorted(cards[96:].tolist())
            state.deal_no = deal
            state._new_deal()
    with pytest.raises(ValueError):
        SlideVectorEnv(2, players=7)
    with pytest.raises(ValueError):
        SlideVectorEnv(0, players=2)


def test_an_illegal_action_ends_that_game_only():
    """The AEC refuses an illegal action; here it ends that game (``illegal_reward`` to the
    seat that chose it, 0 to the others, the position unchanged), the next step deals it
    again, and the other games go on."""
    vec = SlideVectorEnv(2, players=3, illegal_reward=-2.0)
    obs, info = vec.reset(seed=5)
    mask = info["action_mask"]
    bad = int(np.flatnonzero(mask[0] == 0)[0])
    good = int(np.flatnonzero(mask[1])[0])
    obs2, rewards, term, trunc, info2 = vec.step([bad, good])
    assert list(term) == [True, False] and not trunc.any()
    assert rewards.tolist() == [[-2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert np.array_equal(obs2[0], obs[0]) and np.array_equal(info2["action_mask"][0], mask[0])
    seeds = list(vec.seeds)
    _, rewards, term, _, info3 = vec.step([good, int(np.flatnonzero(info2["action_mask"][1])[0])])
    assert not term.any() and not rewards.any()
    assert vec.seeds[0] != seeds[0] and vec.seeds[1] == seeds[1]  # dealt again: a drawn seed
    assert info3["seat"][0] == 0 and vec.round[0] == 1


def test_observations_hold_nothing_hidden():
    """The face-down values (wherever they lie) and the other seats' buffered reveal choices
    are redrawn in the arrays at random points: the observation of the seat to act and its
    mask stay the same."""
    rng = np.random.default_rng(3)
    vec = SlideVectorEnv(8, players=4)
    _, info = vec.reset(seed=3)
    for _ in range(120):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        _, _, _, _, info = vec.step(actions)
        seat = info["seat"]
        before = vec._observe(seat), vec._legal(seat)
        grid, pending = vec.grid.copy(), vec.pending.copy()
        for i in range(vec.num_envs):
            down = vec.grid[i] < 0
            vec.grid[i][down] = rng.permutation(vec.grid[i][down])
            for s in range(vec.players):
                if s != seat[i] and vec.pending[i, s] >= 0:
                    vec.pending[i, s] = rng.choice(np.flatnonzero(vec.grid[i, s] < 0))
        after = vec._observe(seat), vec._legal(seat)
        assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
        vec.grid, vec.pending = grid, pending


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64),
    players=st.integers(2, 6),
    target=st.sampled_from([None, 40]),
    picks=st.lists(st.integers(0, 2**16), min_size=30, max_size=200),
)
def test_the_mask_never_allows_what_the_rules_refuse(seed, players, target, picks):
    """The vector env's games replayed on the rules' states (each deal from ``env.seeds``):
    the seat to act is one the state asks to act, the mask allows exactly the state's legal
    actions for it (none once over), each taken is accepted, an env ends exactly when its
    state does, with the rewards of its result."""
    n = 3
    options = {"target": target}
    vec = SlideVectorEnv(n, players=players, options=options)
    _, info = vec.reset(seed=seed)
    states = [GAME.deal(s, players, options) for s in vec.seeds]
    resetting = np.zeros(n, dtype=bool)  # ended last step: this step deals it again
    for pick in picks:
        mask, seat = info["action_mask"], info["seat"]
        actions = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(states):
            allowed = [ACTIONS[k] for k in np.flatnonzero(mask[i])]
            if resetting[i] or state.over:
                assert state.over and not allowed or resetting[i]
                continue
            s = int(seat[i])
            assert s in state.to_act()
            assert sorted(allowed) == sorted(state.legal(s))
            actions[i] = ACTIONS.index(allowed[(pick + i) % len(allowed)])
            state.act(s, ACTIONS[actions[i]])  # raises if the rules refuse it
        _, rewards, terminated, truncated, info = vec.step(actions)
        for i in range(n):
            if resetting[i]:
                states[i] = GAME.deal(vec.seeds[i], players, options)
                continue
            assert bool(terminated[i]) == states[i].over and not truncated[i]
            if terminated[i]:
                assert rewards[i].tolist() == place_rewards(states[i].result()["ranks"])
        resetting = terminated | truncated
