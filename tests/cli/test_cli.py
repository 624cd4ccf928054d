"""The command line, run in-process with Typer's runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()


def test_games_lists_all_three():
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0
    for name in ("slide", "doublets", "the-game"):
        assert name in out.output


def test_simulate_json_is_reproducible():
    args = ["simulate", "slide", "--players", "2", "--bots", "greedy,random", "--games", "30",
            "--seed", "4", "--bot-key", "99", "--json"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    data = json.loads(first.output)
    assert data["games"] == 30 and data["seats"][0]["bot"] == "greedy"


def test_simulate_table():
    out = runner.invoke(app, ["simulate", "the-game", "--players", "3", "--games", "20"])
    assert out.exit_code == 0
    assert "win rate" in out.output and "games won" in out.output


def test_simulate_with_an_option():
    out = runner.invoke(app, ["simulate", "slide", "--players", "2", "--games", "5",
                              "-o", "target=80", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["options"] == {"target": 80}


def test_errors_are_one_clear_line():
    out = runner.invoke(app, ["simulate", "slide", "--players", "9"])
    assert out.exit_code == 2
    assert "Slide is for 2 to 6 players, not 9" in out.output
    out = runner.invoke(app, ["simulate", "chess"])
    assert out.exit_code == 2 and "no game called 'chess'" in out.output
    out = runner.invoke(app, ["play", "slide", "--seats", "me,wizard"])
    assert out.exit_code == 2 and "no bot called 'wizard'" in out.output


def test_rules_prints_the_page():
    out = runner.invoke(app, ["rules", "the-game"])
    assert out.exit_code == 0
    assert "backwards" in out.output.lower()


def test_replay_refuses_a_bad_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 2 and "not JSON" in out.output
    out = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert out.exit_code == 2 and "no such file" in out.output
