"""What a person reads and presses in the terminal: prompts that speak of keys (never a click),
seats counted from 1 as in the browser, and a move list played with Tab, arrows and Enter.

Set CARDTABLE_SCREENSHOTS=1 to write docs/screenshots/terminal-*.svg.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from textual.widgets import Input, OptionList, Static

from cardtable.tui.app import PlayApp
from cardtable.tui.replay import ReplayApp
from cardtable.tui.widgets import Board, HandOver

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(app: PlayApp, name: str) -> None:
    if os.environ.get("CARDTABLE_SCREENSHOTS") == "1":
        app.save_screenshot(name, path=str(SHOTS))


def status(app: PlayApp) -> str:
    return str(app.query_one("#status", Static).render())


def shown_words(app: PlayApp, ui) -> str:
    """The prompts: the status line above the moves and the message under the board."""
    return f"{status(app)}\n{ui.message(app)}"


def assert_speaks_of_keys(app: PlayApp, ui) -> None:
    words = shown_words(app, ui)
    assert "click" not in words.lower(), words


# -- 1. prompts speak of the terminal's input ------------------------------------------------
async def test_slide_prompts_speak_of_keys(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert "↑↓ and Enter" in status(app)  # the reveal: how to choose, by keys
        assert_speaks_of_keys(app, ui)
        await ui.click_card(pilot, "cell 0 b2")  # reveal b2: the hole will be b2
        view = app.table.view(0)
        assert view["phase"] == "take" and view["turn"] == 0
        assert "↑↓ and Enter" in status(app)  # the take
        assert_speaks_of_keys(app, ui)
        screenshot(app, "terminal-slide.svg")
        await ui.click_card(pilot, "cell 0 a2")  # no centre card selected yet
        assert "select a centre card" in ui.message(app)
        assert_speaks_of_keys(app, ui)
        await ui.click_card(pilot, f"centre {view['centre'][0]}")
        assert "select a cell" in ui.message(app)
        assert_speaks_of_keys(app, ui)
        await ui.click_card(pilot, "cell 0 d4")  # neither the hole's row nor its column
        assert "row or column of your hole (b2)" in ui.message(app)
        assert_speaks_of_keys(app, ui)


async def test_the_game_prompts_speak_of_keys(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], 3, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert "↑↓ and Enter" in status(app)
        assert_speaks_of_keys(app, ui)
        await ui.click_card(pilot, "pile up1")  # no card selected yet
        assert "Select a card of your hand first" in ui.message(app)
        assert_speaks_of_keys(app, ui)
        await ui.click_card(pilot, f"hand {app.table.view(0)['hand'][0]}")
        assert "now select a pile" in ui.message(app)
        assert_speaks_of_keys(app, ui)


async def test_doublets_prompt_speaks_of_keys(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], 42, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert "1-7 reserves" in status(app) and "↑↓ and Enter" in status(app)
        assert_speaks_of_keys(app, ui)


# -- 2. seats counted from 1 -------------------------------------------------------------------
async def test_seats_are_counted_from_one_on_the_screen(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "me", "greedy"], 5, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        # the players list, the first line of the log
        assert app.events[0] == "Slide: you (seat 1), seat 2 (player), seat 3 (greedy)"
        board = ui.board_text(app)
        assert "seat 2 (player)" in board and "seat 3 (greedy)" in board
        await ui.select_move(pilot, "reveal a1")
        # the second person (index 1) is asked to the keyboard as seat 2
        assert isinstance(app.screen, HandOver) and app.viewer == 1
        assert "Seat 2, it is your move." in str(app.screen.query_one(Static).render())
        assert "— seat 2 at the keyboard —" in app.events
        await pilot.press("enter")
        await ui.settle(pilot)
        assert "you (seat 2)" in ui.board_text(app) and "seat 1 (player)" in ui.board_text(app)
        await ui.select_move(pilot, "reveal d4")
        assert not any("seat 0" in line for line in app.events), app.events


async def test_the_game_counts_seats_from_one(data_dir, ui) -> None:
    # the bot (index 1) holds the first turn and is slow: a play typed now is refused
    app = PlayApp("the-game", ["me", "greedy"], 3, {"start": 1}, bot_delay=60)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert "Your hand (seat 1)" in ui.board_text(app)
        assert "seat 2 (greedy) is playing" in status(app)
        card = app.table.view(0)["hand"][0]
        await ui.type_move(pilot, f"play {card} up1")
        assert "it is seat 2's turn" in ui.message(app)
        await ui.type_move(pilot, "signal up1 avoid")
        assert "you avoid" in ui.board_text(app)


async def test_the_game_names_another_persons_signal_by_its_seat(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "me"], 3, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.type_move(pilot, "signal up1 avoid")
        hand = app.table.view(0)["hand"]
        await ui.type_move(pilot, f"play {hand[0]} up2")
        await ui.type_move(pilot, f"play {hand[1]} up2")
        await ui.type_move(pilot, "end")
        assert isinstance(app.screen, HandOver) and app.viewer == 1
        await pilot.press("enter")
        board = ui.board_text(app)
        assert "Your hand (seat 2)" in board
        screenshot(app, "terminal-the-game.svg")
        up1 = next(line for line in board.splitlines() if " up1 " in line)
        assert "s1 avoid" in up1  # the first seat's signal


async def test_results_and_replay_count_seats_from_one(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        while not app.table.over:
            await ui.select_move(pilot, ui.move_ids(app)[0])
        result = str(app.query_one("#result", Static).render())
        for label in ("you (seat 1)", "seat 2 (greedy)", "seat 3 (greedy)"):
            assert label in result
        assert "seat 0" not in result
        assert not any("seat 0" in line for line in app.events)
        saved = app.saved
    assert saved is not None
    record = json.loads(saved.read_text())
    assert {seat for seat, _ in record["actions"]} == {0, 1, 2}  # the record stays 0-based
    replay = ReplayApp(record)
    async with replay.run_test(size=ui.SIZE) as pilot:
        steps = [str(o.prompt) for o in replay.query_one("#steps", OptionList).options]
        first_seat, first_action = record["actions"][0]
        assert steps[1] == f"  1. seat {first_seat + 1}: {first_action}"
        assert not any("seat 0" in step for step in steps)
        await pilot.press("right")
        step = str(replay.query_one("#step", Static).render())
        assert f"seat {first_seat + 1}: {first_action}" in step
        board = replay.query_one("#board", Board).render().plain
        assert "seat 3" in board and "seat 0" not in board


# -- 3. the move list by keys ------------------------------------------------------------------
async def test_tab_arrows_and_enter_play_from_the_move_list(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], 3, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        moves = app.query_one("#moves", OptionList)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press("tab")  # from the typed move, straight to the list
        assert app.focused is moves
        offered = ui.move_ids(app)
        await pilot.press("down", "down")
        assert moves.highlighted == 2
        await pilot.press("enter")
        await ui.settle(pilot)
        assert app.table.record()["actions"][0] == [0, offered[2]]
        # and the other way round: the list, then the typed move, then the list again
        await pilot.press("tab")
        assert isinstance(app.focused, Input)
        await pilot.press("shift+tab")
        assert app.focused is moves


async def test_after_a_click_on_a_card_the_keys_still_play_from_the_list(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], 3, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        card = app.table.view(0)["hand"][0]
        await ui.click_card(pilot, f"hand {card}")  # the list now holds this card's plays
        assert app.focused is app.query_one("#moves", OptionList)
        offered = ui.move_ids(app)
        assert all(m.startswith(f"play {card} ") for m in offered) and len(offered) > 1
        await pilot.press("down", "enter")
        await ui.settle(pilot)
        assert app.table.record()["actions"][0] == [0, offered[1]]
