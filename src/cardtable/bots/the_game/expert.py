"""A strong bot for The Game that never talks: it plans its whole turn.

How it decides (all from its own views):

- It remembers every card it has seen played (pile tops it was shown, and cards that left its
  own hand), so it knows the *live* cards: those still to be played (its hand and the unseen).
- At the start of a turn (and whenever the table changed under its plan) it searches the
  sequences of plays from its hand this turn, at least the minimum, extras only when cheap or
  when they set up a backwards trick, and scores each resulting position.
- The score of a position counts, for every live card, how many piles will still take it; a
  card that fewer piles take is worth less, a card no pile takes is nearly a lost game. A jump
  that skips cards nobody holds any more costs nothing, and a backwards trick wins cards back.
- Its own remaining hand adds a term: cards that will fit closely later are kept, cards that
  would cost a big jump are better played while cheap.
- In the last draws (the draw pile at most ``draw_search`` cards, a setting per player count),
  it deals the cards it has not seen at random to the other hands (at their sizes) and the
  draw pile a few times, searches the rest of the game on each deal as if every card were
  known (``cardtable.solvers.the_game.winnable_after``), and plays the action after which the
  most deals can still be won, one action at a time.
- Once the draw pile is empty and at most one other seat holds cards, every hand is known: it
  searches the rest of the game exhaustively (``the_game_endgame.solve``) and plays its turn
  of a winning line when there is one.
- Once the draw pile is empty and two or more other seats hold cards, the cards still out are
  known as a set but not who holds which: it deals them at random to those seats (at their
  hand sizes) a dozen times, searches the rest of the game on each sample as if every hand
  were known, and plays the action that wins on the most samples
  (``the_game_endgame.sampled_choice``), one action at a time.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from typing import Any

from cardtable.bots import BotLegal, BotView
from cardtable.core.errors import BadOptions
from cardtable.games.the_game import CARDS, HAND_SIZE, PILES
from cardtable.solvers.the_game import winnable_after
from cardtable.solvers.the_game_endgame import (
    LOST,
    WON,
    cards_of,
    first_moves,
    sampled_choice,
    solve,
)

ALL_CARDS = sum(1 << c for c in CARDS)
# ABOVE[t]: the cards above t; BELOW[t]: the cards below t (as bit masks over 2..99)
ABOVE = [ALL_CARDS & ~((1 << (t + 1)) - 1) for t in range(102)]
BELOW = [ALL_CARDS & ((1 << t) - 1) for t in range(102)]

# Tuned by simulation (bench/the_game_bots.py); see docs/bots-lab.md, "The Game".
DEFAULTS: dict[str, Any] = {
    # value of a live card that 0, 1, 2, 3 or 4 piles still take
    "g": (-14.0, -5.0, -2.0, -0.8, 0.0),
    # a live card that fits a pile only by the backwards trick counts this much of a pile
    "trick_weight": 1.0,
    # each card played beyond the minimum while the draw pile lasts / once it is empty
    "extra": 0.6,
    "extra_empty": 0.3,
    # an extra play is searched only when its own cost is at most this (or it is a trick)
    "extra_cap": 4.0,
    # search at most this many positions a turn (a bound on the time a move takes)
    "nodes": 1500,
    # closest cards searched per pile
    "width": 1,
    # own hand: the cost of the closest fit of each kept card, weighted
    "hand_weight": 0.15,
    # a pair in hand ten apart (a backwards trick in waiting)
    "pair_bonus": 1.5,
    # once the draw pile is empty and every hand is known: search the rest of the game
    # exhaustively, within this many positions a move (0: never)
    "endgame_nodes": 30000,
    # once the draw pile is empty and two or more other seats hold cards: this many sampled
    # splits of the unseen cards among them, each searched to the end within sample_nodes
    # positions per search (0 samples: never)
    "samples": 12,
    "sample_nodes": 1000,
    # all the searches of one sampled decision together (a bound on the time of a move)
    "sample_total": 60000,
    # in the last draws: once the draw pile holds at most this many cards (0: never), this
    # many deals of the unseen cards (other hands and draw order), each action searched on
    # each within draw_nodes positions, draw_total in all for one action (a bound on its time)
    "draw_search": 0,
    "draw_samples": 8,
    "draw_nodes": 2000,
    "draw_total": 100000,
}

# Settings for one player count, over DEFAULTS (which were tuned with three to five players);
# each tuned by simulation for that count alone on seeds 50001 and up (docs/bots-lab.md, "Weights
# per player count" and its measured section). A setting given to the bot itself wins.
BY_PLAYERS: dict[int, dict[str, Any]] = {
    # alone, a full hand is worth more than a quick draw: extras only when they pay; with one
    # or two players a dead card costs more, and the last draws are searched on samples
    # (draw_total: 100000 positions took up to 1.16 s on a move alone; with 60000 the
    # longest of 10,000 games took 0.76 s)
    1: {
        "extra": -1.0,
        "g": (-23.66, -5.0, -2.0, -0.8, 0.0),
        "draw_search": 16,
        "draw_total": 60000,
    },
    2: {"g": (-23.66, -5.0, -2.0, -0.8, 0.0), "draw_search": 8},
}


def position_value(tops: list[int], live: int, params: dict[str, Any]) -> float:
    """How good the piles are for the live cards: each live card by how many piles take it."""
    g = params["g"]
    u0, u1, d0, d1 = tops
    if u0 > u1:
        u0, u1 = u1, u0  # u0: the lower up pile
    if d0 < d1:
        d0, d1 = d1, d0  # d0: the higher down pile
    # n(c) = [c > u0] + [c > u1] + [c < d0] + [c < d1]: the live cards split by how many up
    # piles (a0, a1, a2) and how many down piles (b0, b1, b2) take them
    a2 = live & ABOVE[u1]
    a1 = (live & ABOVE[u0]) ^ a2
    a0 = live ^ a1 ^ a2
    b2 = live & BELOW[d1]
    b1 = (live & BELOW[d0]) ^ b2
    b0 = live ^ b1 ^ b2
    value = (
        g[0] * (a0 & b0).bit_count()
        + g[1] * ((a1 & b0).bit_count() + (a0 & b1).bit_count())
        + g[2] * ((a2 & b0).bit_count() + (a1 & b1).bit_count() + (a0 & b2).bit_count())
        + g[3] * ((a2 & b1).bit_count() + (a1 & b2).bit_count())
        + g[4] * (a2 & b2).bit_count()
    )
    # live backwards-trick cards: one pile more takes them
    tw = params["trick_weight"]
    for c in (tops[0] - 10, tops[1] - 10, tops[2] + 10, tops[3] + 10):
        if 2 <= c <= 99 and live >> c & 1:
            m = (c > u0) + (c > u1) + (c < d0) + (c < d1)
            if m < 4:
                value += tw * (g[m + 1] - g[m])
    return value


def hand_value(
    hand: list[int], tops: list[int], prefix: list[int], params: dict[str, Any]
) -> float:
    """The kept hand: close fits are good, and pairs ten apart are tricks in waiting."""
    value = 0.0
    hw = params["hand_weight"]
    if hw:
        u0, u1, d0, d1 = tops
        if u0 > u1:
            u0, u1 = u1, u0
        if d0 < d1:
            d0, d1 = d1, d0
        for c in hand:
            best = 30
            t = u1 if c > u1 else u0 if c > u0 else 0
            if t:
                best = min(best, prefix[c - 1] - prefix[t])
            t = d1 if c < d1 else d0 if c < d0 else 0
            if t:
                best = min(best, prefix[t - 1] - prefix[c])
            value -= hw * best
    pb = params["pair_bonus"]
    if pb:
        for c in hand:
            if c + 10 in hand:
                value += pb
    return value


class TurnPlanner:
    """Searches the plays of one turn and returns the best sequence."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def penalty(self, start: list[int], tops: list[int], prefix: list[int]) -> float:
        """Cost of the pile changes to partners (none here; the team bot adds its signals)."""
        return 0.0

    def twins_alike(self, pile: int) -> bool:
        """Are ``pile`` and its twin (up1/up2, down1/down2) alike but for their tops?"""
        return True

    def leaf(
        self,
        start: list[int],
        tops: list[int],
        hand: list[int],
        live: int,
        prefix: list[int],
        extra: int,
        empty: bool,
    ) -> float:
        p = self.params
        v = position_value(tops, live, p) + hand_value(hand, tops, prefix, p)
        v += extra * (p["extra_empty"] if empty else p["extra"])
        return v - self.penalty(start, tops, prefix)

    def candidates(
        self, hand: list[int], tops: list[int], extras: bool, prefix: list[int]
    ) -> list[tuple[int, int]]:
        """The plays worth searching: per pile the closest cards, tricks and trick set-ups."""
        width = self.params["width"]
        cap = self.params["extra_cap"]
        held = set(hand)
        out = []
        n = len(hand)
        t0, t1, t2, t3 = tops
        # cards that set up a trick (x, then x-10 on an up pile; x, then x+10 on a down pile)
        ups = [c for c in hand if c - 10 in held]
        downs = [c for c in hand if c + 10 in held]
        for p, t in ((0, t0), (1, t1)):
            if p == 1 and t0 == t1 and self.twins_alike(1):
                continue  # the same as its twin pile
            if t - 10 in held:
                out.append((t - 10, p))
            i = bisect_right(hand, t)
            for c in hand[i : i + width]:
                if extras and prefix[c - 1] - prefix[t] > cap and c - 10 not in held:
                    continue
                out.append((c, p))
            if ups and i + width < n:
                beyond = hand[i + width]
                out.extend((c, p) for c in ups if c >= beyond)
        for p, t in ((2, t2), (3, t3)):
            if p == 3 and t2 == t3 and self.twins_alike(3):
                continue
            if t + 10 in held:
                out.append((t + 10, p))
            i = bisect_left(hand, t)
            lo = max(0, i - width)
            for c in hand[lo:i]:
                if extras and prefix[t - 1] - prefix[c] > cap and c + 10 not in held:
                    continue
                out.append((c, p))
            if downs and lo:
                below = hand[lo]
                out.extend((c, p) for c in downs if c < below)
        return out

    def plan(
        self, hand: list[int], tops: list[int], played: int, minimum: int, live: int, empty: bool
    ) -> list[tuple[int, int]]:
        """The best sequence of (card, pile) plays for this turn (possibly empty)."""
        prefix = [0] * 101
        k = 0
        for v in range(101):
            if live >> v & 1:
                k += 1
            prefix[v] = k
        start = list(tops)
        tops = list(tops)
        best: list[Any] = [float("-inf"), None]
        seen: set[tuple] = set()
        path: list[tuple[int, int]] = []

        def rec(hand: list[int], live: int, played: int) -> None:
            key = (tuple(hand), tops[0], tops[1], tops[2], tops[3])
            if key in seen:
                return
            seen.add(key)
            extras = played - minimum
            if extras >= 0:
                v = self.leaf(start, tops, hand, live, prefix, extras, empty)
                if v > best[0]:
                    best[0] = v
                    best[1] = path.copy()
            if not hand:
                return
            for c, p in self.candidates(hand, tops, extras >= 0, prefix):
                t = tops[p]
                tops[p] = c
                path.append((c, p))
                i = hand.index(c)
                guarded(hand[:i] + hand[i + 1 :], live & ~(1 << c), played + 1)
                path.pop()
                tops[p] = t

        budget = [self.params["nodes"]]

        def guarded(hand: list[int], live: int, played: int) -> None:
            if budget[0] <= 0 and best[1] is not None:
                return  # out of time: keep the best found (the first lines are the cheap ones)
            budget[0] -= 1
            rec(hand, live, played)

        rec(list(hand), live, played)
        return best[1] or []


class ExpertBot:
    """Plans its turn by search over its own hand; never signals."""

    games = ("the-game",)
    name = "expert"  # its name among the bots (``make_bot``)
    defaults: dict[str, Any] = DEFAULTS
    by_players: dict[int, dict[str, Any]] = BY_PLAYERS
    #: level -> settings over the rest. ``quick``: no sampled search of the last draws and the
    #: endgame (half the time of a game, a weaker finish): the players of a game review's
    #: playouts, of which a review needs thousands
    levels: dict[str, dict[str, Any]] = {"quick": {"samples": 0, "draw_search": 0}}

    def __init__(
        self,
        game: str,
        seed: int = 0,
        level: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        if level is not None and level not in self.levels:  # (the team bot's too)
            raise BadOptions(
                f"the {self.name} bot's levels are {', '.join(self.levels)}, not {level!r}"
            )
        self.game = game
        self.seed = seed
        # wins over the settings per player count
        self.given = {**self.levels.get(level or "", {}), **(params or {})}
        self.params = {**self.defaults, **self.given}
        self._tuned_for: int | None = None  # the player count the settings are for
        self.planner = self.make_planner()
        self.played = 0  # bit mask of the cards known to be played
        self._hand: list[int] = []
        self._plan: list[tuple[int, int]] = []
        self._plan_key: Any = None
        self._endgame_lost = False  # the endgame search proved the game lost
        self._one_move = False  # the sampled endgame decides one action at a time
        self._sampled: tuple[Any, Any] = (None, None)  # (position key, its sampled plan)
        # the samples of this turn: (unseen cards and sizes, samples, the position their
        # winning lines start from, the lines)
        self._samples: tuple[Any, Any, Any, Any] = (None, None, None, None)

    def make_planner(self) -> TurnPlanner:
        return TurnPlanner(self.params)

    # -- memory ----------------------------------------------------------------------------
    def observe(self, view: BotView) -> None:
        """Remember played cards: the view's list of them (a bot built mid-game, as a game
        review builds them, knows them all at once), else pile tops seen and own cards that
        left the hand (a view from before the list)."""
        played = self.played
        for c in view.get("played", ()):
            played |= 1 << c
        for p in PILES:
            top = view["piles"][p]
            if 2 <= top <= 99:
                played |= 1 << top
        hand = view["hand"] or []
        if self._hand:
            now = set(hand)
            for c in self._hand:
                if c not in now:
                    played |= 1 << c
        self._hand = list(hand)
        self.played = played

    def live(self, view: BotView) -> int:
        """Cards still to be played: all minus those known played (own hand included)."""
        live = ALL_CARDS & ~self.played
        for c in view["hand"]:
            live |= 1 << c
        return live

    # -- deciding --------------------------------------------------------------------------
    def plan_key(self, view: BotView) -> Any:
        return (
            tuple(view["piles"][p] for p in PILES),
            tuple(view["hand"]),
            view["played_this_turn"],
        )

    def choose(self, view: BotView, legal: BotLegal) -> str:
        self.observe(view)
        key = self.plan_key(view)
        if key != self._plan_key:
            tops = [view["piles"][p] for p in PILES]
            if view["players"] != self._tuned_for:
                self.tune_for(view["players"])
            solved = self.endgame_plan(view, tops)
            self._plan = (
                solved
                if solved is not None
                else self.planner.plan(
                    sorted(view["hand"]),
                    tops,
                    view["played_this_turn"],
                    view["minimum"],
                    self.live(view),
                    view["draw_pile"] == 0,
                )
            )
        if not self._plan:
            self._plan_key = key  # asked again unchanged (after a signal): still end
            return "end" if "end" in legal else self._fallback(legal)
        card, pile = self._plan.pop(0)
        action = f"play {card} {PILES[pile]}"
        if action not in legal:  # never happens with a sound plan; stay legal regardless
            self._plan = []
            self._plan_key = None
            return self._fallback(legal)
        # the view we expect at the next call, if nothing else changes
        tops = [view["piles"][p] for p in PILES]
        tops[pile] = card
        hand = list(view["hand"])
        hand.remove(card)
        self._plan_key = self.expect_key(
            view, (tuple(tops), tuple(hand), view["played_this_turn"] + 1)
        )
        if self._one_move:
            self._plan_key = None  # the next action is sampled again from the new position
        return action

    def tune_for(self, players: int) -> None:
        """Take the settings for ``players`` (in place: the planner holds the same dict)."""
        self.params.clear()
        self.params.update({**self.defaults, **self.by_players.get(players, {}), **self.given})
        self._tuned_for = players

    def endgame_plan(self, view: BotView, tops: list[int]) -> list[tuple[int, int]] | None:
        """This turn's plays of a winning line once every hand is known, else None.

        Every hand is known when the draw pile is empty and at most one other seat holds
        cards: the cards still out are that seat's hand.
        """
        self._one_move = False
        if 0 < view["draw_pile"] <= self.params["draw_search"]:
            plan = self.draw_plan(view, tops)
            if plan is not None:
                self._one_move = True
                return plan
        nodes = self.params["endgame_nodes"]
        if not nodes or view["draw_pile"] or self._endgame_lost:
            return None
        me = view["seat"]
        sizes = view["hand_sizes"]
        others = [s for s in range(view["players"]) if s != me and sizes[s]]
        if len(others) > 1:
            return self.sampled_plan(view, tops, others)
        mine = 0
        for c in view["hand"]:
            mine |= 1 << c
        out = self.live(view) & ~mine
        hands = [0] * view["players"]
        hands[me] = mine
        if others:
            if out.bit_count() != sizes[others[0]]:
                return None  # a card played unseen: do not trust the memory
            hands[others[0]] = out
        elif out:
            return None
        status, line = solve(tops, hands, me, view["played_this_turn"], view["minimum"], nodes)
        if status == LOST:
            self._endgame_lost = True  # lost from here on, whatever is played
        if status != WON:
            return None
        plan = []
        for seat, card, pile in line:
            if seat != me or not card:
                break
            plan.append((card, pile))
        return plan

    def sampled_plan(
        self, view: BotView, tops: list[int], others: list[int]
    ) -> list[tuple[int, int]] | None:
        """This action, from the endgame searched on sampled splits of the unseen cards, else
        None (the usual plan).

        The draw pile is empty and two or more other seats hold cards: the cards still out
        are known as a set, not who holds which. Each sample deals them to those seats at
        their hand sizes (seeded by the own hand and the unseen cards, so the same view gives
        the same samples); ``the_game_endgame.sampled_choice`` picks the action that wins on
        the most samples. One action at a time: within the turn the samples stay and their
        winning lines go on, so a later action searches only where the line was left.
        """
        count = self.params["samples"]
        if not count:
            return None
        me = view["seat"]
        sizes = view["hand_sizes"]
        mine = 0
        for c in view["hand"]:
            mine |= 1 << c
        out = self.live(view) & ~mine
        if out.bit_count() != sum(sizes[s] for s in others):
            return None  # a card played unseen: do not trust the memory
        played, minimum = view["played_this_turn"], view["minimum"]
        key = (tuple(tops), mine, played)
        deal = (out, tuple((s, sizes[s]) for s in others))
        if self._sampled[0] == (deal, key):
            again: list[tuple[int, int]] | None = self._sampled[1]  # asked again unchanged
            self._one_move = again is not None
            return again
        lines = None
        if self._samples[0] == deal and self._samples[2] == key:
            # the same turn, after our own action: each sample's winning line goes on
            samples, lines = self._samples[1], self._samples[3]
        else:
            samples = self.sample_splits(view, mine, out, others, count)
        usual = self.planner.plan(
            sorted(view["hand"]), tops, played, minimum, self.live(view), True
        )
        prefer = usual[0] if usual else None
        choice = sampled_choice(
            tops,
            samples,
            me,
            played,
            minimum,
            self.params["sample_nodes"],
            prefer,
            lines,
            self.params["sample_total"],
        )
        plan: list[tuple[int, int]] | None = None
        if choice is not None:
            action, _, _, after_lines = choice
            plan = [action] if action is not None else []
            self._one_move = True
            if action is not None:
                # the position after this play, where the samples' lines go on
                c, p = action
                nxt = list(tops)
                nxt[p] = c
                self._samples = (
                    deal,
                    [
                        [h if k != me else h & ~(1 << c) for k, h in enumerate(hands)]
                        for hands in samples
                    ],
                    (tuple(nxt), mine & ~(1 << c), played + 1),
                    after_lines,
                )
        self._sampled = ((deal, key), plan)
        return plan

    def draw_plan(self, view: BotView, tops: list[int]) -> list[tuple[int, int]] | None:
        """This action, from the rest of the game searched on sampled deals of the unseen
        cards (the other hands and the draw order), else None (the usual plan).

        Each first action of the turn position (the usual plan's first) is tried on every
        deal: it scores the deals that can still be won after it (``winnable_after``, within
        ``draw_nodes`` positions); the best score wins, the usual plan's action among equals.
        A deal searched with the draw order known wins more easily than the real one, but
        near the end the order matters little, and an action that loses on most deals is a
        real mistake. None when no deal can be won (the search has nothing to tell).
        """
        p = self.params
        me, n = view["seat"], view["players"]
        sizes = view["hand_sizes"]
        mine = 0
        for c in view["hand"]:
            mine |= 1 << c
        live = self.live(view)
        out = live & ~mine
        others = [s for s in range(n) if s != me and sizes[s]]
        if out.bit_count() != sum(sizes[s] for s in others) + view["draw_pile"]:
            return None  # a card played unseen: do not trust the memory
        deals = self.sample_deals(view, mine, out, others, p["draw_samples"])
        played, minimum = view["played_this_turn"], view["minimum"]
        usual = self.planner.plan(sorted(view["hand"]), tops, played, minimum, live, False)
        actions = first_moves(mine, tops, played, minimum)
        prefer = usual[0] if usual else None
        if prefer in actions:
            actions.remove(prefer)
            actions.insert(0, prefer)
        rules = {
            "hand_size": HAND_SIZE[n],
            "minimum_draw": minimum,
            "minimum_empty": view["minimum_empty"],
        }
        spent = [0]
        best, most = prefer, 0
        for action in actions:
            wins = 0
            for k, (hands, order) in enumerate(deals):
                if wins + len(deals) - k <= most or spent[0] >= p["draw_total"]:
                    break  # cannot beat the best any more, or out of positions
                budget = max(1, min(p["draw_nodes"], p["draw_total"] - spent[0]))
                wins += bool(
                    winnable_after(
                        tops, hands, order, me, played, action, budget=budget, spent=spent, **rules
                    )
                )
            if wins > most:
                best, most = action, wins
            if most == len(deals) or spent[0] >= p["draw_total"]:
                break
        if not most:
            return None
        return [best] if best is not None else []

    def sample_deals(
        self, view: BotView, mine: int, out: int, others: list[int], count: int
    ) -> list[tuple[list[int], list[int]]]:
        """``count`` deals of the unseen cards ``out``, uniformly at random: to the seats
        ``others`` at their hand sizes (a bit mask per seat, ours ``mine``), and the rest as
        the draw pile's order (first drawn first)."""
        # seeded by what the seat knows only: the same view history, the same samples
        # (whatever the bot's seed, like the rest of its play)
        sizes = view["hand_sizes"]
        rng = random.Random(f"{mine}:{out}:{sizes}")
        unseen = cards_of(out)
        samples = []
        for _ in range(count):
            rng.shuffle(unseen)
            hands = [0] * view["players"]
            hands[view["seat"]] = mine
            i = 0
            for s in others:
                for c in unseen[i : i + sizes[s]]:
                    hands[s] |= 1 << c
                i += sizes[s]
            samples.append((hands, unseen[i:]))
        return samples

    def sample_splits(
        self, view: BotView, mine: int, out: int, others: list[int], count: int
    ) -> list[list[int]]:
        """``count`` deals of the unseen cards ``out`` to the seats ``others`` at their hand
        sizes (the draw pile is empty), uniformly at random: each a bit mask per seat."""
        return [hands for hands, _ in self.sample_deals(view, mine, out, others, count)]

    def expect_key(self, view: BotView, base: Any) -> Any:
        """The plan key of the next view if only our play changes it."""
        return base

    def _fallback(self, legal: BotLegal) -> str:
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return plays[0]
        return "end" if "end" in legal else legal[0]

    def react(self, view: BotView, legal: BotLegal) -> str | None:
        """Say nothing; only watch the table to remember the cards played."""
        self.observe(view)
        return None
