"""Which package may import which: the arrows run down, never up or round.

Every import in ``src/cardtable`` counts, a function's late import too (it is an arrow all the
same). The layers below are those of docs/architecture.md, from the core up to the adapters.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "cardtable"

#: package (a folder under src/cardtable) -> the packages it must never import
SERVER_PARTS = {
    "server/api",
    "server/storage",
    "server/tables",
    "server/cluster",
    "server/tournaments",
    "server/web",
}
#: the adapters at the top: nothing below them imports them, nor one another across
ADAPTERS = {"cli", "tui", "sim", "rl", "botclient"}
NEVER = {
    # the small shared modules under everything
    "paths": {"games", "bots", "solvers", "server", "review", "i18n"} | ADAPTERS,
    "seeds": {"games", "bots", "solvers", "server", "review", "i18n"} | ADAPTERS,
    "stats": {"games", "bots", "solvers", "server", "review", "i18n"} | ADAPTERS,
    "core": {"games", "bots", "solvers", "rl", "server", "tui", "cli", "sim", "i18n", "review"},
    "games": {"bots", "solvers", "rl", "server", "tui", "cli", "sim", "i18n", "review"},
    # languages meet the games' words here, for the adapters above (the core never translates)
    "i18n": {"bots", "solvers", "rl", "server", "tui", "cli", "sim", "review"},
    "solvers": {"bots", "rl", "server", "tui", "cli", "review"},
    "bots": {"rl", "server", "tui", "cli", "review"},
    # the game review: above the bots and solvers it asks, below the screens that show it
    "review": {"rl", "server", "tui", "cli", "sim", "i18n"},
    # tournaments' rules: pure, like the games; the server runs them
    "tournaments": {
        "games",
        "bots",
        "solvers",
        "rl",
        "server",
        "tui",
        "cli",
        "sim",
        "i18n",
        "review",
    },
    # the adapters side by side: the terminal, the simulator, the environments, a bot
    # account's program (the command line above them all imports each)
    "tui": {"server"} | ADAPTERS - {"tui"},
    "sim": {"server", "review"} | ADAPTERS - {"sim"},
    "rl": {"server", "review"} | ADAPTERS - {"rl"},
    "botclient": {"server", "review"} | ADAPTERS - {"botclient"},
    # the server's parts, lowest first (cardtable/server/__init__.py, docs/architecture.md)
    "server/api": SERVER_PARTS - {"server/api"} | ADAPTERS,
    "server/storage": {"server/tables", "server/cluster", "server/tournaments", "server/web"}
    | ADAPTERS,
    "server/tables": {"server/cluster", "server/tournaments", "server/web"} | ADAPTERS,
    "server/cluster": {"server/tables", "server/tournaments", "server/web"} | ADAPTERS,
    # tournaments run on the live tables and are served by the web edge
    "server/tournaments": {"server/cluster", "server/web"} | ADAPTERS,
    "server/web": ADAPTERS,
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
    """``cardtable.server.tables.hub`` -> ``server/tables``; ``cardtable.games.slide`` ->
    ``games``."""
    parts = module.split(".")[1:]
    return "/".join(parts[:2]) if parts[0] == "server" and len(parts) > 1 else parts[0]


def module_of(path: Path) -> str:
    parts = ["cardtable", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_arrow_runs_up() -> None:
    wrong = []
    for below, above in NEVER.items():
        folder = SRC / below
        paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [SRC / f"{below}.py"]
        assert all(p.exists() for p in paths) and paths, f"no package or module {below}"
        for path in paths:
            for module in imports(path):
                if package(module) in above:
                    wrong.append(f"{path.relative_to(SRC)} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_no_import_circle() -> None:
    """Between any two modules, the arrows run one way only (a late import counts too)."""
    paths = {module_of(p): p for p in SRC.rglob("*.py")}
    arrows = {m: {i for i in imports(p) if i in paths and i != m} for m, p in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(m: str) -> None:  # Tarjan's strongly connected components
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in arrows[m]:
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            part = []
            while True:
                n = stack.pop()
                part.append(n)
                if n == m:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for m in sorted(paths):
        if m not in index:
            visit(m)
    assert not circles, circles


def test_only_the_registries_name_a_game_among_the_bots_of_every_game() -> None:
    """A game's own bots live in its package (``bots/slide``...); the bots of every game
    (``greedy``, ``random``, ``external``) import no game's module (issue #25)."""
    for name in ("greedy.py", "random.py", "external.py", "lifecycle.py", "program.py"):
        named = {m for m in imports(SRC / "bots" / name) if m.startswith("cardtable.games.")}
        assert not named, (name, named)
