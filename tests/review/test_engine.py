"""The game review: planted mistakes are marked where they were made, from the seat's view."""

from __future__ import annotations

import random

import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.errors import BadRecord
from cardtable.review import NotFinished, review_record
from cardtable.review.engine import mark_of, move_accuracy, review_steps, steps


def finish(state, spec: str) -> None:
    """Play ``state`` to its end with ``spec`` bots in every seat."""
    game = state.game
    bots = [make_bot(spec, game.name, seed=s) for s in range(state.players)]
    while not state.over:
        for seat in state.to_act():
            if not state.over and seat in state.to_act():
                legal = [a for a in state.legal(seat) if not game.is_talk(a)]
                state.act(seat, bots[seat].choose(state.view(seat), legal))


def off_the_line(state, line: list[str], start: int):
    """Follow the solver's winning ``line`` to the first action from ``start`` on that has a
    legal alternative losing the deal (every card known); play that instead. Returns the
    step of the losing action."""
    game = state.game
    for k, action in enumerate(line):
        seat = state.to_act()[0]
        if k >= start:
            for other in state.legal(seat):
                if other != action and not game.is_talk(other):
                    trial = state.clone()
                    trial.act(seat, other)
                    if game.still_winnable(trial) is False:
                        state.act(seat, other)
                        return k
        state.act(seat, action)
    raise AssertionError("the line never offered a losing move")


def move_at(review: dict, step: int) -> dict:
    return next(m for m in review["moves"] if m["step"] == step)


def test_marks_follow_the_drop_in_points():
    assert [mark_of(d) for d in (0, 9.9, 10, 19.9, 20, 29.9, 30, 100)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert move_accuracy(0) == pytest.approx(100, abs=0.01)
    assert move_accuracy(10) > move_accuracy(20) > move_accuracy(30) > move_accuracy(100) == 0


def test_doublets_a_broken_solver_line_is_a_blunder_at_that_move():
    from cardtable.solvers.doublets import solve_seed

    game = games.get("doublets")
    seed = 3
    line = solve_seed(seed).line
    state = game.deal(seed)
    # after the first redeal the player has seen the whole stock: the review knows it too
    k = off_the_line(state, line, line.index("redeal") + 1)
    finish(state, "greedy")
    assert not state.result()["won"]
    review = review_record(state.record())
    move = move_at(review, k)
    assert move["mark"] == "blunder" and move["after"] == 0 and move["before"] == 100
    assert move["best"] != move["played"]
    assert review["verdict"]["status"] == "lost_at" and review["verdict"]["step"] == k
    # and why, in the game's words: the play pulled a king from the waste into its reserve
    assert review["verdict"]["reason"]["msg"] == (
        "it refilled reserve {n} with a king, which froze it for good"
    )
    assert move["labels"]["played"]["args"]["action"] == move["played"]  # "play r1 · 7♣"
    # the moves before it were the solver's: none of them is marked
    assert not any(m["mark"] for m in review["moves"] if m["step"] < k)


def test_the_game_a_solver_line_played_then_left_is_marked_there():
    from cardtable.solvers.the_game import solve_seed

    game = games.get("the-game")
    seed, players = 1, 2
    line = solve_seed(seed, 2_000_000, players).line
    state = game.deal(seed, players)
    k = off_the_line(state, line, len(line) - 20)
    seat = state.actions[k][0]
    finish(state, "expert")
    review = review_record(state.record(), seats=[seat], depth="quick")
    move = move_at(review, k)
    assert move["mark"] is not None, move
    assert move["drop"] >= 10 and move["score_after"] > move["score_before"]
    assert review["verdict"]["status"] == "lost_at" and review["verdict"]["step"] == k
    # why: the card played left another out of every pile's reach
    reason = review["verdict"]["reason"]
    assert reason["msg"].startswith("after it, the {card} could never be played"), reason


def test_slide_a_taken_card_that_breaks_a_pair_for_no_gain_is_marked():
    """Seat 0 slides the card greedy would take in from the side that leaves 14 more points
    unpaired (it pushes a pair apart). Deal 12 is pinned: not every such slide is a mistake
    (one that pushes a face-down card out may pay later), and the search agrees it is one
    here, as a player would."""
    game = games.get("slide")
    state = game.deal(12, 2)
    bots = [make_bot("greedy", "slide", seed=s) for s in range(2)]
    takes, planted = 0, None
    while not state.over:
        for seat in state.to_act():
            if state.over or seat not in state.to_act():
                continue
            legal = state.legal(seat)
            choice = bots[seat].choose(state.view(seat), legal)
            if seat == 0 and choice.startswith("take") and planted is None:
                takes += 1
                card = choice.split()[1]
                same = [a for a in legal if a.split()[1] == card]
                worst = max(same, key=lambda a: _score_after(state, a))
                if takes >= 4 and _score_after(state, worst) >= _score_after(state, choice) + 10:
                    choice, planted = worst, len(state.actions)
            state.act(seat, choice)
    review = review_record(state.record(), seats=[0], depth="quick")
    move = move_at(review, planted)
    assert move["mark"] is not None, move
    assert move["best"].split()[1] == move["played"].split()[1]  # the same card, elsewhere
    assert move["rank_after"] > move["rank_before"]
    assert move["score_after"] > move["score_before"]
    assert review["verdict"] is None  # Slide has no solver: no peeking verdict


def _score_after(state, action: str) -> int:
    """Seat 0's face-up cards with no pair, after ``action`` (the greedy bots' measure)."""
    from cardtable.games.slide import unpaired_sum

    trial = state.clone()
    trial.act(0, action)
    return unpaired_sum(trial.grids[0])


def test_a_review_never_changes_with_cards_its_seat_could_not_see():
    """The same game walked through twins of each position (the seat's view the same, every
    other seat's hand and the draw pile redealt) reviews the same for that seat."""
    game = games.get("the-game")
    state = game.deal(8, 3)
    finish(state, "greedy")
    record = state.record()
    truth = [(s.clone(), seat, a) for s, seat, a in list(_positions(game, record))[:40]]
    rng = random.Random(5)
    twins = [(s.redraw_hidden(0, rng), seat, a) for s, seat, a in truth]
    pairs = zip(twins, truth, strict=True)
    assert any(t.snapshot() != s.snapshot() for (t, _, _), (s, _, _) in pairs)
    mine = review_steps(game, iter(truth), [0], depth="quick")
    theirs = review_steps(game, iter(twins), [0], depth="quick")
    assert mine["moves"] and mine == theirs


def _positions(game, record):
    for state, seat, action in steps(game, record):
        yield state.clone(), seat, action


def test_only_a_finished_game_is_reviewed():
    state = games.get("doublets").deal(4)
    finish(state, "greedy")
    record = state.record()
    cut = {**record, "actions": record["actions"][:20]}
    with pytest.raises(NotFinished):
        review_record(cut)
    # a game its table ended (a resignation) is finished though its rules go on
    assert review_record(cut, ended=True)["moves"] is not None
    with pytest.raises(BadRecord):
        review_record({**record, "actions": [[0, "fly"]]})


def test_a_review_repeats_and_counts_its_progress():
    state = games.get("slide").deal(2, 2)
    finish(state, "greedy")
    seen: list[tuple[int, int]] = []
    first = review_record(state.record(), depth="quick", progress=lambda d, t: seen.append((d, t)))
    assert first == review_record(state.record(), depth="quick")
    assert seen[-1][0] == seen[-1][1] == len(state.actions)  # no talk in Slide
    assert [s["seat"] for s in first["summary"]] == [0, 1]
    for entry in first["summary"]:
        mine = [m for m in first["moves"] if m["seat"] == entry["seat"]]
        assert entry["decisions"] == len(mine)
        assert entry["blunder"] == sum(m["mark"] == "blunder" for m in mine)
