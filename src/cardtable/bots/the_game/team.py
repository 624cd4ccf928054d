"""A cooperative bot for The Game: the expert's planning, plus the rule book's pile signals.

What it says (per pile, kept up to date after every action at the table, changed only when its
need changes):

- ``avoid``: "please don't play here": it holds the backwards trick for that pile, or a card
  that fits it almost exactly (at most one live card between);
- ``small``: "only a very small jump, please": it holds a card that fits the pile closely;
- ``good``: "I have good cards for this pile": two or more cards that fit it fairly closely;
- ``clear`` when none of that holds any more.

What it reads: every other seat's signals (a person's as well as a bot's). When it plans its
turn, moving a pile forward that a partner asked to keep costs it: ``avoid`` most, ``small`` by
the size of the jump; ``good`` is taken as a hint only (weighing it cost wins in simulation).
A backwards trick on such a pile costs nothing. In the sampled endgame (the expert's, once the
draw pile is empty) and in the search of the last draws it keeps the samples of the unseen
cards whose hands would signal what the partners show.
"""

from __future__ import annotations

from typing import Any

from cardtable.bots import BotLegal, BotView
from cardtable.bots.the_game.expert import BY_PLAYERS, DEFAULTS, ExpertBot, TurnPlanner
from cardtable.games.the_game import PILES
from cardtable.solvers.the_game_endgame import cards_of

TEAM_DEFAULTS: dict[str, Any] = {
    **DEFAULTS,
    # the cost of moving a pile forward against a partner's avoid / good signal; measured:
    # mild costs win more than strict ones (with four partners nearly every pile carries a
    # signal, and strict costs force big jumps elsewhere), and "good" is best left as a hint
    "avoid_cost": 2.0,
    "good_cost": 0.0,
    # against small: per live card jumped beyond small_free, at most small_max
    "small_cost": 0.4,
    "small_free": 1,
    "small_max": 2.5,
    # what we signal: best fit (live cards skipped) at most this for avoid / small / good
    "say_avoid": 1,
    "say_small": 4,
    "say_good": 8,
    # sampled endgame: draw this many times the samples and keep those that agree best with
    # the partners' signals (1: plain uniform samples)
    "signal_draws": 4,
}

# per player count, over TEAM_DEFAULTS (as the expert's BY_PLAYERS); the samples that agree
# with the partner's signals are good enough to search twice as many last draws with two
TEAM_BY_PLAYERS: dict[int, dict[str, Any]] = {
    **{n: dict(s) for n, s in BY_PLAYERS.items()},
    2: {**BY_PLAYERS[2], "draw_search": 16},
}


def needs(hand: list[int], tops: list[int], live: int, params: dict[str, Any]) -> dict[str, str]:
    """The signal per pile that ``hand`` calls for (see the module docstring), given the
    tops (in PILES order) and the live cards."""
    out: dict[str, str] = {}
    for i, pile in enumerate(PILES):
        top = tops[i]
        back = top - 10 if i < 2 else top + 10
        if back in hand:
            out[pile] = "avoid"
            continue
        costs = []
        for c in hand:
            if i < 2 and c > top:
                costs.append((live >> (top + 1) & ((1 << (c - top - 1)) - 1)).bit_count())
            elif i >= 2 and c < top:
                costs.append((live >> (c + 1) & ((1 << (top - c - 1)) - 1)).bit_count())
        if not costs:
            continue
        costs.sort()
        if costs[0] <= params["say_avoid"]:
            out[pile] = "avoid"
        elif costs[0] <= params["say_small"]:
            out[pile] = "small"
        elif len(costs) > 1 and costs[1] <= params["say_good"]:
            out[pile] = "good"
    return out


class SignalPlanner(TurnPlanner):
    """The expert's turn search, with partners' signals as costs."""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        # per pile: the partners' signals on it (set before each search)
        self.signals: list[list[str]] = [[], [], [], []]

    def twins_alike(self, pile: int) -> bool:
        return self.signals[pile] == self.signals[pile - 1]

    def penalty(self, start: list[int], tops: list[int], prefix: list[int]) -> float:
        cost = 0.0
        p = self.params
        for i in range(4):
            said = self.signals[i]
            if not said:
                continue
            old, new = start[i], tops[i]
            if i < 2:
                if new <= old:
                    continue  # unchanged, or stepped back by a trick: fine for everyone
                jumped = prefix[new - 1] - prefix[old]
            else:
                if new >= old:
                    continue
                jumped = prefix[old - 1] - prefix[new]
            for s in said:
                if s == "avoid":
                    cost += p["avoid_cost"]
                elif s == "small":
                    cost += min(p["small_max"], p["small_cost"] * max(0, jumped - p["small_free"]))
                elif s == "good":
                    cost += p["good_cost"]
        return cost


class TeamBot(ExpertBot):
    """Plans like the expert, avoids the piles partners asked to keep, and says what it needs."""

    games = ("the-game",)
    name = "team"
    defaults = TEAM_DEFAULTS
    by_players = TEAM_BY_PLAYERS

    def __init__(
        self,
        game: str,
        seed: int = 0,
        level: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(game, seed, level, params)  # the expert's levels
        self._wanted_key: Any = None
        self._wanted: dict[str, str] = {}

    def make_planner(self) -> TurnPlanner:
        return SignalPlanner(self.params)

    # -- reading ---------------------------------------------------------------------------
    def _partner_signals(self, view: BotView) -> tuple[tuple[str, ...], ...]:
        me = view["seat"]
        per_pile = []
        for p in PILES:
            per_pile.append(
                tuple(
                    sorted(s[p] for seat, s in enumerate(view["signals"]) if seat != me and p in s)
                )
            )
        return tuple(per_pile)

    def choose(self, view: BotView, legal: BotLegal) -> str:
        self.observe(view)
        assert isinstance(self.planner, SignalPlanner)
        # The plan is made with the signals standing when the turn starts: the changes during
        # the turn are mostly answers to our own plays, and replanning on each costs time.
        self.planner.signals = [list(s) for s in self._partner_signals(view)]
        action = super().choose(view, legal)
        if action == "end":
            # before passing the turn, tell the next players what the kept hand needs
            said = self._signal_change(view, legal)
            if said is not None:
                return said
        return action

    # -- saying ----------------------------------------------------------------------------
    def wanted_signals(self, view: BotView) -> dict[str, str]:
        """What this seat needs now, per pile, from its hand and the live cards."""
        hand = view["hand"] or []
        if not hand:
            return {}
        live = self.live(view)
        key = (tuple(view["piles"][pile] for pile in PILES), tuple(hand), live)
        if key == self._wanted_key:
            return self._wanted  # asked again after talk only: nothing it depends on changed
        out = needs(hand, [view["piles"][pile] for pile in PILES], live, self.params)
        self._wanted_key, self._wanted = key, out
        return out

    def sample_deals(
        self, view: BotView, mine: int, out: int, others: list[int], count: int
    ) -> list[tuple[list[int], list[int]]]:
        """Deals of the unseen cards that agree best with the partners' signals (for the
        sampled endgame and the search of the last draws).

        ``signal_draws`` times ``count`` uniform deals are drawn; each scores one point per
        other seat and pile where the signal this bot would give with that hand is the one
        the seat shows (a person, or a signal not yet updated, just scores less), and the
        ``count`` best are kept (the first drawn among equals).
        """
        draws = self.params["signal_draws"]
        pool = super().sample_deals(view, mine, out, others, count * max(1, draws))
        if draws <= 1:
            return pool
        tops = [view["piles"][pile] for pile in PILES]
        live = self.live(view)
        shown = view["signals"]

        def score(hands: list[int]) -> int:
            agree = 0
            for s in others:
                said = needs(cards_of(hands[s]), tops, live, self.params)
                agree += sum(said.get(pile) == shown[s].get(pile) for pile in PILES)
            return agree

        ranked = sorted(range(len(pool)), key=lambda i: -score(pool[i][0]))
        return [pool[i] for i in ranked[:count]]

    def _signal_change(self, view: BotView, legal: BotLegal) -> str | None:
        """One signal to set or clear so ours match our needs (avoid first), or None."""
        if view.get("over"):
            return None
        wanted = self.wanted_signals(view)
        mine = view["signals"][view["seat"]]
        changes = []
        for pile in PILES:
            want, have = wanted.get(pile), mine.get(pile)
            if want == have:
                continue
            action = f"signal {pile} {want or 'clear'}"
            rank = 0 if want == "avoid" else 1 if want else 2
            changes.append((rank, action))
        for _, action in sorted(changes):
            if action in legal:
                return action
        return None

    def react(self, view: BotView, legal: BotLegal) -> str | None:
        self.observe(view)
        return self._signal_change(view, legal)
