"""The replay app: stepping forward and back through saved records as a spectator."""

from __future__ import annotations

import random

from textual.widgets import Static

from cardtable import games
from cardtable.tui.replay import ReplayApp, replay_views
from cardtable.tui.widgets import Board


def finished_record(game: str, players: int, seed: int) -> dict:
    state = games.get(game).deal(seed, players)
    state.playout(["greedy"] * players, random.Random(seed))
    return state.record()


def prefix(record: dict, n: int) -> dict:
    return {**record, "actions": record["actions"][:n]}


def shown(app: ReplayApp) -> dict:
    return app.query_one("#board", Board).board_view


def board_text(app: ReplayApp) -> str:
    return app.query_one("#board", Board).render().plain


def step_text(app: ReplayApp) -> str:
    return str(app.query_one("#step", Static).render())


async def test_stepping_forward_and_back_through_slide() -> None:
    record = finished_record("slide", 2, 7)
    last = len(record["actions"])
    app = ReplayApp(record)
    async with app.run_test(size=(120, 36)) as pilot:
        assert app.step == 0 and "Step 0 of 64" in step_text(app)
        assert shown(app) == games.replay(prefix(record, 0)).view(None)
        await pilot.press("right", "right", "right")
        assert app.step == 3
        assert shown(app) == games.replay(prefix(record, 3)).view(None)
        seat, action = record["actions"][2]
        assert f"seat {seat + 1}: {action}" in step_text(app)  # seats counted from 1
        await pilot.press("left")
        assert app.step == 2
        assert shown(app) == games.replay(prefix(record, 2)).view(None)
        await pilot.press("end")
        assert app.step == last
        assert "end of the game" in step_text(app)
        # the last view of a finished game shows every card, and the result
        assert "?" not in board_text(app)
        assert "Winner" in board_text(app) or "Shared win" in board_text(app)
        await pilot.press("right")  # past the end: stays
        assert app.step == last
        await pilot.press("home")
        assert app.step == 0
        assert board_text(app).count("?") == 32  # two grids face down
        await pilot.press("left")  # before the start: stays
        assert app.step == 0
        await pilot.press("q")
    assert app.return_value is None


async def test_every_step_is_the_spectator_view() -> None:
    record = finished_record("the-game", 3, 5)
    views = replay_views(record)
    assert len(views) == len(record["actions"]) + 1
    for n in (0, 1, len(views) // 2, len(views) - 1):
        assert views[n] == games.replay(prefix(record, n)).view(None)
        assert views[n]["hand"] is None  # a spectator holds no hand and sees none
    app = ReplayApp(record, start=-1)
    async with app.run_test(size=(100, 30)):
        assert app.step == len(views) - 1
        text = board_text(app)
        assert "Your hand" not in text
        assert "Game over" in text and "cards left" in text


async def test_an_unfinished_record_says_so() -> None:
    record = prefix(finished_record("doublets", 1, 12), 10)
    app = ReplayApp(record)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("end")
        assert app.step == 10
        assert "unfinished" in step_text(app)
        assert "Doublets" in board_text(app)
        await pilot.press("home", "n", "n")
        assert app.step == 2


async def test_a_game_without_a_board_replays_on_the_generic_one(plugin_game: str) -> None:
    state = games.get(plugin_game).deal(8, 3)
    state.playout(["random"] * 3, random.Random(8))  # its one built-in policy
    record = state.record()
    app = ReplayApp(record, start=-1)
    async with app.run_test(size=(100, 30)) as pilot:
        text = board_text(app)
        assert text.startswith("Fifteen") and "hand: —" in text  # a spectator holds no hand
        assert "Winner: " in text or "Shared win: " in text
        first = games.replay(prefix(record, 0)).view(None)
        for _ in range(50):  # the board is drawn after the key's handler (a busy machine lags;
            await pilot.press("home")  # a key pressed while the app still starts is lost)
            await pilot.pause(0.1)
            if shown(app) == first:
                break
        assert shown(app) == first
        assert f"draw pile: {shown(app)['draw_pile']}" in board_text(app)


def lost_doublets_record() -> dict:
    """A Doublets deal the greedy bot loses after the deal was winnable (a blunder in it)."""
    from cardtable.bots import make_bot
    from cardtable.sim import play_one

    state = games.get("doublets").deal(7)
    play_one(state, [make_bot("greedy", "doublets")])
    assert not state.result()["won"]
    return state.record()


def steps_text(app: ReplayApp) -> str:
    from textual.widgets import OptionList

    steps = app.query_one("#steps", OptionList)
    return "\n".join(str(steps.get_option_at_index(i).prompt) for i in range(steps.option_count))


async def test_r_reviews_the_game_and_marks_its_moves() -> None:
    from cardtable.review import review_record

    record = lost_doublets_record()
    expected = review_record(record)
    blunder = next(m for m in expected["moves"] if m["mark"] == "blunder")
    app = ReplayApp(record)
    async with app.run_test(size=(140, 40)) as pilot:
        assert " ??" not in steps_text(app)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.review == expected
        n = blunder["step"] + 1
        assert f"{n:>3}. seat 1: {blunder['played']} ??" in steps_text(app)
        review = str(app.query_one("#review", Static).render())
        assert "Seat 1: accuracy" in review or "seat 1: accuracy" in review
        assert "With every card known: the deal was winnable until move" in review
        app.action_go(n)
        await pilot.pause()
        assert f"blunder; better: {blunder['best']}" in step_text(app)


async def test_a_review_given_is_shown_and_an_unfinished_game_is_not_reviewed() -> None:
    from cardtable.review import review_record

    record = lost_doublets_record()
    made = review_record(record, depth="quick")
    app = ReplayApp(record, review=made, lang="de")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        assert "Genauigkeit" in str(app.query_one("#review", Static).render())
        assert " ??" in steps_text(app)
    app = ReplayApp(prefix(record, 30))
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.review is None and not app.reviewing
