"""The terminal adapter (Textual): play and replay.

- ``table``: the game at the keyboard without a screen (state, bots, undo, saving);
- ``games``: each game's board (pure functions from a view to Rich text), clicks and keys, one
  module a game, and a generic board for a game without one; ``boards``: what they share;
- ``app``: the play app; ``replay``: the replay app; ``widgets``: what they share.

Both read in the person's language: ``lang`` (``--lang``), else the terminal's ``LANG``
(``cardtable.i18n.languages.from_environment``); the words are the ``tui`` domain's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cardtable.core.words import translatable
from cardtable.i18n.languages import from_environment

_, _n = translatable("tui")


def run_play(
    game: str, seats: list[str], seed: int, options: dict[str, Any], lang: str | None = None
) -> Path | None:
    """Play full screen; return the saved record's path (saved at the end, or on leaving),
    told on the terminal once the screen is closed."""
    from rich.console import Console

    from cardtable.i18n.reader import reader
    from cardtable.tui.app import PlayApp

    lang = lang or from_environment(os.environ)
    app = PlayApp(game, seats, seed, options, lang=lang)
    saved = app.run()
    read, console = reader(lang), Console()
    if app.left_early and saved:
        console.print(read(_("You left before the end: the game so far is saved.")))
    if saved:
        path = str(saved)
        console.print(read(_("Record saved: {path}", path=path)), highlight=False)
        console.print(
            read(_("Replay it with: cardtable replay {path}", path=path)), highlight=False
        )
    return saved


def run_replay(
    record: dict[str, Any],
    lang: str | None = None,
    review: dict[str, Any] | None = None,
    review_now: bool = False,
) -> None:
    """Step through a saved record full screen (with its review: given, or made at once)."""
    from cardtable.tui.replay import ReplayApp

    app = ReplayApp(
        record, lang=lang or from_environment(os.environ), review=review, review_now=review_now
    )
    app.run()
