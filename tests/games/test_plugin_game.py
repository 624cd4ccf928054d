"""A fourth game from another package (``tests/plugins/site``: a dist-info whose entry point in
the group ``cardtable.games`` names the module ``fifteen_game``) is a game like the others:
registered, dealt, replayed, simulated, with the protocol's invariants."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from cardtable import games, sim
from cardtable.bots import make_bot, names
from cardtable.core.errors import UnknownGame


def test_the_entry_point_registers_the_game(plugin_game):
    assert plugin_game in games.names()
    game = games.get(plugin_game)
    assert game.title == "Fifteen"
    assert game.describe()["options"][0]["name"] == "limit"
    assert {"random", "greedy"} <= set(names(plugin_game))


def test_without_the_package_there_is_no_such_game():
    games.refresh()
    assert "fifteen" not in games.names()
    with pytest.raises(UnknownGame):
        games.get("fifteen")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_invariants_over_random_games(plugin_game, players, seed):
    """Cards conserved (the game's ``cards`` hook), views hide the hidden cards, the record
    replays, the generic playout on ``legal``/``act`` ends the game."""
    rng = random.Random(seed)
    state = games.get(plugin_game).deal(seed, players)
    dealt = state.cards()
    assert sum(dealt.values()) == 18
    while not state.over:
        for seat in [None, *range(players)]:
            assert state.redraw_hidden(seat, rng).view(seat) == state.view(seat)
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
        assert state.cards() == dealt
    assert games.replay(json.loads(json.dumps(state.record()))) == state
    fast = games.get(plugin_game).deal(seed, players)
    fast.playout(["random"] * players, random.Random(seed))
    assert fast.over and games.replay(fast.record()) == fast


def test_greedy_and_random_bots_play_it(plugin_game):
    state = games.get(plugin_game).deal(5, 3)
    sim.play_one(
        state,
        [
            make_bot("greedy", plugin_game),
            make_bot("random", plugin_game, 1),
            make_bot("greedy", plugin_game),
        ],
    )
    result = state.result()
    assert result["over"] and sorted(result["ranks"])[0] == 1


def test_simulate_on_the_command_line(plugin_game, tmp_path):
    """``cardtable simulate`` in a process of its own finds the game through the entry point."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardtable",
            "simulate",
            plugin_game,
            "--players",
            "3",
            "--bots",
            "greedy,random,random",
            "--games",
            "60",
            "--jobs",
            "1",
            "--json",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    summary = json.loads(out.stdout)
    assert summary["games"] == 60
    assert summary["errors"] == 0
