"""examples/rl_bot.py, the bot program that plays an exported policy, speaks the bot protocol
and answers legal actions (a policy of random weights here: training is not run in tests)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from helpers import need_rl

need_rl()

import numpy as np  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl.encoding import load_encoding  # noqa: E402
from cardtable.sim import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("game", "players", "others"), [("doublets", 1, []), ("slide", 2, ["greedy"])]
)
def test_rl_bot_plays_an_exported_policy(tmp_path, monkeypatch, game, players, others):
    enc = load_encoding(games.get(game), players, {})
    rng = np.random.default_rng(1)
    model = tmp_path / "policy.npz"
    np.savez(
        model,
        activation=np.array("tanh"),
        hidden=np.array(1),
        W0=rng.normal(size=(16, enc.size)),
        b0=np.zeros(16),
        Wa=rng.normal(size=(len(enc.actions), 16)),
        ba=np.zeros(len(enc.actions)),
    )
    # the bot program imports this tree's cardtable
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    )
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'rl_bot.py'} --model {model}"
    summary = simulate(game, players, [bot, *others], 2, seed=3, fast=False, bot_key=1)
    assert summary["errors"] == 0, summary["error_messages"]
    assert summary["games"] == 2
