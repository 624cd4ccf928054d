"""Server CPU per action at a table of four, without sockets: the hub's whole path.

    python bench/action_cost.py [--games 30] [--game the-game] [--players 4] [--spectators 1]
                                [--profile] [--setup-only] [--no-labels] [--table-changed]

Recorded greedy games are played again through a real ``Hub`` on an SQLite file, all tables
at once (so the group commit batches them, as on a busy server): each action goes in as a
client's raw websocket message (``app.handle_message``: parse, rate, check, store with group
commit, apply), every connection of the table (one per seat and ``--spectators`` more) gets
its state message, and each message is encoded to JSON text as the socket writer does
(``app.encode``: a message shared by a kind of viewer, once); each table has people of its
own, and the garbage collector is tuned as ``serve`` tunes it. What it leaves out is the
websocket frame and the kernel: the load bench (bench/load.py) measures those too. Printed:
CPU microseconds per action (this process's CPU time over the actions, the database's worker
thread included), and the bytes of state messages sent per action.

Instructions do not depend on the machine's load: under ``valgrind --tool=callgrind`` a run
less the same run with ``--setup-only`` (the games recorded and every table made and
connected, no action played) is the replay's count (docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import tempfile
import time

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one


def recorded(game: str, players: int, count: int) -> list[tuple[int, list[tuple[int, str]]]]:
    out = []
    for seed in range(1, count + 1):
        state = games.get(game).deal(seed, players)
        play_one(state, [make_bot("greedy", game, seed * 16 + s) for s in range(players)])
        out.append((seed, [(seat, action) for seat, action in state.actions]))
    return out


async def replay_all(
    folder: str,
    game: str,
    players: int,
    plays: list[tuple[int, list[tuple[int, str]]]],
    spectators: int = 1,
    labels: bool = True,
    table_changed: bool = False,
) -> tuple[int, int, float]:
    """Every recorded game at its own table, all at once (as a busy server has them: the
    group commit stores many tables' actions in one transaction)."""
    from cardtable.server.storage.store import Store
    from cardtable.server.tables.conn import MESSAGE_BURST, Conn
    from cardtable.server.tables.hub import Hub
    from cardtable.server.web.app import tune_gc
    from cardtable.server.web.socket import encode, handle_message

    store = Store(f"sqlite:///{folder}/cost.sqlite")
    hub = Hub(store, bot_delay=0)
    counts = {"actions": 0, "sent": 0}
    tables = []
    for seed, moves in plays:
        # people of their own at each table (a person may hold only so many open tables)
        people = [store.new_player(f"t{seed}p{s}")[0] for s in range(players)]
        table = hub.create(people[0], game, ["me"] + ["open"] * (players - 1), {}, seed)
        for s in range(1, players):
            await hub.join(table, people[s], s)
        conns = [
            Conn(seat=s, player_id=people[s].id, labels=labels, table_changes_only=table_changed)
            for s in range(players)
        ]
        conns.extend(
            Conn(seat=None, player_id=None, labels=labels, table_changes_only=table_changed)
            for _ in range(spectators)
        )
        for conn in conns:
            await hub.connect(table, conn)
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
        tables.append((table, conns, moves))

    async def play(table, conns, moves) -> None:
        for n, (seat, action) in enumerate(moves):
            conn = conns[seat]
            conn.bucket.tokens = MESSAGE_BURST  # faster than a person: not rate limited
            raw = json.dumps(
                {"type": "act", "action": action, "version": table.version, "id": f"c{n}"}
            )
            answer = await handle_message(hub, table, conn, raw)
            assert answer is not None and answer["type"] == "ack", answer
            conn.push(answer)
            for c in conns:  # what each socket writer sends, and tells it sent
                while not c.outbox.empty():
                    message = c.outbox.get_nowait()
                    counts["sent"] += len(encode(message))
                    c.written(message)
            counts["actions"] += 1

    # the collector tuned as the server tunes it (``serve``): with Python's thresholds its
    # passes over hundreds of live tables were a fifth of the replay at 400 tables
    tune_gc()
    start = time.process_time()
    await asyncio.gather(*(play(*t) for t in tables))
    cpu = time.process_time() - start
    await hub.close()
    store.close()
    return counts["actions"], counts["sent"], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--game", default="the-game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=1, help="watching each table")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    parser.add_argument(
        "--setup-only", action="store_true", help="record and seat every game, play no action"
    )
    parser.add_argument(
        "--no-labels",
        action="store_true",
        help="every connection asks for no move labels (labels=0), as the page of The Game",
    )
    parser.add_argument(
        "--table-changed",
        action="store_true",
        help="every connection asks for the table info only when it changed (table=changed)",
    )
    args = parser.parse_args()
    plays = recorded(args.game, args.players, args.games)
    if args.setup_only:
        plays = [(seed, []) for seed, _moves in plays]
    with tempfile.TemporaryDirectory() as folder:
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
        actions, sent, cpu = asyncio.run(
            replay_all(
                folder,
                args.game,
                args.players,
                plays,
                args.spectators,
                not args.no_labels,
                args.table_changed,
            )
        )
        if args.profile:
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(35)
    print(
        f"{args.game}, {args.players} seats + {args.spectators} watching, {args.games} games, "
        f"{actions} actions"
    )
    print(f"{'us/action':>10} {'bytes/action':>13}")
    print(f"{1e6 * cpu / max(actions, 1):>10.0f} {sent / max(actions, 1):>13.0f}")


if __name__ == "__main__":
    main()
