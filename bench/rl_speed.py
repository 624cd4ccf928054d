"""Environment steps per second: the AEC environment of every game played with random
masked actions, seat by seat, as an agent loop sees it (observe, mask, step).

    python bench/rl_speed.py [--games 100] [--seed 1] [--rlcard PYTHON]

Printed per table: games, agent steps, steps per second (wall clock of this one process),
steps per CPU second, and the share of the time spent encoding observations
(``Encoding.observe``). One process, one core: run it under ``nice`` on a shared machine and
read the figures as a lower bound.

``--rlcard PYTHON``: in the same run, RLCard's UNO and Leduc hold'em environments played the
same way (random legal actions, every player's state read at its turn), in the Python
interpreter ``PYTHON`` of a virtual environment that has ``rlcard`` (cardtable never depends
on it): ``python3 -m venv /tmp/rlcard && /tmp/rlcard/bin/pip install rlcard``.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from cardtable import games
from cardtable.rl import make_env


def run(game: str, players: int, count: int, seed: int) -> tuple[int, float, float]:
    env = make_env(game, players=players)
    rng = random.Random(seed)
    observer = env.encoding.observer
    spent = [0.0]

    def timed_observer():  # the encoding's share of the loop
        encode = observer()

        def timed(view):
            t = time.perf_counter()
            out = encode(view)
            spent[0] += time.perf_counter() - t
            return out

        return timed

    env.encoding.observer = timed_observer  # type: ignore[method-assign]
    steps = 0
    started = time.perf_counter()
    for k in range(count):
        env.reset(seed=seed + k)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
            steps += 1
    return steps, time.perf_counter() - started, spent[0]


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


def rlcard_rows(python: str, games: int, seed: int) -> None:
    import subprocess

    for name in ("uno", "leduc-holdem"):
        out = subprocess.run(
            [python, "-c", RLCARD_LOOP, name, str(games), str(seed)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        steps, wall, cpu = int(out[0]), float(out[1]), float(out[2])
        print(
            f"{'rlcard ' + name:<14} {games:>6} {steps:>8} {steps / wall:>9.0f} "
            f"{steps / cpu:>9.0f} {'':>8}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rlcard", default=None, metavar="PYTHON", help="also RLCard, run there")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(
        f"{'table':<14} {'games':>6} {'steps':>8} {'steps/s':>9} {'per CPU s':>9} {'encoding':>9}"
    )
    for name in games.names():
        rules = games.get(name)
        if rules.encoding is None:
            continue
        for players in sorted({rules.min_players, rules.max_players}):
            cpu = time.process_time()
            steps, seconds, encoding = run(name, players, args.games, args.seed)
            cpu = time.process_time() - cpu
            print(
                f"{name + ' ' + str(players) + 'p':<14} {args.games:>6} {steps:>8} "
                f"{steps / seconds:>9.0f} {steps / cpu:>9.0f} {100 * encoding / seconds:>8.0f} %"
            )
    if args.rlcard:
        rlcard_rows(args.rlcard, args.games, args.seed)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
