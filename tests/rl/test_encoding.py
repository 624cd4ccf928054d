"""The encodings every game offers: a fixed action space that covers every legal action,
index <-> notation both ways, and an observation of the view alone (redrawing what the seat
may not know changes nothing), within its declared bounds."""

from __future__ import annotations

import random

import pytest

from helpers import need_rl, random_game

need_rl()

import numpy as np  # noqa: E402

from cardtable import games  # noqa: E402
from cardtable.rl.encoding import (  # noqa: E402
    Encoding,
    FromViewer,
    from_viewer,
    load_encoding,
    place_rewards,
)

GAMES = [name for name in games.names() if games.get(name).encoding is not None]
TABLES = [
    (g, n) for g in GAMES for n in range(games.get(g).min_players, games.get(g).max_players + 1)
]


def encoding(game: str, players: int) -> Encoding:
    return load_encoding(games.get(game), players, {})


def test_the_three_games_offer_an_encoding_that_plays_a_whole_game():
    """Each built-in game's encoding covers every legal action of a real game, start to end,
    and observes every view in it in its fixed shape."""
    assert {"slide", "doublets", "the-game"} <= set(GAMES)
    for game in ("slide", "doublets", "the-game"):
        rules = games.get(game)
        enc, state, rng = (
            encoding(game, rules.min_players),
            rules.deal(5, rules.min_players),
            random.Random(5),
        )
        shape = None
        while not state.over:
            seat = state.to_act()[0]
            legal = state.legal(seat)
            assert all(enc.action(enc.index(a)) == a for a in legal), game
            observed = enc.observe(state.view(seat))
            shape = shape or observed.shape
            assert observed.shape == shape, game
            state.act(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", GAMES)
def test_index_and_notation_round_trip(game):
    rules = games.get(game)
    enc = encoding(game, rules.max_players)
    assert len(set(enc.actions)) == len(enc.actions)
    for i, action in enumerate(enc.actions):
        assert enc.index(action) == i and enc.action(i) == action
    with pytest.raises(ValueError):
        enc.index("no such action")
    with pytest.raises(ValueError):
        enc.action(len(enc.actions))
    # the space is the same for every player count: one policy serves every table
    for n in range(rules.min_players, rules.max_players + 1):
        other = encoding(game, n)
        assert other.actions == enc.actions and other.size == enc.size


@pytest.mark.parametrize("game", GAMES)
def test_layout_is_contiguous_and_bounded(game):
    enc = encoding(game, games.get(game).max_players)
    start = 0
    for field in enc.layout.fields:
        assert field.start == start and field.size > 0 and field.high > 0
        start += field.size
    assert start == enc.size == len(enc.layout.high())


def random_states(game: str, players: int, count: int, seed: int):
    """States met along games of random and greedy moves (talk and out-of-turn ones too),
    each game's last state included."""
    rng = random.Random(seed)
    for k in range(count):
        state = None
        for state, _seat, _action in random_game(game, players, seed + k, rng):
            yield state
        assert state is not None and state.over  # the generator played the last action
        yield state


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_legal_action_maps_into_the_space(game, players):
    enc = encoding(game, players)
    for state in random_states(game, players, 2, seed=50001):
        for seat in range(players):
            legal = state.legal(seat)  # out-of-turn actions too (talk, a change of mind)
            mask = enc.mask(legal)
            assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
            assert [enc.action(i) for i in np.flatnonzero(mask)] == sorted(legal, key=enc.index)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_observation_reads_the_view_only(game, players):
    """Redraw everything a seat may not know: its observation and mask stay the same."""
    enc = encoding(game, players)
    rng = random.Random(7)
    high = enc.layout.high()
    for i, state in enumerate(random_states(game, players, 2, seed=50101)):
        if i % 5:
            continue
        for seat in range(players):
            obs = enc.observe(state.view(seat))
            assert obs.dtype == np.float32 and obs.shape == (enc.size,)
            assert (obs >= 0).all() and (obs <= high).all()
            other = state.redraw_hidden(seat, rng)
            assert np.array_equal(enc.observe(other.view(seat)), obs)
            assert np.array_equal(enc.mask(other.legal(seat)), enc.mask(state.legal(seat)))


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_observation_changes_with_what_the_seat_sees(game, players):
    """Not a constant: along a game, a seat's observation changes."""
    enc = encoding(game, players)
    seen = {enc.observe(s.view(0)).tobytes() for s in random_states(game, players, 1, 50201)}
    assert len(seen) > 5


def test_place_rewards():
    assert place_rewards([1, 2]) == [1.0, -1.0]
    assert place_rewards([1, 1]) == [0.0, 0.0]
    assert place_rewards([2, 1, 3]) == [0.0, 1.0, -1.0]
    assert place_rewards([1, 1, 3]) == [0.5, 0.5, -1.0]
    assert place_rewards([1, 2, 2, 2]) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert place_rewards([1]) == [0.0]


def test_a_game_without_an_encoding_says_so():
    class Plain(type(games.get("slide"))):  # a game that offers no encoding
        encoding = None

    with pytest.raises(ValueError, match="offers no encoding"):
        load_encoding(Plain(), 2, {})


@pytest.mark.parametrize("game", GAMES)
def test_docs_give_each_encoding_its_sizes(game):
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    rules = games.get(game)
    enc = encoding(game, rules.max_players)
    assert f"### {rules.title}: {enc.size} numbers" in page
    assert f"| {rules.title} | {len(enc.actions)} actions |" in page
    for field in enc.layout.fields:  # every field is documented (seat blocks as seatK)
        name = (
            field.name.replace(field.name.split(".")[0], "seatK")
            if "." in field.name
            else field.name
        )
        assert f"`{name}`" in page, name


@pytest.mark.parametrize("players", [1, 2, 5, 6])
def test_from_viewer_cut_once_copies_as_from_viewer_does(players):
    """The pieces follow the kept array's changes; each call is a fresh, writable copy."""
    kept = np.arange(40 + 6 * 7, dtype=np.float32)
    turned = FromViewer(kept, 40, 7, players)
    for change in range(3):
        kept[change * 11] += 100  # (a change after the pieces were cut)
        for viewer in [None, *range(players)]:
            out = turned(viewer)
            assert out.tobytes() == from_viewer(kept, 40, 7, viewer, players).tobytes()
            assert out.dtype == kept.dtype and out.flags.writeable
            out[:] = -1  # the copy is the caller's
    assert (kept[0], kept[11], kept[22]) == (100, 111, 122)  # (untouched by the copies)
