"""The Game's vector environment of 2-5 seats (self-play): the same games as N AEC
environments stepped in order, step by step, masks that never allow what the rules refuse,
and observations that never read what the seat to act may not know (docs/rl.md, "Vector
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
from cardtable.games.the_game import greedy_play  # noqa: E402
from cardtable.rl import make_vector_env  # noqa: E402
from cardtable.rl.the_game import ACTIONS  # noqa: E402
from cardtable.rl.the_game_seats_vector import TheGameSeatsVectorEnv  # noqa: E402
from cardtable.rl.the_game_vector import TheGameVectorEnv  # noqa: E402
from seats_reference import Tables, same_games  # noqa: E402

GAME = games.get("the-game")


def _mostly_greedy(env, mask, rng) -> int:
    """The greedy bot's move for the seat to act (peeking at the AEC's state), now and then a
    random legal action or a signal: random play ends The Game within a few turns, this one
    reaches the end of the draw pile and the minimum after it."""
    legal = np.flatnonzero(mask)
    if rng.random() < 0.15:
        return int(rng.choice(legal))
    state = env.state
    play = greedy_play(state.hands[state.turn], list(state.tops), state.played, state.minimum)
    action = ACTIONS.index(
        "end" if play is None else f"play {play[0]} {['up1', 'up2', 'down1', 'down2'][play[1]]}"
    )
    return action if mask[action] else int(rng.choice(legal))


@pytest.mark.parametrize(
    ("players", "seed", "kwargs", "wild", "greedy"),
    [
        (2, 1, {}, 0.0, False),
        (3, 2, {}, 0.01, False),
        (5, 2**40, {"illegal_reward": -3.0}, 0.02, False),
        (2, 4, {}, 0.0, True),
        (4, 5, {"options": {"pro": True, "start": 2}}, 0.0, True),
        (3, 6, {"options": {"min_after_empty": 2}, "talk_limit": 1}, 0.002, True),
        (5, 8, {"max_steps": 40, "talk_limit": 0}, 0.0, True),
    ],
)
def test_the_same_games_as_aec_environments_step_by_step(players, seed, kwargs, wild, greedy):
    """Random legal actions, or mostly the greedy bot's (with probability ``wild`` any action,
    mostly illegal), through several episodes each, autoresets included: observations, masks,
    the seat to act, every seat's rewards, terminations and truncations equal N AEC
    environments' at every step."""
    n = 5
    vec = make_vector_env("the-game", n, players, **kwargs)
    assert isinstance(vec, TheGameSeatsVectorEnv)
    tables = Tables("the-game", n, players, **kwargs)
    choose = _mostly_greedy if greedy else None
    episodes = same_games(vec, tables, seed, 400 if greedy else 250, wild, choose)
    assert episodes >= n


def test_one_player_is_the_single_gym_environments_one():
    """The game's entry point builds TheGameVectorEnv alone and the self-play one for more."""
    assert isinstance(make_vector_env("the-game", 2, 1), TheGameVectorEnv)
    assert isinstance(make_vector_env("the-game", 2, 3), TheGameSeatsVectorEnv)
    with pytest.raises(ValueError):
        TheGameSeatsVectorEnv(2, players=1)
    vec = TheGameSeatsVectorEnv(3, players=4)
    obs, info = vec.reset(seed=40)
    assert vec.seeds == [40, 41, 42] and list(info["seat"]) == [0, 0, 0]
    assert obs.shape == (3, 589) and info["action_mask"].shape == (3, 409)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    for i, s in enumerate(vec.seeds):
        state = GAME.deal(s, 4)
        for seat in range(4):
            assert (np.flatnonzero(vec.hand[i, seat]) + 2).tolist() == state.hands[seat]


def test_observations_hold_nothing_hidden():
    """The other seats' hands and the draw pile, redealt among themselves with the same sizes
    at random points: the observation of the seat to act and its mask stay the same."""
    rng = np.random.default_rng(5)
    vec = TheGameSeatsVectorEnv(8, players=3)
    _, info = vec.reset(seed=5)
    changed = 0
    for _ in range(150):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        _, _, _, _, info = vec.step(actions)
        seat = info["seat"]
        before = vec._observe(seat), vec._legal(seat)
        hand, deck = vec.hand, vec.deck.copy()
        redealt = hand.copy()
        for i in range(vec.num_envs):
            others = [s for s in range(3) if s != seat[i]]
            pool = [c for s in others for c in np.flatnonzero(hand[i, s])]
            pool += (vec.deck[i, vec.next[i] :] - 2).tolist()
            pool = list(rng.permutation(pool))
            for s in others:
                k = int(hand[i, s].sum())
                redealt[i, s] = False
                redealt[i, s, pool[:k]] = True
                pool = pool[k:]
            vec.deck[i, vec.next[i] :] = np.array(pool, dtype=np.int64) + 2
        vec.hand = redealt  # (the slots remade from the hands)
        assert np.array_equal(vec.hand, redealt)
        moved = sum(not np.array_equal(redealt[i], hand[i]) for i in range(vec.num_envs))
        after = vec._observe(seat), vec._legal(seat)
        assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
        vec.hand, vec.deck = hand, deck
        changed += moved
    assert changed > 100  # other seats' hands did change, most steps


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64),
    players=st.integers(2, 5),
    pro=st.booleans(),
    picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=150),
)
def test_the_mask_never_allows_what_the_rules_refuse(seed, players, pro, picks):
    """The vector env's games replayed on the rules' states (each deal from ``env.seeds``):
    the seat to act is the state's, every action the mask allows is legal there (its moves
    exactly the rules' moves), each taken is accepted, and an env ends exactly when its state
    does, every seat rewarded the share of the cards played."""
    n = 3
    options = {"pro": pro}
    vec = TheGameSeatsVectorEnv(n, players=players, options=options)
    _, info = vec.reset(seed=seed)
    states = [GAME.deal(s, players, options) for s in vec.seeds]
    resetting = np.zeros(n, dtype=bool)
    for pick in picks:
        mask, seat = info["action_mask"], info["seat"]
        actions = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(states):
            allowed = [ACTIONS[k] for k in np.flatnonzero(mask[i])]
            if resetting[i]:
                continue
            assert bool(state.over) == (not allowed)
            if state.over:
                continue
            s = int(seat[i])
            assert (s,) == state.to_act()
            legal = state.legal(s)
            assert set(allowed) <= set(legal)
            assert {a for a in allowed if not GAME.is_talk(a)} == {
                a for a in legal if not GAME.is_talk(a)
            }
            actions[i] = ACTIONS.index(allowed[(pick + i) % len(allowed)])
            state.act(s, ACTIONS[actions[i]])  # raises if the rules refuse it
        _, rewards, terminated, truncated, info = vec.step(actions)
        for i in range(n):
            if resetting[i]:
                states[i] = GAME.deal(vec.seeds[i], players, options)
                continue
            assert bool(terminated[i]) == states[i].over and not truncated[i]
            if terminated[i]:
                share = (98 - states[i].cards_left()) / 98
                assert rewards[i].tolist() == [share] * players
        resetting = terminated | truncated
