"""Doublets through the play app: a whole deal by keys, undo, clicks, the result screen."""

from __future__ import annotations

import json
import re

from textual.widgets import Static

from cardtable import games
from cardtable.bots import make_bot
from cardtable.tui.app import PlayApp
from cardtable.tui.widgets import ConfirmQuit

SEED = 1691  # the greedy policy wins this deal in 72 moves (a short one: tests stay quick)
LOSING_SEED = 1385  # ... and loses this one in 95 moves, with 40 cards on the foundation


def key_for(action: str) -> str:
    """The shortcut key of a Doublets action."""
    if action in ("flip", "redeal"):
        return "f"
    if action == "play waste":
        return "w"
    return action[-1]  # play r1 .. play r7: the digit


async def play_out_by_keys(pilot, app: PlayApp, ui) -> int:
    bot = make_bot("greedy", "doublets")
    moves = 0
    while not app.table.over:
        action = bot.choose(app.table.view(0), app.table.legal(0))
        await pilot.press(key_for(action))  # waits until the screen has handled the key
        moves += 1
        assert app.table.moves == moves, f"the key for {action!r} did not act"
    return moves


async def test_whole_deal_by_keys_saves_a_record(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.title.endswith("deal 1691")  # a solitaire's deal number, in the title
        moves = await play_out_by_keys(pilot, app, ui)
        assert moves == 72
        result = str(app.query_one("#result", Static).render())
        assert "All 48 cards are on the foundation: won!" in result  # the game's words
        assert "Record saved:" in result
        assert app.has_class("over")
        saved = app.saved
        assert saved is not None and saved.parent == data_dir / "records"
        await pilot.press("q")  # over: leaves at once, no question
    assert app.return_value == saved
    record = json.loads(saved.read_text())
    assert len(record["actions"]) == 72
    assert games.replay(record).result()["scores"] == [48]


async def play_to_the_stuck_end(pilot, app: PlayApp, ui) -> None:
    """The losing deal to its end: most of it straight through the app, the rest by the
    move list."""
    bot = make_bot("greedy", "doublets")
    while app.table.moves < 90:
        assert app.try_act(bot.choose(app.table.view(0), app.table.legal(0)))
    while not app.table.over:
        await ui.select_move(pilot, bot.choose(app.table.view(0), app.table.legal(0)))
    assert app.table.moves == 95 and app.table.result()["scores"][0] == 40


def status(app: PlayApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_lost_deal_is_held_open_then_saved_as_it_stands(data_dir, ui) -> None:
    """No move left and not won: the deal waits (as in the browser); q leaves without a
    question (it is lost already), saving it with its score."""
    app = PlayApp("doublets", ["me"], LOSING_SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_stuck_end(pilot, app, ui)
        assert "No move left: undo (u), restart (r), or deal again (n)" in status(app)
        assert not app.has_class("over") and app.saved is None
        assert "score 40 of 48" in ui.board_text(app)
        assert ui.move_ids(app) == []  # the list says "(no move left)"
        await ui.type_move(pilot, "flip")
        assert "No move left: undo (u)" in ui.message(app) and app.table.moves == 95
        await pilot.press("escape")
        await pilot.press("q")
    saved = app.return_value
    assert saved is not None and not app.left_early
    assert list((data_dir / "records").glob("doublets-1385-*.json")) == [saved]
    record = json.loads(saved.read_text())
    assert len(record["actions"]) == 95
    assert games.replay(record).result()["scores"] == [40]


async def test_stuck_deal_keeps_undo_and_hint(data_dir, ui) -> None:
    """Undo is not gone once no move is left (issue #24): u takes the last move back and
    the deal plays on; the hint says why no move is left."""
    app = PlayApp("doublets", ["me"], LOSING_SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_stuck_end(pilot, app, ui)
        await pilot.press("h")
        await ui.settle(pilot)
        assert ui.message(app).startswith("Hint: No move is left: nothing on the table fits")
        assert "(None)" not in ui.message(app)
        await pilot.press("u")
        await ui.settle(pilot)
        assert app.table.moves == 94 and not app.table.over
        assert "Took back: " in ui.message(app)
        assert "No move left" not in status(app) and ui.move_ids(app)
        await ui.select_move(pilot, ui.move_ids(app)[0])  # the deal plays on
        assert app.table.moves == 95


async def test_stuck_deal_restarts_or_deals_anew(data_dir, ui) -> None:
    """r deals the same deal again, n a new one; the stuck deal is saved as it stands."""
    app = PlayApp("doublets", ["me"], LOSING_SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_stuck_end(pilot, app, ui)
        start = games.get("doublets").deal(LOSING_SEED, 1, {}).view(0)
        await pilot.press("r")
        await ui.settle(pilot)
        assert app.table.seed == LOSING_SEED and app.table.view(0) == start
        assert "Restarted" in ui.message(app) and "No move left" not in status(app)
        saved = list((data_dir / "records").glob("doublets-1385-*.json"))
        assert len(saved) == 1
        assert games.replay(json.loads(saved[0].read_text())).result()["scores"] == [40]
        await play_to_the_stuck_end(pilot, app, ui)
        await pilot.press("n")
        await ui.settle(pilot)
        assert app.table.moves == 0 and not app.table.over
        assert "New deal" in ui.message(app)
        assert app.title.endswith(f"deal {app.table.seed}")
        assert len(list((data_dir / "records").glob("doublets-1385-*.json"))) == 2


async def test_undo_by_key_and_by_typing(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        start = app.table.view(0)
        await pilot.press("u")  # nothing to undo: the key is inactive
        assert app.table.moves == 0
        await ui.type_move(pilot, "undo")
        assert "Nothing to undo" in ui.message(app)
        await pilot.press("escape", "f")
        await pilot.press("f")
        await ui.settle(pilot)
        after_two = app.table.view(0)
        assert after_two["stock"] == start["stock"] - 2
        await pilot.press("u")
        await ui.settle(pilot)
        assert app.table.moves == 1
        assert "Took back: flip" in ui.message(app)
        await ui.type_move(pilot, "undo")
        assert app.table.view(0) == start
        # undo replays the record: the same flips bring back the same cards
        await pilot.press("escape", "f", "f")
        await ui.settle(pilot)
        assert app.table.view(0) == after_two


async def test_clicks_play_cards_and_explain_refusals(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], 12, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        view = app.table.view(0)
        assert view["reserves"][4] == "7H" and view["needed"] == 7  # r5 fits the 10 on F
        await ui.click_card(pilot, "reserve r5")
        assert app.table.view(0)["foundation"][-1] == "7H"
        await ui.click_card(pilot, "reserve r3")  # 4S does not fit on 7H
        assert app.table.moves == 1
        assert "Not allowed: play r3" in ui.message(app)
        assert "does not go on 7H" in ui.message(app)
        await ui.click_card(pilot, "stock")
        assert app.table.moves == 2 and app.table.view(0)["waste"]
        await ui.click_card(pilot, "foundation")
        assert "needs" in ui.message(app)


async def test_typed_move_with_spaces_and_capitals(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.type_move(pilot, "  Play   R7 ")
        assert app.table.moves == 1
        await ui.type_move(pilot, "jump r1")
        assert "not a Doublets action" in ui.message(app)


async def test_hint_and_peek_keys(data_dir, ui) -> None:
    """h shows the fair bot's move with a reason; x says, marked as peeking, whether the deal
    can still be won."""
    app = PlayApp("doublets", ["me"], 0, {}, bot_delay=0.0)
    async with app.run_test() as pilot:
        await pilot.press("h")
        await pilot.pause()
        # in the game's words, the notation after them (issue #24)
        assert re.match(
            r"Hint: (Turn the next stock card|Play the .+ from) .+ \((flip|play "
            r"\w+)\)",
            ui.message(app),
        ), ui.message(app)
        await pilot.press("x")
        await pilot.pause()
        assert "Peeking at the stock: " in ui.message(app)


async def test_restart_in_the_middle_of_a_deal_asks_first(data_dir, ui) -> None:
    app = PlayApp("doublets", ["me"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f")
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")  # stay
        assert app.table.moves == 1 and app.saved is None
        await pilot.press("r", "y")
        await ui.settle(pilot)
        assert app.table.moves == 0 and app.table.seed == SEED
        (saved,) = (data_dir / "records").glob("doublets-1691-*.json")
        assert json.loads(saved.read_text())["actions"] == [[0, "flip"]]
        assert f"The last one is saved: {saved}" in ui.message(app).replace("\n", "")
