"""Simulations at scale: process pools, a Dask cluster, rows, plots, tournaments."""

from __future__ import annotations

import csv
import json

import pytest

from cardtable.sim import (
    make_tasks,
    play_task,
    run_tasks,
    summarize,
    tournament_tasks,
    write_rows,
)


def test_same_outcomes_with_one_and_two_jobs():
    tasks = make_tasks("slide", 3, ["greedy", "random", "random"], 60, seed=9, fast=False)
    one = list(run_tasks(tasks, jobs=1))
    two = list(run_tasks(tasks, jobs=2))
    assert one == two
    assert [o.seed for o in two] == list(range(9, 69))


def test_dask_local_cluster_gives_the_same_outcomes():
    distributed = pytest.importorskip("distributed")
    tasks = make_tasks("the-game", 3, ["greedy"], 30, seed=4)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as cluster:
        remote = list(run_tasks(tasks, dask=cluster.scheduler_address))
    assert remote == list(run_tasks(tasks))


def test_rows_as_csv_and_json_lines(tmp_path):
    outcomes = list(run_tasks(make_tasks("doublets", 1, ["greedy"], 12, seed=1)))
    write_rows(outcomes, tmp_path / "r.csv")
    write_rows(outcomes, tmp_path / "r.jsonl")
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert len(rows) == 12 and rows[0]["seed"] == "1" and rows[0]["bots"] == "greedy"
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [x["seed"] for x in lines] == list(range(1, 13))
    assert all(x["scores"][0] == int(r["scores"]) for x, r in zip(lines, rows, strict=True))


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    from cardtable.sim import plot_scores

    outcomes = list(run_tasks(make_tasks("slide", 2, ["greedy", "random"], 20)))
    plot_scores(outcomes, "slide", tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_summary_has_confidence_intervals_and_ranks():
    outcomes = list(run_tasks(make_tasks("slide", 2, ["greedy", "random"], 80, bot_key=1)))
    s = summarize("slide", outcomes, 1)
    greedy, rand = s["seats"]
    low, high = greedy["win_rate_ci95"]
    assert greedy["win_rate"] > 0.8 and 0 < high - low < 0.2 and high <= 1
    assert greedy["mean_rank"] < rand["mean_rank"]
    assert s["errors"] == 0


def test_tournament_rotates_seats_over_the_same_seeds():
    tasks = tournament_tasks("slide", 2, ["greedy", "random"], 5, seed=3)
    assert [t.bots for t in tasks] == [("greedy", "random")] * 5 + [("random", "greedy")] * 5
    assert [t.seed for t in tasks] == list(range(3, 8)) * 2
    three = tournament_tasks("slide", 3, ["greedy", "random"], 1)
    assert [t.bots for t in three] == [
        ("greedy", "random", "greedy"),
        ("random", "greedy", "greedy"),
        ("greedy", "greedy", "random"),
    ]


def test_cooperative_tournament_gives_each_bot_all_seats():
    tasks = tournament_tasks("the-game", 3, ["greedy", "random"], 4)
    assert [t.bots for t in tasks] == [("greedy",) * 3] * 4 + [("random",) * 3] * 4
    s = summarize("the-game", [play_task(t) for t in tasks])
    assert s["by_bot"]["greedy"]["games"] == 4


def test_bad_runs_are_refused_before_they_start():
    with pytest.raises(ValueError, match="one per seat"):
        make_tasks("slide", 3, ["greedy", "random"], 5)
    with pytest.raises(ValueError, match="no bot called"):
        make_tasks("slide", 2, ["wizard"], 5)
    with pytest.raises(ValueError, match="no option"):
        make_tasks("slide", 2, ["greedy"], 5, options={"colour": 1})


def test_a_failing_external_bot_ends_its_games_and_the_run_goes_on():
    import sys
    from pathlib import Path

    bad = Path(__file__).parent / "bots" / "fixtures" / "illegal_bot.py"
    tasks = make_tasks(
        "slide", 2, ["greedy", f"cmd:{sys.executable} {bad}"], 3, seed=1, fast=False, timeout=5
    )
    outcomes = list(run_tasks(tasks))
    assert len(outcomes) == 3 and all(o.error for o in outcomes)
    assert "illegal_bot.py" in outcomes[0].error and "game 1:" in outcomes[0].error
    good = list(run_tasks(make_tasks("slide", 2, ["greedy"], 2)))
    summary = summarize("slide", outcomes + good)
    assert summary["errors"] == 3 and summary["by_bot"]["greedy"]["games"] == 4


def test_a_broken_bot_command_is_refused_before_the_run():
    with pytest.raises(ValueError, match="cannot read the bot command"):
        make_tasks("slide", 2, ["greedy", "cmd:python 'unclosed"], 2)
