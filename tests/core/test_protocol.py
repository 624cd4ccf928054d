"""The protocol as every game implements it: registry, options, records, errors."""

from __future__ import annotations

import json
import random

import pytest

from cardtable import (
    BadOptions,
    BadRecord,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    UnknownGame,
    games,
)


def test_registry_names_and_lookup():
    assert games.names() == ["doublets", "slide", "the-game"]
    for name in games.names():
        game = games.get(name)
        assert game.name == name
        assert 1 <= game.min_players <= game.max_players


def test_unknown_game_is_a_clear_value_error():
    with pytest.raises(UnknownGame, match="no game called 'chess'") as e:
        games.get("chess")
    assert isinstance(e.value, ValueError)


def test_error_taxonomy_is_value_errors_and_illegal_actions():
    for cls in (MalformedAction, NotYourTurn, GameOver):
        assert issubclass(cls, IllegalAction)
    for cls in (IllegalAction, BadOptions, BadRecord):
        assert issubclass(cls, ValueError)


@pytest.mark.parametrize(
    ("game", "players", "options", "message"),
    [
        ("slide", 1, {}, "2 to 6 players, not 1"),
        ("slide", 7, {}, "2 to 6 players, not 7"),
        ("doublets", 2, {}, "exactly 1 players, not 2"),
        ("the-game", 6, {}, "1 to 5 players, not 6"),
        ("slide", 3, {"colour": "red"}, "no option 'colour'"),
        ("slide", 3, {"start": 3}, "no seat 4 among 3 players"),  # seats counted from 1
        ("slide", 3, {"target": 0}, "at least 1"),
        ("slide", 3, {"target": "100"}, "must be int"),
        ("the-game", 2, {"min_after_empty": 3}, "one of 1, 2"),
        ("the-game", 2, {"pro": "yes"}, "must be bool"),
        ("doublets", 1, {"start": 0}, "no option 'start'"),
    ],
)
def test_bad_players_and_options_are_refused_clearly(game, players, options, message):
    with pytest.raises(BadOptions, match=message):
        games.get(game).deal(1, players, options)


@pytest.mark.parametrize("seed", [-1, 2**256, 1.5, "7", True, None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(BadOptions, match="seed"):
        games.get("slide").deal(seed, 2)


def test_describe_lists_options_with_defaults():
    d = games.get("the-game").describe()
    assert {o["name"]: o["default"] for o in d["options"]} == {
        "start": 0,
        "min_after_empty": 1,
        "pro": False,
    }


def test_games_say_what_they_offer():
    """Capabilities adapters ask for (issue #10): a fallback bot every game has, an advisor
    and a solver where a game has them, also in describe() for the browser."""
    from cardtable.bots import make_bot

    for name in games.names():
        game = games.get(name)
        make_bot(game.fallback_bot, name)  # a bot of that game
        d = game.describe()
        assert d["advisor"] is (game.advisor is not None)
        assert d["solver"] is (game.solver is not None)
        if game.advisor:
            advisor = make_bot(game.advisor, name)
            state = game.deal(3, game.min_players)
            advisor.observe(state.view(0))
            action, reason = advisor.hint(state.view(0), state.legal(0))
            assert action in state.legal(0) and reason
        if game.solver:
            assert game.still_winnable(game.deal(1, game.min_players), 3) in (True, False, None)
        else:
            with pytest.raises(ValueError, match="no solver"):
                game.still_winnable(game.deal(1, game.min_players))
    assert games.get("doublets").advisor == "fair" and games.get("doublets").solver


def test_table_tools_are_declared_per_player_count():
    """``Game.tools`` is data: by default every tool alone and none at a shared table; a
    hint needs an advisor, a peek a solver; only a peek may be declared for a shared table
    (#23). The server's message model names the same tools."""
    import typing

    from cardtable.core.protocol import ALONE_ONLY, TOOLS, Tools
    from cardtable.server.api.messages import Tool

    assert typing.get_args(Tool) == TOOLS
    assert games.get("doublets").tools_for(1) == TOOLS
    # The Game alone peeks too: its solver answers "can this still be won?" with every card
    assert games.get("the-game").tools_for(1) == ("undo", "redo", "peek", "restart", "new_deal")
    for name in games.names():
        for players in range(max(2, games.get(name).min_players), games.get(name).max_players + 1):
            assert games.get(name).tools_for(players) == ()
    doublets = type(games.get("doublets"))
    # a game may offer a peek at shared tables by saying so, never one it cannot give
    assert type("Shared", (doublets,), {"tools": Tools(shared=frozenset({"peek"}))})().tools_for(
        2
    ) == ("peek",)
    assert set(TOOLS) - {"peek"} == ALONE_ONLY
    assert "peek" not in type("Blind", (doublets,), {"solver": None})().tools_for(1)
    for tool in ALONE_ONLY:
        with pytest.raises(ValueError, match="only for a table played alone"):
            Tools(shared=frozenset({tool}))
    with pytest.raises(ValueError, match="no table tool 'peeking'"):
        Tools(alone=frozenset({"peeking"}))


def test_same_seed_same_deal_different_seed_different_deal(game_seats):
    name, n = game_seats
    a, b, c = (games.get(name).deal(s, n) for s in (5, 5, 6))
    assert a.snapshot() == b.snapshot()
    assert a.snapshot() != c.snapshot()


def test_record_shape_and_json_round_trip(game_seats):
    name, n = game_seats
    state = games.get(name).deal(3, n)
    state.playout(["greedy"] * n, random.Random(3))
    record = json.loads(json.dumps(state.record()))
    assert set(record) == {"game", "version", "seed", "players", "options", "actions"}
    assert record["game"] == name and record["seed"] == 3 and record["players"] == n
    assert all(isinstance(s, int) and isinstance(a, str) for s, a in record["actions"])
    again = games.replay(record)
    assert again == state
    assert again.result() == state.result()


def _record(name="slide", n=2):
    state = games.get(name).deal(9, n)
    state.playout(["greedy"] * n, random.Random(1))
    return state.record()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("seed"), "has no seed"),
        (lambda r: r.update(extra=1), "unknown fields: extra"),
        (lambda r: r.update(game="poker"), "no game called 'poker'"),
        (lambda r: r.update(version=99), "rules version 99"),
        (lambda r: r.update(players=9), "cannot be dealt"),
        (lambda r: r.update(options={"bogus": 1}), "no option 'bogus'"),
        (lambda r: r.update(options=[]), "options must be an object"),
        (lambda r: r.update(actions="flip"), "list of \\[seat, action\\] pairs"),
        (lambda r: r["actions"].__setitem__(3, [0]), "action 4 is not a"),
        (lambda r: r["actions"].__setitem__(40, [0, "take 11 left"]), "action 41 .* refused"),
        (lambda r: r["actions"].append([0, "reveal a1"]), "game is over"),
        # found by bench/fuzz.py: non-text option keys made deal(**options) a TypeError
        (lambda r: r.update(options={1: 2}), "options must be an object"),
        (lambda r: r["actions"].__setitem__(3, ["0", r["actions"][3][1]]), "action 4 .* no seat"),
        (lambda r: r["actions"].insert(5, r["actions"][5]), "action 7 .* refused"),
        (lambda r: r.update(seed=r["seed"] + 1), "refused"),
        (lambda r: r.update(seed=2**256), "cannot be dealt"),
    ],
)
def test_tampered_records_are_refused_whole(mutate, message):
    record = _record()
    mutate(record)
    with pytest.raises(BadRecord, match=message):
        games.replay(record)


@pytest.mark.parametrize("record", [None, [], "slide", {"game": 7}, {}])
def test_non_records_are_refused(record):
    with pytest.raises(BadRecord):
        games.replay(record)


def test_truncated_record_replays_to_the_prefix_state():
    record = _record("the-game", 3)
    cut = dict(record, actions=record["actions"][:20])
    state = games.replay(cut)
    assert len(state.actions) == 20 and not state.over


def test_non_string_action_and_bad_seat(game_seats):
    name, n = game_seats
    state = games.get(name).deal(1, n)
    before = state.snapshot()
    with pytest.raises(MalformedAction):
        state.act(0, 7)
    for seat in (-1, n, "0", True):
        with pytest.raises(NotYourTurn):
            state.act(seat, state.legal(0)[0])
    assert state.snapshot() == before


def test_playout_refuses_unknown_policies():
    state = games.get("slide").deal(1, 2)
    with pytest.raises(ValueError, match="needs 2 policies"):
        state.playout(["random"], random.Random(0))
    with pytest.raises(ValueError, match="no built-in policy"):
        state.playout(["random", "clever"], random.Random(0))


def test_repr_is_informative():
    state = games.get("slide").deal(7, 3)
    assert repr(state) == "<Slide seed=7 players=3 actions=0 to act [0, 1, 2]>"
    assert repr(games.get("slide")) == "games.get('slide')"


def test_each_games_companions_are_found_by_its_name_and_load():
    """A game's solvers and encoding are registered in entry points by its name (they import
    its rules, so the rules cannot name them, #25): each loads, and takes what its group says."""
    import inspect

    from cardtable.core.protocol import COMPANIONS, companion

    offered = {
        (group, name)
        for group in COMPANIONS
        for name in games.names()
        if companion(group, name) is not None
    }
    assert {
        ("cardtable.solvers", "doublets"),
        ("cardtable.deal_solvers", "doublets"),
        ("cardtable.deal_solvers", "the-game"),
        ("cardtable.encodings", "slide"),
        ("cardtable.encodings", "doublets"),
        ("cardtable.encodings", "the-game"),
        ("cardtable.loss_reasons", "doublets"),
        ("cardtable.loss_reasons", "the-game"),
        ("cardtable.vector_envs", "doublets"),
        ("cardtable.vector_envs", "the-game"),
    } <= offered
    arity = {
        "cardtable.solvers": 2,
        "cardtable.deal_solvers": 3,
        "cardtable.encodings": 2,
        "cardtable.loss_reasons": 4,
        "cardtable.vector_envs": 3,
    }
    for group, name in offered:
        found = companion(group, name)
        params = [
            p
            for p in inspect.signature(found).parameters.values()
            if p.default is inspect.Parameter.empty
        ]
        assert len(params) <= arity[group] <= len(inspect.signature(found).parameters), (
            group,
            name,
        )
    assert games.get("slide").solver is None and games.get("slide").deal_solver is None
