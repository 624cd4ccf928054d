"""How long would it take to find a table's seed from one player's opening hand?

    python bench/seed_scan.py [--seconds 10]

The attack from issue #9: a seat of a live The Game table (4 players) knows its own hand of 6
cards. The attacker deals seed after seed with the library (the fastest way there is: the
shuffle alone, ``core.rng.shuffled`` on the deal's key) until one gives that hand, then reads
every other hand and the whole draw pile from that seed. The bench measures the scan rate on
one core for a while and prints how long the whole seed space takes: the old server's
``secrets.randbelow(10**9)`` (about 30 bits) against 128 secret bits (``cardtable.seeds``).
"""

from __future__ import annotations

import argparse
import time

from cardtable.core.rng import deal_key, shuffled
from cardtable.seeds import SECRET_BITS

CARDS = list(range(2, 100))
YEAR = 365.25 * 86400


def scan(target: list[int], seconds: float) -> tuple[int, int | None]:
    """Seeds tried in ``seconds`` from 0 upward, and the first whose seat-0 hand is ``target``."""
    end = time.process_time() + seconds
    seed, found = 0, None
    while time.process_time() < end:
        for _ in range(1000):
            if sorted(shuffled(CARDS, deal_key("the-game", seed))[:6]) == target:
                found = seed if found is None else found
            seed += 1
    return seed, found


def duration(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h" if seconds < YEAR else f"{seconds / YEAR:.1e} years"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    secret = 12_345  # a seed the scan reaches, to show it finds one
    target = sorted(shuffled(CARDS, deal_key("the-game", secret))[:6])
    tried, found = scan(target, args.seconds)
    rate = tried / args.seconds
    print(f"seeds per CPU second (one core): {rate:,.0f}; seed {secret} found: {found == secret}")
    print(f"{'seed space':<28} {'seeds':>12} {'one core':>16} {'1,000 cores':>16}")
    for name, size in (
        ("old: randbelow(10**9)", 10**9),
        (f"new: {SECRET_BITS} secret bits", 2**SECRET_BITS),
    ):
        one = size / rate
        print(f"{name:<28} {size:>12.2e} {duration(one):>16} {duration(one / 1000):>16}")


if __name__ == "__main__":
    main()
