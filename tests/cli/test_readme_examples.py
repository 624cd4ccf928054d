"""The README's external-bot example runs as written where only ``python3`` exists (Debian,
Ubuntu, macOS without a ``python`` alias): #11 found it failing with ``cmd:"python …"``."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_external_bot_command_runs_with_only_python3(tmp_path):
    readme = (ROOT / "README.md").read_text()
    line = next(x for x in readme.splitlines() if "cmd:" in x and x.startswith("cardtable "))
    args = shlex.split(line)  # as the shell passes them
    spec = next(a for a in args if "cmd:" in a)
    assert "python3 " in spec
    # a PATH with python3 (this interpreter) and no python
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": str(bin_dir)}
    games_at = args.index("--games")
    args[games_at + 1] = "2"
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", *args[1:]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"\b2\b", done.stdout)
    # every example in the docs names python3 too
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").rglob("*.py")]
    for page in pages:
        assert not re.search(r"cmd:\"?python ", page.read_text()), page
