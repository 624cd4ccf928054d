"""Deals from integer seeds, identical on every machine and every Python release.

Python's ``random.shuffle`` is not promised to stay the same across releases, so deals use
SHAKE-256 (a fixed standard) as the random stream and sorts by random keys. One hash
call yields all the numbers a shuffle needs, which keeps a deal cheap enough for simulations.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Sequence
from typing import TypeVar

from cardtable.core.errors import BadOptions

T = TypeVar("T")

#: seeds are whole numbers up to 256 bits: a multiplayer table's deal comes from 128 bits of
#: secret randomness (``cardtable.server``), a deal number people type is small; both name a
#: stream by their decimal digits, so every seed ever dealt keeps its deal
MAX_SEED = 2**256 - 1


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a usable deal number, else raise ``BadOptions``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOptions(f"the seed must be a whole number, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise BadOptions(f"the seed must be between 0 and {MAX_SEED}, not {seed}")
    return seed


def random_words(key: str, count: int) -> tuple[int, ...]:
    """``count`` 64-bit numbers drawn from the stream named ``key``."""
    data = hashlib.shake_256(key.encode()).digest(8 * count)
    return struct.unpack(f"<{count}Q", data)


def shuffled(items: Sequence[T], key: str) -> list[T]:
    """A new list with ``items`` in the order the stream ``key`` gives.

    Each item gets a random 64-bit key and the items are sorted by it: a uniform shuffle
    (ties, about one in 10**16 deals, keep the items' order) that runs at C speed.
    """
    words = random_words(key, len(items))
    return [items[i] for i in sorted(range(len(items)), key=words.__getitem__)]


def reorder(items: list[T], rng: random.Random) -> None:
    """Put ``items`` in a uniformly random order drawn from ``rng``, in place.

    Like ``rng.shuffle`` (which makes a Python call per item), but by sorting on 64-bit keys
    from one ``randbytes`` call, at C speed. For redraws of hidden cards, not for deals.
    """
    n = len(items)
    if n > 1:
        words = struct.unpack(f"<{n}Q", rng.randbytes(8 * n))
        items[:] = [items[i] for i in sorted(range(n), key=words.__getitem__)]


def deal_key(game: str, seed: int, *parts: object) -> str:
    """The stream name for one deal: the game, the seed and any further parts (a deal number)."""
    return "/".join(["cardtable", game, str(seed), *map(str, parts)])
