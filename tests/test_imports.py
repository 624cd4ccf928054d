"""Which package may import which: the arrows run down, never up or round.

Every import in ``src/cardtable`` counts, a function's late import too (it is an arrow all the
same). The layers below are the ones fixed so far (issue #25 continues them over the server).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "cardtable"

#: package -> the cardtable packages it must never import
NEVER = {
    "core": {"games", "bots", "solvers", "rl", "server", "tui", "cli", "sim"},
    "games": {"bots", "solvers", "rl", "server", "tui", "cli", "sim"},
    "solvers": {"bots", "rl", "server", "tui", "cli"},
    "bots": {"rl", "server", "tui", "cli"},
}


def imports(path: Path) -> set[str]:
    """The ``cardtable`` modules ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if name.startswith("cardtable.")}


def package(module: str) -> str:
    return module.split(".")[1]


def test_no_arrow_runs_up() -> None:
    wrong = []
    for below, above in NEVER.items():
        for path in sorted((SRC / below).rglob("*.py")):
            for module in imports(path):
                if package(module) in above:
                    wrong.append(f"{path.relative_to(SRC)} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_only_the_registries_name_a_game_among_the_bots_of_every_game() -> None:
    """A game's own bots live in its package (``bots/slide``...); the bots of every game
    (``greedy``, ``random``, ``external``) import no game's module (issue #25)."""
    for name in ("greedy.py", "random.py", "external.py", "lifecycle.py", "program.py"):
        named = {m for m in imports(SRC / "bots" / name) if m.startswith("cardtable.games.")}
        assert not named, (name, named)
