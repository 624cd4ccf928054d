"""Golden records pinned by seed: deals and whole games must never drift.

If a test here fails, a deal or a rule changed. When that is on purpose, bump the game's
``version`` and run ``python tests/golden/regenerate.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardtable import games

sys.path.insert(0, str(Path(__file__).parent))
from regenerate import CASES, path_for  # noqa: E402


@pytest.mark.parametrize(
    ("name", "players", "seed", "options"), CASES, ids=[f"{c[0]}-{c[1]}p-seed{c[2]}" for c in CASES]
)
def test_golden_deal_and_game(name, players, seed, options):
    pinned = json.loads(path_for(name, players, seed).read_text())
    assert games.get(name).deal(seed, players, options).snapshot() == pinned["deal"]
    state = games.replay(pinned["record"])
    assert state.result() == pinned["result"]
    assert json.loads(json.dumps(state.snapshot())) == pinned["final"]
