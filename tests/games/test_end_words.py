"""What each game tells at and about the end of a game and its secret steps (issue #24): the
card a Slide reveal turned up once every seat has chosen (``describe_resolved``), a change of
mind (``replaces``), the scoring of a deal as news (``news_after``, ``describe_news``), and
each game's figures per player and for the table (``breakdown``, ``result_notes``)."""

from __future__ import annotations

import random

import pytest

from cardtable import games
from cardtable.games.slide import CELL_INDEX
from helpers import GAME_SEATS

SLIDE = games.get("slide")


def played_out(name: str, players: int, seed: int, options: dict | None = None):
    """A finished game of greedy play."""
    state = games.get(name).deal(seed, players, options)
    state.playout(["greedy"] * players, random.Random(seed))
    return state


def test_a_reveal_names_its_card_once_every_seat_has_chosen():
    state = SLIDE.deal(7, 2)
    hidden = [list(g) for g in state.grids]  # face down: minus the value
    state.act(0, "reveal b2")
    view = state.view(None)
    # one seat has chosen: nothing is revealed, and nothing can be said of it
    assert view["revealed"] == [None, None]
    assert SLIDE.describe_resolved("reveal b2", 0, "Ann", view) is None
    state.act(1, "reveal a1")
    view = state.view(None)
    ann, bob = -hidden[0][CELL_INDEX["b2"]], -hidden[1][CELL_INDEX["a1"]]
    assert view["revealed"] == [ann, bob] and sorted(view["centre"]) == sorted([ann, bob])
    article = {8: "an"}
    assert (
        SLIDE.describe_resolved("reveal b2", 0, "Ann", view)
        == f"Ann revealed {article.get(ann, 'a')} {ann} from b2"
    )
    assert (
        SLIDE.describe_resolved("reveal a1", 1, "Bob", view)
        == f"Bob revealed {article.get(bob, 'a')} {bob} from a1"
    )
    # every view shows it, the same for all (it is public), until the round ends
    assert state.view(0)["revealed"] == state.view(1)["revealed"] == [ann, bob]
    while state.phase == "take":
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    assert state.view(None)["revealed"] == [None, None]


def test_a_change_of_mind_replaces_the_earlier_reveal():
    assert SLIDE.replaces("reveal b2", "reveal c3")
    assert not SLIDE.replaces("take 7 left", "take 3 top")
    assert not games.get("the-game").replaces("signal up1 avoid", "signal up1 good")


def test_the_last_take_of_a_round_may_bring_news():
    assert SLIDE.news_after("take 7 left", (0, 1, 2))  # a new reveal: every seat
    assert SLIDE.news_after("take 7 left", ())  # the end
    assert not SLIDE.news_after("take 7 left", (1,))  # the next seat takes
    assert not SLIDE.news_after("reveal b2", ())
    assert not games.get("doublets").news_after("flip", ())


def test_the_scoring_of_a_deal_is_news():
    state = played_out("slide", 3, 5)
    view = state.view(None)
    names = ["Ann", "Bob", "Cy"]
    seats = state.result()["deals"][0]["seats"]
    parts = [
        f"{n} cancelled {len(s['removed'])} cards, {s['remaining']} left sum to {s['score']}"
        for n, s in zip(names, seats, strict=True)
    ]
    assert SLIDE.describe_news(view, names) == ["Scoring: " + "; ".join(parts)]
    # before the end, and in the middle of a deal: nothing
    assert SLIDE.describe_news(SLIDE.deal(5, 3).view(None), names) == []


def test_each_deal_of_a_target_game_is_scored_with_the_totals():
    state = SLIDE.deal(4, 2, {"target": 1000})
    rng = random.Random(4)
    while state.deal_no == 1:
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    view = state.view(None)
    [line] = SLIDE.describe_news(view, ["Ann", "Bob"])
    total = view["totals"]
    assert line.startswith("Deal 1 scoring: Ann cancelled ")
    assert line.endswith(f"; totals Ann {total[0]}, Bob {total[1]}")


def test_slide_breakdown_sum_cards_left_and_cancelled_per_player():
    state = played_out("slide", 2, 7)
    result = state.result()
    removed = [len(s["removed"]) for s in result["deals"][0]["seats"]]
    assert SLIDE.breakdown(state.view(None)) == {
        "columns": ["sum", "cards left", "cancelled"],
        "seats": [[result["scores"][s], result["remaining"][s], removed[s]] for s in (0, 1)],
        "table": [],
    }
    # every card is left or cancelled
    assert all(result["remaining"][s] + removed[s] == 16 for s in (0, 1))
    assert SLIDE.breakdown(SLIDE.deal(7, 2).view(None)) is None
    several = played_out("slide", 2, 3, {"target": 150})
    figures = SLIDE.breakdown(several.view(1))
    assert figures is not None and figures["columns"][0] == "total"
    assert figures["table"] == [["deals", several.deal_no]]


def test_the_game_breakdown_cards_in_each_hand_and_the_draw_pile():
    game = games.get("the-game")
    state = played_out("the-game", 3, 11)
    view = state.view(None)
    figures = game.breakdown(view)
    assert figures == {
        "columns": ["cards in hand"],
        "seats": [[len(h)] for h in state.hands],
        "table": [["draw pile", len(state.draw)], ["cards left", state.result()["cards_left"]]],
    }
    assert sum(s[0] for s in figures["seats"]) + len(state.draw) == state.result()["cards_left"]
    notes = game.result_notes(state.result(), ["Ann", "Bob", "Cy"])
    assert notes and "good result" in notes[-1]


def test_doublets_breakdown_cards_on_the_foundation_and_left():
    game = games.get("doublets")
    state = played_out("doublets", 1, 2)
    on = len(state.foundation)
    assert game.breakdown(state.view(0)) == {
        "columns": [],
        "seats": [],
        "table": [["on the foundation", on], ["left", 48 - on]],
    }


@pytest.mark.parametrize(("name", "players"), GAME_SEATS)
def test_every_game_has_figures_at_its_end_only(name, players):
    """Every game's breakdown (the default's too) has a row per seat or none, one figure per
    heading; the notes are text; nothing before the end."""
    game = games.get(name)
    state = played_out(name, players, 3)
    figures = game.breakdown(state.view(None))
    assert figures is not None
    assert figures["seats"] == [] or len(figures["seats"]) == players
    assert all(len(row) == len(figures["columns"]) for row in figures["seats"])
    assert figures["seats"] or figures["table"]
    assert all(
        isinstance(n, str) and n
        for n in game.result_notes(state.result(), [f"P{s}" for s in range(players)])
    )
    assert game.breakdown(game.deal(3, players).view(None)) is None
