"""Slide through the play app: a whole game against a greedy bot, watching, sharing, leaving."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from textual.widgets import Static

from cardtable import games
from cardtable.bots import make_bot
from cardtable.tui.app import PlayApp
from cardtable.tui.widgets import ConfirmQuit, HandOver


def entry_cell(hole: str, direction: str) -> str:
    """A cell whose click means "push from ``direction``": the end of the hole's row/column."""
    column, row = hole[0], hole[1]
    return {"left": f"a{row}", "right": f"d{row}", "top": f"{column}1", "bottom": f"{column}4"}[
        direction
    ]


def log_text(app: PlayApp) -> str:
    return "\n".join(app.events)


async def test_whole_game_against_greedy(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    mine = make_bot("greedy", "slide")  # chooses the person's moves from the person's view
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        # mostly the move list (Enter); a click reveal, a two-click take, a typed take
        ways = {(1, "reveal"): "click", (2, "take"): "clicks", (3, "take"): "typed"}
        while not app.table.over:
            view = app.table.view(0)
            action = mine.choose(view, app.table.legal(0))
            words = action.split(" ")
            before = app.table.moves
            way = ways.get((view["round"], words[0]), "list")
            if view["phase"] == "reveal":
                # the bot chose at once; its choice shows as chosen, never which cell
                assert view["chosen"][1] and view["choice"] is None
                assert "✓ chosen" in ui.board_text(app)
            if way == "click":
                await ui.click_card(pilot, f"cell 0 {words[1]}")
            elif way == "clicks":
                await ui.click_card(pilot, f"centre {words[1]}")
                assert app.selected == f"centre {words[1]}"
                assert all(m.startswith(f"take {words[1]} ") for m in ui.move_ids(app))
                await ui.click_card(pilot, f"cell 0 {entry_cell(view['holes'][0], words[2])}")
            elif way == "typed":
                await ui.type_move(pilot, action)
            else:
                await ui.select_move(pilot, action)
            assert app.table.moves > before, f"{action!r} was not played"
        assert app.table.moves == 64
        result = app.table.result()
        text = str(app.query_one("#result", Static).render())
        assert ("Winner: " if len(result["winners"]) == 1 else "Shared win: ") in text
        # the end screen: a line per player by rank (sum, cards left, cancelled), then how
        # it counts; no other line repeats them
        lines = text.splitlines()
        cancelled = [len(s["removed"]) for s in result["deals"][0]["seats"]]
        names = ["you (seat 1)", "seat 2 (greedy)"]
        order = sorted((0, 1), key=lambda s: (result["ranks"][s], s))
        assert lines[1:3] == [
            f"#{result['ranks'][s]} {names[s]}: sum {result['scores'][s]}, "
            f"cards left {result['remaining'][s]}, cancelled {cancelled[s]}"
            for s in order
        ]
        assert lines[3].startswith("Cards that touch a card of the same number")
        assert "Record saved:" in text
        assert "?" not in ui.board_text(app)  # every grid is face up at the end
        # every reveal is told with its card once the round's choices are over
        assert "seat 2 (greedy) revealed a" in log_text(app)
        assert "chose a card to reveal" not in log_text(app)
        assert "Scoring: " not in text  # the scoring is the table's, not a line again
        assert "reveal " not in log_text(app)  # the cells chosen stay secret until revealed
    saved = list((data_dir / "records").glob("slide-7-*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text())
    assert games.replay(record).result() == result


async def test_the_log_reads_as_the_browsers(data_dir, ui) -> None:
    """The log in the game's words, as the server's log has them (issue #24): another
    seat's choice without its cell until every seat has chosen, then "revealed a 7 from b2"
    for each; the person's own choice in full; a scoring line at the end of the deal."""
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)  # the bot chose at once
        assert log_text(app).splitlines()[1:] == ["seat 2 (greedy) chose a card to reveal"]
        await ui.select_move(pilot, "reveal a1")
        view = app.table.view(0)
        revealed, bots_cell = view["revealed"], view["holes"][1]  # its card left a hole
        assert log_text(app).splitlines()[1:] == [
            f"seat 2 (greedy) revealed {article(revealed[1])} from {bots_cell}",
            f"you (seat 1) revealed {article(revealed[0])} from a1",
        ]
        assert "Round 1" not in log_text(app)  # no words of the screen's own


async def test_the_deal_ends_with_its_scoring_in_the_log(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        mine = make_bot("greedy", "slide")
        while not app.table.over:
            assert app.try_act(mine.choose(app.table.view(0), app.table.legal(0)))
            await ui.settle(pilot)
        deal = app.table.result()["deals"][0]["seats"]
        scoring = (
            f"Scoring: you (seat 1) cancelled {len(deal[0]['removed'])} cards, "
            f"{deal[0]['remaining']} left sum to {deal[0]['score']}; seat 2 (greedy) "
            f"cancelled {len(deal[1]['removed'])} cards"
        )
        lines = log_text(app).splitlines()
        assert any(line.startswith(scoring) for line in lines), lines[-3:]
        assert lines[-1] == "Game over. The deal was 7."
        assert lines[-2].startswith("Scoring: ")


def article(value: int) -> str:
    return f"an {value}" if value == 8 else f"a {value}"


async def test_a_change_of_mind_leaves_no_line(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy", "greedy"], 3, {}, bot_delay=60.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.select_move(pilot, "reveal a1")
        assert log_text(app).splitlines()[-1] == "you (seat 1) chose a1 to reveal"
        await ui.select_move(pilot, "reveal c3")
        assert log_text(app).splitlines()[1:] == ["you (seat 1) chose c3 to reveal"]


async def test_another_persons_choice_stays_secret_in_the_log(data_dir, ui) -> None:
    """Two people at one keyboard: the second reads the first's reveal without its cell,
    until both have chosen."""
    app = PlayApp("slide", ["me", "me"], 5, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.select_move(pilot, "reveal a1")
        assert isinstance(app.screen, HandOver) and app.viewer == 1
        await pilot.press("enter")
        assert "seat 1 (player) chose a card to reveal" in app.events
        assert not any("a1" in line for line in app.events), app.events
        await ui.select_move(pilot, "reveal d4")
        assert app.viewer == 0  # the first to take: back at the keyboard, both revealed
        revealed = [line for line in app.events if " revealed " in line]
        assert [line.split(" revealed ")[0] for line in revealed] == [
            "you (seat 1)",
            "seat 2 (player)",
        ]
        assert revealed[0].endswith(" from a1") and revealed[1].endswith(" from d4")


async def test_take_click_outside_the_hole_lines_is_explained(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        await ui.click_card(pilot, "cell 0 b2")  # reveal b2: the hole will be b2
        view = app.table.view(0)
        assert view["phase"] == "take" and view["holes"][0] == "b2" and view["turn"] == 0
        await ui.click_card(pilot, "cell 0 a1")
        assert "First select a centre card" in ui.message(app)
        value = view["centre"][0]
        await ui.click_card(pilot, f"centre {value}")
        await ui.click_card(pilot, "cell 0 d4")  # neither the hole's row nor its column
        assert "row or column of your hole (b2)" in ui.message(app)
        await ui.click_card(pilot, "cell 0 d2")  # right of the hole: push from the right
        assert f"you (seat 1) took the {value} and pushed it in from the right" in log_text(app)


async def test_change_of_mind_while_the_bots_think(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy", "greedy"], 3, {}, bot_delay=60.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.select_move(pilot, "reveal a1")
        assert app.table.view(0)["choice"] == "a1"
        assert "reveal a1" not in ui.move_ids(app)  # the chosen cell is no longer offered
        await ui.select_move(pilot, "reveal c3")
        view = app.table.view(0)
        assert view["choice"] == "c3" and view["phase"] == "reveal"
        assert "✓ chosen c3" in ui.board_text(app)
        assert "… choosing" in ui.board_text(app)  # the bots have not chosen yet


async def test_watching_bots_shows_the_spectator_view(data_dir, ui) -> None:
    app = PlayApp("slide", ["greedy", "random", "greedy"], 11, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert app.table.over
        assert app.query_one("#board").board_view["seat"] is None
        assert "Winner" in str(app.query_one("#result", Static).render())
        assert app.saved is not None and app.saved.exists()


async def test_pause_stops_the_bots(data_dir, ui) -> None:
    app = PlayApp("slide", ["greedy", "greedy"], 11, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await pilot.press("p")
        await ui.settle(pilot)
        paused_at = app.table.moves
        assert not app.table.over
        await ui.settle(pilot)
        assert app.table.moves == paused_at
        await pilot.press("p")
        await ui.settle(pilot)
        assert app.table.over


async def test_leaving_mid_game_saves_the_game_so_far(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy"], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        await ui.click_card(pilot, "cell 0 a1")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit) and app.saved is None
        await pilot.press("q", "y")
    assert app.left_early
    saved = app.return_value
    assert saved is not None and saved.parent == data_dir / "records"
    record = json.loads(saved.read_text())
    state = games.replay(record)
    assert not state.over and [0, "reveal a1"] in record["actions"]


async def test_two_people_share_the_keyboard(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "me"], 5, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        assert app.viewer == 0
        await ui.select_move(pilot, "reveal a1")
        # seat 1 must choose now: the board is covered until seat 1 says it is ready
        assert isinstance(app.screen, HandOver) and app.viewer == 1
        assert app.query_one("#board").board_view["seat"] == 1
        await pilot.press("enter")
        assert not isinstance(app.screen, HandOver)
        await ui.select_move(pilot, "reveal d4")
        view = app.table.view(0)
        assert view["phase"] == "take" and view["turn"] == 0
        assert isinstance(app.screen, HandOver) and app.viewer == 0


ROOT = Path(__file__).resolve().parents[2]


async def test_an_external_bot_plays_a_seat(data_dir, ui) -> None:
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'} 1"
    app = PlayApp("slide", ["me", bot], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert app.table.view(0)["chosen"][1]  # the program chose its reveal
        await ui.select_move(pilot, "reveal a1")
        assert app.table.view(0)["turn"] == 0
        await ui.select_move(pilot, ui.move_ids(app)[0])
        view = app.table.view(0)  # the program took its card and chose its next reveal
        assert view["round"] == 2 and view["chosen"] == [False, True]
        await pilot.press("q", "y")
    assert app.return_value is not None


async def test_a_bot_answering_nonsense_pauses_the_bots(data_dir, ui) -> None:
    liar = f"cmd:{sys.executable} {ROOT / 'tests' / 'bots' / 'fixtures' / 'illegal_bot.py'}"
    app = PlayApp("slide", ["me", liar], 7, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        assert app.paused
        assert "the bot at seat 2 failed" in ui.message(app)  # seats counted from 1
        assert "'take 11 left' is not legal here" in ui.message(app)
        assert app.table.moves == 0  # nothing was played in its place


async def test_two_people_and_a_bot(data_dir, ui) -> None:
    app = PlayApp("slide", ["me", "greedy", "me"], 9, {}, bot_delay=0.0)
    async with app.run_test(size=ui.SIZE) as pilot:
        await ui.settle(pilot)
        handovers = 0
        while app.table.view(app.viewer)["round"] < 2:
            if isinstance(app.screen, HandOver):
                handovers += 1
                await pilot.press("enter")
                await ui.settle(pilot)
                continue
            assert app.viewer in app.table.to_act()
            assert app.board.board_view == app.table.view(app.viewer)
            await ui.select_move(pilot, ui.move_ids(app)[0])
        assert handovers >= 2
        assert "seat 1 (player)" in ui.board_text(app) or "seat 3 (player)" in ui.board_text(app)
