"""Helpers for driving the Textual apps headless (``app.run_test()``)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from cardtable.tui.app import PlayApp
from cardtable.tui.widgets import Board

#: the terminal size of most tests (a smaller screen redraws faster)
SIZE = (100, 30)


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal whose ``LANG`` names no language of ours: the screens read in English
    whatever the machine running the tests speaks (a test sets its own ``LANG``)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder (records go to ``data_dir / "records"``), private to the test."""
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    return tmp_path


async def settle(pilot: Pilot, limit: float = 60.0) -> None:
    """Let the bots move (delay 0) until the app waits for the person or the game is over."""
    app = pilot.app
    if getattr(app, "bot_delay", 0) > 0:  # slow bots: they are not meant to move in the test
        await pilot.pause(0)
        return
    # pause(0) waits for the screen to process its messages without the idle-CPU heuristic
    # of pause(), which costs at least 20 ms a call
    deadline = time.monotonic() + limit
    await pilot.pause(0)
    while time.monotonic() < deadline:
        if not getattr(app, "bots_pending", False):
            await pilot.pause(0)
            if not getattr(app, "bots_pending", False):
                return
        await pilot.pause(0)
    raise AssertionError("the bots never stopped")


def board_text(app: PlayApp) -> str:
    return app.query_one("#board", Board).render().plain


def message(app: PlayApp) -> str:
    return str(app.query_one("#message", Static).render())


def move_ids(app: PlayApp) -> list[str]:
    return [o.id for o in app.query_one("#moves", OptionList).options if o.id]


async def select_move(pilot: Pilot, action: str) -> None:
    """Highlight ``action`` in the move list and press Enter, as a person would."""
    moves = pilot.app.query_one("#moves", OptionList)
    moves.focus()
    ids = [o.id for o in moves.options]
    assert action in ids, f"{action!r} is not offered: {ids}"
    moves.highlighted = ids.index(action)
    await pilot.press("enter")
    await settle(pilot)


async def type_move(pilot: Pilot, text: str) -> None:
    """Focus the input with '/' (unless it has the focus), type ``text`` and press Enter."""
    if not isinstance(pilot.app.focused, Input):
        await pilot.press("slash")
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


def card_offset(app: PlayApp, ref: str) -> tuple[int, int]:
    """Where on the screen the card ``ref`` is drawn: found by its click metadata."""
    target = f"app.card({ref!r})"
    region = app.query_one("#board", Board).region
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            if app.screen.get_style_at(x, y).meta.get("@click") == target:
                return x, y
    raise AssertionError(f"no clickable {ref!r} on the screen")


async def click_card(pilot: Pilot, ref: str) -> None:
    x, y = card_offset(pilot.app, ref)
    await pilot.click(offset=(x, y))
    await settle(pilot)


@pytest.fixture
def ui() -> SimpleNamespace:
    return SimpleNamespace(
        settle=settle,
        board_text=board_text,
        message=message,
        move_ids=move_ids,
        select_move=select_move,
        type_move=type_move,
        click_card=click_card,
        card_offset=card_offset,
        SIZE=SIZE,
    )
