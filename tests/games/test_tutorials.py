"""Each game's tutorial (issue #27): its suggested line is legal and reaches the end, every
step has its words in every language, and a learner who plays another move is told what it
did and taught on to the end."""

from __future__ import annotations

import random

import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.tutorial import LEARNER, coach, line
from cardtable.i18n.languages import LANGUAGES
from cardtable.i18n.reader import reader

NAMES = games.names()


def bots_of(name: str) -> dict:
    tutorial = games.tutorial(name)
    assert tutorial is not None
    return {s: make_bot(spec, name, seed=1) for s, spec in tutorial.bots.items()}


def test_every_built_in_game_has_a_tutorial_found_by_its_name() -> None:
    for name in NAMES:
        tutorial = games.tutorial(name)
        assert tutorial is not None and tutorial.game == name
        assert tutorial.seats.count(LEARNER) == 1
        game = games.get(name)
        assert game.min_players <= len(tutorial.seats) <= game.max_players


@pytest.mark.parametrize("name", NAMES)
def test_the_suggested_line_is_legal_and_reaches_the_end(name: str) -> None:
    state = line(games.tutorial(name), games.get(name), bots_of(name))
    assert state.over


def test_the_doublets_line_wins_using_both_redeals_and_meets_a_king() -> None:
    state = line(games.tutorial("doublets"), games.get("doublets"), {})
    assert state.result()["won"]
    assert [a for _, a in state.actions].count("redeal") == 2


def steps(name: str, deviate_every: int = 0) -> list:
    """Every coaching along the tutorial, the learner playing the suggestion or, every
    ``deviate_every`` moves, another legal move."""
    tutorial, game = games.tutorial(name), games.get(name)
    bots = bots_of(name)
    state = tutorial.deal(game)
    rng = random.Random(3)
    said = [coach(tutorial, game, state.actions, "Ann")]
    moves = 0
    while not state.over:
        for s in state.to_act():
            if state.over or s not in state.to_act():
                continue
            if s == tutorial.learner:
                move = tutorial.suggest(state, s)
                others = [a for a in state.legal(s) if a != move and not game.is_talk(a)]
                moves += 1
                if deviate_every and moves % deviate_every == 0 and others:
                    move = rng.choice(others)
            else:
                move = bots[s].choose(state.view(s), state.legal(s))
            state.act(s, move)
            if s == tutorial.learner:
                said.append(coach(tutorial, game, state.actions, "Ann"))
    said.append(coach(tutorial, game, state.actions, "Ann"))
    return said


@pytest.mark.parametrize("name", NAMES)
def test_every_step_has_words_in_every_language(name: str) -> None:
    said = steps(name)
    assert said[-1].done and said[-1].text
    assert all(c.text for c in said)
    assert all(c.played is None for c in said)  # the suggestion followed: no deviation
    msgids = {t.msgid for c in said for t in c.text}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        say = reader(lang)
        for c in said[:40] + said[-2:]:
            for text in c.text:
                words = say(text)
                assert words and words != str(text), (lang, text.msgid)
    assert len(msgids) >= 4


@pytest.mark.parametrize("name", NAMES)
def test_a_deviation_is_explained_and_the_tutorial_goes_on_to_the_end(name: str) -> None:
    said = steps(name, deviate_every=3)
    deviations = [c for c in said if c.played is not None]
    assert deviations, "no move other than the suggestion was tried"
    for c in deviations:
        assert c.instead is not None and "Ann" in c.played
        assert c.text  # the next step, explained from the new position
    assert said[-1].done


def test_an_equal_move_on_the_twin_pile_is_no_deviation() -> None:
    tutorial, game = games.tutorial("the-game"), games.get("the-game")
    state = tutorial.deal(game)
    suggested = tutorial.suggest(state, 0)
    _play, card, pile = suggested.split(" ")
    twin = pile[:-1] + ("2" if pile.endswith("1") else "1")
    assert coach(tutorial, game, [(0, f"play {card} {twin}")], "Ann").played is None


def test_an_equally_good_reveal_is_no_deviation_and_a_corner_is() -> None:
    tutorial, game = games.tutorial("slide"), games.get("slide")
    assert tutorial.suggest(tutorial.deal(game), 0) == "reveal b2"  # an inner cell
    assert coach(tutorial, game, [(0, "reveal c3")], "Ann").played is None
    corner = coach(tutorial, game, [(0, "reveal a1")], "Ann")
    assert corner.played == "Ann chose a1 to reveal" and corner.instead == "reveal b2"


def test_the_tutor_reads_only_what_the_learner_may_see() -> None:
    """Two deals that differ only in cards the learner cannot see get the same advice."""
    tutorial, game = games.tutorial("the-game"), games.get("the-game")
    state = tutorial.deal(game)
    other = state.redraw_hidden(0, random.Random(5))
    assert tutorial.suggest(state, 0) == tutorial.suggest(other, 0)
    assert tutorial.explain(state.view(0), None, 0) == tutorial.explain(other.view(0), None, 0)
