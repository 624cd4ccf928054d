"""The Doublets solver: winning lines replay, losses are proved, budgets and jobs behave."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardtable import bots, games
from cardtable.cli import app
from cardtable.games.doublets import KING, NEXT
from cardtable.solvers import doublets as solver
from cardtable.solvers.batch import parse_seeds, run
from cardtable.solvers.doublets import Position, pack_reserves, solve, solve_seed, still_winnable

GAME = games.get("doublets")


def card(name: str) -> int:
    """Engine card int from a name like '6C' or 'KH'."""
    rank, suit = name[:-1], name[-1]
    value = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)
    return value * 4 + "CDHS".index(suit)


def hopeless_state():
    """Last pass, the only 6 left lies under a king in the waste and no reserve holds a 6."""
    state = GAME.deal(1)
    state.stock = [card("3D"), card("5S")]  # top last
    state.waste = [card("6C"), card("KH")]
    state.reserves = [card(c) for c in ("KC", "KD", "KS", "9C", "9D", "9H", "9S")]
    state.foundation = [card("3C")]
    state.needed = 6
    state.redeals_left = 0
    state._ended = state._finished()
    return state


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 11, 20, 33, 42, 99, 123])
def test_winning_line_replays_to_a_win(seed: int) -> None:
    sol = solve_seed(seed)
    assert sol.status == "won"
    state = GAME.deal(seed)
    for action in sol.line:
        assert action in state.legal(0)
        state.act(0, action)
    assert state.over and state.won


def test_line_from_a_position_in_play() -> None:
    state = GAME.deal(5)
    for _ in range(10):  # a few greedy-ish moves first: the solver starts from any position
        state.act(0, state.legal(0)[0])
    sol = solve(state)
    assert sol.status in ("won", "lost")
    if sol.won:
        replay = state.clone()
        for action in sol.line:
            replay.act(0, action)
        assert replay.won


def test_hopeless_position_is_lost_with_a_proof() -> None:
    state = hopeless_state()
    assert not state.over  # flips are still legal: the search has to look
    sol = solve(state)
    assert sol.status == "lost"
    assert sol.line == []
    assert "exhaustive" in sol.proof and sol.nodes > 0
    assert still_winnable(state) is False


def test_finished_game_is_reported() -> None:
    state = hopeless_state()
    state.stock = []
    state._ended = state._finished()
    assert state.over
    sol = solve(state)
    assert sol.status == "lost" and "over" in sol.proof


def test_budget_gives_unknown() -> None:
    sol = solve_seed(1, budget=3)
    assert sol.status == "unknown" and "budget" in sol.proof
    assert still_winnable(GAME.deal(1), budget=3) is None
    assert still_winnable(GAME.deal(1)) is True


def test_results_do_not_depend_on_jobs() -> None:
    seeds = list(range(1, 51))

    def strip(results: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k not in ("ms", "cpu_ms")} for r in results]

    assert strip(run("doublets", seeds, jobs=1)) == strip(run("doublets", seeds, jobs=2))


def test_solver_is_unchanged_by_the_search() -> None:
    state = GAME.deal(8)
    before = state.snapshot()
    solve(state)
    assert state.snapshot() == before


def test_parse_seeds() -> None:
    assert parse_seeds("1-3,7, 9-10") == [1, 2, 3, 7, 9, 10]
    for bad in ("", "3-1", "x"):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_command_line() -> None:
    result = CliRunner().invoke(app, ["solve", "doublets", "--seeds", "1-3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["summary"]["decided"] == 3
    assert all(d["status"] == "won" and d["line"] for d in data["deals"])
    result = CliRunner().invoke(app, ["solve", "doublets", "--seeds", "4,6"])
    assert result.exit_code == 0 and "winnable" in result.stdout
    assert CliRunner().invoke(app, ["solve", "slide"]).exit_code == 2


def test_the_solver_peeks_so_it_is_no_player() -> None:
    """Its winning line wins the true deal and not one a player cannot tell from it (one
    view, the stock drawn again): the solver reads the hidden cards, so no bot may be one."""
    fails = 0
    for seed in range(1, 20):
        state = GAME.deal(seed)
        other = state.redraw_hidden(0, random.Random(seed))
        assert other.view(0) == state.view(0)
        line = solve(state).line
        assert wins(state.clone(), line)
        fails += not wins(other, line)
    assert fails
    assert not any(spec.startswith("cardtable.solvers") for spec in bots.BUILT_IN.values())


def wins(state, line: list[str]) -> bool:
    """Whether ``line`` played on ``state`` is legal throughout and wins."""
    for action in line:
        if action not in state.legal(0):
            return False
        state.act(0, action)
    return bool(state.over and state.result().get("won"))


# -- the last-pass bound -------------------------------------------------------------------


def needed_run(need: int, left: int) -> list[int]:
    """The values the foundation still wants, in order: what a win has left to play."""
    out = []
    for _ in range(left):
        out.append(need)
        need = NEXT[need]
    return out


@st.composite
def small_positions(draw: st.DrawFn, redeals: tuple[int, int] = (0, 0)) -> Position:
    """A position whose cards are exactly what is still needed (plus kings), dealt at random
    between the reserves, the waste and the stock."""
    need = draw(st.integers(1, 12))
    left = draw(st.integers(8, 17) if redeals == (0, 0) else st.integers(8, 13))
    cards = needed_run(need, left) + [KING] * draw(st.integers(0, 3))
    cards = draw(st.permutations(cards))
    res, deck = cards[:7], bytes(cards[7:])
    pointer = draw(st.integers(0, len(deck)))
    return Position(deck, pointer, pack_reserves(res), draw(st.integers(*redeals)), need, left)


def same_answer_with_and_without_bound(pos: Position) -> None:
    # without the bound the search is plain and exhaustive: the bound may only save work
    plain = solver.solve_position(pos, bound=False)
    bounded = solver.solve_position(pos)
    assert plain[0] in ("won", "lost") and bounded[0] == plain[0]
    if pos.redeals == 0 and not solver.last_pass_possible(
        pos.deck, pos.pointer, pos.reserves, pos.needed, pos.left
    ):
        assert plain[0] == "lost"
    if bounded[0] == "won":
        slots = [v for v in range(1, 14) for _ in range((pos.reserves >> (3 * v)) & 7)]
        line = solver.moves_to_actions(slots, pos.deck, pos.pointer, pos.needed, bounded[1])
        assert line.count("redeal") <= pos.redeals
        assert sum(a.startswith("play") for a in line) == pos.left


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_last_pass_bound_is_sound(pos: Position) -> None:
    same_answer_with_and_without_bound(pos)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(redeals=(1, 2)))
def test_bound_inside_earlier_passes_keeps_answers(pos: Position) -> None:
    # the bound also cuts the last passes that a search from an earlier pass reaches
    same_answer_with_and_without_bound(pos)


def test_bound_keeps_answers_on_real_last_passes() -> None:
    # positions from real deals played at random into the last pass
    rng = random.Random(7)
    decided = plain_nodes = bounded_nodes = 0
    for seed in range(1, 41):
        state = GAME.deal(seed)
        while not state.over and (state.redeals_left or rng.random() < 0.8):
            legal = state.legal(0)
            state.act(0, rng.choice(legal) if rng.random() < 0.3 else legal[0])
        if state.over:
            continue
        pos = solver.position_from_state(state)
        plain = solver.solve_position(pos, budget=200_000, bound=False)
        if plain[0] == "unknown":
            continue
        decided += 1
        sol = solve(state)
        assert sol.status == plain[0]
        plain_nodes += plain[2]
        bounded_nodes += sol.nodes
        if sol.won:
            replay = state.clone()
            for action in sol.line:
                replay.act(0, action)
            assert replay.won
    assert decided >= 20
    assert bounded_nodes < plain_nodes  # and it saves work


def test_table_cap_keeps_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tiny table forgets almost everything: slower, but the same answers
    monkeypatch.setattr(solver, "TABLE_CAP", 8)
    for seed in (1, 2, 3):
        assert solve_seed(seed).status == "won"
    assert solve(hopeless_state()).status == "lost"


def test_a_lost_deal_is_proved_lost() -> None:
    # deal 6594 is the one deal of 1..10000 that cannot be won (see docs/bots.md)
    sol = solve_seed(6594)
    assert sol.status == "lost" and sol.line == []
    assert "exhaustive" in sol.proof and "cut no branch" in sol.proof
