"""The browser code parses: ``node --check`` on every script of the server's pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def node_check(source: str) -> subprocess.CompletedProcess:
    """Parse ``source`` as an ES module, as the pages load it (``<script type="module">``).

    Through stdin with ``--input-type=module``: node 20 given a ``.js`` path outside a
    ``"type": "module"`` package lets a broken module pass (exit 0)."""
    assert NODE is not None
    return subprocess.run(
        [NODE, "--input-type=module", "--check"],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 5 and any(p.parent.name == "games" for p in SCRIPTS)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(STATIC).as_posix() for p in SCRIPTS])
def test_script_parses(path: Path):
    done = node_check(path.read_text())
    assert done.returncode == 0, f"{path.relative_to(STATIC)}:\n{done.stderr}"


def test_the_check_catches_a_syntax_error():
    assert node_check('import { a } from "./common.js";\nexport const b = a;\n').returncode == 0
    assert node_check('import { a } from "./common.js";\nexport function f( {\n').returncode != 0
    assert node_check("const x = 1;\nconst x = 2;\n").returncode != 0
