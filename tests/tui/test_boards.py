"""The board renderers: pure functions of a view. They show what the view holds, and nothing
they are not given can appear: the tests check the visible cards and the hidden ones.
Each game's board lives in its own module of ``tui/games``; a game without one gets the
generic board."""

from __future__ import annotations

import random
import re

import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.tui.boards import plain
from cardtable.tui.games import board_for
from cardtable.tui.games.doublets import card_text
from cardtable.tui.games.generic import GenericBoard
from cardtable.tui.games.slide import BLOCK, slide_direction

NAMES3 = ["you", "greedy", "greedy"]


def render_board(view: dict, names=None, **kwargs):
    """The board of the view's game, as the play and replay apps draw it."""
    return board_for(games.get(view["game"])).render(view, names, **kwargs)


def result_text(game: str, view: dict, names=None):
    return board_for(games.get(game)).result_text(view, names)


def move_label(view: dict, action: str) -> str:
    return games.get(view["game"]).move_label(view, action)


def play(state, steps: int) -> None:
    """Advance ``state`` by ``steps`` greedy actions (each seat deciding from its own view)."""
    bot = make_bot("greedy", state.game.name)
    for _ in range(steps):
        if state.over:
            return
        seat = state.to_act()[0]
        state.act(seat, bot.choose(state.view(seat), state.legal(seat)))


def finished(game: str, players: int, seed: int):
    state = games.get(game).deal(seed, players)
    state.playout(["greedy"] * players, random.Random(seed))
    return state


def grid_lines(text: str) -> list[str]:
    """The rows of the Slide grids: lines starting with a row number."""
    return [line for line in text.splitlines() if re.match(r"^[1-4] ", line)]


# -- Slide ----------------------------------------------------------------------------------------


def test_slide_shows_every_grid_with_hidden_cells_and_the_hole() -> None:
    state = games.get("slide").deal(7, 3)
    state.act(0, "reveal b2")
    state.act(1, "reveal a1")
    view = state.view(0)
    text = render_board(view, NAMES3, width=80).plain
    # before all have chosen: nothing revealed yet, every cell of every grid is ?
    assert text.count("?") == 48
    assert "✓ chosen b2" in text  # my own choice, to me
    assert text.count("✓ chosen") == 2 and "… choosing" in text
    assert "waiting for seat 3 (greedy)" in text  # seats counted from 1
    # to seat 1, my choice is only "chosen"
    other = render_board(state.view(1), ["greedy", "you", "greedy"], width=80).plain
    assert "b2" not in other and other.count("✓ chosen") == 2
    state.act(2, "reveal c3")
    view = state.view(0)
    text = render_board(view, NAMES3, width=80).plain
    assert "Centre: " + " ".join(f"[{v:>2}]" for v in view["centre"]) in text
    assert text.count("?") == 45  # one hole in each grid
    assert "Take: you (seat 1) takes a centre card" in text
    assert "▶ to take" in text
    rows = grid_lines(text)
    # three grids side by side at 80 columns: the hole in my row 2 (b2) is an empty cell
    assert len(rows) == 4
    assert rows[1].startswith("2   ?     ?  ?")


def test_slide_hides_face_down_values_mid_game() -> None:
    state = games.get("slide").deal(21, 3)
    play(state, 40)
    snap = state.snapshot()
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        text = render_board(view, NAMES3, width=200).plain
        down = sum(1 for g in snap["grids"] for v in g if v < 0)
        assert text.count("?") == down
        # each grid row shows exactly the face-up values of that row, in order
        rows = grid_lines(text)
        for r in range(4):
            # blocks are BLOCK (20) columns wide: a row label, then four 3-column cells
            cells = [rows[r][k + 2 : k + 14] for k in range(0, len(rows[r]), BLOCK)]
            shown = [int(n) for chunk in cells for n in re.findall(r"\d+", chunk)]
            order = [s for s in range(3) if s != seat]
            if seat is not None:
                order.insert(0, seat)  # the viewer's grid comes first
            expected = [v for s in order for v in snap["grids"][s][r * 4 : (r + 1) * 4] if v > 0]
            assert shown == expected


def test_slide_narrow_screens_stack_the_grids() -> None:
    view = games.get("slide").deal(3, 4).view(0)
    wide = render_board(view, None, width=100).plain
    narrow = render_board(view, None, width=30).plain
    assert len(grid_lines(wide)) == 4  # four grids in one band
    assert len(grid_lines(narrow)) == 16  # one grid a band
    assert max(len(line) for line in narrow.splitlines()[3:]) <= 30


def test_slide_end_shows_everything_and_the_result() -> None:
    state = finished("slide", 3, 5)
    view = state.view(0)
    text = render_board(view, NAMES3, width=80).plain
    assert "?" not in text and "game over" in text
    result = state.result()
    for s in range(3):
        rank, score, left = result["ranks"][s], result["scores"][s], result["remaining"][s]
        assert f"#{rank} · {score} pts, {left} left" in text
    winners = result["winners"]
    assert ("Winner: " if len(winners) == 1 else "Shared win: ") in text
    quiet = render_board(view, NAMES3, width=80, show_result=False).plain
    assert "Winner" not in quiet and "Shared win" not in quiet


def test_slide_links_only_on_my_own_grid() -> None:
    state = games.get("slide").deal(7, 2)
    text = render_board(state.view(0), ["you", "greedy"], links=True)
    refs = {
        span.style.meta["@click"]
        for span in text.spans
        if hasattr(span.style, "meta") and "@click" in span.style.meta
    }
    assert "app.card('cell 0 a1')" in refs
    assert not any("cell 1" in r for r in refs)


def test_slide_direction_from_a_click() -> None:
    assert slide_direction("b2", "a2") == "left"
    assert slide_direction("b2", "d2") == "right"
    assert slide_direction("b2", "b1") == "top"
    assert slide_direction("b2", "b4") == "bottom"
    assert slide_direction("b2", "c3") is None
    assert slide_direction("b2", "b2") is None


# -- Doublets -------------------------------------------------------------------------------------


def test_doublets_shows_the_table_and_never_the_stock() -> None:
    state = games.get("doublets").deal(12)
    play(state, 5)
    state.act(0, "flip")
    view = state.view(0)
    text = render_board(view).plain
    assert "deal" not in text.splitlines()[0]  # no deal number: the view carries none
    assert f"Stock [{view['stock']:>2} ▒]" in text
    assert f"redeals left {view['redeals_left']}" in text
    for name in view["reserves"]:
        assert card_text(name).plain in text
    assert "[" + card_text(view["waste"][-1]).plain + "]" in text  # the waste top
    assert card_text(view["foundation"][-1]).plain in text
    # the arch: r1 r2 r3 / r4 _ r5 / r6 F r7
    labels = [line.split() for line in text.splitlines() if line.strip().startswith("r")]
    assert labels == [["r1", "r2", "r3"], ["r4", "r5"], ["r6", "F", "r7"]]
    for name in state.snapshot()["stock"]:
        assert card_text(name).plain not in text


def test_doublets_needed_value_and_result() -> None:
    view = games.get("doublets").deal(12).view(0)
    assert "needs 7 = 2×10 mod 13" in render_board(view).plain
    state = finished("doublets", 1, 1385)
    text = render_board(state.view(0)).plain
    score = state.result()["scores"][0]
    assert f"Score {score} of 48 cards on the foundation." in text
    won = finished("doublets", 1, 12)
    assert "All 48 cards are on the foundation: won!" in render_board(won.view(0)).plain


# -- The Game -------------------------------------------------------------------------------------


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_game_never_shows_another_hand(players: int) -> None:
    state = games.get("the-game").deal(9, players)
    bot = make_bot("greedy", "the-game")
    for _ in range(60):
        if state.over:
            break
        hands = state.snapshot()["hands"]
        for seat in [*range(players), None]:
            view = state.view(seat)
            text = render_board(view, None).plain
            public = (
                set(view["piles"].values())
                | set(view["hand_sizes"])
                | {
                    view["draw_pile"],
                    view["cards_left"],
                    view["played_this_turn"],
                    view["minimum"],
                    view["players"],
                    10,
                    *range(players),
                }
            )
            mine = set(hands[seat]) if seat is not None else set()
            others = {c for s in range(players) if s != seat for c in hands[s]}
            assert not (numbers(text) & others) - public - mine
            if seat is not None:
                hand_line = next(li for li in text.splitlines() if li.startswith("Your hand"))
                assert hand_line.startswith(f"Your hand (seat {seat + 1}):")  # counted from 1
                assert numbers(hand_line.split(":", 1)[1]) == mine
            else:
                assert "Your hand" not in text
        seat = state.to_act()[0]
        state.act(seat, bot.choose(state.view(seat), state.legal(seat)))


def test_the_game_board_shows_piles_signals_turn_and_minimum() -> None:
    state = games.get("the-game").deal(3, 3)
    state.act(1, "signal up1 avoid")
    state.act(2, "signal down2 good")
    view = state.view(0)
    text = render_board(view, NAMES3).plain
    assert "draw pile 80 · cards left 98" in text
    assert "Turn: you (seat 1) · played 0, min 2" in text
    lines = {
        line.split()[1]: line
        for line in text.splitlines()
        if line.startswith(" ▲") or line.startswith(" ▼")
    }
    assert "[  1]" in lines["up1"] and "s2 avoid" in lines["up1"]  # seat index 1: s2
    assert "[100]" in lines["down2"] and "s3 good" in lines["down2"]
    assert "signal" not in lines["up2"] and "avoid" not in lines["up2"]
    assert "seat 2 (greedy): 6 cards" in text and "seat 3 (greedy): 6 cards" in text


def test_the_game_result() -> None:
    state = finished("the-game", 2, 394)
    text = result_text("the-game", state.view(0), ["you", "greedy"])
    left = state.result()["cards_left"]
    played = 98 - left
    stuck = state.result()["stuck_seat"]
    hands = [len(h) for h in state.hands]
    # the outcome, then where the cards left are: each hand, the draw pile; then who was stuck
    assert text.plain.splitlines() == [
        f"Game over. The team did not win. Cards left: {left} (played {played}).",
        f"you (seat 1): cards in hand {hands[0]}",
        f"seat 2 (greedy): cards in hand {hands[1]}",
        f"draw pile {len(state.draw)} · cards left {left}",
        f"{['you (seat 1)', 'seat 2 (greedy)'][stuck]} could not play "
        f"{state.result()['short_by']} more cards.",
        "More than 10 cards left: 10 or fewer counts as a good result.",
    ]
    assert any(span.style.color.name == "red" for span in text.spans)  # a lost game in red
    won = finished("the-game", 2, 222)
    text = result_text("the-game", won.view(None))
    assert text.plain.splitlines()[0] == "Game over. The team won: all 98 cards are played!"
    assert any(span.style.color.name == "green" for span in text.spans)


# -- labels ---------------------------------------------------------------------------------------


def test_move_labels_add_a_hint() -> None:
    view = games.get("doublets").deal(12).view(0)
    assert move_label(view, "play r5") == "play r5 · 7♥"
    assert move_label(view, "flip") == "flip · stock 44"
    game = games.get("the-game").deal(3, 2)
    game.act(0, "play 14 up1")
    view = game.view(0)
    assert move_label(view, "play 31 up1") == "play 31 up1 · on 14 (+17)"
    assert move_label(view, "end") == "end the turn"
    assert move_label(view, "signal up1 avoid") == "signal up1 avoid"


def test_plain_renders_any_renderable() -> None:
    view = games.get("doublets").deal(12).view(0)
    assert plain(render_board(view)) == render_board(view).plain


# -- finding a game's board -----------------------------------------------------------------------


def test_every_built_in_game_has_its_own_board_and_keys() -> None:
    from cardtable.tui.app import PlayApp

    for name in games.names():
        board = board_for(games.get(name))
        assert not isinstance(board, GenericBoard), name
        assert type(board).__module__ == f"cardtable.tui.games.{name.replace('-', '_')}"
        # a game's own keys never shadow the keys every table has
        common = {b.key for b in PlayApp.BINDINGS} | {"u", "h", "x", "p"}
        assert not {k.key for k in board.keys} & common, name


def test_a_game_without_a_board_gets_the_generic_one(plugin_game: str) -> None:
    state = games.get(plugin_game).deal(4, 3)
    state.act(0, state.legal(0)[0])
    board = board_for(state.game)
    assert type(board) is GenericBoard
    view = state.view(1)
    text = board.render(view, ["greedy", "you", "greedy"], width=60).plain
    lines = text.splitlines()
    assert lines[0] == "Fifteen"
    # every field of the view on a line of its own, in words
    assert f"hand: {', '.join(map(str, view['hand']))}" in text
    assert f"hand sizes: {', '.join(map(str, view['hand_sizes']))}" in text
    assert f"total: {view['total']}" in text and f"draw pile: {view['draw_pile']}" in text
    assert max(len(line) for line in lines) <= 60
    # the fields every view has, seats counted from 1 as everywhere people read them (#24)
    assert "You: seat 2 · 3 players · To act: you (seat 2)" in text
    assert "seat: " not in text and "to act: [" not in text
    # nothing the view does not hold: the other hands stay hidden
    others = [c for s in (0, 2) for c in state.hands[s]]
    shown = {int(n) for n in re.findall(r"\d+", text.replace(lines[1], ""))}
    public = {
        v for value in view.values() if isinstance(value, list) for v in value if isinstance(v, int)
    }
    public |= {v for v in view.values() if isinstance(v, int)}
    assert shown <= public, set(others) & (shown - public)


def test_the_generic_board_shows_nested_fields_and_the_result(plugin_game: str) -> None:
    state = games.get(plugin_game).deal(4, 2)
    state.playout(["random", "random"], random.Random(4))
    view = state.view(None)
    board = board_for(state.game)
    text = board.render(view, ["you", "greedy"]).plain
    assert "hand: —" in text  # a spectator holds no hand
    assert "Game over. " in text and ("Winner: " in text or "Shared win: " in text)
    assert "Game over" not in board.render(view, show_result=False).plain
    nested = board.render({**view, "piles": {"up": [1, 2], "down": []}}).plain
    assert "piles" in nested and "up: 1, 2" in nested and "down: none" in nested
    assert "Watching · 2 players · Nobody to act" in nested
    rows = board.render({**view, "rows": [[5, 6], [7]]}).plain.splitlines()
    numbered = [line.split("─ ")[-1] for line in rows if ": 5, 6" in line or ": 7" in line]
    assert numbered == ["1: 5, 6", "2: 7"]  # a list numbered from 1, as in the browser
