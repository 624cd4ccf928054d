"""Bots in worker processes: state carried from call to call, time limits that kill the worker,
crashes, and a hung bot that stalls neither its table for long nor any other table."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardtable.bots import make_bot
from cardtable.server.storage import store as db
from cardtable.server.tables.botpool import BotFailed, BotPool, RemoteBot, WorkerGone
from cardtable.server.tables.hub import Hub

# test bots, written to a module the worker processes can import (they get the test's sys.path)
BOTS = textwrap.dedent('''
    import os
    import time

    from cardtable.bots import make_bot


    class Counter:
        """Remembers how often it was asked: state that must pass from call to call."""

        def __init__(self):
            self.asked = 0

        def choose(self, view, legal):
            self.asked += 1
            return f"{self.asked} {os.getpid()}"


    class Sleeper:
        def __init__(self, seconds):
            self.seconds = seconds

        def choose(self, view, legal):
            time.sleep(self.seconds)
            return legal[0]


    class Crash:
        def choose(self, view, legal):
            os._exit(3)


    class Raise:
        def choose(self, view, legal):
            raise ValueError("no idea")


    class HangInWorker:
        """Plays greedy, but never answers from its given move on (in choose or react)."""

        def __init__(self, game, where, after=0):
            self.inner = make_bot("greedy", game)
            self.where = where
            self.after = after

        def choose(self, view, legal):
            if self.where == "choose" and self.after <= 0:
                while True:
                    time.sleep(1)
            self.after -= 1
            return self.inner.choose(view, legal)

        def react(self, view, legal):
            if self.where == "react":
                while True:
                    time.sleep(1)
            return None
''')


@pytest.fixture
def testbots(tmp_path: Path):
    (tmp_path / "pool_testbots.py").write_text(BOTS)
    sys.path.insert(0, str(tmp_path))
    import pool_testbots

    yield pool_testbots
    sys.path.remove(str(tmp_path))
    sys.modules.pop("pool_testbots", None)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


async def test_state_passes_from_call_to_call_in_another_process(testbots):
    pool = BotPool(2)
    try:
        bot = RemoteBot(testbots.Counter(), "counter")
        answers = [await pool.call(bot, "choose", {}, ["x"], 30) for _ in range(3)]
        assert [a.split()[0] for a in answers] == ["1", "2", "3"]
        assert {int(a.split()[1]) for a in answers}.isdisjoint({os.getpid()})
        assert bot.can("choose") and not bot.can("react")
    finally:
        await pool.close()


async def test_a_call_over_its_time_limit_kills_its_worker_and_others_go_on(testbots):
    pool = BotPool(2)
    try:
        await pool.call(RemoteBot(testbots.Counter()), "choose", {}, [], 30)  # warm one worker
        hung = RemoteBot(testbots.Sleeper(3600))
        quick = RemoteBot(testbots.Counter())
        start = time.monotonic()
        slow_call = asyncio.create_task(pool.call(hung, "choose", {}, ["a"], 1.0))
        await asyncio.sleep(0.1)
        # the other worker serves other bots while one hangs
        for _ in range(5):
            await pool.call(quick, "choose", {}, [], 30)
        with pytest.raises(TimeoutError):
            await slow_call
        assert time.monotonic() - start < 20
        assert pool.killed == 1
        # the pool is whole again: a new worker replaces the killed one
        answers = await asyncio.gather(
            *(pool.call(RemoteBot(testbots.Counter()), "choose", {}, [], 30) for _ in range(4))
        )
        assert len(answers) == 4 and pool.stats()["busy"] == 0
        pids = [w.proc.pid for w in pool.idle]
    finally:
        await pool.close()
    for _ in range(50):
        if not any(alive(p) for p in pids):
            break
        await asyncio.sleep(0.1)
    assert not any(alive(p) for p in pids)  # closing the pool leaves no worker behind


async def test_waiting_calls_are_served_people_first_then_each_share_in_turn(testbots):
    pool = BotPool(1)
    try:
        await pool.call(RemoteBot(testbots.Counter()), "choose", {}, [], 30)  # warm the worker
        order: list[str] = []

        async def call(name: str, share: str, person: bool) -> None:
            await pool.call(
                RemoteBot(testbots.Counter()), "choose", {}, [], 30, share=share, person=person
            )
            order.append(name)

        busy = asyncio.create_task(
            pool.call(RemoteBot(testbots.Sleeper(0.5)), "choose", {}, ["x"], 30)
        )
        await asyncio.sleep(0.1)
        # they queue in this order behind the busy worker: three calls of one player's tables
        # of bots, then one of another player's, then one a person waits for
        calls = [asyncio.create_task(call(f"a{i}", "A", False)) for i in range(3)]
        calls += [
            asyncio.create_task(call("b0", "B", False)),
            asyncio.create_task(call("person", "C", True)),
        ]
        await asyncio.sleep(0.05)
        assert pool.stats()["waiting"] == 5
        await asyncio.gather(busy, *calls)
        assert order == ["person", "a0", "b0", "a1", "a2"]
    finally:
        await pool.close()


async def test_a_bot_that_crashes_or_raises(testbots):
    pool = BotPool(1)
    try:
        with pytest.raises(WorkerGone):
            await pool.call(RemoteBot(testbots.Crash()), "choose", {}, [], 30)
        with pytest.raises(BotFailed, match="ValueError: no idea"):
            await pool.call(RemoteBot(testbots.Raise()), "choose", {}, [], 30)
        assert (await pool.call(RemoteBot(testbots.Counter()), "choose", {}, [], 30))[0] == "1"
        assert pool.started == 2  # one replaced the crashed worker
    finally:
        await pool.close()


async def test_built_in_bots_that_think_play_in_workers(tmp_path: Path):
    store = db.Store(f"sqlite:///{tmp_path / 'hub.sqlite'}")
    hub = Hub(store, bot_delay=0.0, bot_timeout=30, bot_workers=1)
    hub.loop = asyncio.get_running_loop()
    try:
        player, _ = store.new_player("Ann")
        table = hub.create(player, "the-game", ["team", "expert", "greedy"], {}, seed=3)
        assert isinstance(table.bots[0], RemoteBot) and isinstance(table.bots[1], RemoteBot)
        assert not isinstance(table.bots[2], RemoteBot)  # greedy answers inline
        for _ in range(1200):
            if table.status == "over":
                break
            await asyncio.sleep(0.05)
        assert table.status == "over", table.notices
        assert not any("plays on" in n for n in table.notices), table.notices
        assert hub.pool.started == 1 and hub.pool.killed == 0
        assert hub.pool.stats()["busy"] == 0
    finally:
        await hub.close()
        store.close()


@pytest.mark.parametrize("game,where", [("slide", "choose"), ("the-game", "react")])
async def test_a_hung_bot_in_a_worker_passes_its_seat_on_and_other_tables_go_on(
    tmp_path: Path, testbots, game: str, where: str
):
    store = db.Store(f"sqlite:///{tmp_path / 'hub.sqlite'}")
    hub = Hub(store, bot_delay=0.02, bot_timeout=1.0, bot_workers=2)
    hub.loop = asyncio.get_running_loop()
    try:
        player, _ = store.new_player("Ann")
        hung = hub.create(player, game, ["greedy", "greedy"], {}, seed=5)
        hung.bots[1] = RemoteBot(testbots.HangInWorker(game, where, after=2))
        hung.seats[1]["bot"] = hung.seats[1]["name"] = "hang"
        other = hub.create(player, "slide", ["search:easy", "greedy"], {}, seed=6)
        moves_while_hung: list[int] = []
        for _ in range(900):
            if hung.status == "over" and other.status == "over":
                break
            if hung.seats[1]["bot"] != "greedy":
                moves_while_hung.append(len(other.state.actions))
            await asyncio.sleep(0.05)
        assert hung.status == "over" and other.status == "over"
        assert hung.seats[1]["bot"] == "greedy" and hung.bots == {}
        assert any("seat 2 took over 1 s" in n for n in hung.notices), hung.notices  # from 1
        assert store.seats(hung.id)[1].bot == "greedy"
        assert not any("plays on" in n for n in other.notices), other.notices
        assert hub.pool.killed >= 1
        # the other table played on while the bot hung (it had a worker of its own)
        assert moves_while_hung and moves_while_hung[-1] > moves_while_hung[0], moves_while_hung
    finally:
        await hub.close()
        store.close()


def test_every_built_in_bot_pickles():
    from cardtable import bots, games

    for game in games.names():
        for name in bots.names(game):
            bot = make_bot(name, game, 7)
            remote = RemoteBot(bot, name)
            assert len(remote.blob) < 64_000 and remote.can("choose")
