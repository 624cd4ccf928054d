"""``cardtable`` and ``python -m cardtable``: the command line, if its extra is installed.

``pip install cardtable`` gives the library alone (no dependency); the command line needs
typer and rich, which ``pip install 'cardtable[cli]'`` (or the ``tui`` and ``server`` extras)
brings. Without them the command says so in one line instead of a traceback.
"""

from __future__ import annotations

import sys

#: the modules the command line itself imports (each subcommand names its own extra)
CLI_MODULES = ("typer", "click", "rich")


def main() -> None:
    try:
        from cardtable.cli import main as run
    except ModuleNotFoundError as e:
        top = (e.name or "").partition(".")[0]
        if top not in CLI_MODULES:
            raise
        sys.stderr.write(
            f"cardtable: the command line needs the cli extra ({top} is not "
            "installed): pip install 'cardtable[cli]'\n"
        )
        raise SystemExit(1) from None
    run()


if __name__ == "__main__":
    main()
