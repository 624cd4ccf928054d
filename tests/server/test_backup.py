"""Backups (issue #30): ``cardtable backup`` copies a running server's SQLite database, and a
server started on ``cardtable restore``'s copy replays every finished game and resumes every
unfinished one; a restore refuses what is not a cardtable database and a data folder that
holds one (unless ``--force``), and migrates an older database forward; PostgreSQL is
refused with the commands of its own tools."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from cardtable.server.storage import backup as backups
from server.conftest import Client, Server
from server.test_practice import finished_doublets, play
from server.test_seats import play_greedy

#: the servers run in processes of their own (one is stopped, another started)
pytestmark = pytest.mark.own_process


def cardtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardtable", *args], capture_output=True, text=True, timeout=60
    )


def moved(client: Client, server: Server) -> Client:
    """The same person (their token) at another server."""
    client.http.close()
    client.server = server
    client.http = httpx.Client(
        base_url=server.base, timeout=10, cookies={"cardtable_token": client.token}
    )
    return client


async def act_once(sock) -> dict:
    """Wait until the socket's seat may act, and act: the server's answer."""
    state = await sock.until(lambda s: bool(s["legal"]) and s["seat"] in s["to_act"])
    return await sock.act(state["legal"][0])


async def test_a_backup_of_a_running_server_replays_and_resumes_every_game(tmp_path: Path):
    first = Server(f"sqlite:///{tmp_path / 'a' / 'cardtable.sqlite'}", tmp_path / "a")
    (tmp_path / "a").mkdir()
    first.start()
    try:
        ann, bob = Client(first, "Ann"), Client(first, "Bob")
        # finished: a solitaire played to its win, and a game with a bot played to its end
        solved, _line = await finished_doublets(ann)
        with_bot = ann.new_table("slide", ["me", "greedy"])
        sock = await ann.connect(with_bot["id"])
        await sock.until(lambda s: True)
        await play_greedy(sock)
        await sock.close()
        # unfinished: a solitaire mid-game, and a table of two people mid-game
        alone = ann.new_table("doublets", ["me"])
        sock = await ann.connect(alone["id"])
        await sock.until(lambda s: True)
        await play(sock, [(await sock.until(lambda s: bool(s["legal"])))["legal"][0]])
        await sock.close()
        shared = ann.new_table("slide", ["me", "open"])
        bob.post(f"/api/tables/{shared['id']}/join", {"seat": None})
        sa, sb = await ann.connect(shared["id"]), await bob.connect(shared["id"])
        for s in (sa, sb):
            assert (await act_once(s))["type"] == "ack"
        finished = {
            t: ann.http.get(f"/api/tables/{t}/record").json() for t in (solved, with_bot["id"])
        }
        # the backup is taken while the server runs, its players still connected
        made = cardtable("backup", str(tmp_path / "copy.sqlite"), "--db", first.db_url)
        assert made.returncode == 0, made.stderr
        await sa.close()
        await sb.close()
    finally:
        first.kill()
    back = cardtable("restore", str(tmp_path / "copy.sqlite"), "--data", str(tmp_path / "b"))
    assert back.returncode == 0, back.stderr
    second = Server(f"sqlite:///{tmp_path / 'b' / 'cardtable.sqlite'}", tmp_path / "b")
    second.start()
    try:
        ann, bob = moved(ann, second), moved(bob, second)
        for table_id, record in finished.items():
            steps = len(record["actions"])
            replay = ann.http.get(f"/api/tables/{table_id}/replay?step={steps}")
            assert replay.status_code == 200, replay.text
            assert replay.json()["steps"] == steps and replay.json()["ending"] is not None
            assert ann.http.get(f"/api/tables/{table_id}/record").json() == record
        mine = ann.http.get("/api/my-games").json()
        assert {g["id"] for g in mine["unfinished"]} == {alone["id"], shared["id"]}
        sock = await ann.connect(alone["id"])  # the solitaire resumes: its player acts
        assert (await act_once(sock))["type"] == "ack"
        assert sock.state["version"] >= 1
        await sock.close()
        sa, sb = await ann.connect(shared["id"]), await bob.connect(shared["id"])
        assert sa.state is None and (await sa.until(lambda s: True))["seat"] == 0
        await sb.until(lambda s: True)
        to_act = sa.state["to_act"][0]  # the shared game plays on: whoever is to act acts
        assert (await act_once((sa, sb)[to_act]))["type"] == "ack"
        await sa.close()
        await sb.close()
    finally:
        second.kill()


def test_restore_refuses_an_occupied_folder_and_other_files_and_migrates_forward(
    tmp_path: Path,
):
    from alembic import command
    from alembic.config import Config

    old = tmp_path / "old.sqlite"  # a database an older cardtable left: one migration behind
    config = Config()
    config.set_main_option("script_location", str(Path(backups.__file__).parent / "migrations"))
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{old}")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, backups.known_revisions()[-2])
    engine.dispose()
    newest = backups.known_revisions()[-1]
    data = tmp_path / "data"
    done = cardtable("restore", str(old), "--data", str(data))
    assert done.returncode == 0, done.stderr
    assert backups.revision(data / "cardtable.sqlite") == newest
    assert "migrated" in done.stdout
    # the folder holds a database now: refused without --force (once a player is in it)
    with sqlite3.connect(data / "cardtable.sqlite") as conn:
        conn.execute(
            "INSERT INTO players (id, name, token_hash, created_at) "
            "VALUES ('p1', 'Ann', 'h', '2025-01-01')"
        )
    again = cardtable("restore", str(old), "--data", str(data))
    assert again.returncode == 1 and "--force" in again.stderr
    forced = cardtable("restore", str(old), "--data", str(data), "--force")
    assert forced.returncode == 0, forced.stderr
    with sqlite3.connect(data / "cardtable.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM players").fetchone() == (0,)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    wrong = cardtable("restore", str(other), "--data", str(tmp_path / "fresh"))
    assert wrong.returncode == 1 and "not a cardtable database" in wrong.stderr
    text = tmp_path / "notes.txt"
    text.write_text("hello" * 200)
    wrong = cardtable("restore", str(text), "--data", str(tmp_path / "fresh"))
    assert wrong.returncode == 1 and "not an SQLite database" in wrong.stderr


def test_postgresql_is_refused_with_its_own_tools_named():
    for command in ("backup", "restore"):
        done = cardtable(command, "x.dump", "--db", "postgresql://cardtable@db/cardtable")
        assert done.returncode == 1
        assert "pg_dump" in done.stderr and "pg_restore" in done.stderr
