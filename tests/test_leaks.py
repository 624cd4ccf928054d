"""A short run of bench/leak_check.py: views, websocket messages, records and bot inputs of a
few games of every game and player count carry nothing their receiver may not know."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from cardtable import games
from cardtable.games.the_game import TheGameState

BENCH = Path(__file__).resolve().parents[1] / "bench" / "leak_check.py"
spec = importlib.util.spec_from_file_location("leak_check", BENCH)
leak_check = importlib.util.module_from_spec(spec)
sys.modules["leak_check"] = leak_check  # dataclasses look their module up there
spec.loader.exec_module(leak_check)


# Slide with 4-6 players costs seconds a game; the bench covers them
QUICK = [c for c in leak_check.configs(None) if c[0] != "slide" or c[1] <= 3]


@pytest.mark.parametrize(("name", "players"), QUICK, ids=[f"{g}-{n}" for g, n in QUICK])
def test_no_leaks(name, players, tmp_path):
    tally = leak_check.run_config(name, players, 1, 1, str(tmp_path))
    assert tally.leaks == 0, tally.examples
    assert tally.games == 1 and tally.views and tally.messages and tally.bot_inputs
    assert tally.refusals >= 1
    assert tally.reused > 0  # the hub's messages are views of states the engine path checked


def test_record_and_replay_endpoints_refuse_unfinished_tables(tmp_path):
    tally = leak_check.Tally()
    leak_check.http_refusals(str(tmp_path), tally)
    assert tally.leaks == 0, tally.examples
    assert tally.refusals == 16


def test_the_check_catches_a_leaking_view(monkeypatch, tmp_path):
    """Not vacuous: a view that shows the draw pile is caught on every path."""
    real = TheGameState.view

    def leaky(self, seat):
        return {**real(self, seat), "draw": list(self.draw)}

    monkeypatch.setattr(TheGameState, "view", leaky)
    tally = leak_check.Tally()
    state = games.get("the-game").deal(3, 2)
    leak_check.check_all_views(state, random.Random(1), 2, tally, leak_check.Checked())
    assert tally.leaks == 3  # two seats and the spectator
    tally = leak_check.Tally()
    checked = leak_check.Checked()
    actions = leak_check.bots_game("the-game", 2, 3, 1, tally, checked)
    assert tally.leaks > 0 and any("bot input" in e for e in tally.examples)
    assert not any(checked.passed.values())  # a view that failed is never remembered
    run = leak_check.HubRun(str(tmp_path))
    tally = leak_check.Tally()
    try:  # with the engine path's memory of checked views, as the bench runs it
        asyncio.run(run.game("the-game", 2, 3, 1, tally, actions, checked))
    finally:
        run.close()
    assert tally.leaks > 0 and any("websocket" in e for e in tally.examples)
    assert tally.reused == 0


def test_a_reused_check_still_catches_a_websocket_only_leak(monkeypatch, tmp_path):
    """The engine's views pass; the hub sends something else: a message whose view is not
    state.view() is caught although the engine path checked that state."""
    from cardtable.server.tables.hub import Hub

    tally = leak_check.Tally()
    checked = leak_check.Checked()
    actions = leak_check.bots_game("the-game", 2, 3, 1, tally, checked)
    assert tally.leaks == 0 and checked.passed
    real = Hub.message_for

    def leaky(self, table, conn, seen=None):
        message = real(self, table, conn, seen)
        if message.get("type") == "state":
            message = {**message, "view": {**message["view"], "draw": list(table.state.draw)}}
        return message

    monkeypatch.setattr(Hub, "message_for", leaky)
    run = leak_check.HubRun(str(tmp_path))
    try:
        asyncio.run(run.game("the-game", 2, 3, 1, tally, actions, checked))
    finally:
        run.close()
    assert tally.leaks > 0 and any("websocket" in e for e in tally.examples)


def test_the_check_catches_a_shown_seed(monkeypatch, tmp_path):
    from cardtable.server.tables.live import LiveTable

    real = LiveTable.info

    def showing(self, viewer=None):
        return {**real(self, viewer), "seed": self.seed}

    monkeypatch.setattr(LiveTable, "info", showing)
    actions = leak_check.bots_game("slide", 2, 5, 1, leak_check.Tally())
    run = leak_check.HubRun(str(tmp_path))
    tally = leak_check.Tally()
    try:
        asyncio.run(run.game("slide", 2, 5, 1, tally, actions))
    finally:
        run.close()
    assert any("seed" in e for e in tally.examples)


async def test_a_failing_bot_notice_names_no_card(tmp_path):
    """Regression: a bot's refused action (e.g. 'play 34 up1', a card of its hand) went into
    the table notice every seat is sent; it now goes to the log only."""
    from cardtable.server.storage.store import Store
    from cardtable.server.tables.hub import Hub

    store = Store(f"sqlite:///{tmp_path}/t.sqlite")
    hub = Hub(store, bot_delay=0)
    try:
        ann, _ = store.new_player("Ann")
        table = hub.create(ann, "the-game", ["greedy", "me"], {}, 11)
        if table.bot_task:
            table.bot_task.cancel()
        card = table.state.hands[0][0]

        class Wrong:
            def choose(self, view, legal):
                return f"play {card} up9"

        table.bots[0] = Wrong()
        await hub.bots.move(table, 0)
        notices = " ".join(table.notices)
        assert "refuse" in notices and str(card) not in notices
    finally:
        store.close()


def test_the_check_catches_a_log_that_tells_a_secret_reveal(monkeypatch, tmp_path):
    """Not vacuous: a game log that gives every viewer the actor's own words (Slide's reveal
    with its cell, before every seat has chosen) is caught (issue #11)."""
    from cardtable.core import logbook

    monkeypatch.setattr(logbook, "text_for", lambda entry, viewer: entry.mine)
    tally = leak_check.run_config("slide", 2, 1, 1, str(tmp_path))
    assert any("secret action" in e for e in tally.examples), tally.examples


def test_presence_events_pass_with_their_countdown_and_nothing_more():
    """A presence event (a seat, a flag, a count, the seat's hand-over countdown) is no leak;
    one carrying anything else is."""
    from types import SimpleNamespace

    state = games.get("the-game").deal(3, 2)
    table = SimpleNamespace(state=state, version=1, status="running", options={}, players=2)
    conn = SimpleNamespace(seat=0)
    event = {"type": "presence", "version": 1, "seat": 1, "connected": False, "spectators": 2}
    for countdown in (None, 42.5):
        tally = leak_check.Tally()
        leak_check.MessageCheck().check_message(
            table,
            conn,
            {**event, "hand_over_in": countdown},
            random.Random(1),
            1,
            tally,
            leak_check.Checked(),
            "k",
        )
        assert tally.leaks == 0, tally.examples
    tally = leak_check.Tally()
    leak_check.MessageCheck().check_message(
        table,
        conn,
        {**event, "hand_over_in": None, "hand": [7]},
        random.Random(1),
        1,
        tally,
        leak_check.Checked(),
        "k",
    )
    assert tally.leaks == 1
