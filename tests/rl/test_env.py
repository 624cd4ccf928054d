"""The environments: PettingZoo's own API tests for every game and player count,
Gymnasium's checker, seeded reproducibility, observations from views only, buffered
simultaneous steps, bots as opponents, talk limits and the rewards at the end."""

from __future__ import annotations

import random
import warnings

import pytest

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl import (  # noqa: E402
    CardtableAEC,
    make_env,
    make_gym_env,
    make_parallel_env,
)

TABLES = [
    (g, n)
    for g in games.names()
    if games.get(g).encoding is not None
    for n in range(games.get(g).min_players, games.get(g).max_players + 1)
]


def quiet(check, *args, **kwargs):
    # PettingZoo warns that dict observations are not Box ones: the API asks for dicts here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(*args, **kwargs)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_pettingzoo_api_test(game, players):
    quiet(api_test, make_env(game, players=players), num_cycles=200)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_pettingzoo_parallel_api_test(game, players):
    quiet(parallel_api_test, make_parallel_env(game, players=players), num_cycles=200)


@pytest.mark.parametrize(
    ("game", "players", "opponents"),
    [
        ("doublets", 1, None),
        ("the-game", 1, None),
        ("slide", 2, ["greedy"]),
        ("slide", 4, ["random", "greedy", "search:easy"]),
        ("the-game", 3, ["expert", "greedy"]),
    ],
)
def test_gymnasium_check_env(game, players, opponents):
    quiet(check_env, make_gym_env(game, players=players, opponents=opponents))


def play_aec(env: CardtableAEC, seed: int, rng: random.Random, check=None):
    """Play to the end with random masked actions; ``check(env, agent)`` before each step.
    Returns the final rewards of every agent (summed as ``last`` reports them)."""
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        if check is not None:
            check(env, agent)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return final


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_same_seed_same_game(game, players):
    records, observations = [], []
    for _ in range(2):
        env = make_env(game, players=players)
        rng = random.Random(3)
        seen = []
        play_aec(
            env,
            50301,
            rng,
            lambda e, a, seen=seen: seen.append(e.observe(a)["observation"].tobytes()),
        )
        records.append(env.state.record())
        observations.append(seen)
    assert records[0] == records[1] and observations[0] == observations[1]
    # reset(seed=S) deals S, the deal ``cardtable`` deals for that number
    env = make_env(game, players=players)
    env.reset(seed=50301)
    assert env.state.snapshot() == games.get(game).deal(50301, players).snapshot()
    # a reset without a seed after a seeded one goes on reproducibly
    env.reset(seed=1)
    env.reset()
    first = env.state.record()["seed"]
    env.reset(seed=1)
    env.reset()
    assert env.state.record()["seed"] == first != 1


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_observations_come_from_the_view_only(game, players):
    """At random points, redraw what the acting seat may not know: its observation and mask
    are unchanged (and they are the encoding of its view)."""
    rng = random.Random(11)
    checked = []

    def check(env, agent):
        if rng.random() > 0.2:
            return
        seat = env.seat_of[agent]
        obs = env.observe(agent)
        other = env.state.redraw_hidden(seat, random.Random(rng.random()))
        assert np.array_equal(obs["observation"], env.encoding.observe(other.view(seat)))
        legal = env.table.legal(seat)
        assert set(legal) <= set(other.legal(seat))
        assert np.array_equal(obs["action_mask"], env.encoding.mask(legal))
        checked.append(seat)

    play_aec(make_env(game, players=players), 50401, random.Random(5), check)
    assert checked


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_random_game_ends_with_the_documented_rewards(game, players):
    env = make_env(game, players=players)
    final = play_aec(env, 50501, random.Random(9))
    result = env.state.result()
    assert result["over"] and not env.agents
    rewards = [final[f"seat_{s}"] for s in range(players)]
    if game == "slide":
        n, ranks = players, result["ranks"]
        expect = [1 - 2 * (r - 1 + (ranks.count(r) - 1) / 2) / (n - 1) for r in ranks]
        assert rewards == pytest.approx(expect) and sum(rewards) == pytest.approx(0)
    elif game == "the-game":
        assert rewards == pytest.approx([(98 - result["cards_left"]) / 98] * players)
    elif game == "doublets":
        assert rewards == pytest.approx([result["foundation"] / 48])
    else:
        pytest.fail(f"no documented reward for {game}")
    assert games.replay(env.state.record()).snapshot() == env.state.snapshot()


def test_a_simultaneous_step_is_buffered():
    """Slide's reveal in AEC: a seat's choice shows to nobody (not even as 'chosen') until
    every seat has chosen; then all are applied."""
    env = make_env("slide", players=3)
    env.reset(seed=4)
    before = {a: env.observe(a) for a in env.agents}
    assert env.agent_selection == "seat_0"
    env.step(env.encoding.index("reveal a1"))
    assert env.agent_selection == "seat_1"
    for a in ("seat_1", "seat_2"):
        after = env.observe(a)
        assert np.array_equal(after["observation"], before[a]["observation"])
        assert np.array_equal(after["action_mask"], before[a]["action_mask"])
    assert not env.observe("seat_0")["action_mask"].any()  # it has chosen
    assert env.state.actions == []
    env.step(env.encoding.index("reveal b2"))
    env.step(env.encoding.index("reveal c3"))
    assert env.state.actions == [(0, "reveal a1"), (1, "reveal b2"), (2, "reveal c3")]
    assert env.state.phase == "take"


def test_parallel_steps_take_every_seat_that_must_act():
    env = make_parallel_env("slide", players=3)
    obs, _ = env.reset(seed=4)
    assert env.acting() == ["seat_0", "seat_1", "seat_2"]
    idx = env.encoding.index
    env.step({"seat_0": idx("reveal a1"), "seat_1": idx("reveal b2"), "seat_2": idx("reveal c3")})
    assert env.state.phase == "take" and env.acting() == ["seat_0"]
    with pytest.raises(ValueError, match="must act"):
        env.step({"seat_1": 0})


def test_parallel_and_aec_play_the_same_game():
    par = make_parallel_env("slide", players=2)
    obs, _ = par.reset(seed=12)
    rng = random.Random(2)
    while par.agents:
        acting = par.acting()
        actions = {a: int(rng.choice(list(np.flatnonzero(obs[a]["action_mask"])))) for a in acting}
        obs, *_ = par.step(actions)
    aec = make_env("slide", players=2)
    aec.reset(seed=12)
    for seat, action in par.state.actions:
        assert aec.agent_selection == f"seat_{seat}"
        aec.step(aec.encoding.index(action))
    assert aec.state.snapshot() == par.state.snapshot()


def test_bots_play_the_opponents_seats():
    env = make_env("slide", players=3, opponents={1: "greedy", 2: "random"})
    assert env.possible_agents == ["seat_0"]
    final = play_aec(env, 50601, random.Random(1))
    assert set(final) == {"seat_0"}
    seats = {s for s, _ in env.state.actions}
    assert seats == {0, 1, 2} and env.state.over
    # the same seed, the same bots' moves (their seeds come from the deal's)
    again = make_env("slide", players=3, opponents={1: "greedy", 2: "random"})
    play_aec(again, 50601, random.Random(1))
    assert again.state.record() == env.state.record()


def test_a_greedy_opponent_plays_as_the_greedy_bot():
    """The bot at a seat sees that seat's view: its moves are the greedy bot's on it."""
    from cardtable.bots import make_bot

    env = make_gym_env("the-game", players=2, opponents=["greedy"])
    env.reset(seed=50701)
    rng = random.Random(4)
    done = False
    while not done:
        legal = list(np.flatnonzero(env.action_masks()))
        _, _, over, cut, _ = env.step(int(rng.choice(legal)))
        done = over or cut
    assert {s for s, _ in env.state.actions} == {0, 1}
    replay = games.get("the-game").deal(50701, 2)
    bot = make_bot("greedy", "the-game")
    for seat, action in env.state.actions:
        if seat == 1:
            assert action == bot.choose(replay.view(1), replay.legal(1))
        replay.act(seat, action)


def test_talk_is_limited_to_the_own_turn_and_a_few_in_a_row():
    env = make_env("the-game", players=2, talk_limit=2)
    env.reset(seed=8)
    enc = env.encoding
    talk = [i for i, a in enumerate(enc.actions) if a.startswith("signal")]
    assert env.observe("seat_0")["action_mask"][talk].any()
    assert not env.observe("seat_1")["action_mask"].any()  # not its turn: not even talk
    env.step(enc.index("signal up1 avoid"))
    env.step(enc.index("signal up2 good"))
    assert env.agent_selection == "seat_0"
    mask = env.observe("seat_0")["action_mask"]
    assert not mask[talk].any() and mask.any()
    assert env.state.view(1)["signals"][0] == {"up1": "avoid", "up2": "good"}
    silent = make_env("the-game", players=2, talk_limit=0)
    silent.reset(seed=8)
    assert not silent.observe("seat_0")["action_mask"][talk].any()


def test_max_steps_truncates():
    env = make_env("doublets", max_steps=3)
    env.reset(seed=1)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe("seat_0")["action_mask"])[0]))
    assert env.truncations["seat_0"] and not env.terminations["seat_0"]


def test_an_illegal_action():
    env = make_env("doublets")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.encoding.index("redeal"))
    gym = make_gym_env("doublets")
    gym.reset(seed=1)
    _, reward, terminated, _, info = gym.step(gym.encoding.index("redeal"))
    assert terminated and reward == -1.0 and info["illegal"] == "redeal"


def test_a_gymnasium_episode_to_the_end():
    env = make_gym_env("doublets")
    obs, info = env.reset(seed=50801)
    rng = random.Random(3)
    total, done, steps = 0.0, False, 0
    while not done:
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        action = int(rng.choice(list(np.flatnonzero(env.action_masks()))))
        obs, reward, done, cut, info = env.step(action)
        total += reward
        steps += 1
        assert not cut
    assert total == pytest.approx(info["result"]["foundation"] / 48)
    assert steps == len(env.state.actions)


def test_bad_arguments():
    with pytest.raises(ValueError, match="every seat is a bot"):
        make_env("doublets", opponents={0: "greedy"})
    with pytest.raises(ValueError, match="no seat 5"):
        make_env("slide", players=2, opponents={5: "greedy"})
    with pytest.raises(ValueError, match="no bot called"):
        make_env("slide", players=2, opponents={1: "nobody"})
    with pytest.raises(ValueError, match="learns one seat"):
        make_gym_env("slide", players=3, opponents={1: "greedy"})


def test_gymnasium_make_knows_every_game():
    import gymnasium

    from cardtable.rl.env import register

    assert "cardtable/doublets-v0" in register()
    env = gymnasium.make("cardtable/slide-v0", players=2, opponents=["greedy"])
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and info["legal"]
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.unwrapped.state.actions[0][0] in (0, 1)


def test_the_docs_examples_run():
    """Every Python example of docs/rl.md (and the README's) runs as written."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    blocks = []
    for page in ("docs/rl.md", "README.md"):
        text = (root / page).read_text()
        blocks += [
            b
            for b in re.findall(r"```python\n(.*?)```", text, re.S)
            if "cardtable.rl" in b or "make_env(" in b or "make_gym_env(" in b
        ]
    assert len(blocks) >= 4
    scope: dict = {}
    for block in blocks:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(block, "docs", "exec"), scope)


def test_opponents_that_react_talk_out_of_turn():
    """The team bot answers other seats' actions with pile signals (``react``), as at any
    table; the record still replays."""
    env = make_env("the-game", players=3, opponents={1: "team", 2: "team"})
    play_aec(env, 5, random.Random(1))
    said = {s for s, a in env.state.actions if a.startswith("signal ")}
    assert said & {1, 2}
    assert games.replay(env.state.record()).snapshot() == env.state.snapshot()


def test_agent_iter_as_pettingzoos():
    """``agent_iter`` (a generator of our own, #29) yields what PettingZoo's iterator yields:
    the agent to act while any is left, at most ``max_iter`` times, again when iterated again."""
    from pettingzoo.utils.env import AECIterable

    env = make_env("the-game", players=2)
    env.reset(seed=4)
    assert isinstance(env.agent_iter(), AECIterable)
    assert list(zip(env.agent_iter(3), range(9), strict=False)) == [
        (env.agent_selection, k) for k in range(3)
    ]
    ours, theirs = env.agent_iter(5), AECIterable(env, 5)
    assert list(ours) == list(theirs) == [env.agent_selection] * 5
    assert list(ours) == [env.agent_selection] * 5  # (iterated again: from the start)
    env.agents = []
    assert list(env.agent_iter()) == []
