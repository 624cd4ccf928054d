"""The table behind the play app: what bots get, hooks, undo, saving."""

from __future__ import annotations

import json

import pytest

from cardtable import IllegalAction
from cardtable.bots import lifecycle, make_bot
from cardtable.tui.table import BotFailed, Table


class Spy:
    """A greedy bot that records what it is given and answers talk once."""

    def __init__(self, game: str, seat: int, talk: str | None = None) -> None:
        self.inner = make_bot("greedy", game)
        self.seat = seat
        self.talk = talk
        self.seen: list[tuple[object, object]] = []
        self.reacted: list[list[str]] = []
        self.result: dict | None = None
        self.closed = 0

    def choose(self, view: dict, legal: list[str]) -> str:
        self.seen.append((view, legal))
        return self.inner.choose(view, legal)

    def react(self, view: dict, legal: list[str]) -> str | None:
        self.seen.append((view, legal))
        self.reacted.append(legal)
        said, self.talk = self.talk, None
        return said

    def finish(self, result: dict) -> None:
        self.result = result

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> dict[int, Spy]:
    made: dict[int, Spy] = {}

    def fake_make_bot(spec: str, game: str, seed: int = 0, **kwargs) -> Spy:
        seat = 1 + len(made)  # the tests seat the person at 0 and bots after, in order
        made[seat] = Spy(game, seat, talk="signal down2 small" if spec == "talker" else None)
        return made[seat]

    monkeypatch.setattr(lifecycle, "make_bot", fake_make_bot)
    return made


def play_to_end(table: Table, me: int = 0) -> None:
    mine = make_bot("greedy", table.game)
    while not table.over:
        for seat in table.bots_to_act():
            table.bot_act(seat)
        if not table.over and me in table.to_act():
            table.act(me, mine.choose(table.view(me), table.legal(me)))


def test_bots_see_only_their_own_view(spies: dict[int, Spy]) -> None:
    table = Table("the-game", ["me", "greedy", "greedy"], 4)
    play_to_end(table)
    for seat, spy in spies.items():
        assert spy.seen
        for view, legal in spy.seen:
            assert isinstance(view, dict) and isinstance(legal, list)
            assert view["seat"] == seat
            assert view["hand"] is not None
    with pytest.raises(ValueError):
        table.view(1)  # a bot's view is for the bot only
    assert table.legal(1) == []


def test_react_finish_and_close(spies: dict[int, Spy]) -> None:
    table = Table("the-game", ["me", "talker"], 4)
    hand = table.view(0)["hand"]
    said = table.act(0, f"play {hand[0]} up1")
    assert said == [(1, "signal down2 small")]
    assert table.view(0)["signals"][1] == {"down2": "small"}
    assert all(a.startswith("signal ") for a in spies[1].reacted[0])  # talk only, out of turn
    play_to_end(table)
    assert spies[1].result == table.result()
    table.close()
    assert spies[1].closed == 1


def test_an_illegal_bot_answer_is_refused_not_replaced(monkeypatch) -> None:
    class Liar:
        def choose(self, view: dict, legal: list[str]) -> str:
            return "play 1 up1"

    monkeypatch.setattr(lifecycle, "make_bot", lambda *a, **k: Liar())
    table = Table("the-game", ["greedy", "me"], 4)
    with pytest.raises(BotFailed, match="chose 'play 1 up1'"):
        table.bot_act(0)
    assert table.moves == 0


@pytest.mark.parametrize("game", ["doublets", "the-game"])
def test_undo_alone_for_any_solitaire(game: str) -> None:
    """The game says (``offers_undo``): any game played alone, The Game too, as on the
    server."""
    solo = Table(game, ["me"], 12)
    assert solo.rules.offers_undo(1)
    assert not solo.can_undo  # nothing played yet
    mine = make_bot("greedy", game)
    solo.act(0, mine.choose(solo.view(0), solo.legal(0)))
    before = solo.view(0)
    last = mine.choose(before, solo.legal(0))
    solo.act(0, last)
    assert solo.can_undo and solo.undo() == last
    assert solo.view(0) == before


def test_no_undo_with_other_seats() -> None:
    duo = Table("the-game", ["me", "greedy"], 7)
    assert not duo.rules.offers_undo(2)
    hand = duo.view(0)["hand"]
    duo.act(0, f"play {hand[0]} up1")
    assert not duo.can_undo
    with pytest.raises(IllegalAction):
        duo.undo()


def test_save_once(tmp_path) -> None:
    table = Table("doublets", ["me"], 12)
    table.act(0, "flip")
    first = table.save(tmp_path)
    assert table.save(tmp_path) == first
    assert json.loads(first.read_text())["actions"] == [[0, "flip"]]
    assert first.parent == tmp_path
