"""What each game says about its actions and results, for the game logs and the end of a game
(``Game.describe_action``, ``public_action``, ``move_label``, ``result_lines``)."""

from __future__ import annotations

import random

import pytest

from cardtable import games
from helpers import GAME_SEATS


def test_slide_words():
    slide = games.get("slide")
    assert (
        slide.describe_action("take 7 left", "Ann")
        == "Ann took the 7 and pushed it in from the left"
    )
    assert slide.describe_action("reveal b3", "Ann") == "Ann chose b3 to reveal"
    # a reveal stays secret from the others until every seat has chosen
    assert slide.public_action("reveal b3") is None
    assert slide.describe_action("reveal b3", "Ann", public=True) == "Ann chose a card to reveal"
    assert slide.public_action("take 7 left") == "take 7 left"


def test_the_game_words():
    game = games.get("the-game")
    view = game.deal(3, 2).view(0)
    assert game.describe_action("play 34 down1", "Bob", view) == "Bob played 34 on ▼ down 1"
    view["piles"]["up1"] = 44
    assert game.describe_action("play 34 up1", "Bob", view) == "Bob played 34 on ▲ up 1 (10 back)"
    assert game.describe_action("end", "Bob") == "Bob ended the turn"
    assert (
        game.describe_action("signal up2 small", "Bob")
        == "Bob signals on ▲ up 2: only a small jump, please"
    )
    assert game.describe_action("signal up2 clear", "Bob") == "Bob cleared the signal on ▲ up 2"
    assert game.move_label(view, "play 34 up1") == "play 34 up1 · on 44 (10 back)"
    assert game.public_action("signal up2 small") == "signal up2 small"


def test_doublets_names_the_card_from_the_view_before_the_move():
    game = games.get("doublets")
    state = game.deal(1)
    while not any(a.startswith("play") for a in state.legal(0)):
        state.act(0, state.legal(0)[-1])
    view = state.view(0)
    play = next(a for a in state.legal(0) if a.startswith("play"))
    where = play.split(" ")[1]
    name = view["waste"][-1] if where == "waste" else view["reserves"][int(where[1:]) - 1]
    symbol = name[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[name[-1]]
    said = game.describe_action(play, "You", view)
    assert said.startswith(f"You played {symbol} from ") and said.endswith(" to the foundation")
    assert game.move_label(view, play) == f"{play} · {symbol}"
    assert game.describe_action("flip", "You") == "You turned a card from the stock"


@pytest.mark.parametrize(("name", "players"), GAME_SEATS)
def test_every_game_words_every_legal_action_and_its_result(name, players):
    """Every legal action of a random game has words that name the one who acted, and the end
    has result lines; nothing raises."""
    game = games.get(name)
    state = game.deal(7, players)
    rng = random.Random(7)
    names = [f"P{s + 1}" for s in range(players)]
    while not state.over:
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal(seat)
        for action in legal:
            assert game.describe_action(action, names[seat], view).startswith(names[seat])
            assert game.describe_action(action, names[seat], view, public=True)
            assert game.move_label(view, action).startswith(action)
        moves = [a for a in legal if not game.is_talk(a)]
        state.act(seat, rng.choice(moves))
    lines = game.result_lines(state.result(), names)
    assert lines and all(isinstance(line, str) and line for line in lines)
    assert game.result_lines(game.deal(7, players).result(), names) == []


def test_verdicts_address_each_player():
    slide = games.get("slide")
    result = {
        "over": True,
        "scores": [20, 20, 31],
        "remaining": [4, 6, 5],
        "ranks": [1, 2, 3],
        "winners": [0],
        "deals": [{}],
    }
    assert slide.verdict(result, 0).startswith("You came 1st of 3. Tied on 20 points")
    assert slide.verdict(result, 1) == (
        "You came 2nd of 3. Tied on 20 points; the tie-break is "
        "fewer cards left: you had 6, against 4."
    )
    assert slide.verdict(result, 2) == "You came 3rd of 3."
    shared = {**result, "remaining": [4, 4, 5], "ranks": [1, 1, 3], "winners": [0, 1]}
    assert slide.verdict(shared, 1) == "You shared 1st place with 1 other (of 3)."
    assert slide.verdict({**result, "over": False}, 0) == ""
    the_game = games.get("the-game")
    assert the_game.verdict({"over": True, "won": True, "ranks": [1, 1]}, 1) == "The team won!"
    assert (
        games.get("doublets").verdict({"over": True, "won": False, "ranks": [1]}, 0)
        == "You did not win."
    )


def test_the_game_says_who_was_stuck_mid_turn():
    game = games.get("the-game")
    state = game.deal(1, 2)
    rng = random.Random(1)
    while not state.over:
        seat = state.to_act()[0]
        state.act(seat, rng.choice([a for a in state.legal(seat) if not game.is_talk(a)]))
    result = state.result()
    if result["won"]:
        pytest.skip("a random game that was won")
    assert result["stuck_seat"] == state.turn and 1 <= result["short_by"] <= 2
    assert f"P{state.turn + 1} could not play" in game.result_lines(result, ["P1", "P2"])[-1]
