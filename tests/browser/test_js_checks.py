"""The browser code's types and lint: TypeScript checks its JSDoc types (``npm run check``,
no build step) against each game's view as the server publishes it, and ESLint its style
(``npm run lint``). The tools come from the npm registry (``npm ci``, package-lock.json).

Set ``CARDTABLE_TEST_NEED_JS=1`` (CI does) to fail rather than skip where they are missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"
NODE = shutil.which("node")
HAVE_TOOLS = NODE is not None and (BIN / "tsc").exists() and (BIN / "eslint").exists()

if not HAVE_TOOLS:
    if os.environ.get("CARDTABLE_TEST_NEED_JS"):
        raise RuntimeError("CARDTABLE_TEST_NEED_JS is set but the JavaScript tools are "
                           "missing: run npm ci")
    pytestmark = pytest.mark.skip(reason="the JavaScript checks need node and npm ci")


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_view_types_are_those_of_the_published_schemas(tmp_path: Path) -> None:
    """types/views/ is what ``npm run types`` writes from docs/schemas/ (which a Python test
    holds to the games' view types)."""
    done = run(str(NODE), "tools/view_types.mjs", str(tmp_path))
    assert done.returncode == 0, done.stderr
    written = {p.name: p.read_text() for p in tmp_path.glob("*.d.ts")}
    kept = {p.name: p.read_text() for p in (ROOT / "types" / "views").glob("*.d.ts")}
    assert written and written == kept, "run: npm run types"


def test_the_pages_type_check() -> None:
    done = run(str(BIN / "tsc"), "-p", "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_pages_lint_clean() -> None:
    done = run(str(BIN / "eslint"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_view_the_page_does_not_follow_fails_the_check(tmp_path: Path) -> None:
    """Not vacuous: rename one field of each game's view (as a change on the server would)
    and the type check fails in that game's page."""
    fields = {"slide": "centre", "the-game": "piles", "doublets": "reserves"}
    for game, field in fields.items():
        views = tmp_path / game / "views"
        shutil.copytree(ROOT / "types" / "views", views)
        view = views / f"{game}.view.d.ts"
        text = view.read_text()
        assert f"\n{field}: " in text, (game, field)
        view.write_text(text.replace(f"\n{field}: ", f"\n{field}_renamed: "))
        config = tmp_path / game / "tsconfig.json"
        config.write_text(f'''{{
  "extends": "{ROOT / "tsconfig.json"}",
  "compilerOptions": {{"paths": {{"@views/*": ["{views}/*"]}}}},
  "include": ["{ROOT}/src/cardtable/server/static/**/*.js", "{ROOT}/types/globals.d.ts",
              "{views}/*.d.ts"]
}}''')
        done = run(str(BIN / "tsc"), "-p", str(config))
        assert done.returncode != 0, game
        assert f"static/games/{game}.js" in done.stdout and field in done.stdout, done.stdout
