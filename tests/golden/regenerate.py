"""Write the golden files: ``python tests/golden/regenerate.py`` (only when a rules version
changes on purpose; a diff in these files otherwise means deals or rules changed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from cardtable import games

HERE = Path(__file__).parent
CASES = [
    ("slide", 2, 7, {}),
    ("slide", 4, 11, {}),
    ("slide", 3, 5, {"target": 60}),
    ("doublets", 1, 1, {}),
    ("doublets", 1, 2, {}),
    ("the-game", 1, 3, {}),
    ("the-game", 3, 7, {}),
    ("the-game", 5, 8, {"pro": True}),
]


def golden(name: str, players: int, seed: int, options: dict) -> dict:
    state = games.get(name).deal(seed, players, options)
    deal = state.snapshot()
    policies = ["greedy", "random"] * players
    state.playout(policies[:players], random.Random(seed))
    return {
        "deal": deal,
        "record": state.record(),
        "result": state.result(),
        "final": state.snapshot(),
    }


def path_for(name: str, players: int, seed: int) -> Path:
    return HERE / f"{name}-{players}p-seed{seed}.json"


if __name__ == "__main__":
    for name, players, seed, options in CASES:
        path = path_for(name, players, seed)
        path.write_text(json.dumps(golden(name, players, seed, options), indent=1) + "\n")
        print("wrote", path)
