"""What the bot loop hands a bot: a view and a legal list built by their first read (#29).

A random bot reads no view and a greedy bot no legal list, yet building both was from a
sixth to a half of a plain game (docs/performance.md, "The plain path"). ``LazyView`` and
``LazyLegal`` ask the state for the real ones on their first read and answer from them ever
after, so what a bot reads is byte for byte what ``state.view(seat)`` and
``state.legal(seat)`` answer; a bot that never reads one never pays for it.

- ``LazyView`` is a read-only ``Mapping`` (views are read-only: docs/protocol.md, "Views"),
  with a dict's reading methods (``get``, ``keys``, ``items``, ``copy``, ``|``, ...). It is
  not a ``dict``, on purpose: code that reads a dict's storage without its methods (the
  ``json`` and ``orjson`` encoders) refuses it rather than writing an empty one; ``dict(view)``
  is the real view's copy.
- ``LazyLegal`` is a ``MutableSequence`` over the fresh list ``legal`` answers, so a bot may
  still sort, shuffle or trim its own legal list; ``list(legal)`` is a plain copy.

Both copy, deep-copy and pickle as the dict or list they stand for. They must be read while
the state is at the version they were handed for: ``Handout``, which hands them over in
``lifecycle.play_out``, builds any that the bot kept without reading before the state moves
on. It hands a bot that reads its view (or legal list) every time the real one instead.

Until it is built, a lazy one holds the state's bound ``view`` (``legal``): a bot still
decides from its own view only, as it is read through the mapping (in-process code could
always reach the table by introspection; the contract is that it does not).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableSequence
from typing import Any, SupportsIndex, overload

from cardtable.bots import Bot, BotLegal, BotView
from cardtable.core.protocol import Action, State, View


class LazyView(Mapping[str, Any]):
    """``build(seat)`` (a state's ``view``), called by the first read."""

    __slots__ = ("_build", "_seat", "_view")

    def __init__(self, build: Callable[[int | None], View], seat: int | None) -> None:
        self._build: Callable[[int | None], View] | None = build
        self._seat = seat
        self._view: View | None = None

    def _real(self) -> View:
        view = self._view
        if view is None:
            assert self._build is not None
            view = self._view = self._build(self._seat)
            self._build = None  # the state is no longer needed (nor held)
        return view

    def __getitem__(self, key: str) -> Any:
        view = self._view
        return (view if view is not None else self._real())[key]

    def __len__(self) -> int:
        return len(self._real())

    def __iter__(self) -> Iterator[str]:
        return iter(self._real())

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._real())

    def __contains__(self, key: object) -> bool:
        return key in self._real()

    def get(self, key: str, default: Any = None) -> Any:
        return self._real().get(key, default)

    def keys(self) -> Any:
        return self._real().keys()

    def values(self) -> Any:
        return self._real().values()

    def items(self) -> Any:
        return self._real().items()

    def copy(self) -> View:
        return self._real().copy()

    def __eq__(self, other: object) -> bool:
        return self._real() == other

    __hash__ = None  # type: ignore[assignment]  # a dict has none either

    def __or__(self, other: Mapping[str, Any]) -> View:
        return self._real() | dict(other)

    def __ror__(self, other: Mapping[str, Any]) -> View:
        return dict(other) | self._real()

    def __repr__(self) -> str:
        return repr(self._real())

    def __copy__(self) -> View:
        return self._real().copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> View:
        return copy.deepcopy(self._real(), memo)

    def __reduce__(self) -> tuple[type, tuple[View]]:
        return (dict, (self._real(),))


class LazyLegal(MutableSequence[Action]):
    """``build(seat)`` (a state's ``legal``), called by the first read; the bot's own list."""

    __slots__ = ("_build", "_seat", "_legal")

    def __init__(self, build: Callable[[int], list[Action]], seat: int) -> None:
        self._build: Callable[[int], list[Action]] | None = build
        self._seat = seat
        self._legal: list[Action] | None = None

    def _real(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            assert self._build is not None
            legal = self._legal = self._build(self._seat)
            self._build = None
        return legal

    @overload
    def __getitem__(self, index: SupportsIndex) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: Any) -> Any:
        legal = self._legal
        return (legal if legal is not None else self._real())[index]

    def __len__(self) -> int:
        legal = self._legal
        return len(legal if legal is not None else self._real())

    def __iter__(self) -> Iterator[Action]:
        return iter(self._real())

    def __reversed__(self) -> Iterator[Action]:
        return reversed(self._real())

    def __contains__(self, action: object) -> bool:
        return action in self._real()

    def index(
        self, action: Any, start: SupportsIndex = 0, stop: SupportsIndex = sys.maxsize
    ) -> int:
        return self._real().index(action, start, stop)

    def count(self, action: Any) -> int:
        return self._real().count(action)

    def __eq__(self, other: object) -> bool:
        return self._real() == other

    __hash__ = None  # type: ignore[assignment]  # a list has none either

    def __add__(self, other: list[Action]) -> list[Action]:
        return self._real() + list(other)

    def __radd__(self, other: list[Action]) -> list[Action]:
        return list(other) + self._real()

    def __repr__(self) -> str:
        return repr(self._real())

    def copy(self) -> list[Action]:
        return self._real().copy()

    def __copy__(self) -> list[Action]:
        return self._real().copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Action]:
        return copy.deepcopy(self._real(), memo)

    def __reduce__(self) -> tuple[type, tuple[list[Action]]]:
        return (list, (self._real(),))

    # the list is the bot's own (``legal`` answers a new one each call): changes go to it
    def __setitem__(self, index: Any, value: Any) -> None:
        self._real()[index] = value

    def __delitem__(self, index: Any) -> None:
        del self._real()[index]

    def insert(self, index: int, action: Action) -> None:
        self._real().insert(index, action)

    def append(self, action: Action) -> None:
        self._real().append(action)

    def extend(self, actions: Any) -> None:
        self._real().extend(actions)

    def pop(self, index: int = -1) -> Action:
        return self._real().pop(index)

    def remove(self, action: Action) -> None:
        self._real().remove(action)

    def clear(self) -> None:
        self._real().clear()

    def reverse(self) -> None:
        self._real().reverse()

    def sort(self, *, key: Any = None, reverse: bool = False) -> None:
        self._real().sort(key=key, reverse=reverse)


#: a bot that read the lazy view (or legal list) it was handed is handed the real one this
#: many times next
EAGER = 8


class Handout:
    """Hands each seat's bot its view and legal list, and asks it to choose.

    Each is handed lazily, except to a bot that read the lazy one it was handed last: that
    bot is handed the real one (a dict or list, which reads faster than a Mapping built on
    demand) the next ``EAGER`` times, then a lazy one again, to see whether it still reads
    it. Lazy or real, what the bot reads is the same. A lazy one that the bot neither read
    nor kept is handed again next time (nobody else can reach it): no new one to make."""

    __slots__ = ("_view", "_legal", "_seats")

    def __init__(self, state: State, seats: Iterable[int]) -> None:
        self._view, self._legal = state.view, state.legal
        #: per seat: how many more times its view and its legal list are handed real, and
        #: the lazy view and legal list to hand again (None: make new ones)
        self._seats: dict[int, list[Any]] = {seat: [0, 0, None, None] for seat in seats}

    def ask(self, bot: Bot, seat: int) -> Action:
        """``bot``'s choice for ``seat``. Whatever it kept of a lazy view or legal list
        unread is built before returning, while the state is at the version it was for."""
        # (the view's steps and the legal list's are written out side by side: a method per
        # kind measured 4.7k instructions more an action of Doublets, a quarter of a random
        # bot's game)
        mine = self._seats[seat]
        real_view, real_legal, lazy_view, lazy_legal = mine
        if real_view:
            view: BotView = self._view(seat)
        else:
            if lazy_view is None:
                lazy_view = LazyView(self._view, seat)
            view = lazy_view
            views_held = sys.getrefcount(lazy_view)
        if real_legal:
            legal: BotLegal = self._legal(seat)
        else:
            if lazy_legal is None:
                lazy_legal = LazyLegal(self._legal, seat)
            legal = lazy_legal
            legals_held = sys.getrefcount(lazy_legal)
        action = bot.choose(view, legal)
        if real_view:
            mine[0] = real_view - 1
        elif lazy_view._view is not None:  # read: most likely read again
            mine[0], mine[2] = EAGER, None
        elif sys.getrefcount(lazy_view) > views_held:  # kept (or something holding it)
            lazy_view._real()
            mine[2] = None
        else:
            mine[2] = lazy_view
        if real_legal:
            mine[1] = real_legal - 1
        elif lazy_legal._legal is not None:
            mine[1], mine[3] = EAGER, None
        elif sys.getrefcount(lazy_legal) > legals_held:
            lazy_legal._real()
            mine[3] = None
        else:
            mine[3] = lazy_legal
        return action
