"""The code stays ruff clean and ruff formatted (the configuration is in pyproject.toml)."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency: pip install -e '.[test]'"
    done = subprocess.run(
        [ruff, "check", "src", "tests", "bench", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_formatted():
    """One layout for all the code: ``ruff format`` changes nothing (#25)."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency: pip install -e '.[test]'"
    done = subprocess.run(
        [ruff, "format", "--check", "src", "tests", "bench", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, "run: ruff format src tests bench examples\n" + done.stdout


def test_mypy_clean(tmp_path):
    """The type hints hold: mypy over src/ and the bench scripts in bench/ with no error (its
    settings: pyproject.toml); a bench's types are read as the code's are (#29)."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), "src", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_adapters_ask_the_game_instead_of_naming_it():
    """Outside the games' own modules (rules, bots, solvers) no code holds a game's name as a
    string (docstrings aside): the server, the simulator and the command line ask the
    ``Game`` what it offers."""
    import ast

    from cardtable import games

    package = ROOT / "src" / "cardtable"
    own = ("games/", "bots/", "solvers/", "tui/games/")
    # a game's encoding for learning agents, rl/<name with _ for ->.py, is its own too
    encodings = {f"rl/{name.replace('-', '_')}.py" for name in games.names()}
    found = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        if where.startswith(own) or where in encodings:
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        found += [
            f"{where}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and node.value in games.names()
            and id(node) not in docstrings
        ]
    assert not found, "\n".join(found)


#: the most lines a function may have: what a reader holds in mind at once (#25)
LONGEST_FUNCTION = 120


def _own_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines, less those of the functions defined inside it (each of those is
    a function of its own, read on its own: a search's nested steps)."""
    nested: set[int] = set()
    for child in ast.walk(node):
        if child is not node and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            nested |= set(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1 - len(nested)


def test_no_function_is_longer_than_a_reader_holds_in_mind():
    long = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = _own_lines(node)
                if lines > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines}")
    assert not long, "\n".join(long)
