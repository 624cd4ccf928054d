"""Vector environment steps per CPU second beside the single environment's (#29).

    python bench/rl_vector_speed.py [--seconds 2] [--seed 1] [--sizes 1,64,1024]
        [--tables doublets:1,the-game:1,the-game:2,the-game:5,slide:2,slide:6] [--slices 4]

For every table (a game that offers a vector environment, ``Game.vector_env``, and a player
count), in one process: the single environment whose games the vector environment plays,
with random masked actions, and the vector environment at each size N, random masked actions
drawn for all N games at once from ``infos["action_mask"]``. The single environment of one
player is the Gymnasium one (``CardtableGym``: ``step``, its ``info["action_mask"]``, reset
when an episode ends); of several, the PettingZoo AEC one with every seat a learner
(``observe(agent_selection)`` for the observation and mask, then ``step``, reset when the game
ends), whose games the self-play vector environments play N at once (docs/rl.md, "Several
seats"). A vector step counts N environment steps (the autoreset steps among them).

Only the environments' own calls are timed, not the drawing of the random actions. Each row
spends ``--seconds`` of CPU time, in ``--slices`` turns taken one row after another (single,
N = 1, N = 64, ..., single, ...), so that a neighbour's load on a shared machine falls on
every row of a table alike and the ratio (the vector environment's steps per CPU second over
the single one's) holds better than the rates. One process, one core.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from cardtable import games
from cardtable.rl import make_env, make_gym_env, make_vector_env

TABLES = "doublets:1,the-game:1,the-game:2,the-game:5,slide:2,slide:6"


class Row:
    """One environment played in turns: ``run(seconds)`` plays on until it has spent that much
    more CPU time; ``steps`` and ``spent`` add up over the turns."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.steps, self.spent = 0, 0.0

    def run(self, seconds: float) -> None:
        until = self.spent + seconds
        while self.spent < until:
            self.step()

    def step(self) -> None:
        raise NotImplementedError


class SingleGym(Row):
    """The Gymnasium environment of one player."""

    def __init__(self, game: str, seed: int) -> None:
        super().__init__(seed)
        self.env = make_gym_env(game, 1)
        _, self.info = self.env.reset(seed=seed)

    def step(self) -> None:
        action = int(self.rng.choice(np.flatnonzero(self.info["action_mask"])))
        started = time.process_time()
        _, _, term, trunc, self.info = self.env.step(action)
        if term or trunc:
            _, self.info = self.env.reset()
        self.spent += time.process_time() - started
        self.steps += 1


class SingleAEC(Row):
    """The AEC environment, every seat a learner: each step the observation and mask of the
    agent to act, then its action."""

    def __init__(self, game: str, players: int, seed: int) -> None:
        super().__init__(seed)
        self.env = make_env(game, players)
        self.env.reset(seed=seed)

    def step(self) -> None:
        env = self.env
        started = time.process_time()
        seen = env.observe(env.agent_selection)
        self.spent += time.process_time() - started
        action = int(self.rng.choice(np.flatnonzero(seen["action_mask"])))
        started = time.process_time()
        env.step(action)
        if any(env.terminations.values()):
            env.reset()
        self.spent += time.process_time() - started
        self.steps += 1


class Vector(Row):
    """The vector environment of N games (a step counts N)."""

    def __init__(self, game: str, players: int, n: int, seed: int) -> None:
        super().__init__(seed)
        self.env = make_vector_env(game, n, players)
        _, self.info = self.env.reset(seed=seed)
        self.n = n

    def step(self) -> None:
        mask = self.info["action_mask"]
        # a uniform legal action per game (0, ignored, for a game being reset)
        actions = (self.rng.random(mask.shape) * mask).argmax(axis=1)
        started = time.process_time()
        _, _, _, _, self.info = self.env.step(actions)
        self.spent += time.process_time() - started
        self.steps += self.n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="1,64,1024", help="vector sizes N, comma-separated")
    parser.add_argument("--tables", default=TABLES, help="GAME:PLAYERS, comma-separated")
    parser.add_argument("--slices", type=int, default=4, help="turns each row's time is cut in")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tables = [(t.split(":")[0], int(t.split(":")[1])) for t in args.tables.split(",")]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'table':<28} {'steps':>10} {'per CPU s':>11} {'ratio':>7}")
    for name, players in tables:
        if games.get(name).vector_env is None:
            continue
        table, seed = f"{name} {players}p", args.seed
        first: Row = SingleGym(name, seed) if players == 1 else SingleAEC(name, players, seed)
        rows = [first, *(Vector(name, players, n, seed) for n in sizes)]
        for _ in range(args.slices):
            for row in rows:
                row.run(args.seconds / args.slices)
        base = first.steps / first.spent
        labels = [f"single ({'gym' if players == 1 else 'aec'})", *(f"vector N={n}" for n in sizes)]
        for label, row in zip(labels, rows, strict=True):
            rate = row.steps / row.spent
            print(f"{table + ' ' + label:<28} {row.steps:>10} {rate:>11.0f} {rate / base:>7.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
