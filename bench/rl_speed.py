"""Environment steps per second: the AEC environment of every game played with random
masked actions, seat by seat, as an agent loop sees it (observe, mask, step).

    python bench/rl_speed.py [--games 100] [--seed 1] [--rounds 1] [--rlcard PYTHON]

Printed per table: games, agent steps, steps per second (wall clock of this one process),
steps per CPU second, and the share of the time spent encoding observations (the
table's ``observer``, timed in a second pass of the same games: the timer's own cost stays
out of the steps per second). One process, one core: run it under ``nice`` on a shared machine
and read the figures as a lower bound. The agent picks a random action among those the mask
allows (``mask.nonzero()``, as a list), as cheaply as it can: the agent's own time is not the
environment's.

``--rounds R``: every table (and RLCard's, with ``--rlcard``) played in turn, ``R`` rounds,
so that a neighbour's load falls on all alike; the median per CPU second is printed, with
the least and the most of the rounds.

``--rlcard PYTHON``: in the same run, RLCard's UNO and Leduc hold'em environments played the
same way (random legal actions, every player's state read at its turn), in the Python
interpreter ``PYTHON`` of a virtual environment that has ``rlcard`` (cardtable never depends
on it): ``python3 -m venv /tmp/rlcard && /tmp/rlcard/bin/pip install rlcard``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from cardtable import games
from cardtable.rl import make_env


def run(game: str, players: int, count: int, seed: int, timed: bool = False) -> tuple[int, float]:
    """Play ``count`` games: agent steps and seconds (wall clock); with ``timed``, the share
    of the seconds spent encoding observations instead (the observer wrapped in a timer)."""
    env = make_env(game, players=players)
    rng = random.Random(seed)
    spent = [0.0]
    encode = env.table.observe  # the table's observer (one per table, kept from deal to deal)

    def timed_observe(view):  # the encoding's share of the loop
        t = time.perf_counter()
        out = encode(view)
        spent[0] += time.perf_counter() - t
        return out

    if timed:
        env.table.observe = timed_observe
    started = time.perf_counter()
    steps = play(env, range(seed, seed + count), rng)
    seconds = time.perf_counter() - started
    return steps, spent[0] / seconds if timed else seconds


def play(env: Any, seeds: range, rng: random.Random) -> int:
    """The agent loop: a game of each seed, a random action among the mask's each step; the
    agent steps played (``rl_instructions.py`` counts the same loop)."""
    steps = 0
    for k in seeds:
        env.reset(seed=k)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps


#: RLCard's loop, run by ``--rlcard`` in its own interpreter: games, steps, wall s, CPU s
RLCARD_LOOP = """
import random, sys, time
import rlcard
name, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = rlcard.make(name, config={"seed": seed})
rng = random.Random(seed)
steps, wall, cpu = 0, time.perf_counter(), time.process_time()
for _ in range(games):
    state, player = env.reset()
    while not env.is_over():
        action = rng.choice(list(state["legal_actions"]))
        state, player = env.step(action)
        steps += 1
print(steps, time.perf_counter() - wall, time.process_time() - cpu)
"""


RLCARD_GAMES = ("uno", "leduc-holdem")


def rlcard_run(python: str, name: str, games: int, seed: int) -> tuple[int, float, float]:
    """RLCard's ``name`` played in ``python``: steps, wall seconds, CPU seconds."""
    import subprocess

    # one core, as ours: a numerical library's worker threads would add their CPU time to
    # RLCard's (its CPU seconds were seen above its wall seconds) and flatter the ratio
    one_thread = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    out = subprocess.run(
        [python, "-c", RLCARD_LOOP, name, str(games), str(seed)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **one_thread},
    ).stdout.split()
    return int(out[0]), float(out[1]), float(out[2])


def tables() -> list[tuple[str, int]]:
    """Every game with an encoding, at its fewest and its most players."""
    out = []
    for name in games.names():
        rules = games.get(name)
        if rules.encoding is not None:
            out += [(name, n) for n in sorted({rules.min_players, rules.max_players})]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="rounds, each table in turn")
    parser.add_argument("--rlcard", default=None, metavar="PYTHON", help="also RLCard, run there")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    # per row: (steps, wall seconds, CPU seconds, encoding's share) of each round
    rows: dict[str, list[tuple[int, float, float, float | None]]] = {}
    for _ in range(args.rounds):  # the tables in turn, RLCard's among them, round after round
        for name, players in tables():
            cpu = time.process_time()
            steps, seconds = run(name, players, args.games, args.seed)
            cpu = time.process_time() - cpu
            _, share = run(name, players, args.games, args.seed, timed=True)
            rows.setdefault(f"{name} {players}p", []).append((steps, seconds, cpu, share))
        for name in RLCARD_GAMES if args.rlcard else ():
            steps, wall, cpu = rlcard_run(args.rlcard, name, args.games, args.seed)
            rows.setdefault(f"rlcard {name}", []).append((steps, wall, cpu, None))
    print(
        f"{'table':<20} {'games':>6} {'steps':>8} {'steps/s':>9} {'per CPU s':>9} "
        f"{'(least-most)':>15} {'encoding':>9}"
    )
    for label, runs in rows.items():
        per_cpu = sorted(steps / cpu for steps, _, cpu, _ in runs)
        wall = statistics.median(steps / seconds for steps, seconds, _, _ in runs)
        shares = [100 * share for _, _, _, share in runs if share is not None]
        share_text = f"{statistics.median(shares):>8.0f} %" if shares else ""
        print(
            f"{label:<20} {args.games:>6} {runs[0][0]:>8} {wall:>9.0f} "
            f"{statistics.median(per_cpu):>9.0f} {f'({per_cpu[0]:.0f}-{per_cpu[-1]:.0f})':>15} "
            f"{share_text:>9}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
