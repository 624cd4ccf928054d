"""A game from another package, with no board of its own, played in the terminal to its end.

``cardtable play fifteen --seats me,greedy`` runs in-process: the real command line, the real
``PlayApp`` it starts, the real greedy bot and record saving. Only the terminal differs: the
app runs headless, and a pilot plays the person's seat by picking legal actions from the list
of the generic board.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from typer.testing import CliRunner

from cardtable import cli, games
from cardtable.tui.app import PlayApp
from cardtable.tui.games.generic import GenericBoard


async def wait_for_the_person(pilot: Pilot, limit: float = 30.0) -> None:
    """The command line's app moves its bots after a short delay: wait until it is the
    person's move or the game is over."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        await pilot.pause(0.02)
        if not app.bots_pending and (app.table.over or 0 in app.table.to_act()):
            return
    raise AssertionError("the bot never let the person move")


def test_a_plugin_game_plays_to_the_end_through_the_generic_board(
    plugin_game: str, data_dir: Path, ui: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    apps: list[PlayApp] = []
    seen: dict[str, object] = {}

    async def person(pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, PlayApp)
        assert isinstance(app.adapter, GenericBoard)
        moves = 0
        while True:
            await wait_for_the_person(pilot)
            if app.table.over:
                break
            view, legal = app.table.view(0), app.table.legal(0)
            board = ui.board_text(app)
            assert board.startswith("Fifteen")
            assert f"hand: {', '.join(map(str, view['hand']))}" in board
            assert ui.move_ids(app) == legal  # the legal actions, as the list to pick from
            await ui.select_move(pilot, legal[-1])
            moves += 1
            assert len([s for s, _ in app.table.record()["actions"] if s == 0]) == moves
        seen["result"] = str(app.query_one("#result", Static).render())
        seen["moves"] = moves
        await pilot.press("q")  # over: leaves at once

    run = PlayApp.run

    def headless(self: PlayApp, *args: object, **kwargs: object) -> Path | None:
        apps.append(self)
        return run(self, headless=True, size=ui.SIZE, auto_pilot=person)

    monkeypatch.setattr(PlayApp, "run", headless)
    done = CliRunner().invoke(cli.app, ["play", plugin_game, "--seats", "me,greedy"])
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        raise done.exception
    assert done.exit_code == 0, done.output

    (app,) = apps
    assert app.table.over and seen["moves"] == 9  # 18 cards, half of them the person's
    saved = list((data_dir / "records").glob("fifteen-*.json"))
    assert len(saved) == 1 and app.saved == saved[0]
    assert f"Record saved: {saved[0]}" in done.output.replace("\n", "")
    state = games.replay(json.loads(saved[0].read_text()))
    result = state.result()
    assert result["over"] and result == app.table.result()
    # the end in the game's own words, with the seats as the screen names them
    names = ["you (seat 1)", "seat 2 (greedy)"]
    lines = state.game.result_lines(result, names)
    assert lines[0].startswith(("Winner: ", "Shared win: "))
    assert lines[0] in str(seen["result"])
    # the figures: the default breakdown, each seat's score in one table
    for seat, name in enumerate(names):
        row = next(r for r in str(seen["result"]).splitlines() if name in r and r.startswith("#"))
        assert row.split()[0] == f"#{result['ranks'][seat]}"
        assert row.split()[-1] == str(result["scores"][seat])
    # the log in the game's words (FifteenGame.describe_action)
    played = [a.removeprefix("play ") for s, a in state.actions if s == 0]
    assert f"you (seat 1) played {played[0]}" in app.events
    assert any(e.startswith("seat 2 (greedy) played ") for e in app.events)
