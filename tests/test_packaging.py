"""Packaging: the library needs no third-party package, the command line says which extra it
misses, one version source, the extras and dev tools agree with each other."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import cardtable

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]

#: everything the extras bring (and what those bring): none of it may be needed by the library
BLOCKED = (
    "typer",
    "click",
    "rich",
    "textual",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "orjson",
    "openskill",
    "httpx",
    "websockets",
    "matplotlib",
    "numpy",
    "dask",
    "distributed",
    "psycopg",
    "playwright",
    "markdown_it",
    "gymnasium",
    "pettingzoo",
    "arq",
)

BLOCKER = f'''
"""Make importing any third-party package the extras install fail (this test's doing)."""
import sys

BLOCKED = {BLOCKED!r}


class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None


sys.meta_path.insert(0, Blocker())
'''


def run_blocked(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run Python with the third-party packages blocked (a sitecustomize on PYTHONPATH) and
    the test plugin "fifteen" installed, as a game from another package."""
    from conftest import PLUGIN_SITE

    site = tmp_path / "blocker"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER)
    path = [str(site), str(ROOT / "src"), str(PLUGIN_SITE)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )


def test_the_blocker_blocks(tmp_path):
    done = run_blocked(tmp_path, "-c", "import typer")
    assert done.returncode == 1 and "blocked" in done.stderr


def test_core_games_bots_and_simulator_run_without_third_party_packages(tmp_path):
    script = textwrap.dedent(f"""
        import sys

        blocked = {BLOCKED!r}
        assert not [m for m in sys.modules if m.partition(".")[0] in blocked], "preloaded"

        import cardtable
        from cardtable import bots, core, games, seeds, sim, stats
        from cardtable.core import errors, protocol, rng
        from cardtable.solvers import batch

        assert "fifteen" in games.names()  # a game from another package too
        played = 0
        for name in games.names():
            game = games.get(name)
            n = max(game.min_players, min(2, game.max_players))
            for bot in bots.names(name):
                for fast in (True, False):  # the fast playouts and views/legal/act
                    summary = sim.simulate(name, n, [bot], 1, seed=3, fast=fast, bot_key=1)
                    assert summary["errors"] == 0, summary["error_messages"]
                    played += 1
            state = game.deal(5, n)
            sim.play_one(state, [bots.make_bot("greedy", name, s) for s in range(n)])
            assert games.replay(state.record()).snapshot() == state.snapshot()
        for name in batch.names():
            assert batch.summarise(batch.run(name, [1, 2]))["decided"] == 2
        loaded = sorted({{m.partition(".")[0] for m in sys.modules}} & set(blocked))
        print(played, cardtable.__version__, loaded)
    """)
    done = run_blocked(tmp_path, "-c", script)
    assert done.returncode == 0, done.stderr
    played, version, loaded = done.stdout.split(maxsplit=2)
    assert int(played) >= 2 * (len(cardtable.games.names()) + 1)
    assert version == cardtable.__version__
    assert loaded.strip() == "[]"


def test_the_command_names_the_extra_it_misses(tmp_path):
    done = run_blocked(tmp_path, "-m", "cardtable", "--version")
    assert done.returncode == 1
    assert done.stderr == (
        "cardtable: the command line needs the cli extra (typer is not "
        "installed): pip install 'cardtable[cli]'\n"
    )
    assert PROJECT["scripts"]["cardtable"] == "cardtable.__main__:main"


def test_the_environments_name_the_extra_they_miss(tmp_path):
    done = run_blocked(tmp_path, "-c", "from cardtable.rl import make_env")
    assert done.returncode == 1
    assert "cardtable.rl needs the rl extra" in done.stderr
    assert "pip install 'cardtable[rl]'" in done.stderr


def test_commands_name_the_extra_they_miss(monkeypatch):
    """With the cli extra but not the server or terminal ones, serve and play say so."""
    import importlib.util

    from typer.testing import CliRunner

    from cardtable.cli import EXTRA_MODULES, app

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("textual", "uvicorn") else real(name, *a),
    )
    out = CliRunner().invoke(app, ["serve"])
    assert out.exit_code == 1
    assert (
        "needs the server extra (uvicorn not installed): pip install 'cardtable[server]'"
        in out.stderr
    )
    out = CliRunner().invoke(app, ["play", "slide", "--seed", "1"])
    assert out.exit_code == 1 and "pip install 'cardtable[tui]'" in out.stderr
    assert set(EXTRA_MODULES) <= set(PROJECT["optional-dependencies"])


def names(requirements: list[str]) -> set[str]:
    return {Requirement(r).name.lower() for r in requirements}


def expanded(extra: str) -> set[str]:
    """The distributions an extra installs, its self-references (``cardtable[cli]``) followed."""
    out: set[str] = set()
    for line in PROJECT["optional-dependencies"][extra]:
        req = Requirement(line)
        if req.name == PROJECT["name"]:
            for inner in req.extras:
                out |= expanded(inner)
        else:
            out.add(req.name.lower())
    return out


def test_the_library_requires_nothing():
    assert PROJECT["dependencies"] == []
    assert "dependencies" not in PROJECT.get("dynamic", [])


def test_extras_hold_what_their_commands_import():
    from cardtable.cli import EXTRA_MODULES

    assert {"typer", "rich"} <= expanded("cli")
    for extra, modules in EXTRA_MODULES.items():
        assert {m.replace("_", "-") for m in modules} <= expanded(extra), extra
        assert expanded("cli") <= expanded(extra), extra  # its command comes with it
    everything = set().union(*(expanded(e) for e in PROJECT["optional-dependencies"]))
    assert expanded("test") == everything  # the test extra installs every extra


def test_dev_tools_are_a_group_and_in_the_test_extra_with_ruff_pinned():
    dev = PYPROJECT["dependency-groups"]["dev"]
    test = PROJECT["optional-dependencies"]["test"]
    assert set(dev) <= set(test)  # the same lines: pip 23 installs extras, not groups
    assert {"ruff", "mypy", "pytest"} <= names(dev)
    (ruff,) = [Requirement(r) for r in dev if Requirement(r).name == "ruff"]
    pinned = str(ruff.specifier)
    assert pinned.startswith("==")
    import shutil

    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if exe:  # the environment runs the ruff the project pins
        version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        assert version.split()[-1] == pinned[2:], version


def test_one_version_source():
    assert PROJECT["dynamic"] == ["version"] and "version" not in PROJECT
    path = PYPROJECT["tool"]["hatch"]["version"]["path"]
    text = (ROOT / path).read_text()
    assert re.findall(r'^__version__ = "([^"]+)"$', text, re.M) == [cardtable.__version__]
    assert cardtable.__file__ == str((ROOT / path).resolve())  # this tree's package


def test_license_metadata():
    assert PROJECT["license"] == "MIT"  # PEP 639: an SPDX expression
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "cardtable authors" in text
    hatchling = Requirement(PYPROJECT["build-system"]["requires"][0])
    assert hatchling.name == "hatchling" and hatchling.specifier.contains("1.27")


def test_wheel_metadata_built_by_hatchling():
    """The metadata the build backend writes: no required dependency, the extras, PEP 639."""
    pytest.importorskip("hatchling", reason="hatchling (the build backend) is not installed")
    from hatchling.metadata.core import ProjectMetadata
    from hatchling.metadata.spec import get_core_metadata_constructors
    from hatchling.plugin.manager import PluginManager

    metadata = ProjectMetadata(str(ROOT), PluginManager())
    assert metadata.version == cardtable.__version__
    assert metadata.core.dependencies == []
    constructors = get_core_metadata_constructors()
    text = constructors[max(constructors)](metadata)
    assert "License-Expression: MIT" in text and "License-File: LICENSE" in text
    requires = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and all("extra ==" in line for line in requires), requires
    assert {"cli", "tui", "server", "test"} <= {
        line.split(":", 1)[1].strip()
        for line in text.splitlines()
        if line.startswith("Provides-Extra:")
    }


def test_readme_commands_install_what_they_need_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    serve, test = re.findall(r"```sh\n(python3 -m venv .*)\n```", readme)[:2]
    assert "pip install -e '.[server]'" in serve and serve.endswith("cardtable serve")
    assert "pip install -e '.[test]'" in test and "pytest" in test
    assert test in (ROOT / ".ci" / "run").read_text().splitlines()


def test_the_wheel_carries_compiled_catalogs(tmp_path):
    """The build compiles each language's catalogs (hatch_build.py): a wheel holds the .mo
    files the reader loads, the .po they came from and the templates."""
    pytest.importorskip("hatchling", reason="hatchling (the build backend) is not installed")
    import zipfile

    out = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("cs", "sk", "de", "nb"):
        for domain in ("cardtable", "web", "slide"):
            assert f"cardtable/locale/{lang}/LC_MESSAGES/{domain}.mo" in names, (lang, domain)
            assert f"cardtable/locale/{lang}/LC_MESSAGES/{domain}.po" in names
    assert "cardtable/locale/web.pot" in names
    assert "cardtable/server/web/templates/base.html" in names


def test_the_wheel_carries_every_rules_page_and_an_install_reads_them(tmp_path):
    """The translated rules pages (docs/rules/LANG/GAME.md) go into the wheel beside the
    English ones, and an installed copy (no docs/ beside it) prints them in the locale's
    language."""
    pytest.importorskip("hatchling", reason="hatchling (the build backend) is not installed")
    import zipfile

    from hatchling.builders.wheel import WheelBuilder

    wheel = next(
        iter(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    )
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs/rules").rglob("*.md")}
    assert len(pages) == 15  # three games in five languages
    with zipfile.ZipFile(wheel) as packed:
        assert {f"cardtable/_docs/{page}" for page in pages} <= set(packed.namelist())
        packed.extractall(tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "LANG": "nb_NO.UTF-8"}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "rules", "slide"],
        capture_output=True,
        text=True,
        env={**env, "COLUMNS": "200"},
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Slide er et spill for 2 til 6 spillere" in done.stdout
