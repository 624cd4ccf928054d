"""The Game solver: winning lines replay, losses are proved soundly, dominance loses no win."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardtable import bots, games
from cardtable.cli import app
from cardtable.games.the_game import TheGameState
from cardtable.solvers import the_game as solver
from cardtable.solvers.batch import run, summarise
from cardtable.solvers.the_game import (
    dead_card,
    search_from,
    solve,
    solve_seed,
    winnable_after,
)
from cardtable.solvers.the_game_endgame import _dead_card

GAME = games.get("the-game")


def replay_wins(state: TheGameState, line: list[str]) -> bool:
    """Play ``line`` through the engine, each action by the seat to move: a win?"""
    state = state.clone()
    for action in line:
        seat = state.to_act()[0]
        assert action in state.legal(seat), action
        state.act(seat, action)
    return state.over and state.result()["won"]


@pytest.mark.parametrize(
    ("seed", "players"), [(1, 1), (3, 2), (4, 2), (3, 3), (5, 3), (1, 4), (2, 4), (1, 5), (3, 5)]
)
def test_winning_line_replays_to_a_win(seed: int, players: int) -> None:
    sol = solve_seed(seed, 200_000, players)
    assert sol.status == "won", sol.proof
    assert replay_wins(GAME.deal(seed, players), sol.line)
    assert sol.nodes > 0 and sol.seconds >= 0


def small_position(
    seed: int, players: int, cards: int, draw: int, rng: random.Random
) -> TheGameState:
    """A made-up position of deal ``seed``: ``cards`` cards still out, ``draw`` of them in the
    draw pile, the rest dealt round the seats (at most a hand each), the piles' tops spread
    so that the answer is sometimes a win and sometimes a loss."""
    state = GAME.deal(seed, players)
    assert isinstance(state, TheGameState)
    tops = [rng.randint(1, 70), rng.randint(1, 70), rng.randint(30, 100), rng.randint(30, 100)]
    out = rng.sample([c for c in range(2, 100) if c not in tops], cards)
    draw = min(draw, cards - 1)
    state.draw, rest = out[:draw], out[draw:]
    state.hands = [[] for _ in range(players)]
    for i, c in enumerate(rest):
        state.hands[i % players].append(c)
    state.hands = [sorted(h[: state.hand_size]) for h in state.hands]
    state.tops, state.played, state.turn = tops, 0, 0
    state._ended = False
    state._start_turn()
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(1, 10**6),
    players=st.integers(1, 5),
    cards=st.integers(3, 11),
    draw=st.integers(0, 4),
    key=st.integers(0, 10**6),
)
def test_loss_proofs_and_dominance_against_a_plain_search(
    seed: int, players: int, cards: int, draw: int, key: int
) -> None:
    state = small_position(seed, players, cards, draw, random.Random(key))
    plain = search_from(state, 300_000, dominance=False, cuts=False, table=False)
    if plain[0] == "unknown":
        return
    full = search_from(state)
    assert full[0] == plain[0]  # sound losses, and no win lost to dominance or the table
    no_dominance = search_from(state, dominance=False)
    assert no_dominance[0] == plain[0]
    if full[0] == "won":
        assert replay_wins(state, full[1])
        assert replay_wins(state, plain[1])


def test_many_small_positions_against_a_plain_search() -> None:
    # seeded made-up positions, a few cards out: the answer with the table, the dominance and
    # the proofs of loss is the plain search's; some are lost in play, not just at the start
    rng = random.Random(7)
    hard_losses = 0
    for i in range(300):
        state = small_position(
            rng.randint(1, 10**6),
            rng.randint(1, 5),
            rng.randint(6, 15),
            rng.randint(0, 6),
            random.Random(i),
        )
        plain = search_from(state, 300_000, dominance=False, cuts=False, table=False)
        assert plain[0] != "unknown"
        full = search_from(state)
        assert full[0] == plain[0], i
        hard_losses += full[0] == "lost" and not state.over
    assert hard_losses >= 5


def test_winnable_after_an_action_is_the_search_of_the_position_after_it() -> None:
    # the position after each action, reached through the engine (an "end" draws), searched
    # with the state: the same answer as winnable_after given the same cards as plain values
    from cardtable.games.the_game import PILES

    rng = random.Random(11)
    compared = ended = 0
    for i in range(120):
        state = small_position(
            rng.randint(1, 10**6),
            rng.randint(1, 4),
            rng.randint(8, 16),
            rng.randint(3, 10),
            random.Random(i),
        )
        if state.over:
            continue
        seat = state.turn
        # play the minimum first on half of them, so "end" (and its draw) is offered too
        while i % 2 and state.played < state.minimum and not state.over:
            plays = [a for a in state.legal(seat) if a.startswith("play")]
            if not plays:
                break
            state.act(seat, plays[0])
        if state.over or state.turn != seat:
            continue
        for action in state.legal(seat):
            if action.startswith("signal"):
                continue
            after = state.clone()
            after.act(seat, action)
            expected = search_from(after, 300_000)[0]
            words = action.split()
            move = None if words[0] == "end" else (int(words[1]), PILES.index(words[2]))
            got = winnable_after(
                list(state.tops),
                [solver._mask(h) for h in state.hands],
                state.draw[::-1],
                seat,
                state.played,
                move,
                hand_size=state.hand_size,
                minimum_draw=2,
                minimum_empty=1,
                budget=300_000,
            )
            assert got == (expected == "won"), (i, action)
            compared += 1
            ended += move is None
    assert compared > 200 and ended > 20


def test_a_dead_card_is_a_proof() -> None:
    state = GAME.deal(1, 2)
    assert isinstance(state, TheGameState)
    # the 50 in a hand, both up piles past it (not 60) and the down piles below it (not 40),
    # no chain of tens to turn a pile back to it: no pile can ever take it
    state.tops = [62, 73, 30, 35]
    state.hands = [[50, 80], [90]]
    state.draw = []
    state.played = 0
    state.turn = 0
    sol = solve(state)
    assert sol.status == "lost"
    assert "50" in sol.proof


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(2, 99), min_size=1, max_size=40, unique=True),
    st.lists(st.integers(1, 100), min_size=4, max_size=4),
)
def test_dead_card_matches_the_endgame_bound(cards: list[int], tops: list[int]) -> None:
    tops = [min(tops[0], 99), min(tops[1], 99), max(tops[2], 2), max(tops[3], 2)]
    live = sum(1 << c for c in cards if c not in tops)
    assert dead_card(tops, live) == _dead_card(tops, live)


def test_dominance_plays_a_card_on_the_pile_that_accepts_less() -> None:
    s = solver._Search([20, 30, 100, 100], [0], [], 0, 2, 2, 1, None)
    # up piles at 20 and 30, live 31 and 35: after the 35 both take the same live cards (the
    # 31), so one of the two plays of the 35 is enough
    live = 1 << 35 | 1 << 31
    acc = [solver.ACC[p][t] & live for p, t in enumerate(s.tops)]
    assert {p for _, c, p in s.plays(live, live, acc) if c == 35 and p < 2} == {0}
    # up piles at 20 and 41, live 31, 35, 45: the 41 takes only the 31 (ten back), the 20
    # takes 31 and 35, so the 45 goes on the 41 and the 20 stays open
    s.tops = [20, 41, 100, 100]
    live = 1 << 35 | 1 << 31 | 1 << 45
    acc = [solver.ACC[p][t] & live for p, t in enumerate(s.tops)]
    assert {p for _, c, p in s.plays(live, live, acc) if c == 45 and p < 2} == {1}
    # neither inside the other (the 20 takes 35, the 41 takes 31 only): both plays are tried
    live = 1 << 35 | 1 << 31 | 1 << 45
    s.tops = [32, 41, 100, 100]
    acc = [solver.ACC[p][t] & live for p, t in enumerate(s.tops)]
    assert {p for _, c, p in s.plays(live, live, acc) if c == 45 and p < 2} == {0, 1}


def test_budget_gives_unknown() -> None:
    sol = solve_seed(2, budget=5, players=1)
    assert sol.status == "unknown" and sol.nodes == 5 and not sol.line


def test_solver_leaves_the_state_alone() -> None:
    state = GAME.deal(7, 3)
    before = state.snapshot()
    solve(state, 5000)
    assert state.snapshot() == before


def test_over_state() -> None:
    state = GAME.deal(3, 2)
    state._ended = True
    assert solve(state).status == "lost"


def test_batch_and_cli() -> None:
    records = run("the-game", [3, 4], budget=100_000, players=2)
    assert [r["players"] for r in records] == [2, 2]
    summary = summarise(records)
    assert summary["won"] + summary["lost"] + summary["unknown"] == 2
    result = CliRunner().invoke(
        app,
        ["solve", "the-game", "--players", "3", "--seeds", "3,5", "--budget", "100000", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and len(data["deals"]) == 2
    for deal in data["deals"]:
        if deal["status"] == "won":
            assert replay_wins(GAME.deal(deal["seed"], 3), deal["line"])
    bad = CliRunner().invoke(app, ["solve", "the-game", "--players", "6", "--seeds", "1"])
    assert bad.exit_code == 2
    assert CliRunner().invoke(app, ["solve", "doublets", "--players", "2"]).exit_code == 2


def test_the_solver_peeks_so_it_is_no_player() -> None:
    """Two deals a seat cannot tell apart (one view; the other hands and the draw pile drawn
    again) get different answers: the solver reads every hand, so no bot may be one."""
    differs = 0
    for seed in range(1, 40):
        state = GAME.deal(seed, 1)
        other = state.redraw_hidden(0, random.Random(seed))
        assert other.view(0) == state.view(0)
        differs += solver.still_winnable(state, 20_000) != solver.still_winnable(other, 20_000)
    assert differs
    assert not any(spec.startswith("cardtable.solvers") for spec in bots.BUILT_IN.values())
