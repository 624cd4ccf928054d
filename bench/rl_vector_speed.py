"""Vector environment steps per CPU second beside the single environment's (#29).

    python bench/rl_vector_speed.py [--seconds 2] [--seed 1] [--sizes 1,64,1024]
        [--tables doublets:1,the-game:1,the-game:2,the-game:5,slide:2,slide:6]

For every table (a game that offers a vector environment, ``Game.vector_env``, and a player
count), in one process: the single environment whose games the vector environment plays,
with random masked actions, then the vector environment at each size N, random masked
actions drawn for all N games at once from ``infos["action_mask"]``. The single environment
of one player is the Gymnasium one (``CardtableGym``: ``step``, its ``info["action_mask"]``,
reset when an episode ends); of several, the PettingZoo AEC one with every seat a learner
(``observe(agent_selection)`` for the observation and mask, then ``step``), which the
self-play vector environments step N of at once (docs/rl.md, "Several seats").
A vector step counts N environment steps (the autoreset steps among them, about 1 in 100).
Only the environments' own calls are timed (``step``, and the single environment's
``reset``), not the drawing of the random actions (for 1024 games of The Game, 409 numbers
each a step, that would be a third of the time); each row runs until they have spent
``--seconds`` of CPU time. The ratio is the vector environment's steps per CPU second over
the single one's. One process, one core: read the figures as a lower bound on
a shared machine.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from cardtable import games
from cardtable.rl import make_env, make_gym_env, make_vector_env

TABLES = "doublets:1,the-game:1,the-game:2,the-game:5,slide:2,slide:6"


def single(game: str, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Steps and CPU seconds of the single environment."""
    if players > 1:
        return single_aec(game, players, seconds, seed)
    env = make_gym_env(game, players)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        started = time.process_time()
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            _, info = env.reset()
        spent += time.process_time() - started
        steps += 1
    return steps, spent


def single_aec(game: str, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Agent steps and CPU seconds of the AEC environment, every seat a learner: each step
    the observation and mask of the agent to act, then its action."""
    env = make_env(game, players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        started = time.process_time()
        seen = env.observe(env.agent_selection)
        spent += time.process_time() - started
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        started = time.process_time()
        env.step(action)
        if any(env.terminations.values()):
            env.reset()
        spent += time.process_time() - started
        steps += 1
    return steps, spent


def vector(game: str, players: int, n: int, seconds: float, seed: int) -> tuple[int, float]:
    """Environment steps (N per call) and CPU seconds of the vector environment of N games."""
    env = make_vector_env(game, n, players)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    calls, spent = 0, 0.0
    while spent < seconds:
        mask = info["action_mask"]
        # a uniform legal action per game (0, ignored, for a game being reset)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        started = time.process_time()
        _, _, _, _, info = env.step(actions)
        spent += time.process_time() - started
        calls += 1
    return calls * n, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="1,64,1024", help="vector sizes N, comma-separated")
    parser.add_argument("--tables", default=TABLES, help="GAME:PLAYERS, comma-separated")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tables = [(t.split(":")[0], int(t.split(":")[1])) for t in args.tables.split(",")]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'table':<28} {'steps':>10} {'per CPU s':>11} {'ratio':>7}")
    for name, players in tables:
        if games.get(name).vector_env is None:
            continue
        table = f"{name} {players}p"
        steps, cpu = single(name, players, args.seconds, args.seed)
        base = steps / cpu
        kind = "gym" if players == 1 else "aec"
        print(f"{table + f' single ({kind})':<28} {steps:>10} {base:>11.0f} {1:>7.1f}")
        for n in sizes:
            steps, cpu = vector(name, players, n, args.seconds, args.seed)
            rate = steps / cpu
            print(f"{table + f' vector N={n}':<28} {steps:>10} {rate:>11.0f} {rate / base:>7.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
