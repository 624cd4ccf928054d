"""The plain engine path per action: ``view``, ``legal`` and ``act``, timed apart and together.

    python bench/plain_path.py [--games 200]

Games of random bots are recorded first, then played again action by action: before each
action the acting seat's ``view`` and ``legal`` are asked, then the action is applied. Printed
per game, in CPU microseconds per action:

- ``view``, ``legal``, ``act`` and their ``sum``: each call timed on its own (the measure of
  docs/performance.md before #29). Each includes one reading of the CPU clock, which costs
  about ``clock`` (an empty timed span, printed: on Linux a system call of about half a
  microsecond), so ``sum`` holds about three of them;
- ``loop``: the same view, legal and act per action, timed around each whole game: the
  path's cost without the clock's;
- ``readers``: a consumer of every version, as the server is: each seat's view and the
  spectator's (a state message to every connection), the acting seat's legal, then the act;
  timed around each whole game.

With ``--split``, the loop is also timed with only ``act``, with ``view`` + ``act`` and with
``legal`` + ``act`` (the best of three each): ``act``, and ``view`` and ``legal`` as the
differences, without the clock's cost in any of them.

To compare commits, run this file against each one's ``src`` (``PYTHONPATH``): it uses only
the protocol.
"""

from __future__ import annotations

import argparse
import time

from cardtable import games
from cardtable.bots import make_bot
from cardtable.sim import play_one

CASES = [("slide", 4), ("doublets", 1), ("the-game", 3)]

Recorded = list[tuple[int, list[tuple[int, str]]]]


def record(name: str, players: int, count: int) -> Recorded:
    recorded = []
    for seed in range(count):
        state = games.get(name).deal(seed, players)
        play_one(state, [make_bot("random", name, seed * 16 + s) for s in range(players)])
        recorded.append((seed, list(state.actions)))
    return recorded


def apart(name: str, players: int, recorded: Recorded) -> tuple[float, float, float, int]:
    """Mean µs of view, legal and act, each timed alone; and the number of actions."""
    rules = games.get(name)
    view = legal = act = 0
    n = 0
    clock = time.process_time_ns
    for seed, actions in recorded:
        state = rules.deal(seed, players)
        for seat, action in actions:
            t0 = clock()
            state.view(seat)
            t1 = clock()
            state.legal(seat)
            t2 = clock()
            state.act(seat, action)
            t3 = clock()
            view, legal, act, n = view + t1 - t0, legal + t2 - t1, act + t3 - t2, n + 1
    return view / n / 1000, legal / n / 1000, act / n / 1000, n


def together(name: str, players: int, recorded: Recorded, readers: bool) -> float:
    """Mean µs per action of view, legal and act (``readers``: every viewer's view)."""
    rules = games.get(name)
    clock = time.process_time_ns
    viewers = [*range(players), None]
    spent = n = 0
    for seed, actions in recorded:
        state = rules.deal(seed, players)
        view, legal, act = state.view, state.legal, state.act
        t0 = clock()
        if readers:
            for seat, action in actions:
                for viewer in viewers:
                    view(viewer)
                legal(seat)
                act(seat, action)
        else:
            for seat, action in actions:
                view(seat)
                legal(seat)
                act(seat, action)
        spent += clock() - t0
        n += len(actions)
    return spent / n / 1000


def split(name: str, players: int, recorded: Recorded) -> tuple[float, float, float]:
    """µs per action of view, legal and act, each the difference of two timed loops."""
    rules = games.get(name)
    clock = time.process_time_ns

    def best(calls: str) -> float:
        spent = n = 0
        for seed, actions in recorded:
            state = rules.deal(seed, players)
            view, legal, act = state.view, state.legal, state.act
            t0 = clock()
            if calls == "act":
                for seat, action in actions:
                    act(seat, action)
            elif calls == "view":
                for seat, action in actions:
                    view(seat)
                    act(seat, action)
            else:
                for seat, action in actions:
                    legal(seat)
                    act(seat, action)
            spent += clock() - t0
            n += len(actions)
        return spent / n / 1000

    act = min(best("act") for _ in range(3))
    view = min(best("view") for _ in range(3))
    legal = min(best("legal") for _ in range(3))
    return view - act, legal - act, act


def clock_cost() -> float:
    """µs of an empty span between two readings of the CPU clock."""
    clock = time.process_time_ns
    spent = 0
    for _ in range(20000):
        t0 = clock()
        spent += clock() - t0
    return spent / 20000 / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--split", action="store_true", help="view / legal / act within the loop")
    args = parser.parse_args()
    print(
        f"{'game':<10} {'seats':>5} {'view us':>8} {'legal us':>9} {'act us':>7} "
        f"{'sum us':>7} {'clock us':>9} {'loop us':>8} {'readers us':>11} {'actions':>8}"
        + (f" {'split view / legal / act':>25}" if args.split else "")
    )
    for name, players in CASES:
        recorded = record(name, players, args.games)
        v, lg, a, n = apart(name, players, recorded)
        loop = together(name, players, recorded, readers=False)
        readers = together(name, players, recorded, readers=True)
        parts = ""
        if args.split:
            sv, sl, sa = split(name, players, recorded)
            parts = f" {f'{sv:.2f} / {sl:.2f} / {sa:.2f}':>25}"
        print(
            f"{name:<10} {players:>5} {v:>8.1f} {lg:>9.1f} {a:>7.1f} {v + lg + a:>7.1f} "
            f"{clock_cost():>9.2f} {loop:>8.2f} {readers:>11.2f} {n:>8}" + parts
        )


if __name__ == "__main__":
    main()
