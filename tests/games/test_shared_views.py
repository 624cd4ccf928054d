"""Views share their parts between versions (#29, docs/performance.md "The plain path"):
a part that did not change (Slide's rows, the deals' scoring, The Game's signals and cards
played, Doublets' names) is the same list in every view until it changes. So:

- the views are what they were before (their JSON byte for byte, and the legal lists), pinned
  by a digest the commit before the change computed over random games of every game and
  player count;
- a view handed out never changes as the game goes on (the state makes a new list for a part
  that changes, never changes one it has handed out);
- the library's own readers of views (every built-in bot through the bot lifecycle, the
  game's words, the logbook, the learning encodings) never change one: they are given views
  whose every list and dict refuses any change.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any, NoReturn

import pytest

from cardtable import bots, games
from cardtable.core import logbook
from cardtable.sim import play_one

#: every game and player count
CONFIGS = [
    (name, players)
    for name in games.names()
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
]


def random_walk(name: str, players: int, seed: int, moves: int = 10**6) -> Any:
    """A game of uniformly random legal actions, talk and changes of mind included, yielding
    the state before each action and at the end. (Slide plays several deals every third
    seed.)"""
    options = {"target": 100} if name == "slide" and seed % 3 == 0 else {}
    state = games.get(name).deal(seed, players, options)
    rng = random.Random(seed)
    for _ in range(moves):
        yield state
        if state.over:
            return
        seat = rng.choice(state.to_act())
        legal = state.legal(seat)
        state.act(seat, legal[int(rng.random() * len(legal))])
    yield state


def views_digest(seeds: int = 6) -> str:
    """SHA-256 of every viewer's view (each seat and a spectator) as ``json.dumps`` writes it,
    and every seat's legal list, at every step of ``random_walk`` games of every game and
    player count, seeds ``0 .. seeds-1``."""
    digest = hashlib.sha256()
    for name, players in CONFIGS:
        for seed in range(seeds):
            for state in random_walk(name, players, seed):
                for seat in [*range(players), None]:
                    digest.update(json.dumps(state.view(seat)).encode())
                    if seat is not None:
                        digest.update(json.dumps(state.legal(seat)).encode())
    return digest.hexdigest()


#: ``views_digest()`` computed by a91bdb5, the commit before views shared their parts
#: (``PYTHONPATH=<a worktree of a91bdb5>/src`` running this ``views_digest``); a deliberate
#: change of what a view holds changes it, and then it is computed again
DIGEST_BEFORE_SHARING = "28e17f600cd228234f1f641a1e6d2d660458764706c8a9da5542f3ad2af5a24c"


def test_views_and_legal_lists_are_byte_for_byte_those_before_sharing():
    assert views_digest() == DIGEST_BEFORE_SHARING


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_a_view_handed_out_never_changes(name, players):
    handed: list[tuple[Any, str]] = []
    for seed in range(2):
        for state in random_walk(name, players, seed):
            for seat in [*range(players), None]:
                view = state.view(seat)
                handed.append((view, json.dumps(view)))
                if seat is not None:
                    legal = state.legal(seat)
                    handed.append((legal, json.dumps(legal)))
    assert all(json.dumps(got) == then for got, then in handed)


# -- readers never change a view --------------------------------------------------------------
def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError("a view is read-only: copy what you change")


class FrozenList(list):
    """A list that refuses every change (and copies, pickles and deep-copies as a list)."""

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        return [copy.deepcopy(x, memo) for x in self]

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))


class FrozenDict(dict):
    """A dict that refuses every change (and copies, pickles and deep-copies as a dict)."""

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self),))


def frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return FrozenDict({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList(frozen(v) for v in value)
    return value


def test_a_frozen_view_refuses_changes_and_equals_the_view():
    view = games.get("slide").deal(1, 2).view(0)
    shown = frozen(view)
    assert shown == view and json.dumps(shown) == json.dumps(view)
    with pytest.raises(TypeError):
        shown["grids"][0][0][0] = 5
    with pytest.raises(TypeError):
        shown["centre"].append(3)
    with pytest.raises(TypeError):
        shown["seat"] = 1
    assert copy.deepcopy(shown) == view and type(copy.deepcopy(shown)["grids"]) is list


@pytest.fixture
def frozen_views(monkeypatch):
    """Every game's ``view`` hands out frozen views, for the length of a test."""
    for name in games.names():
        cls = type(games.get(name).deal(0))
        real = cls.view
        monkeypatch.setattr(cls, "view", lambda self, seat, real=real: frozen(real(self, seat)))
    assert all(type(games.get(n).deal(0).view(0)) is FrozenDict for n in games.names())


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, p in CONFIGS if p <= 3])
def test_the_bots_never_change_a_view(frozen_views, name, players):
    """Every built-in bot of the game, through the bot lifecycle (choose, react, finish),
    each seat playing another bot (up to 3 seats: Slide's search bot is slow)."""
    specs = [spec if spec != "search" else "search:easy" for spec in bots.names(name)]
    for k, spec in enumerate(specs):
        state = games.get(name).deal(k, players)
        mixed = [specs[(k + s) % len(specs)] for s in range(players)] if players > 1 else [spec]
        play_one(state, [bots.make_bot(b, name, 100 * k + s) for s, b in enumerate(mixed)])
        assert state.over


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_words_and_encodings_never_change_a_view(frozen_views, name, players):
    """The game's words (what adapters and logs say), a logbook, the learning encoding, the
    terminal's board."""
    pytest.importorskip("rich")
    from cardtable.tui.games import board_for

    game = games.get(name)
    board = board_for(game)
    encoding = game.encoding(players, {}) if game.encoding else None
    names = [f"p{s}" for s in range(players)]
    *_, played = random_walk(name, players, 1, 300)  # the one state, played on
    state = game.deal(played.seed, players, played.options)
    log = logbook.new_logbook(game, played.seed, players, played.options)
    for seat, action in played.actions:
        view, spectator = state.view(seat), state.view(None)
        legal = state.legal(seat)
        for move in legal:
            game.move_label(view, move)
        game.describe_hint(view, legal[0] if legal else None)
        if encoding is not None:
            encoding.observe(view)
            encoding.observe(spectator)
        board.render(view, names)
        board.render(spectator, names)
        state.act(seat, action)
        logbook.add(game, log, seat, action, names[seat])  # every word of the log's entries
        after = state.view(None)
        game.describe_resolved(action, seat, names[seat], after)
        if game.news_after(action, state.to_act()):
            game.describe_news(after, names)
    game.breakdown(state.view(None))
    board.result_text(state.view(0), names)
