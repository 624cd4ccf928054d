"""Instructions per environment step, counted by valgrind (load-independent, unlike CPU time):
the loop of ``bench/rl_speed.py`` (random masked actions through the AEC loop) for every
table, and with ``--rlcard`` RLCard's UNO played as ``rl_speed.py`` plays it.

    python bench/rl_instructions.py [--games 100] [--skip 50] [--tables the-game:1,slide:2]
                                    [--layouts 3] [--jobs 2] [--rlcard PYTHON]

Each table is counted twice under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``,
address randomisation off): ``skip`` games, then ``skip + games`` games; the difference over
the steps of the ``games`` games left is printed, so the interpreter's start, the imports
and the first games' warm-up are left out. Where objects lie in memory still moves a count
by 1-3 % (hashes by identity, a dict's collisions): every count is made in ``layouts``
memory layouts (an environment variable of another length each) and their mean printed,
with the least and the most. Needs ``valgrind`` and ``setarch``; ``jobs`` counts run at
once (a count is load-independent); the default tables with UNO take about ten minutes.

Read it beside ``rl_speed.py``, never instead: RLCard's UNO runs about a fifth more
instructions a step than The Game's environment yet takes less CPU time a step (its
interpreter runs more instructions a cycle), so the goal of issue #29, time, is not met by a
lower count (docs/rl.md, "Speed").
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

#: RLCard's loop (as ``rl_speed.py``'s): games ``first``..``last`` - 1 of one seeded table
RLCARD_LOOP = """
import random, sys
import rlcard
name, first, last, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
env = rlcard.make(name, config={"seed": seed})
rng = random.Random(seed)
steps = 0
for _ in range(last - first):
    state, player = env.reset()
    while not env.is_over():
        state, player = env.step(rng.choice(list(state["legal_actions"])))
        steps += 1
print("steps", steps)
"""


def loop(game: str, players: int, first: int, last: int) -> None:
    """``rl_speed.run``'s loop over deals ``first``..``last`` - 1: prints its agent steps."""
    from cardtable.rl import make_env
    from rl_speed import play

    env = make_env(game, players=players)
    print("steps", play(env, range(first, last), random.Random(1)))


def counted(command: list[str], layout: int = 0) -> tuple[int, int]:
    """``command`` run under callgrind in memory layout ``layout``: (instructions, the steps it
    printed)."""
    one_thread = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    pad = {"RL_INSTRUCTIONS_LAYOUT": "x" * (97 * layout)}  # (moves what the process allocates)
    env = {**os.environ, "PYTHONHASHSEED": "0", **one_thread, **pad}
    subprocess.run(command, env=env, check=True, capture_output=True)  # (.pyc files written)
    out = subprocess.run(
        ["setarch", "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        + command,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    steps = re.search(r"^steps (\d+)", out.stdout, re.M)
    if found is None or steps is None:
        raise RuntimeError(f"no count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(steps.group(1))


def per_step(
    pool: ThreadPoolExecutor,
    command: tuple[list[str], list[str]],
    skip: int,
    games: int,
    layouts: int,
) -> Callable[[], tuple[list[float], int]]:
    """Instructions per step of ``games`` games after ``skip`` (``command`` + [first, last,
    *tail]), in each memory layout, and the steps: the counts are started, and the function
    returned waits for them."""
    runs = [
        (pool.submit(counted, [*command[0], "1", str(1 + n), *command[1]], k))
        for k in range(layouts)
        for n in (skip, skip + games)
    ]

    def done() -> tuple[list[float], int]:
        out = [r.result() for r in runs]
        steps = out[1][1] - out[0][1]
        return [
            (high - low) / steps for (low, _), (high, _) in zip(out[::2], out[1::2], strict=True)
        ], steps

    return done


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--loop":  # (the counted process)
        game, players, first, last = sys.argv[2:6]
        loop(game, int(players), int(first), int(last))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--skip", type=int, default=50, help="games played before, not counted")
    parser.add_argument(
        "--tables", default="the-game:1,the-game:5,slide:2,slide:6", help="game:players,..."
    )
    parser.add_argument("--layouts", type=int, default=3, help="memory layouts, each counted")
    parser.add_argument("--jobs", type=int, default=2, help="counts run at once")
    parser.add_argument("--rlcard", default=None, metavar="PYTHON", help="also RLCard's UNO")
    args = parser.parse_args()
    commands: list[tuple[str, tuple[list[str], list[str]]]] = []
    for table in args.tables.split(","):
        game, players = table.split(":")
        commands.append(
            (f"{game} {players}p", ([sys.executable, __file__, "--loop", game, players], []))
        )
    if args.rlcard:  # (the seed after first and last, as the loop reads them)
        commands.append(("rlcard uno", ([args.rlcard, "-c", RLCARD_LOOP, "uno"], ["1"])))
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [
            (label, per_step(pool, command, args.skip, args.games, args.layouts))
            for label, command in commands
        ]
        rows = [(label, *wait()) for label, wait in futures]
    uno = statistics.mean(rows[-1][1]) if args.rlcard else None
    print(
        f"{'table':<16} {'steps':>7} {'instructions/step':>18} {'(least-most)':>17} {'of UNO':>7}"
    )
    for label, counts, steps in rows:
        mean = statistics.mean(counts)
        ratio = f"{mean / uno:>7.2f}" if uno else ""
        spread = f"({min(counts):,.0f}-{max(counts):,.0f})"
        print(f"{label:<16} {steps:>7} {mean:>18,.0f} {spread:>17} {ratio}")


if __name__ == "__main__":
    main()
