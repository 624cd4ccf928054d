"""An operator's program at a server table (``--external-bot NAME=COMMAND``) speaks protocol 2
as in a simulation: hello with the table's seat, players and options, then an event for
every action at the table, in order, with its own seat's view, and the act on its turn."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest

from server.conftest import Client, InProcessServer

pytestmark = pytest.mark.asyncio
FIXTURES = Path(__file__).resolve().parents[1] / "bots" / "fixtures"


async def test_a_servers_program_hears_hello_and_every_action(tmp_path):
    log = tmp_path / "received.jsonl"
    command = shlex.join([sys.executable, str(FIXTURES / "log_bot.py"), str(log)])
    srv = InProcessServer(
        f"sqlite:///{tmp_path / 'db.sqlite'}",
        tmp_path,
        args=["--external-bot", f"logger={command}"],
    )
    srv.start()
    try:
        ann = Client(srv, "Ann")
        table = ann.new_table("the-game", ["me", "ext:logger"])
        sock = await ann.connect(table["id"])
        while True:  # Ann plays as little as she may; the program plays its own turns
            state = await sock.until(
                lambda s: (
                    s["view"]["over"] or (s["seat"] in s["view"]["to_act"] and bool(s["legal"]))
                ),
                timeout=60,
            )
            if state["view"]["over"]:
                break
            legal = state["legal"]
            plays = [a for a in legal if a.startswith("play")]
            await sock.act("end" if "end" in legal else plays[0])
        await sock.close()
        record = ann.http.get(f"/api/tables/{table['id']}/record").json()
        actions = [(seat, action) for seat, action in record["actions"]]
        deadline = time.monotonic() + 10
        while True:
            got = [json.loads(line) for line in log.read_text().splitlines()]
            events = [m for m in got if m["type"] == "event"]
            if len(events) >= len(actions) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert got[0] == {
            "type": "hello",
            "protocol": 2,
            "game": "the-game",
            "seat": 1,
            "players": 2,
            "options": got[0]["options"],
            "time_limit": 10.0,
            "seed": got[0]["seed"],
            "bot_options": {},
        }
        # every action, in order (a play in The Game is public), each with its own view
        assert [(e["seat"], e["action"]) for e in events] == actions
        assert all(e["view"]["seat"] == 1 and "hand" in e["view"] for e in events)
        assert [m["type"] for m in got].count("act") == sum(1 for s, _ in actions if s == 1)
        ann.http.close()
    finally:
        srv.stop()
