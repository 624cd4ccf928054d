"""The Game of 2-5 seats as a Gymnasium vector environment: N tables stepped at once on arrays.

Every seat is a learner (self-play): a vector step is one step of N ``CardtableAEC("the-game")``
stepped in order (``cardtable.rl.seats_vector``), the observation and mask those of the seat
to act (``infos["seat"]``), rewards per seat ``(N, P)`` (the same share of the 98 cards for
every seat: the game is cooperative). ``tests/rl/test_the_game_seats_vector.py`` compares it
with N AEC environments step by step. One player is ``cardtable.rl.the_game_vector``'s
``TheGameVectorEnv``; ``vector_env`` (the game's entry point in ``cardtable.vector_envs``)
builds the one that fits the player count. docs/rl.md, "Vector environment".

Per env, as ``TheGameState`` keeps it: ``slots[i, s]``, seat s's hand as card indexes (its
0/1 hand over the cards 2..99, ``hand[i, s]``, is worked out from them when read); the
shuffled deck and the index of its next card; the four tops; the seat whose turn it
is and the cards it played this turn; every seat's signals; the talk count of the seat to act
(a seat talks on its own turn only, and its count restarts at each of its moves, so one count
per table is the AEC's count of that seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.vector import VectorEnv

from cardtable.games.the_game import CARDS, GAME, HAND_SIZE, START_TOPS
from cardtable.rl.encoding import load_encoding
from cardtable.rl.seats_vector import SeatsVectorEnv
from cardtable.rl.the_game import _F, MAX_HAND, MINIMUMS, TOPS
from cardtable.rl.the_game_vector import (
    CARD_OF,
    END,
    N_ACTIONS,
    N_CARDS,
    PAD,
    PILE_STARTS,
    SIGNAL0,
    SIGNAL_CODE,
    SIGNAL_HOT,
    SIGNAL_MOVES,
    SILENT,
    SIZE_NUMBER,
    TheGameVectorEnv,
    decks,
    slot_can_run,
    write_slot_plays,
)

# (the observation's hand is written by its slots: the_game_vector checks the layout for it)
BLOCK = _F["seat1.present"].start - _F["seat0.present"].start  # 15 numbers a seat
SEAT0 = _F["seat0.present"].start
#: the observation's column of each minimum (0..3: the options give 1..3), as the encoding
#: clips it to its one-hot of 1..3
MINIMUM_COLUMN = _F["minimum"].start - 1 + np.clip(np.arange(MINIMUMS + 1), 1, MINIMUMS)


def _next_said() -> np.ndarray:
    """(256 * 16,) a seat's signals as one number (``SIGNAL_CODE``) after each signal action
    (0..15: 4 pile + word; the words avoid, small, good set 1, 2, 3, clear sets none), at
    ``said * 16 + signal``."""
    said, signal = np.arange(256)[:, None], np.arange(16)
    code = SIGNAL_CODE[signal // 4]
    new = np.array([1, 2, 3, 0])[signal % 4]
    return np.asarray(said + (new - said // code % 4) * code).reshape(-1)


NEXT_SAID = _next_said()


#: a seat's block by its signals as one number (``SIGNAL_CODE``): present, (turn, hand size:
#: written apart), the signals' one-hots. 15 kB: a table by signals, size and turn (276 kB)
#: read fewer numbers but missed the caches in a step
SEAT_BLOCK = np.zeros((len(SIGNAL_HOT), BLOCK), dtype=np.float32)
SEAT_BLOCK[:, 0] = 1
SEAT_BLOCK[:, 3:] = SIGNAL_HOT


class TheGameSeatsVectorEnv(SeatsVectorEnv):
    """``num_envs`` tables of The Game for ``players`` seats (2..5), every seat a learner, as
    N ``make_env("the-game", players, options, talk_limit=..., max_steps=...)`` stepped in
    order (module docstring); ``illegal_reward`` for an action the mask refuses."""

    def __init__(
        self,
        num_envs: int,
        players: int | None = 2,
        options: Mapping[str, Any] | None = None,
        talk_limit: int = 2,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        count, self.options = GAME.check_options(players, options or {})
        if count < 2:
            raise ValueError("for one player, TheGameVectorEnv (players=1)")
        if talk_limit < 0:
            raise ValueError("talk_limit must be 0 or more")
        super().__init__(
            num_envs, count, load_encoding(GAME, count, self.options), max_steps, illegal_reward
        )
        self.talk_limit = talk_limit
        self.hand_size = HAND_SIZE[count]
        self._busy = 3 if self.options["pro"] else 2  # the minimum while the draw pile lasts
        self._empty = int(self.options["min_after_empty"])
        n, p = num_envs, count
        self.sizes = np.zeros((n, p), dtype=np.int64)  # cards in each hand
        #: the hands as card indexes, ``sizes`` of them first, then PAD (the mask and the
        #: observation read a few slots instead of 98 columns); the only copy of the hands
        self.slots = np.full((n, p, self.hand_size), PAD, dtype=np.int64)
        self.deck = np.zeros((n, N_CARDS), dtype=np.int64)
        self.next = np.full(n, N_CARDS, dtype=np.int64)
        self.tops = np.tile(np.array(START_TOPS, dtype=np.int64), (n, 1))
        self.turn = np.zeros(n, dtype=np.int64)
        self.played = np.zeros(n, dtype=np.int64)
        #: each seat's signals (per pile 0 none, 1 avoid, 2 small, 3 good) as one number
        self.said = np.zeros((n, p), dtype=np.int64)
        #: per viewer, the seats in the order of the observation's blocks (from the viewer)
        self._orders = (np.arange(p)[:, None] + np.arange(p)) % p
        #: per seat, the seats after it in turn order, itself last
        self._after = (np.arange(p)[:, None] + np.arange(1, p + 1)) % p
        self.talked = np.zeros(n, dtype=np.int64)
        #: kept where the state changes, not counted a step: each table's minimum this turn
        #: (the draw pile changes only at a deal and a turn's end), the cards in all hands
        self.minimum = np.zeros(n, dtype=np.int64)
        self.held = np.zeros(n, dtype=np.int64)
        self._seat_rows = self.rows[:, None] * p  # (N, 1): each env's first (env, seat) index
        self._row_first = self.rows * self.encoding.size  # each env's first flat index
        #: (N, 4): each env's piles' one-hots' flat index of top 0
        self._pile_first = self._row_first[:, None] + PILE_STARTS
        self._hand_first = self._row_first[:, None] + _F["hand"].start  # (N, 1)
        #: the slots of the seats seen last (``_legal``'s, for ``_observe`` of the same seats)
        self._seen = np.full((n, self.hand_size), PAD, dtype=np.int64)
        self._seen_seat: np.ndarray | None = None

    # -- deals ------------------------------------------------------------------------------
    def _deal(self, rows: np.ndarray, seeds: list[int]) -> None:
        p, size = self.players, self.hand_size
        deck = decks(seeds)
        self.deck[rows] = deck
        dealt = deck[:, : p * size].reshape(rows.size, p, size) - CARDS[0]
        self.slots[rows] = dealt
        self.sizes[rows] = size
        self.held[rows] = p * size
        self.next[rows] = p * size
        self.minimum[rows] = self._busy
        self.tops[rows] = START_TOPS
        self.turn[rows] = self.options["start"]
        self.played[rows] = 0
        self.said[rows] = 0
        self.talked[rows] = 0
        # every card fits the fresh piles, so a deal always plays its minimum (at most 3)
        self.over[rows] = False

    @property
    def hand(self) -> np.ndarray:
        """(N, P, 98) bools: each seat's hand over the cards 2..99, worked out from the slots
        (a new array each time: kept beside the slots, it cost 4 % of a step). Read-only, so
        that a write into it fails instead of changing nothing: give new hands whole."""
        n, p = self.num_envs, self.players
        hand = np.zeros((n * p, N_CARDS + 1), dtype=bool)  # (column PAD: the empty slots)
        hand[np.arange(n * p)[:, None], self.slots.reshape(n * p, -1)] = True
        out = hand[:, :N_CARDS].reshape(n, p, N_CARDS)
        out.flags.writeable = False
        return out

    @hand.setter
    def hand(self, hand: np.ndarray) -> None:
        """Give the seats the hands ``hand`` (N, P, 98) bools: the slots (and the counts)
        made from them, cards in order."""
        sizes = hand.sum(axis=2)
        if (sizes > self.hand_size).any():
            raise ValueError(f"a hand holds at most {self.hand_size} cards")
        first = np.argsort(~hand, axis=2, kind="stable")[:, :, : self.hand_size]
        self.slots[:] = np.where(np.arange(self.hand_size) < sizes[:, :, None], first, PAD)
        self.sizes[:] = sizes
        self.held[:] = sizes.sum(axis=1)
        self._seen_seat = None  # (the slots seen last are stale)

    def _slots(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """(M, hand size) the slots of ``seat[k]`` in env ``rows[k]`` (a copy)."""
        return self._slots_at(rows * self.players + seat)

    def _slots_at(self, at: np.ndarray) -> np.ndarray:
        """(M, hand size) the slots of the seats ``at`` ((env, seat) indexes; a copy)."""
        return np.take(self.slots.reshape(-1, self.hand_size), at, axis=0)

    # -- the rules --------------------------------------------------------------------------
    def _actor(self) -> np.ndarray:
        return self.turn

    def _apply(self, rows: np.ndarray, seat: np.ndarray, a: np.ndarray) -> None:
        act = a[rows]
        at = rows * self.players + seat[rows]  # (env, seat) as one index
        talk = act >= SIGNAL0
        if talk.any():
            k = np.flatnonzero(talk)  # (indexes once: a bool mask is counted at each use)
            self._talk(rows[k], at[k], act[k] - SIGNAL0)
            k = np.flatnonzero(~talk)
            rows, act, at = rows[k], act[k], at[k]
        self.talked[rows] = 0
        playing = act < END
        ends = rows[~playing]
        k = np.flatnonzero(playing)  # (indexes once: a bool mask is counted at each use)
        plays, act, at = rows[k], act[k], at[k]
        card, pile = act >> 2, act & 3
        sizes = self.sizes.reshape(-1)
        left = sizes[at] - 1
        sizes[at] = left
        # the card's slot takes the last card's, the last slot PAD
        slots, width = self.slots.reshape(-1), self.hand_size
        first = at * width
        held = self._slots_at(at)
        where = first + np.argmax(held == card[:, None], axis=1)
        last = first + left
        slots[where] = slots[last]
        slots[last] = PAD
        self.held[plays] -= 1
        self.tops.reshape(-1)[plays * 4 + pile] = CARD_OF[card]
        played = self.played[plays] + 1
        self.played[plays] = played
        out = left == 0  # a hand played out ends its turn by itself
        short = plays[~out & (played < self.minimum[plays])]
        starting = self._end_turn(np.concatenate([ends, plays[out]]))
        # one look at the hands for both: a seat short of its minimum is stuck unless a card
        # fits (a run of one), a seat starting its turn unless it can play its minimum
        check = np.concatenate([short, starting])
        need = self.minimum[check]
        need[: short.size] = 1
        self.over[check] = ~slot_can_run(
            self._slots(check, self.turn[check]), self.tops[check], need
        )

    def _talk(self, rows: np.ndarray, at: np.ndarray, signal: np.ndarray) -> None:
        """The signals ``signal`` (0..15: 4 pile + word) of the seats ``at`` ((env, seat)
        indexes) in the envs ``rows``: a word said, or cleared (word 3)."""
        said = self.said.reshape(-1)
        said[at] = np.take(NEXT_SAID, said[at] * 16 + signal)
        self.talked[rows] += 1

    def _end_turn(self, rows: np.ndarray) -> np.ndarray:
        """Draw back up to the hand size, then the next seat holding cards: over when none
        does (won). The rows that go on, whose seat must be able to play its minimum."""
        if rows.size == 0:
            return rows
        p, size, seat = self.players, self.hand_size, self.turn[rows]
        at = rows * p + seat  # (env, seat) as one index
        sizes = self.sizes.reshape(-1)
        have, old = sizes[at], self.next[rows]
        take = np.minimum(size - have, N_CARDS - old)
        step = np.arange(size)
        drawn = step < take[:, None]  # (rows, size): the j-th card drawn from the deck
        cards = np.take(
            self.deck, rows[:, None] * N_CARDS + np.minimum(old[:, None] + step, N_CARDS - 1)
        )
        self.slots.reshape(-1)[(at[:, None] * size + have[:, None] + step)[drawn]] = (
            cards[drawn] - CARDS[0]
        )
        new = old + take
        self.next[rows] = new
        sizes[at] = have + take
        self.held[rows] += take
        self.minimum[rows] = np.where(new < N_CARDS, self._busy, self._empty)
        self.played[rows] = 0
        # the next seat holding cards, the same seat last
        after = np.take(self._after, seat, axis=0)  # (rows, P)
        holding = sizes[(rows * p)[:, None] + after] > 0
        empty = ~holding.any(axis=1)
        self.over[rows[empty]] = True  # every card is played: won
        if empty.any():
            rows, after, holding = rows[~empty], after[~empty], holding[~empty]
        self.turn[rows] = after[np.arange(rows.size), np.argmax(holding, axis=1)]
        return rows

    def _rewards(self, rows: np.ndarray) -> np.ndarray:
        """The share of the 98 cards played, every seat the same."""
        share = (self.next[rows] - self.held[rows]) / N_CARDS  # (played: drawn, not held)
        return np.repeat(share[:, None], self.players, axis=1)

    # -- what a seat sees -------------------------------------------------------------------
    def _legal(self, seat: np.ndarray) -> np.ndarray:
        mask = np.empty((self.num_envs, N_ACTIONS), dtype=np.int8)
        acting = ~self.over & (self.turn == seat)
        at = self._seat_rows[:, 0] + seat  # (env, seat) as one index
        # the viewer's slots, kept for ``_observe`` (called next, for the same seats)
        self._seen = self._slots_at(at)
        self._seen_seat = seat
        write_slot_plays(mask, self._seen, self.tops)
        mask[np.flatnonzero(~acting), :END] = 0  # (the few: cheaper than PAD slots for them)
        mask[:, END] = acting & (self.played >= self.minimum)
        talk = acting & (self.talked < self.talk_limit)
        said = np.where(talk, self.said.reshape(-1)[at], SILENT)
        mask[:, SIGNAL0:] = np.take(SIGNAL_MOVES, said, axis=0)
        return mask

    def _observe(self, seat: np.ndarray) -> np.ndarray:
        """``TheGameEncoding.observe`` of each env's view for ``seat``: its own hand, every
        seat's hand size and signals."""
        n, p = self.num_envs, self.players
        out = np.zeros((n, self.encoding.size), dtype=np.float32)
        flat = out.reshape(-1)
        flat[self._pile_first + self.tops] = 1  # the piles' one-hots
        # the numbers divided in float64 and rounded into the observation, as the encoding
        # writes them (no float32 temporaries)
        f = _F["tops"].start
        np.divide(self.tops, TOPS, out=out[:, f : f + 4], casting="unsafe")
        seen = self._seen if self._seen_seat is seat else self._slots(self.rows, seat)
        # the hand's 1s by flat index; a PAD slot's 1 falls on draw_pile, the column after the
        # hand, written next
        flat[self._hand_first + seen] = 1
        draw = N_CARDS - self.next
        np.divide(draw, N_CARDS, out=out[:, _F["draw_pile"].start], casting="unsafe")
        draw += self.held
        np.divide(draw, N_CARDS, out=out[:, _F["cards_left"].start], casting="unsafe")
        # (a turn plays from a hand of at most MAX_HAND: the encoding's min(played, 8) is it)
        f = _F["played_this_turn"].start
        np.divide(self.played, MAX_HAND, out=out[:, f], casting="unsafe")
        flat[self._row_first + np.take(MINIMUM_COLUMN, self.minimum)] = 1
        out[:, _F["players"].start + p - 1] = 1
        out[:, _F["over"].start] = self.over
        # block K is the seat K places after the viewer: the seats in that order
        order = np.take(self._orders, seat, axis=0)  # (N, P) (np.take: a fifth of [])
        at = self._seat_rows + order  # those (env, seat) indexes
        # built apart (from a table by the signals), then copied in whole: cheaper than
        # writing a block's columns into the observation; the turn: the seat to act's block,
        # where the game goes on
        blocks = np.take(SEAT_BLOCK, np.take(self.said, at), axis=0)  # (N, P, BLOCK)
        blocks[:, :, 2] = np.take(SIZE_NUMBER, np.take(self.sizes, at))
        blocks[:, :, 1] = order == np.where(self.over, -1, self.turn)[:, None]
        out[:, SEAT0 : SEAT0 + p * BLOCK] = blocks.reshape(n, -1)
        return out


def vector_env(
    num_envs: int,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> VectorEnv:
    """The Game's vector environment for the player count: ``TheGameVectorEnv`` alone (the
    games of ``CardtableGym``), ``TheGameSeatsVectorEnv`` for 2-5 seats (of ``CardtableAEC``)."""
    count, _ = GAME.check_options(players, options or {})
    if count == 1:
        return TheGameVectorEnv(num_envs, count, options, **kwargs)
    return TheGameSeatsVectorEnv(num_envs, count, options, **kwargs)
