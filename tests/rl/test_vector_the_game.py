"""The Game's vector environment (one player): the same games as N single environments, step
for step, and masks that never allow what the rules refuse."""

from __future__ import annotations

from helpers import need_rl

need_rl()

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl import make_gym_env, make_vector_env  # noqa: E402
from cardtable.rl.the_game import ACTIONS  # noqa: E402
from cardtable.rl.the_game_vector import TheGameVectorEnv, decks  # noqa: E402

GAME = games.get("the-game")


def _singles(n: int, **kwargs):
    """N single environments side by side, as Gymnasium steps them (NEXT_STEP autoreset)."""
    return gymnasium.vector.SyncVectorEnv(
        [lambda: make_gym_env("the-game", players=1, **kwargs) for _ in range(n)]
    )


def _same(ref, vec, what: str) -> None:
    assert np.array_equal(np.asarray(ref), np.asarray(vec)), what


@pytest.mark.parametrize(
    ("seed", "kwargs"),
    [
        (0, {}),
        (11, {}),
        (2**40, {"options": {"pro": True}}),
        (5, {"options": {"min_after_empty": 2}, "max_steps": 30, "talk_limit": 1}),
    ],
)
def test_the_same_games_as_single_environments_step_by_step(seed, kwargs):
    """Random legal actions (now and then an illegal one: -1, terminated) through several
    episodes each, autoresets included: observations, rewards, terminations, truncations and
    masks all equal to N single environments' for the same seeds and actions."""
    n = 8
    ref, vec = _singles(n, **kwargs), make_vector_env("the-game", n, players=1, **kwargs)
    assert isinstance(vec, TheGameVectorEnv)
    obs, info = ref.reset(seed=seed)
    vobs, vinfo = vec.reset(seed=seed)
    _same(obs, vobs, "reset observations")
    _same(info["action_mask"], vinfo["action_mask"], "reset masks")
    assert vobs.dtype == np.float32 and vobs.shape == (n, 589)
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(700):
        mask = vinfo["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        if t % 53 == 0:
            actions[t % n] = rng.integers(len(ACTIONS))  # most likely illegal
        out, vout = ref.step(actions), vec.step(actions)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated"), out, vout, strict=False
        ):
            _same(a, b, f"{name} at step {t}")
        _same(out[4]["action_mask"], vout[4]["action_mask"], f"mask at step {t}")
        vinfo = vout[4]
        episodes += int(vout[2].sum() + vout[3].sum())
    assert episodes >= 3 * n  # several episodes each, on average
    if kwargs.get("max_steps"):
        assert vout[3].dtype == bool


def test_seeds_name_the_deals():
    """reset(seed=s) deals env i the deal of seed s + i; a list gives each its own."""
    vec = TheGameVectorEnv(3)
    vec.reset(seed=40)
    assert vec.seeds == [40, 41, 42]
    vec.reset(seed=[7, 3, 7])
    assert vec.seeds == [7, 3, 7]
    for s, deck in zip(range(50), decks(list(range(50))), strict=True):
        state = GAME.deal(s, 1)
        assert sorted(deck[:8].tolist()) == state.hands[0]
        assert deck[8:][::-1].tolist() == state.draw
    with pytest.raises(ValueError):
        TheGameVectorEnv(2, players=2)
    with pytest.raises(ValueError, match="offers no vector environment"):
        make_vector_env(_WithoutVector(), 2)  # (every game has one now: Slide's came last)


class _WithoutVector(type(GAME)):
    """The Game as if it offered no vector environment."""

    vector_env = None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64),
    pro=st.booleans(),
    picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=120),
)
def test_the_mask_never_allows_what_the_rules_refuse(seed, pro, picks):
    """Every action a mask allows is legal for the Python state of that deal (and the moves
    it allows are exactly the rules' moves), and taking it there is accepted."""
    n = 3
    options = {"pro": pro}
    vec = TheGameVectorEnv(n, options=options)
    _, info = vec.reset(seed=seed)
    states = [GAME.deal(s, 1, options) for s in vec.seeds]
    resetting = np.zeros(n, dtype=bool)  # ended last step: this step deals it again
    for pick in picks:
        mask = info["action_mask"]
        actions = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(states):
            allowed = [ACTIONS[k] for k in np.flatnonzero(mask[i])]
            legal = state.legal(0)
            assert set(allowed) <= set(legal)
            moves = {a for a in legal if not GAME.is_talk(a)}
            assert {a for a in allowed if not GAME.is_talk(a)} == moves
            assert bool(state.over) == (not allowed)
            if allowed and not resetting[i]:
                actions[i] = ACTIONS.index(allowed[(pick + i) % len(allowed)])
                state.act(0, ACTIONS[actions[i]])  # raises if the rules refuse it
        _, _, terminated, truncated, info = vec.step(actions)
        for i in range(n):
            if resetting[i]:
                states[i] = GAME.deal(vec.seeds[i], 1, options)
            assert bool(terminated[i]) == states[i].over and not truncated[i]
        resetting = terminated | truncated
