"""The Game alone (one player), N deals at once on numpy arrays: a Gymnasium vector env.

``TheGameVectorEnv(num_envs)`` (or ``make_vector_env("the-game", num_envs)``) plays the same
games as ``num_envs`` single ``make_gym_env("the-game", players=1)`` environments side by side
(``gymnasium.vector.SyncVectorEnv``), step for step: the same observations (the encoding's
layout, ``cardtable.rl.the_game``), rewards, terminations, truncations and masks
(``infos["action_mask"]``), which ``tests/rl/test_vector_the_game.py`` checks. docs/rl.md,
"Vector environment".

- **Arrays**: per env the hand as card indexes (``slots``; its 0/1 hand over the cards
  2..99, ``hand``, is worked out from them when read), the shuffled deck and the index of the
  next card to draw, the four pile tops, the cards played this turn, the seat's signals and its
  talk count, the over flag. ``step`` runs on all envs at once, with no Python loop over them
  (but over the rare hands that ``slot_can_run`` leaves to the rules' own search).
- **Seeds**: ``reset(seed=s)`` deals env ``i`` the deal of seed ``s + i`` (what SyncVectorEnv
  gives its ``i``-th env); a list gives each env its own (None: drawn). Env ``i`` keeps its own
  generator, seeded as ``gymnasium.Env.reset`` seeds it, and draws its next deal's seed from it
  at an autoreset, as the single env does on a reset without a seed.
- **Autoreset**: ``AutoresetMode.NEXT_STEP`` (Gymnasium's default): the step after an episode
  ends resets that env (its action is ignored) and returns the new deal's observation with
  reward 0, not terminated, not truncated.
- **Deals** are made once per episode in Python, one hash per deal: the game's own deck
  (``cardtable.core.rng.shuffled`` of ``deal_key``), sorted by its keys for all envs at once.
- ``infos`` holds ``action_mask`` (int8, ``(N, 409)``) only: the single env's ``legal``
  notations and ``result`` dicts would cost a Python loop over the envs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cardtable.games.the_game import CARDS, GAME, HAND_SIZE, START_TOPS, can_play_run
from cardtable.rl.encoding import load_encoding
from cardtable.rl.the_game import _F, MAX_HAND, MINIMUMS, TOPS
from cardtable.rl.vector import deal_prefix, deal_seeds, gym_generator, next_seeds, reset_seeds

#: ``deal_key(GAME.name, seed)`` is this and the seed
_DEAL_PREFIX = deal_prefix(GAME.name)
N_CARDS = len(CARDS)
HAND = HAND_SIZE[1]
#: the card of each card index (hand columns), 2..99
CARD_OF = np.arange(CARDS[0], CARDS[-1] + 1, dtype=np.int64)
# the observation's hand is written by its slots, a PAD slot on the column after the hand
if _F["draw_pile"].start != _F["hand"].start + N_CARDS:
    raise ImportError("The Game's layout no longer has draw_pile right after the hand")
#: the backwards trick per pile: up piles take top - 10, down piles top + 10
BACK = np.array([-10, -10, 10, 10], dtype=np.int64)
IS_UP = np.array([True, True, False, False])
PLAYS = 4 * N_CARDS  # actions 0..391: play card index a // 4 on pile a % 4
END = PLAYS  # 392
SIGNAL0 = END + 1  # 393 + 4 pile + word (avoid, small, good, clear)
N_ACTIONS = SIGNAL0 + 16
#: a seat's four signals (0 none, 1 avoid, 2 small, 3 good) as one number,
#: ``s_up1 + 4 s_up2 + 16 s_down1 + 64 s_down2``
SIGNAL_CODE = 4 ** np.arange(4)
#: the observation's number of each top (0..100) and of each hand size (0..MAX_HAND): the
#: float32 of the division, as the encoding writes it, read from a table
TOP_NUMBER = (np.arange(TOPS + 1) / TOPS).astype(np.float32)
SIZE_NUMBER = (np.arange(MAX_HAND + 1) / MAX_HAND).astype(np.float32)
#: each pile's one-hot's column of top 0 in the observation (tops 1..100)
PILE_STARTS = _F["piles"].start - 1 + np.arange(4) * TOPS
#: (256, 12) float32: a seat's signals, by that number, as the observation's one-hots
SIGNAL_HOT = np.eye(4, dtype=np.float32)[(np.arange(256)[:, None] // SIGNAL_CODE) % 4, 1:]
SIGNAL_HOT = np.ascontiguousarray(SIGNAL_HOT.reshape(256, 12))


#: the row of ``SIGNAL_MOVES`` of a seat that may not talk now: none
SILENT = 256


def _signal_moves() -> np.ndarray:
    """(257, 16) int8: the signal actions a seat may take, by its signals as one number
    (``SIGNAL_CODE``): on each pile the words it has not said, and clear once it said one;
    row ``SILENT`` none."""
    said = (np.arange(256)[:, None] // SIGNAL_CODE) % 4  # (256, 4)
    words = np.concatenate([said[:, :, None] != np.arange(1, 4), said[:, :, None] > 0], axis=2)
    return np.concatenate([words.reshape(256, 16), np.zeros((1, 16), dtype=bool)]).astype(np.int8)


SIGNAL_MOVES = _signal_moves()


#: the low bits of a key that hold the card's index in the packed sort of ``decks``
_INDEX_BITS = 7
_INDEX = np.arange(N_CARDS, dtype=np.uint64)


def key_order(words: np.ndarray) -> np.ndarray:
    """(M, k) the stable ``argsort`` of each row of 64-bit keys ``words`` (M, k < 128), made
    as a plain sort of the keys with their low 7 bits replaced by the index (the sorted keys
    then carry the order): a third cheaper than a stable argsort. Exact: only keys equal in
    their other 57 bits could sort otherwise, and a row with two such (about one deal in
    10**14) is sorted by the stable argsort instead."""
    low = np.uint64((1 << _INDEX_BITS) - 1)
    packed = (words & ~low) | _INDEX[: words.shape[1]]
    packed.sort(axis=1)
    order = (packed & low).astype(np.int64)
    high = packed >> np.uint64(_INDEX_BITS)
    ties = high[:, 1:] == high[:, :-1]
    if ties.any():  # (looked for row by row only then)
        for i in np.flatnonzero(ties.any(axis=1)).tolist():
            order[i] = np.argsort(words[i], kind="stable")
    return order


def decks(seeds: Sequence[int]) -> np.ndarray:
    """The decks (card values, top first) ``TheGameState`` deals for ``seeds``: each card gets
    the 64-bit key ``random_words(deal_key(...))`` gives it and the cards are sorted by key,
    ties keeping their order (a stable sort), as ``shuffled`` does."""
    shake, size = hashlib.shake_256, 8 * N_CARDS
    data = b"".join([shake((_DEAL_PREFIX + str(s)).encode()).digest(size) for s in seeds])
    words = np.frombuffer(data, dtype="<u8").reshape(len(seeds), N_CARDS)
    return key_order(words) + CARDS[0]


def _fit_table() -> np.ndarray:
    """(4, 101, 98) bools: does card index k go on pile p whose top is t (1..100)?"""
    card = CARD_OF[None, :]
    top = np.arange(TOPS + 1)[:, None]
    table = np.empty((4, TOPS + 1, N_CARDS), dtype=bool)
    for p in range(4):
        onward = card > top if IS_UP[p] else card < top
        table[p] = onward | (card == top + BACK[p])
    return table


FIT = _fit_table()
_PILE_ROWS = np.arange(4)[:, None]


#: a hand's slot that holds no card (``slots``: a hand's cards as indexes, the rest PAD)
PAD = N_CARDS


#: +1 for the up piles, -1 for the down ones: a card goes on pile p topped by t when
#: ``SIGN[p] * (card - t)`` is above 0 (onward) or is -10 (the backwards trick)
SIGN = np.where(IS_UP, 1, -1)
#: The fits are worked out on a 64-bit word a card, four 16-bit lanes (one a pile): the card's
#: lanes ``LANE + SIGN[p] * card`` plus the table's ``LANE - SIGN[p] * top`` give
#: ``2 LANE + SIGN[p] * (card - top)`` in one addition (no lane carries into the next: each
#: stays within 0..4 LANE), so that one int64 addition and two uint16 comparisons do the work
#: of four lookups by each pile's top (whose index sums cost more than the lookups).
LANE = 1024


def _lanes(numbers: np.ndarray) -> np.ndarray:
    """(M,) uint64: the rows of ``numbers`` (M, 4) (each 0..2 LANE) as four 16-bit lanes
    (laid out as in memory: the same on any byte order)."""
    return np.ascontiguousarray(numbers.astype(np.uint16)).view(np.uint64).reshape(-1)


#: (99,) each card index's lanes, and for PAD lanes below every top's by more than 10 on
#: either sign (it fits nothing)
CARD_LANES = _lanes(np.concatenate([LANE + CARD_OF[:, None] * SIGN, np.full((1, 4), 100)]))
#: every lane LANE; the up piles' lanes, the down piles' (masks of a table's tops as lanes)
LANES = _lanes(np.full((1, 4), LANE))[0]
UP_LANES = _lanes(np.where(IS_UP, 0xFFFF, 0)[None])[0]
DOWN_LANES = ~UP_LANES


def top_lanes(tops: np.ndarray) -> np.ndarray:
    """(M,) uint64: the table's lanes ``LANE - SIGN[p] * top`` of ``tops`` (M, 4), worked out
    on the four tops as one word (no lane borrows: the tops are below LANE), not on each."""
    word = _lanes(tops)
    return np.asarray(LANES + (word & DOWN_LANES) - (word & UP_LANES))


def slot_fit_words(slots: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """(k, M) uint32 (the slots' axis first: the table's lanes then add along rows): the four
    bytes (0/1, pile 0..3 in memory order) saying on which piles of ``tops`` (M, 4) the card
    of each slot of the hands ``slots`` (M, k) (card indexes, PAD for none) goes."""
    lanes = np.take(CARD_LANES, slots.T)
    lanes += top_lanes(tops)
    sums = lanes.view(np.uint16)
    fits = sums > 2 * LANE
    fits |= sums == 2 * LANE - 10
    return fits.view(np.uint32)


def write_slot_plays(mask: np.ndarray, slots: np.ndarray, tops: np.ndarray) -> None:
    """Write the plays of the hands given by their slots (M, k) (card indexes, PAD for none)
    on ``tops`` (M, 4) into ``mask[:, :392]`` (int8, action 4 k + p): a card's four bytes
    (its plays on piles 0..3, as one word) put in their places of a row of aligned words,
    then copied in bytes (working on all 98 cards' words, multiplied by a 0/1 hand, read and
    wrote ten times the bytes)."""
    m, w = len(mask), N_CARDS + 1
    words = np.zeros((m, w), dtype=np.uint32)  # (column PAD takes the empty slots' 0s)
    words.reshape(-1)[slots.T + np.arange(m) * w] = slot_fit_words(slots, tops)
    mask[:, :PLAYS] = words[:, :N_CARDS].view(np.int8).reshape(m, PLAYS)


def slot_fitting(slots: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """(M, k) bools: which cards of the hands given by their slots (M, k) fit some pile of
    ``tops`` (M, 4) (False for PAD)."""
    return np.asarray(slot_fit_words(slots, tops) != 0).T


def slot_fit_any(slots: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """(M,) bools: does some card of the hands ``slots`` (M, k) fit some pile of ``tops``?"""
    return np.asarray(slot_fit_words(slots, tops).any(axis=0))


def _slot_second_play(slots: np.ndarray, tops: np.ndarray, card: np.ndarray) -> np.ndarray:
    """(M,) bools: with ``card`` (M,) the only card of the hands ``slots`` that fits, can a
    second card follow it? Only the pile it goes on changes, so another card must fit that
    pile then."""
    rest = np.where(slots == card[:, None], PAD, slots)
    # all four piles at once: does the card go on pile p, and would another follow it there
    on_card = np.repeat(CARD_OF[card][:, None], 4, axis=1)
    follows = np.bitwise_or.reduce(slot_fit_words(rest, on_card), axis=0).view(bool)
    goes = FIT[_PILE_ROWS, tops.T, card]
    return np.asarray((goes & follows.reshape(-1, 4).T).any(axis=0))


def slot_can_run(slots: np.ndarray, tops: np.ndarray, count: np.ndarray) -> np.ndarray:
    """(M,) bools: can ``count`` cards of the hands ``slots`` (M, k) be played one after
    another on ``tops`` (``can_play_run``, for every row at once)? Cards that fit now can all
    be played; of the rows with fewer fitting cards than ``count`` (but some), those with one
    fitting card and two to play look for a second card on arrays, the few others search
    with the rules' own ``can_play_run``."""
    fit = slot_fitting(slots, tops)
    fit_count = fit.sum(axis=1)
    ok = (count <= 0) | (fit_count >= count)
    short = ~ok & (fit_count > 0)
    one = short & (count == 2) & (fit_count == 1)
    two = np.flatnonzero(one)
    if two.size:
        held = slots[two]
        card = held[np.arange(two.size), np.argmax(fit[two], axis=1)]
        ok[two] = _slot_second_play(held, tops[two], card)
    for i in np.flatnonzero(short & ~one).tolist():
        cards = sorted((slots[i][slots[i] != PAD] + CARDS[0]).tolist())
        ok[i] = can_play_run(cards, tops[i].tolist(), int(count[i]))
    return ok


class TheGameVectorEnv(VectorEnv):
    """``num_envs`` games of The Game for one player (default options, or ``options``), as
    many ``make_gym_env("the-game", players=1, options=..., talk_limit=...,
    max_steps=..., illegal_reward=...)`` would play them (module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int | None = 1,
        options: Mapping[str, Any] | None = None,
        talk_limit: int = 2,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        game = GAME
        count, self.options = game.check_options(players, options or {})
        if count != 1:
            raise ValueError("the vector environment of The Game plays it alone (players=1)")
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if talk_limit < 0:
            raise ValueError("talk_limit must be 0 or more")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1 (or None: no limit)")
        self.encoding = load_encoding(game, 1, self.options)
        self.num_envs = num_envs
        self.talk_limit, self.max_steps = talk_limit, max_steps
        self.illegal_reward = float(illegal_reward)
        self.metadata = {**self.metadata}
        self.single_observation_space = spaces.Box(
            low=0.0, high=self.encoding.layout.high(), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(len(self.encoding.actions))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._busy = 3 if self.options["pro"] else 2  # the minimum while the draw pile lasts
        self._empty = int(self.options["min_after_empty"])
        n = num_envs
        #: the hand as card indexes, ``size`` of them first, then PAD (the mask and the
        #: observation read a few slots instead of 98 columns); the only copy of the hand
        self.slots = np.full((n, HAND), PAD, dtype=np.int64)
        self.size = np.zeros(n, dtype=np.int64)  # cards in the hand
        self.deck = np.zeros((n, N_CARDS), dtype=np.int64)
        self.next = np.full(n, N_CARDS, dtype=np.int64)  # the deck's next card to draw
        self.tops = np.tile(np.array(START_TOPS, dtype=np.int64), (n, 1))
        self.played = np.zeros(n, dtype=np.int64)
        self.signals = np.zeros((n, 4), dtype=np.int64)  # 0 none, 1 avoid, 2 small, 3 good
        self.said = np.zeros(n, dtype=np.int64)  # the signals as one number (SIGNAL_CODE)
        self.talked = np.zeros(n, dtype=np.int64)
        self.steps = np.zeros(n, dtype=np.int64)
        self.over = np.ones(n, dtype=bool)
        self._autoreset = np.zeros(n, dtype=bool)
        self._gens: list[np.random.Generator | None] = [None] * n
        self._ahead: list[list[int]] = [[] for _ in range(n)]  # seeds drawn, next last
        #: each env's deal seed, this episode (``game.deal(seed, 1, options)`` is its deal)
        self.seeds: list[int] = [0] * n
        self._rows = np.arange(n)
        self._row_first = self._rows * self.encoding.size  # each env's first flat index
        #: (N, 4): each env's piles' one-hots' flat index of top 0
        self._pile_first = self._row_first[:, None] + PILE_STARTS
        self._hand_first = self._row_first[:, None] + _F["hand"].start  # (N, 1)
        self.minimum = np.zeros(n, dtype=np.int64)  # each seat's minimum this turn
        self._mask = np.zeros((n, N_ACTIONS), dtype=np.int8)
        self._legal_now = self._mask.view(bool)  # the mask's own copy: what a step accepts
        self._dealt = False

    # -- deals ------------------------------------------------------------------------------
    def _deal(self, rows: np.ndarray, seeds: Sequence[int | None]) -> None:
        """Deal the envs ``rows`` ``seeds``: a seed re-seeds the env's generator (as
        ``gymnasium.Env.reset`` does), None deals the next draw of its generator."""
        dealt = deal_seeds(rows.tolist(), seeds, self._gens, self._ahead, self.seeds, gym_generator)
        self._put(rows, dealt)

    def _put(self, rows: np.ndarray, seeds: list[int]) -> None:
        """The deals of ``seeds`` into the envs ``rows``."""
        deck = decks(seeds)
        self.deck[rows] = deck
        self.slots[rows] = deck[:, :HAND] - CARDS[0]
        self.size[rows] = HAND
        self.next[rows] = HAND
        self.tops[rows] = START_TOPS
        self.played[rows] = 0
        self.signals[rows] = 0
        self.said[rows] = 0
        self.talked[rows] = 0
        self.steps[rows] = 0
        # every card fits the fresh piles, so a deal always plays its minimum (at most 3)
        self.over[rows] = False

    @property
    def hand(self) -> np.ndarray:
        """(N, 98) bools: each env's hand over the cards 2..99, worked out from the slots (a
        new array each time: kept beside the slots, it cost a few per cent of a step).
        Read-only, so that a write into it fails instead of changing nothing."""
        hand = np.zeros((self.num_envs, N_CARDS + 1), dtype=bool)  # (column PAD: empty slots)
        hand[self._rows[:, None], self.slots] = True
        out = hand[:, :N_CARDS]
        out.flags.writeable = False
        return out

    def _minimum(self, rows: np.ndarray) -> np.ndarray:
        return np.where(self.next[rows] < N_CARDS, self._busy, self._empty)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every env (seeds: module docstring); ``options`` is accepted as the API asks,
        the game's options are the constructor's."""
        n = self.num_envs
        seeds = reset_seeds(seed, n)
        self._deal(np.arange(n), seeds)
        self._autoreset[:] = False
        self._dealt = True
        self.minimum = self._minimum(self._rows)
        return self._observe(), self._info()

    # -- steps ------------------------------------------------------------------------------
    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._dealt:
            raise RuntimeError("reset the environment first")
        a = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if (a.view(np.uint64) >= N_ACTIONS).any():  # (a negative one: huge)
            raise ValueError(f"action indices are 0..{N_ACTIONS - 1}, not {a.tolist()}")
        n = self.num_envs
        reward = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        fresh = np.flatnonzero(self._autoreset)
        live = ~self._autoreset
        self.steps += live  # (a bool adds 0 or 1: cheaper than a masked write)
        legal = live & self._legal_now.reshape(-1)[self._rows * N_ACTIONS + a]
        illegal = live & ~legal
        was_over = self.over.copy()
        self._apply(np.flatnonzero(legal), a)
        ended = legal & self.over & ~was_over
        left = self.size[ended] + N_CARDS - self.next[ended]
        reward[ended] = (N_CARDS - left) / N_CARDS
        reward[illegal] = self.illegal_reward
        terminated[ended | illegal] = True
        if self.max_steps is not None:
            truncated[:] = legal & ~self.over & (self.steps >= self.max_steps)
        if fresh.size:  # dealt again without a seed: the next of each one's generator
            self._put(fresh, next_seeds(fresh, self._gens, self._ahead, self.seeds))
        self._autoreset = terminated | truncated
        self.minimum = self._minimum(self._rows)
        return self._observe(), reward, terminated, truncated, self._info()

    def _apply(self, rows: np.ndarray, a: np.ndarray) -> None:
        """The legal actions ``a`` of the envs ``rows``: signals, plays, ends."""
        act = a[rows]
        talk = act >= SIGNAL0
        if talk.any():
            said, rows = rows[talk], rows[~talk]
            word = (act[talk] - SIGNAL0) % 4
            pile, new = (act[talk] - SIGNAL0) // 4, np.where(word < 3, word + 1, 0)
            self.said[said] += (new - self.signals[said, pile]) * SIGNAL_CODE[pile]
            self.signals[said, pile] = new
            self.talked[said] += 1
        self.talked[rows] = 0
        act = a[rows]
        ends = rows[act == END]
        k = np.flatnonzero(act < END)  # (indexes once: a bool mask is counted at each use)
        plays, act = rows[k], act[k]
        card, pile = act >> 2, act & 3
        left = self.size[plays] - 1
        self.size[plays] = left
        # the card's slot takes the last card's, the last slot PAD
        slots, first = self.slots.reshape(-1), plays * HAND
        where = first + np.argmax(np.take(self.slots, plays, axis=0) == card[:, None], axis=1)
        last = first + left
        slots[where] = slots[last]
        slots[last] = PAD
        self.tops.reshape(-1)[plays * 4 + pile] = CARD_OF[card]
        played = self.played[plays] + 1
        self.played[plays] = played
        out = left == 0  # a hand played out ends its turn by itself
        check = plays[np.flatnonzero(~out & (played < self.minimum[plays]))]
        stuck = ~slot_fit_any(np.take(self.slots, check, axis=0), self.tops[check])
        self.over[check[stuck]] = True  # stuck before the minimum
        self._end_turn(np.concatenate([ends, plays[out]]))

    def _end_turn(self, rows: np.ndarray) -> None:
        """Draw back up to the hand size, then the next turn (the same seat): over when the
        hand is empty (won) or cannot play its minimum."""
        if rows.size == 0:
            return
        have, old = self.size[rows], self.next[rows]
        take = np.minimum(HAND - have, N_CARDS - old)
        step = np.arange(HAND)
        drawn = step < take[:, None]  # (rows, 8): the j-th card drawn from the deck
        at = np.minimum(old[:, None] + step, N_CARDS - 1)
        cards = np.take(self.deck, rows[:, None] * N_CARDS + at)
        self.slots.reshape(-1)[(rows[:, None] * HAND + have[:, None] + step)[drawn]] = (
            cards[drawn] - CARDS[0]
        )
        new, size = old + take, have + take
        self.next[rows] = new
        self.size[rows] = size
        self.played[rows] = 0
        empty = size == 0
        self.over[rows[empty]] = True  # every card is played: won
        going = rows[~empty]
        minimum = np.where(new[~empty] < N_CARDS, self._busy, self._empty)
        self.over[going] = ~slot_can_run(
            np.take(self.slots, going, axis=0), self.tops[going], minimum
        )

    # -- what the seat sees -----------------------------------------------------------------
    def _observe(self) -> np.ndarray:
        """The encoding's observation of each env's view (``TheGameEncoding.observe``)."""
        out = np.zeros((self.num_envs, self.encoding.size), dtype=np.float32)
        flat = out.reshape(-1)
        tops = self.tops
        flat[self._pile_first + tops] = 1  # the piles' one-hots
        f = _F["tops"].start
        out[:, f : f + 4] = np.take(TOP_NUMBER, tops)
        # the hand's 1s by flat index; a PAD slot's 1 falls on draw_pile, the column after the
        # hand, written next
        flat[self._hand_first + self.slots] = 1
        size = self.size
        draw = N_CARDS - self.next
        out[:, _F["draw_pile"].start] = draw / N_CARDS
        out[:, _F["cards_left"].start] = (draw + size) / N_CARDS
        out[:, _F["played_this_turn"].start] = np.minimum(self.played, MAX_HAND) / MAX_HAND
        minimum = np.minimum(np.maximum(self.minimum, 1), MINIMUMS)  # (np.clip costs more)
        flat[self._row_first + (_F["minimum"].start - 1) + minimum] = 1
        out[:, _F["players"].start] = 1
        out[:, _F["over"].start] = self.over
        out[:, _F["seat0.present"].start] = 1
        out[:, _F["seat0.turn"].start] = ~self.over
        out[:, _F["seat0.hand_size"].start] = size / MAX_HAND
        f = _F["seat0.signals"].start
        out[:, f : f + 12] = np.take(SIGNAL_HOT, self.said, axis=0)
        return out

    def _legal(self) -> np.ndarray:
        """(N, 409) int8: the single env's mask, its legal actions (talk while under the
        talk limit), nothing once over."""
        n = self.num_envs
        mask = np.zeros((n, N_ACTIONS), dtype=np.int8)
        live = ~self.over
        write_slot_plays(mask, self.slots, self.tops)
        mask[:, END] = self.played >= self.minimum
        talk = live & (self.talked < self.talk_limit)
        mask[:, SIGNAL0:] = np.take(SIGNAL_MOVES, np.where(talk, self.said, SILENT), axis=0)
        mask[~live] = 0
        return mask

    def _info(self) -> dict[str, Any]:
        # handed out as it is (a caller may write to it); the next step reads its own copy
        self._mask = self._legal()
        self._legal_now = self._mask.view(bool).copy()
        return {
            "action_mask": self._mask,
            "_action_mask": np.ones(self.num_envs, dtype=bool),
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (N, 409) (MaskablePPO's hook)."""
        return self._mask.astype(bool)
