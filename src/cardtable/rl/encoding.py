"""What a game offers learning agents: a fixed action space and a numeric observation.

A game names its encoding as a capability (``Game.encoding = "module:Class"``); the
environments (``cardtable.rl.env``) build it for a player count and options and never name a
game. An encoding reads **views only** (``state.view(seat)``): an observation can hold nothing
the seat may not know, which ``tests/rl`` checks by redrawing the hidden cards.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardtable.core.protocol import Game

#: the masks an encoding keeps, by the list of legal actions (forgotten all at once when full),
#: for lists of at most ``MASK_KEPT_UP_TO`` actions (longer ones seldom recur: measured, #29)
MASKS_KEPT = 4096
MASK_KEPT_UP_TO = 8
#: the masks' type, made once (numpy makes it from ``np.int8`` at every call otherwise)
_INT8 = np.dtype(np.int8)
#: the observations' type, made once
_F32 = np.dtype(np.float32)
#: the legal lists ``mask`` takes as they are (a tuple of types, made once: ``list | tuple``
#: would be made at every call)
_SEQUENCES = (list, tuple)
#: a function from a view to its observation (``Encoding.observe``, ``Encoding.observer()``)
Observe = Callable[[Mapping[str, Any]], np.ndarray]


@dataclass(frozen=True)
class Field:
    """One named stretch of an observation vector: ``size`` numbers from ``start``."""

    name: str
    start: int
    size: int
    #: the largest value a number of this field takes (every field's least is 0)
    high: float
    doc: str


class Layout:
    """The fields of an observation, in order; an encoding declares it once."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.by_name: dict[str, Field] = {}
        self.size = 0

    def add(self, name: str, size: int, doc: str, high: float = 1.0) -> Field:
        field = Field(name, self.size, size, high, doc)
        self.fields.append(field)
        self.by_name[name] = field
        self.size += size
        return field

    def high(self) -> np.ndarray:
        out = np.empty(self.size, dtype=np.float32)
        for f in self.fields:
            out[f.start : f.start + f.size] = f.high
        return out

    def describe(self) -> list[dict[str, Any]]:
        """The layout as rows for docs: name, first index, size, highest value, meaning."""
        return [
            {"name": f.name, "start": f.start, "size": f.size, "high": f.high, "doc": f.doc}
            for f in self.fields
        ]


class Encoding(ABC):
    """A game's encoding for ``players`` seats and the given (complete) options.

    ``actions`` is every action notation the game can ever have, in index order: the same
    list for every position, so a policy's output layer is fixed; ``mask(legal)`` marks the
    ones legal now. ``observe(view)`` is a flat float32 vector laid out as ``layout`` says.
    """

    #: every action the game can ever have, index -> notation
    actions: tuple[str, ...]
    layout: Layout

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        self._index = {a: i for i, a in enumerate(self.actions)}
        self._masks: dict[tuple[str, ...], np.ndarray] = {}

    @property
    def size(self) -> int:
        """The observation's length."""
        return self.layout.size

    def index(self, action: str) -> int:
        """The index of an action's notation (``ValueError`` for one outside the space)."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action!r} is not in this game's action space") from None

    def action(self, index: int) -> str:
        """The notation of an action index."""
        if not 0 <= index < len(self.actions):
            raise ValueError(f"action index {index} is outside 0..{len(self.actions) - 1}")
        return self.actions[int(index)]

    def mask(self, legal: Iterable[str]) -> np.ndarray:
        """1 at the index of each action in ``legal``, else 0 (int8): a fresh array."""
        key = legal if isinstance(legal, _SEQUENCES) else tuple(legal)
        if len(key) > MASK_KEPT_UP_TO:
            return self._mask(key)
        # (``kept_mask``'s look-up written out: a call fewer when found, as most are)
        found = self._masks.get(key if type(key) is tuple else tuple(key))
        return (self.kept_mask(key) if found is None else found).copy()

    def kept_mask(self, legal: Sequence[str]) -> np.ndarray:
        """``mask(legal)``, maybe shared with other callers: read it, never change it. A short
        list (up to ``MASK_KEPT_UP_TO`` actions: such lists recur) is looked up in a table of
        those seen lately (``MASKS_KEPT``); a longer one seldom recurs and is written out."""
        if len(legal) > MASK_KEPT_UP_TO:
            return self._mask(legal)
        key = tuple(legal)
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            found = self._masks[key] = self._mask(key)
        return found

    def _mask(self, legal: Iterable[str]) -> np.ndarray:
        hot, index = bytearray(len(self.actions)), self._index
        for a in legal:
            hot[index[a]] = 1
        return np.frombuffer(hot, _INT8)  # (the type by position: a keyword is parsed each call)

    def empty(self) -> np.ndarray:
        return np.zeros(self.layout.size, dtype=np.float32)

    @abstractmethod
    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        """The numeric observation of a seat's view (float32, ``size`` long, 0..``high``)."""

    def observer(self) -> Observe:
        """A function that observes the successive views of one table (any seat's, in any
        order) exactly as ``observe`` does, a fresh array each call. An encoding may make it
        faster than ``observe``: remember what it wrote for the views before and write only
        what changed. What it remembers is checked against each view's content, never
        trusted, so any sequence of views gives ``observe``'s numbers; the environments keep
        one per table."""
        return self.observe

    @abstractmethod
    def rewards(self, result: Mapping[str, Any]) -> list[float]:
        """Each seat's reward for a finished game's ``result()`` (rewards come at the end)."""


def relative(seat: int, viewer: int | None, players: int) -> int:
    """A seat counted from the viewer: 0 the viewer, 1 the next seat clockwise, ..."""
    return (seat - (viewer or 0)) % players


def from_viewer(
    kept: np.ndarray, start: int, block: int, viewer: int | None, players: int
) -> np.ndarray:
    """A copy of ``kept``, an observation whose seats' blocks (``block`` numbers each, from
    ``start``) lie in seat order, with the blocks counted from the viewer instead
    (``relative``: block 0 the viewer's own, block 1 the next seat clockwise, ...)."""
    out = kept.copy()
    v = (viewer or 0) % players
    if v:
        mid, end = start + v * block, start + players * block
        cut = end - mid + start
        out[start:cut] = kept[mid:end]
        out[cut:end] = kept[start:mid]
    return out


#: joins buffers into a new bytearray (a fresh, writable array's memory in one C call)
_JOIN = bytearray().join


class FromViewer:
    """``from_viewer(kept, start, block, viewer, players)`` for one ``kept`` array, fast: the
    pieces of ``kept`` each viewer's copy is made of are cut once (views of its memory, so
    they follow its changes) and joined by one C call, where numpy's copy and two slice
    writes cost twice as much."""

    def __init__(self, kept: np.ndarray, start: int, block: int, players: int) -> None:
        self.kept, self.players, self.dtype = kept, players, kept.dtype
        raw, size = kept.data.cast("B"), kept.itemsize
        self.pieces: list[tuple[memoryview, ...]] = [(raw,)]
        for v in range(1, players):
            mid, end = (start + v * block) * size, (start + players * block) * size
            low = start * size
            self.pieces.append((raw[:low], raw[mid:end], raw[low:mid], raw[end:]))

    def __call__(self, viewer: int | None) -> np.ndarray:
        # (the viewer's own seat first too: the join costs less than numpy's copy)
        return np.frombuffer(_JOIN(self.pieces[(viewer or 0) % self.players]), self.dtype)


def place_rewards(ranks: list[int]) -> list[float]:
    """+1 for a sole first place down to -1 for a sole last, linear in between; seats that
    share places share their mean (two seats tied in a game of two get 0), so the rewards of a
    table always add up to 0."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for r in ranks:
        equal = ranks.count(r)  # ranks are 1 + the seats strictly better
        place = r - 1 + (equal + 1) / 2
        out.append(1.0 - 2.0 * (place - 1) / (n - 1))
    return out


def load_encoding(game: Game, players: int, options: Mapping[str, Any]) -> Encoding:
    """The encoding a game offers (``Game.encoding``), built for ``players`` and ``options``
    (checked and completed with their defaults); ``ValueError`` for a game without one."""
    cls = game.encoding
    if cls is None:
        raise ValueError(f"{game.title} offers no encoding for learning agents")
    players, full = game.check_options(players, options)
    encoding: Encoding = cls(players, full)
    return encoding
