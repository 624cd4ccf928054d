"""The browser code's types and lint: TypeScript checks its JSDoc types (``npm run check``,
no build step) against each game's view and the server's messages as the server publishes
them (``npm run types``), and ESLint its style (``npm run lint``). The tools come from the
npm registry (``npm ci``, package-lock.json).

Set ``CARDTABLE_TEST_NEED_JS=1`` (CI does) to fail rather than skip where they are missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"
NODE = shutil.which("node")
TYPES = ROOT / "types"
#: types/ written by hand (the rest is written by ``npm run types``)
HAND_WRITTEN = {"globals.d.ts", "pages.d.ts"}
HAVE_TOOLS = NODE is not None and (BIN / "tsc").exists() and (BIN / "eslint").exists()

if not HAVE_TOOLS:
    if os.environ.get("CARDTABLE_TEST_NEED_JS"):
        raise RuntimeError(
            "CARDTABLE_TEST_NEED_JS is set but the JavaScript tools are missing: run npm ci"
        )
    pytestmark = pytest.mark.skip(reason="the JavaScript checks need node and npm ci")


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    # the server the types are written from runs this interpreter, with this PYTHONPATH
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def test_the_types_are_those_the_server_publishes(tmp_path: Path) -> None:
    """types/ is what ``npm run types`` writes: each game's view and result from docs/schemas/
    (which a Python test holds to the games' view types), the server's messages from the
    schemas a real server publishes (/api/ws-schema, /openapi.json)."""
    done = run(str(NODE), "tools/types.mjs", str(tmp_path))
    assert done.returncode == 0, done.stderr
    written = {str(p.relative_to(tmp_path)): p.read_text() for p in tmp_path.rglob("*.d.ts")}
    kept = {
        str(p.relative_to(TYPES)): p.read_text()
        for p in TYPES.rglob("*.d.ts")
        if p.name not in HAND_WRITTEN
    }
    assert "api.d.ts" in written and "views/slide.view.d.ts" in written, sorted(written)
    assert written == kept, "run: npm run types"


def test_the_pages_type_check() -> None:
    done = run(str(BIN / "tsc"), "-p", "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_pages_lint_clean() -> None:
    done = run(str(BIN / "eslint"))
    assert done.returncode == 0, done.stdout + done.stderr


def renamed(text: str, field: str) -> str:
    """``text`` with the field ``field`` renamed (as a change on the server would)."""
    assert f"\n{field}: " in text or f"\n{field}?: " in text, field
    return text.replace(f"\n{field}: ", f"\n{field}_renamed: ").replace(
        f"\n{field}?: ", f"\n{field}_renamed?: "
    )


def findings(tmp_path: Path, name: str, file: str, edit: Callable[[str], str]) -> str:
    """tsc's findings over the pages against a copy of types/ whose ``file`` ``edit``
    changed; the check must fail."""
    types = tmp_path / name
    shutil.copytree(TYPES, types)
    (types / file).write_text(edit((types / file).read_text()))
    config = tmp_path / f"{name}.tsconfig.json"
    config.write_text(
        json.dumps(
            {
                "extends": str(ROOT / "tsconfig.json"),
                "compilerOptions": {
                    "paths": {
                        "@views/*": [f"{types}/views/*"],
                        "@api": [f"{types}/api"],
                        "@pages": [f"{types}/pages"],
                    }
                },
                "include": [f"{ROOT}/src/cardtable/server/static/**/*.js", f"{types}/**/*.d.ts"],
            }
        )
    )
    done = run(str(BIN / "tsc"), "-p", str(config))
    assert done.returncode != 0, (file, done.stdout)
    return done.stdout


def test_a_view_the_page_does_not_follow_fails_the_check(tmp_path: Path) -> None:
    """Not vacuous: rename one field of each game's view and the type check fails in that
    game's page."""
    fields = {"slide": "centre", "the-game": "piles", "doublets": "reserves"}
    for game, field in fields.items():
        found = findings(
            tmp_path,
            game,
            f"views/{game}.view.d.ts",
            lambda text, field=field: renamed(text, field),
        )
        assert f"static/games/{game}.js" in found and field in found, found


def in_model(model: str, field: str) -> Callable[[str], str]:
    """An edit of api.d.ts: ``field`` renamed in the interface ``model`` only."""

    def edit(api: str) -> str:
        start = api.index(f"export interface {model} {{")
        end = api.find("\nexport ", start + 1)  # the next definition, or the end
        end = len(api) if end < 0 else end
        return api[:start] + renamed(api[start:end], field) + api[end:]

    return edit


def test_a_message_the_pages_do_not_follow_fails_the_check(tmp_path: Path) -> None:
    """Not vacuous either: rename a field of a server message (the state's end in words, a
    table's seats, a finished game of My games, a replay's step) and the pages that read
    it fail the check."""
    cases = [
        ("Ending", "breakdown", "results.js"),
        ("StateMessage", "to_act", "table.js"),
        ("TableInfo", "seats", "table.js"),
        ("MyGame", "opponents", "me.js"),
        ("ReplayStep", "seat_views", "replay.js"),
    ]
    for model, field, page in cases:
        found = findings(tmp_path, f"{model}-{field}", "api.d.ts", in_model(model, field))
        assert f"static/{page}" in found and field in found, (model, field, found)
