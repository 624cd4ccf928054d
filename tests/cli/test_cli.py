"""The command line, run in-process with Typer's runner (stdout and stderr apart)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import typer
from typer.testing import CliRunner

import cardtable
from cardtable import bots, games
from cardtable.cli import app

runner = CliRunner()


def test_games_lists_all_three():
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0
    for name in ("slide", "doublets", "the-game"):
        assert name in out.output


def test_simulate_json_is_reproducible():
    args = [
        "simulate",
        "slide",
        "--players",
        "2",
        "--bots",
        "greedy,random",
        "--games",
        "30",
        "--seed",
        "4",
        "--bot-key",
        "99",
        "--json",
    ]
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
    out = runner.invoke(
        app, ["simulate", "slide", "--players", "2", "--games", "5", "-o", "target=80", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["options"] == {"target": 80}


def test_a_seat_option_is_written_from_1_as_people_count_seats():
    """``-o start=2`` is the second seat, kept as 1 in the record; ``cardtable games`` shows
    the default as the first seat (issue #24: the terminal counts seats from 1)."""
    out = runner.invoke(
        app, ["simulate", "the-game", "--players", "3", "--games", "2", "-o", "start=2", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["options"] == {"start": 1}
    listed = runner.invoke(app, ["games"], terminal_width=200).output
    assert "start=1" in listed and "start=0" not in listed
    for bad in ("0", "4", "true", '"b"'):
        wrong = runner.invoke(app, ["simulate", "the-game", "--players", "3", "-o", f"start={bad}"])
        assert wrong.exit_code == 2 and "seat" in wrong.stderr, (bad, wrong.stderr)
    assert "counted from 1" in runner.invoke(app, ["simulate", "slide", "-o", "start=0"]).stderr


def test_usage_errors_are_one_line_on_stderr_with_status_2():
    cases = [
        (["simulate", "slide", "--players", "9"], "Slide is for 2 to 6 players, not 9"),
        (["simulate", "chess"], "no game called 'chess'"),
        (["play", "slide", "--seats", "me,wizard"], "no bot called 'wizard'"),
        (["simulate", "slide", "--bots", "greedy,random,random", "--players", "2"], "one per seat"),
        (["simulate", "slide", "-o", "target"], "NAME=VALUE"),
        (["simulate", "slide", "-o", "colour=red"], "colour"),
        (["simulate", "slide", "--out", "rows.txt"], ".csv or .jsonl"),
        (["tournament", "slide", "--bots", "greedy,wizard"], "no bot called 'wizard'"),
        (["tournament", "slide", "--bots", ","], "at least one bot"),
        (["rules", "chess"], "no game called 'chess'"),
        (["solve", "slide"], "no solver for 'slide'"),
        (["solve", "doublets", "--seeds", "9-1"], "--seeds"),
        (["serve", "--bot-timeout", "0"], "--bot-timeout"),
    ]
    for args, message in cases:
        out = runner.invoke(app, args)
        assert out.exit_code == 2, (args, out.output)
        assert message in out.stderr, (args, out.stderr)
        assert out.stdout == "", args
        assert out.stderr.count("\n") == 1, out.stderr  # one line, no traceback


def test_serve_takes_each_option_from_the_command_line_or_its_environment_variable(monkeypatch):
    """One settings object (#25): an option left out comes from ``CARDTABLE_*``, the command
    line wins over the variable, and a wrong value names both."""
    from cardtable.cli import server_settings
    from cardtable.server.web.settings import ServerSettings

    monkeypatch.setenv("CARDTABLE_SEAT_GRACE", "5")
    monkeypatch.setenv("CARDTABLE_ALLOWED_ORIGIN", "https://a.example, https://b.example")
    monkeypatch.setenv("CARDTABLE_EXTERNAL_BOT", "echo=python3 -c pass")
    settings = server_settings({"port": 9001, "bot_delay": None, "allowed_origin": None})
    assert (settings.port, settings.seat_grace, settings.bot_delay) == (9001, 5.0, 0.8)
    assert settings.allowed_origin == ["https://a.example", "https://b.example"]
    assert settings.external_bots == {"echo": "python3 -c pass"}
    assert server_settings({"seat_grace": 7.5}).seat_grace == 7.5
    assert set(ServerSettings.model_fields) == {  # every option of serve is a setting
        p.name for p in typer.main.get_command(app).commands["serve"].params
    }
    monkeypatch.setenv("CARDTABLE_BOT_WORKERS", "none")
    out = runner.invoke(app, ["serve"])
    assert out.exit_code == 2 and "--bot-workers (or $CARDTABLE_BOT_WORKERS)" in out.stderr


def test_click_usage_errors_are_status_2_too():
    out = runner.invoke(app, ["simulate", "slide", "--games", "0"])
    assert out.exit_code == 2 and "--games" in out.stderr
    out = runner.invoke(app, ["simulate"])
    assert out.exit_code == 2 and out.stdout == ""


def test_version():
    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0 and out.stdout == f"cardtable {cardtable.__version__}\n"
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.split() == ["cardtable", cardtable.__version__]


def test_help_names_the_registered_games_and_bots():
    wide = {"COLUMNS": "400"}  # no wrapping inside the help's boxes
    main = runner.invoke(app, ["--help"], env=wide)
    assert all(games.get(name).title in main.stdout for name in games.names())
    for command in ("simulate", "play", "tournament"):
        text = " ".join(runner.invoke(app, [command, "--help"], env=wide).stdout.split())
        assert ", ".join(games.names()[:-1]) + " or " + games.names()[-1] in text, command
        assert ", ".join(bots.names()) in text, command
    from cardtable.solvers import batch

    text = runner.invoke(app, ["solve", "--help"], env=wide).stdout
    assert all(name in text for name in batch.names())


#: a terminal whose locale asks for no language of ours
ENGLISH = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}


def test_rules_prints_the_page():
    out = runner.invoke(app, ["rules", "the-game"], env={**ENGLISH, "COLUMNS": "80"})
    assert out.exit_code == 0
    assert "backwards" in out.output.lower()
    # wrapped to the terminal, not cut: a list item's end is there
    assert "a choice in the lobby." in " ".join(out.output.split())


def test_rules_print_in_the_terminal_language_or_the_one_asked_for():
    env = {k: v for k, v in os.environ.items() if k not in ENGLISH}
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "rules", "slide"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "LANG": "de_DE.UTF-8", "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    assert "Slide ist ein Spiel für 2 bis 6 Personen" in done.stdout
    assert "Startspieler" in done.stdout and "take 7 left" in done.stdout
    # --lang wins over the locale; a language with no page falls back to English
    out = runner.invoke(app, ["rules", "doublets", "--lang", "sk"], env={"LANG": "de_DE"})
    assert out.exit_code == 0 and "odkladacia kôpka" in out.output
    out = runner.invoke(app, ["rules", "slide"], env={**ENGLISH, "LANG": "fr_FR.UTF-8"})
    assert out.exit_code == 0 and "Slide is a game for 2 to 6 players" in out.output
    out = runner.invoke(app, ["rules", "slide", "--lang", "fr"])
    assert out.exit_code == 2 and "no language called 'fr'" in out.stderr


def test_replay_fails_on_a_bad_file_with_status_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 1 and "not JSON" in out.stderr
    out = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert out.exit_code == 1 and "no such file" in out.stderr
    out = runner.invoke(app, ["replay", str(tmp_path)])
    assert out.exit_code == 1 and "cannot read" in out.stderr
    record = games.get("slide").deal(7, 2).record()
    record["actions"] = [[0, "slide nowhere"]]
    (tmp_path / "wrong.json").write_text(json.dumps(record))
    out = runner.invoke(app, ["replay", str(tmp_path / "wrong.json")])
    assert out.exit_code == 1 and out.stderr.startswith("error:") and out.stdout == ""


def test_tournament_table():
    out = runner.invoke(
        app,
        [
            "tournament",
            "slide",
            "--bots",
            "greedy,random",
            "--games",
            "6",
            "--seed",
            "3",
            "--bot-key",
            "5",
        ],
        env={"COLUMNS": "200"},
    )
    assert out.exit_code == 0, out.output
    assert "seats played" in out.stdout and "win rate" in out.stdout
    assert "greedy" in out.stdout and "random" in out.stdout


def test_tournament_json_rotates_seats_over_the_same_seeds(tmp_path):
    rows = tmp_path / "rows.jsonl"
    args = [
        "tournament",
        "slide",
        "--bots",
        "greedy,random",
        "--players",
        "2",
        "--games",
        "5",
        "--seed",
        "3",
        "--bot-key",
        "5",
        "--json",
        "--out",
        str(rows),
    ]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["games"] == 10 and summary["seats"] == []  # bots change seats
    assert {b: f["games"] for b, f in summary["by_bot"].items()} == {"greedy": 10, "random": 10}
    # both bots play each seed from both seats, and win shares add up to one per game
    played = [json.loads(line) for line in rows.read_text().splitlines()]
    assert sorted((g["seed"], tuple(g["bots"])) for g in played) == sorted(
        (seed, lineup)
        for seed in range(3, 8)
        for lineup in (("greedy", "random"), ("random", "greedy"))
    )
    wins = sum(f["win_rate"] * f["games"] for f in summary["by_bot"].values())
    assert wins >= 10
    for figures in summary["by_bot"].values():
        low, high = figures["win_rate_ci95"]
        assert 0 <= low <= figures["win_rate"] <= high <= 1
    assert runner.invoke(app, args).stdout == out.stdout  # the same key: the same run


def test_cooperative_tournament_counts_each_game_once():
    out = runner.invoke(
        app,
        [
            "tournament",
            "the-game",
            "--bots",
            "greedy,random",
            "--players",
            "3",
            "--games",
            "4",
            "--json",
            "--bot-key",
            "1",
        ],
    )
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["games"] == 8
    assert {b: f["games"] for b, f in summary["by_bot"].items()} == {"greedy": 4, "random": 4}


def test_a_game_that_ends_in_error_fails_with_status_1(tmp_path):
    bot = tmp_path / "quits.py"
    bot.write_text("import sys\nsys.exit(0)\n")
    out = runner.invoke(
        app,
        [
            "tournament",
            "slide",
            "--bots",
            f"greedy,cmd:{sys.executable} {bot}",
            "--games",
            "2",
            "--seed",
            "1",
        ],
    )
    assert out.exit_code == 1, out.output
    assert "ended with an error" in out.stderr


def test_a_game_from_another_package_is_in_the_help_and_the_commands(plugin_game):
    def cardtable_(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "cardtable", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "COLUMNS": "300"},
        )

    helped = cardtable_("simulate", "--help")
    names = games.names()
    assert plugin_game in names
    assert helped.returncode == 0
    assert f"the game: {', '.join(names[:-1])} or {names[-1]}" in helped.stdout
    assert "Fifteen" in cardtable_("--help").stdout
    listed = cardtable_("games")
    assert listed.returncode == 0 and plugin_game in listed.stdout
    # it has no rules page: a failure (1) in one line, not a traceback
    rules = cardtable_("rules", plugin_game)
    assert rules.returncode == 1 and rules.stderr.startswith("error: no rules page for fifteen")
    assert "Traceback" not in rules.stderr


def _finished_doublets(tmp_path, seed: int = 7):
    from cardtable.sim import play_one

    state = games.get("doublets").deal(seed)
    play_one(state, [bots.make_bot("greedy", "doublets")])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    return path, state


def test_review_prints_the_marks_and_the_peeking_verdict(tmp_path):
    path, state = _finished_doublets(tmp_path)
    assert not state.result()["won"]
    out = runner.invoke(app, ["review", str(path)])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Seat 1: accuracy ")
    assert any(line.startswith("Move ") and "blunder; better: " in line for line in lines)
    assert lines[-1].startswith("With every card known: the deal was winnable until move ")
    every = runner.invoke(app, ["review", str(path), "--all"]).stdout
    assert every.count("\nMove ") > out.stdout.count("\nMove ")


def test_review_json_is_the_review(tmp_path):
    from cardtable.review import review_record

    path, state = _finished_doublets(tmp_path)
    out = runner.invoke(app, ["review", str(path), "--json", "--depth", "quick"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == review_record(state.record(), depth="quick")


def test_review_reads_in_the_readers_language(tmp_path):
    path, _ = _finished_doublets(tmp_path)
    out = runner.invoke(app, ["review", str(path), "--lang", "cs"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("Místo 1: přesnost ")
    assert "hrubá chyba; lepší: " in out.stdout and "Se znalostí všech karet" in out.stdout


def test_review_refuses_an_unfinished_game_and_a_wrong_seat(tmp_path):
    path, state = _finished_doublets(tmp_path)
    record = state.record()
    record["actions"] = record["actions"][:10]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record))
    out = runner.invoke(app, ["review", str(cut)])
    assert out.exit_code == 1 and "only a finished game is reviewed" in out.stderr
    out = runner.invoke(app, ["review", str(path), "--seat", "2"])
    assert out.exit_code == 2 and "this game's seats are 1 to 1" in out.stderr
    out = runner.invoke(app, ["review", str(path), "--depth", "forever"])
    assert out.exit_code == 2


def test_replay_refuses_a_review_of_another_game_and_reviewing_an_unfinished_one(tmp_path):
    path, state = _finished_doublets(tmp_path)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "slide", "players": 2, "moves": []}))
    out = runner.invoke(app, ["replay", str(path), "--review-file", str(other)])
    assert out.exit_code == 1 and "is not a review of this game" in out.stderr
    out = runner.invoke(app, ["replay", str(path), "--review-file", str(tmp_path / "none.json")])
    assert out.exit_code == 1 and "cannot read" in out.stderr
    record = state.record()
    record["actions"] = record["actions"][:10]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record))
    out = runner.invoke(app, ["replay", str(cut), "--review"])
    assert out.exit_code == 1 and "only a finished game is reviewed" in out.stderr
