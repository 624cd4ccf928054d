"""The terminal adapter (Textual): play and replay.

- ``table``: the game at the keyboard without a screen (state, bots, undo, saving);
- ``games``: each game's board (pure functions from a view to Rich text), clicks and keys, one
  module a game, and a generic board for a game without one; ``boards``: what they share;
- ``app``: the play app; ``replay``: the replay app; ``widgets``: what they share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def run_play(game: str, seats: list[str], seed: int, options: dict[str, Any]) -> Path | None:
    """Play full screen; return the saved record's path (saved at the end, or on leaving)."""
    from rich.console import Console

    from cardtable.tui.app import PlayApp

    app = PlayApp(game, seats, seed, options)
    saved = app.run()
    if app.left_early and saved:
        Console().print("You left before the end: the game so far is saved.")
    return saved


def run_replay(record: dict[str, Any]) -> None:
    """Step through a saved record full screen."""
    from cardtable.tui.replay import ReplayApp

    ReplayApp(record).run()
