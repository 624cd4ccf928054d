"""The browser's JavaScript, checked without a browser: every page script parses
(``test_js_parse.py``), no page outside ``static/games/`` names a game, and the per-game code's
unit tests (tests/browser/js, node's test runner) pass, also on real views of every registered
game, the plugin game "fifteen" (which has no module of its own) among them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cardtable import games
from cardtable.bots import make_bot

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "cardtable" / "server" / "static"
TEMPLATES = STATIC.parent / "web" / "templates"
UNITS = sorted((Path(__file__).parent / "js").glob("*.test.mjs"))
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="the JavaScript checks need node (apt-get install nodejs)"
)


def run_node(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    assert NODE
    return subprocess.run(
        [NODE, *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


def test_no_page_names_a_game():
    """A game's name or title appears only in its own files, static/games/<name>.js and .css:
    the pages ask /api/games and load the module by name."""
    words = [
        re.compile(rf"\b{re.escape(games.get(n).name)}\b", re.IGNORECASE) for n in games.names()
    ]
    words += [re.compile(rf"\b{re.escape(games.get(n).title)}\b") for n in games.names()]
    found = []
    pages = [*STATIC.glob("*.js"), *TEMPLATES.glob("*.html"), *STATIC.glob("*.css")]
    for path in sorted(pages):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            found += [f"{path.name}:{number}: {line.strip()}" for w in words if w.search(line)]
    assert not found, "\n".join(found)
    assert {p.stem for p in (STATIC / "games").glob("*.js")} - {"generic"} <= set(games.names())
    # a module that asks for its stylesheet has one, and no sheet is without its module
    sheets = {p.stem for p in (STATIC / "games").glob("*.css")}
    asking = {
        p.stem
        for p in (STATIC / "games").glob("*.js")
        if "export const stylesheet = true;" in p.read_text()
    }
    assert sheets == asking


def sample(name: str) -> dict[str, Any]:
    """A game of ``name`` played by random bots: a view in the middle (with its legal
    actions) and seat 0's view at the end, with its end in the game's words."""
    game = games.get(name)
    players = 2 if game.max_players >= 2 else 1
    players = max(players, game.min_players)
    state = game.deal(7, players)
    bots = [make_bot("random", name, seed=s) for s in range(players)]
    mid = None
    steps = 0
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        if mid is None and steps >= 3:
            mid = {"view": state.view(seat), "legal": legal, "seat": seat}
        state.act(seat, bots[seat].choose(state.view(seat), legal))
        steps += 1
    assert mid is not None, f"{name} ended within three actions of seed 7"
    names = [f"P{i}" for i in range(players)]
    final, result = state.view(0), state.result()
    return {
        "players": players,
        "mid": mid,
        "final": final,
        "has_module": (STATIC / "games" / f"{name}.js").exists(),
        # seat 0's end in words, from the game as the server's state message has it
        # (docs/server.md, "ending"), and whether the page ranks the seats (GET /api/games)
        "ending": {
            "lines": game.result_lines(result, names),
            "verdict": game.verdict(result, 0),
            "breakdown": game.breakdown(final),
            "notes": game.result_notes(result, names),
        },
        "ranked": not game.cooperative and players > 1,
    }


@needs_node
def test_the_renderers_unit_tests(plugin_game, tmp_path):
    assert UNITS, "no unit tests in tests/browser/js"
    assert plugin_game in games.names()
    samples = {name: sample(name) for name in games.names()}
    assert not samples[plugin_game]["has_module"]  # shown by the generic renderer
    path = tmp_path / "samples.json"
    path.write_text(json.dumps(samples))
    done = run_node("--test", *map(str, UNITS), env={**os.environ, "CARDTABLE_SAMPLES": str(path)})
    assert done.returncode == 0, done.stdout + done.stderr
    # every game's real views were checked, none skipped
    assert re.search(r"^# skipped 0$", done.stdout, re.MULTILINE), done.stdout
    assert re.search(r"^# fail 0$", done.stdout, re.MULTILINE), done.stdout
    for name in samples:
        assert f"{name}: the generic board offers exactly the legal actions" in done.stdout
