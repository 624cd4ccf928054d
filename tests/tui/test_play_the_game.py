"""The Game through the play app: refusals explained, signals, clicks, a whole game."""

from __future__ import annotations

import re

from textual.widgets import Static

from cardtable import games
from cardtable.bots import make_bot
from cardtable.tui.app import PlayApp

SEED = 394  # with two greedy players this game is short: 67 actions, 53 cards left


def leaked(text: str, view: dict, hidden: list[int]) -> set[int]:
    """Hidden cards that show up in ``text`` as numbers nothing public explains."""
    public = set(view["hand"] or []) | set(view["piles"].values()) | set(view["hand_sizes"])
    public |= {
        view["draw_pile"],
        view["cards_left"],
        view["played_this_turn"],
        view["minimum"],
        view["players"],
        10,
        *range(view["players"]),
    }
    shown = {int(n) for n in re.findall(r"\d+", text)}
    return (shown & set(hidden)) - public


def hidden_hand(app: PlayApp, seat: int) -> list[int]:
    """The other seat's hand, from a copy rebuilt out of the record (tests may look)."""
    return games.replay(app.table.record()).snapshot()["hands"][seat]


async def test_refused_typed_moves_show_the_reason(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.settle(pilot)
        hand = app.table.view(0)["hand"]
        missing = next(c for c in range(99, 1, -1) if c not in hand)
        await ui.type_move(pilot, f"play {missing} up1")
        assert f"you do not hold the {missing}" in ui.message(app)
        await ui.type_move(pilot, "end")
        assert "play at least 2 cards this turn" in ui.message(app)
        await ui.type_move(pilot, "pass")
        assert "is not an action of The Game" in ui.message(app)
        assert app.table.moves == 0
        # a refused move stays in the box, selected: typing replaces it
        assert app.query_one("#entry").value == "pass"
        assert app.query_one("#entry").selected_text == "pass"
        # a good one goes through and clears the box
        await ui.type_move(pilot, f"play {hand[1]} up1")
        assert app.table.view(0)["piles"]["up1"] == hand[1]
        assert app.query_one("#entry").value == ""
        assert hand[1] - hand[0] != 10
        await ui.type_move(pilot, f"play {hand[0]} up1")  # lower than the top: refused
        assert f"does not go on up1 (top {hand[1]})" in ui.message(app)


async def test_signals_at_any_time(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], SEED, {}, bot_delay=60.0)  # the bot waits
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.select_move(pilot, "signal up1 avoid")
        assert app.table.view(0)["signals"][0] == {"up1": "avoid"}
        assert "you avoid" in ui.board_text(app)
        assert "signal up1 avoid" not in ui.move_ids(app)  # already set: not legal again
        assert "signal up1 clear" in ui.move_ids(app)
        assert app.table.moves == 1 and app.table.to_act() == (0,)  # talk is not a turn
        # play two cards and end the turn: now the bot is to move, and I may still signal
        hand = app.table.view(0)["hand"]
        await ui.select_move(pilot, f"play {hand[0]} up1")
        await ui.select_move(pilot, f"play {hand[1]} up1")
        await pilot.press("e")
        assert app.table.to_act() == (1,)
        assert all(m.startswith("signal ") for m in ui.move_ids(app))
        await ui.type_move(pilot, "signal down1 good")
        assert app.table.view(0)["signals"][0] == {"up1": "avoid", "down1": "good"}
        board = ui.board_text(app)
        assert "you avoid" in board and "you good" in board
        assert "▶ seat 2 (greedy)" in board


async def test_click_a_card_then_a_pile(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.settle(pilot)
        await ui.click_card(pilot, "pile down1")
        assert "Select a card of your hand first" in ui.message(app)
        card = app.table.view(0)["hand"][-1]
        await ui.click_card(pilot, f"hand {card}")
        assert app.selected == f"hand {card}"
        assert all(m.startswith(f"play {card} ") for m in ui.move_ids(app))
        await ui.click_card(pilot, "pile down1")
        assert app.table.view(0)["piles"]["down1"] == card
        assert app.selected is None


async def test_whole_game_against_greedy(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], SEED, {}, bot_delay=0.0)
    mine = make_bot("greedy", "the-game")
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.settle(pilot)
        while not app.table.over:
            view = app.table.view(0)
            assert not leaked(ui.board_text(app), view, hidden_hand(app, 1))
            assert f"seat 2 (greedy): {view['hand_sizes'][1]} cards" in ui.board_text(app)
            action = mine.choose(view, app.table.legal(0))
            if action == "end":
                await pilot.press("e")
                await ui.settle(pilot)
            else:
                await ui.select_move(pilot, action)
        result = app.table.result()
        assert not result["won"] and result["cards_left"] == 53
        text = str(app.query_one("#result", Static).render())
        assert "The team did not win. Cards left: 53 (played 45)." in text
        # where they are: each hand, the draw pile
        hands = app.table.view(0)["hand_sizes"]
        assert f"seat 2 (greedy): cards in hand {hands[1]}" in text
        assert f"draw pile {53 - sum(hands)} · cards left 53" in text
        assert "Record saved:" in text
    assert len(list((data_dir / "records").glob("the-game-394-*.json"))) == 1


async def test_undo_alone_by_key(data_dir, ui) -> None:
    """Played alone, The Game offers undo like Doublets (the game's ``offers_undo``); an
    undone end of turn puts the drawn cards back."""
    app = PlayApp("the-game", ["me"], SEED, {}, bot_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert "u" in {b.key for b in app.game_bindings()}
        start = app.table.view(0)
        hand = start["hand"]
        await ui.select_move(pilot, f"play {hand[0]} up1")
        await ui.select_move(pilot, f"play {hand[1]} up1")
        before_end = app.table.view(0)
        await pilot.press("e")
        await ui.settle(pilot)
        assert app.table.view(0)["draw_pile"] == start["draw_pile"] - 2
        await pilot.press("u")
        await ui.settle(pilot)
        assert app.table.view(0) == before_end
        assert "Took back: end" in ui.message(app)
        await pilot.press("u", "u")
        await ui.settle(pilot)
        assert app.table.view(0) == start and app.table.moves == 0


async def test_no_undo_hint_or_peek_at_a_shared_table(data_dir, ui) -> None:
    app = PlayApp("the-game", ["me", "greedy"], SEED, {}, bot_delay=60.0)
    async with app.run_test(size=(100, 30)) as pilot:
        keys = {b.key for b in app.game_bindings()}
        assert keys == {"e", "p"}  # the game's end of turn, and pause for the bot
        hand = app.table.view(0)["hand"]
        await ui.select_move(pilot, f"play {hand[0]} up1")
        await pilot.press("u")
        assert app.table.moves == 1
        await ui.type_move(pilot, "undo")
        assert "offers no undo" in ui.message(app)
