"""What the bot loop hands a bot is built by its first read (``bots.lazy``, #29).

- a ``LazyView`` and a ``LazyLegal`` answer every operation a bot makes of a view or a legal
  list exactly as the real ones (equality, JSON of their copies, lengths, iteration, indexing,
  ``in``, ``random.choice`` and the rest), whichever operation reads them first;
- a random bot's plain game builds no view, a greedy bot's no legal list (The Game, Slide);
- a bot that keeps what it was handed without reading it reads later the version it was
  handed for;
- a bot that reads its view (legal list) is handed the real one for a while;
- plain games play the same moves as with real views and legal lists handed over.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable, Mapping, MutableSequence
from typing import Any

import pytest

from cardtable import bots, games
from cardtable.bots import lifecycle
from cardtable.bots.lazy import EAGER, LazyLegal, LazyView
from cardtable.sim import play_one
from helpers import GAME_SEATS, random_game

#: each a first read of a view, and what it answers (compared with the real view's answer)
VIEW_READS: dict[str, Callable[[Any], Any]] = {
    "json of dict()": lambda v: json.dumps(dict(v)),
    "json of {**}": lambda v: json.dumps({**v}),
    "len": len,
    "bool": bool,
    "list": list,
    "reversed": lambda v: list(reversed(v)),
    "keys": lambda v: list(v.keys()),
    "values": lambda v: json.dumps(list(v.values())),
    "items": lambda v: json.dumps(list(v.items())),
    "[seat]": lambda v: v["seat"],
    "get": lambda v: (v.get("players"), v.get("no such key"), v.get("no such key", 7)),
    "in": lambda v: ("seat" in v, "no such key" in v),
    "copy": lambda v: (type(v.copy()), v.copy()),
    "copy.copy": lambda v: (type(copy.copy(v)), copy.copy(v)),
    "deepcopy": lambda v: (type(copy.deepcopy(v)), copy.deepcopy(v)),
    "pickle": lambda v: pickle.loads(pickle.dumps(v)),
    "repr": repr,
    "|": lambda v: v | {"extra": 1},
    "r|": lambda v: {"extra": 1} | v,
}

#: each a first read of a legal list; ``rng`` is a fresh seeded ``random.Random``
LEGAL_READS: dict[str, Callable[[Any, random.Random], Any]] = {
    "json of list()": lambda g, _: json.dumps(list(g)),
    "len": lambda g, _: len(g),
    "bool": lambda g, _: bool(g),
    "iter": lambda g, _: [a for a in g],
    "reversed": lambda g, _: list(reversed(g)),
    "[0]": lambda g, _: g[0] if len(g) else None,
    "[-1]": lambda g, _: g[-1] if len(g) else None,
    "every index": lambda g, _: [g[i] for i in range(len(g))],
    "slice": lambda g, _: (g[:3], g[1:], g[::-1]),
    "in": lambda g, _: ("flip" in g, "end" in g, "no such action" in g),
    "index": lambda g, _: g.index(g[-1]) if len(g) else None,
    "count": lambda g, _: g.count(g[0]) if len(g) else 0,
    "random.choice": lambda g, rng: rng.choice(g) if len(g) else None,
    "random.sample": lambda g, rng: rng.sample(g, min(2, len(g))),
    "sorted": lambda g, _: sorted(g),
    "set": lambda g, _: sorted(set(g)),
    "+": lambda g, _: g + ["x"],
    "r+": lambda g, _: ["x"] + g,
    "copy": lambda g, _: (type(g.copy()), g.copy()),
    "copy.copy": lambda g, _: (type(copy.copy(g)), copy.copy(g)),
    "deepcopy": lambda g, _: (type(copy.deepcopy(g)), copy.deepcopy(g)),
    "pickle": lambda g, _: pickle.loads(pickle.dumps(g)),
    "repr": lambda g, _: repr(g),
    # the list is the bot's own: it may change it
    "shuffle": lambda g, rng: (rng.shuffle(g), list(g)),
    "sort reverse": lambda g, _: (g.sort(reverse=True), list(g)),
    "append pop": lambda g, _: (g.append("x"), g.pop(0) if len(g) > 1 else None, list(g)),
    "del": lambda g, _: (g.__delitem__(slice(0, 1)), list(g)),
}


def states(name: str, players: int, seeds: int = 2):
    """States along mixed random and greedy games (talk and changes of mind among them),
    with the seat about to act, and at the end."""
    for seed in range(seeds):
        state = None
        for state, seat, _action in random_game(name, players, seed, random.Random(seed)):
            yield state, seat
        assert state is not None
        yield state, 0


@pytest.mark.parametrize(("name", "players"), GAME_SEATS)
def test_a_lazy_view_reads_as_the_view(name, players):
    for n, (state, seat) in enumerate(states(name, players)):
        for viewer in (seat, None) if n % 3 == 0 else (seat,):
            real = state.view(viewer)
            assert LazyView(state.view, viewer) == real
            assert real == LazyView(state.view, viewer)
            assert not LazyView(state.view, viewer) != real  # noqa: SIM202 - __ne__ itself
            assert isinstance(LazyView(state.view, viewer), Mapping)
            for what, read in VIEW_READS.items():
                assert read(LazyView(state.view, viewer)) == read(real), what


@pytest.mark.parametrize(("name", "players"), GAME_SEATS)
def test_a_lazy_legal_list_reads_as_the_legal_list(name, players):
    for state, seat in states(name, players):
        real = state.legal(seat)
        assert LazyLegal(state.legal, seat) == real
        assert real == LazyLegal(state.legal, seat)
        assert isinstance(LazyLegal(state.legal, seat), MutableSequence)
        for what, read in LEGAL_READS.items():
            lazy = read(LazyLegal(state.legal, seat), random.Random(7))
            assert lazy == read(state.legal(seat), random.Random(7)), what


def test_the_json_encoders_refuse_them_rather_than_write_them_empty():
    state = games.get("slide").deal(1, 2)
    with pytest.raises(TypeError):
        json.dumps(LazyView(state.view, 0))
    with pytest.raises(TypeError):
        json.dumps(LazyLegal(state.legal, 0))
    orjson = pytest.importorskip("orjson")
    with pytest.raises(TypeError):
        orjson.dumps(LazyView(state.view, 0))


def test_a_view_is_read_only():
    view = LazyView(games.get("slide").deal(1, 2).view, 0)
    with pytest.raises(TypeError):
        view["seat"] = 1  # type: ignore[index]
    assert not hasattr(view, "update")


# -- what a plain game builds -----------------------------------------------------------------
def count_calls(monkeypatch, name: str, method: str) -> list[int]:
    """Count the calls of ``method`` (``view`` or ``legal``) of ``name``'s states."""
    calls = [0]
    cls = type(games.get(name).deal(0))
    real = getattr(cls, method)

    def counted(self, seat, real=real):
        calls[0] += 1
        return real(self, seat)

    monkeypatch.setattr(cls, method, counted)
    return calls


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in GAME_SEATS if p <= 4])
def test_a_random_bots_plain_game_builds_no_view(monkeypatch, name, players):
    views = count_calls(monkeypatch, name, "view")
    legals = count_calls(monkeypatch, name, "legal")
    for seed in range(3):
        state = games.get(name).deal(seed, players)
        play_one(state, [bots.make_bot("random", name, seed * 16 + s) for s in range(players)])
        assert state.over
    assert views[0] == 0
    assert legals[0] > 0


@pytest.mark.parametrize(("name", "players"), [("slide", 4), ("the-game", 3)])
def test_a_greedy_bots_plain_game_builds_no_legal_list(monkeypatch, name, players):
    views = count_calls(monkeypatch, name, "view")
    legals = count_calls(monkeypatch, name, "legal")
    state = games.get(name).deal(5, players)
    play_one(state, [bots.make_bot("greedy", name, s) for s in range(players)])
    assert state.over and views[0] > 0
    assert legals[0] == 0


# -- kept, read later -------------------------------------------------------------------------
class Keeper:
    """Plays as the ``inner`` bot (random: reading no view; greedy: no legal list) and keeps
    what it was handed, whole or only a bound method of each, to read after the game."""

    def __init__(self, name: str, inner: str, seed: int, keep: str) -> None:
        self.inner = bots.make_bot(inner, name, seed)
        self.keep, self.kept = keep, []

    def choose(self, view: Any, legal: Any) -> str:
        self.kept.append((view, legal) if self.keep == "whole" else (view.keys, legal.__len__))
        return self.inner.choose(view, legal)


@pytest.mark.parametrize("keep", ["whole", "a method"])
@pytest.mark.parametrize("inner", ["random", "greedy"])
@pytest.mark.parametrize(("name", "players"), [("slide", 3), ("the-game", 3), ("doublets", 1)])
def test_what_a_bot_keeps_unread_reads_later_as_it_was(name, players, inner, keep):
    state = games.get(name).deal(3, players)
    keepers = [Keeper(name, inner, s, keep) for s in range(players)]
    play_one(state, keepers)
    replay = games.get(name).deal(3, players)
    kept = {s: iter(k.kept) for s, k in enumerate(keepers)}
    for seat, action in state.actions:
        view, legal = next(kept[seat])
        if keep == "whole":
            assert json.dumps(dict(view)) == json.dumps(replay.view(seat))
            assert list(legal) == replay.legal(seat)
        else:
            assert list(view()) == list(replay.view(seat))
            assert legal() == len(replay.legal(seat))
        replay.act(seat, action)


# -- the same games ---------------------------------------------------------------------------
def play_handing_real(state, seat_bots: list) -> None:
    """The bot loop as it was: real views and legal lists handed over."""
    while not state.over:
        for k, seat in enumerate(state.to_act()):
            if k and (state.over or seat not in state.to_act()):
                continue
            state.act(seat, seat_bots[seat].choose(state.view(seat), state.legal(seat)))


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in GAME_SEATS if p <= 4])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_plain_games_play_the_same_moves_as_with_real_views(name, players, spec):
    for seed in range(4):
        lazy, real = (games.get(name).deal(seed, players) for _ in range(2))
        play_one(lazy, [bots.make_bot(spec, name, seed * 16 + s) for s in range(players)])
        play_handing_real(real, [bots.make_bot(spec, name, seed * 16 + s) for s in range(players)])
        assert lazy.actions == real.actions


def test_the_bot_loop_hands_the_real_one_to_a_bot_that_reads_it():
    """Lazily until the bot reads it; then the real one ``EAGER`` times, then lazily again."""
    handed: list[tuple[type, type]] = []

    class FirstLegal:
        def choose(self, view: Any, legal: Any) -> str:
            handed.append((type(view), type(legal)))
            return legal[0]

    state = games.get("doublets").deal(1)
    lifecycle.play_out(state, lifecycle.BotSeats({0: FirstLegal()}))
    assert len(handed) > 2 * (EAGER + 1)
    assert {view for view, _ in handed} == {LazyView}  # never read
    every = [LazyLegal] + [list] * EAGER
    assert [legal for _, legal in handed[: 2 * len(every)]] == every * 2
