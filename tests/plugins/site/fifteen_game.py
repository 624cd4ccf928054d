"""Fifteen: a tiny game from outside cardtable, to prove that a game is one module plus one
registration (the ``cardtable.games`` entry point in this folder's dist-info).

Rules. Eighteen cards, 1 to 9 twice, shuffled by the seed; each of 2 to 4 players holds three
face down, the rest is a face-down draw pile. In turn a player plays one card from their hand
onto the pile (``play N``) and adds it to the running total; a card that takes the total over
15 is a *bust*: the player scores one bust and the pile is cleared (total 0). Then the player
draws a card while the draw pile lasts. When every hand is empty the game ends; fewest busts
wins, ties share.

It uses only the protocol: no bot, no board, no renderer of its own, so every adapter shows it
through its generic fallback. It has a solver (``still_winnable``, registered in the entry-point
group ``cardtable.solvers``, which reads the face-down draw pile): a game that peeks at hidden
cards, played only at shared tables, where the server must never offer that peek
(``Game.tools_for``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from cardtable.core.errors import IllegalAction, MalformedAction, NotYourTurn
from cardtable.core.protocol import Game, Option, Result, State, View, ranks_of
from cardtable.core.rng import deal_key, reorder, shuffled

DECK = tuple(v for v in range(1, 10) for _ in range(2))
HAND = 3
LIMIT = 15


class FifteenGame(Game):
    name = "fifteen"
    title = "Fifteen"
    min_players = 2
    max_players = 4
    better = "low"
    options = (Option("limit", LIMIT, "the total a card must not pass", low=10, high=30),)

    def _deal(self, seed: int, players: int, options: dict[str, Any]) -> FifteenState:
        return FifteenState(seed, players, options)

    def describe_action(
        self, action: str, who: str, view: View | None = None, public: bool = False
    ) -> str:
        return f"{who} played {action.removeprefix('play ')}"


class FifteenState(State):
    game: FifteenGame

    def __init__(self, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(seed, players, options)
        deck = shuffled(DECK, deal_key("fifteen", seed))
        self.hands = [sorted(deck[s * HAND : (s + 1) * HAND]) for s in range(players)]
        self.draw = deck[players * HAND :]  # top last
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.busts = [0] * players
        self.turn = 0

    @property
    def over(self) -> bool:
        return not any(self.hands)

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def legal(self, seat: int) -> list[str]:
        if self.over or seat != self.turn:
            return []
        return [f"play {v}" for v in sorted(set(self.hands[seat]))]

    def _apply(self, seat: int, action: str) -> None:
        words = action.split(" ")
        if len(words) != 2 or words[0] != "play" or words[1] not in {str(v) for v in DECK}:
            raise MalformedAction(f"{action!r} is not a Fifteen action: 'play 7'")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn")
        card = int(words[1])
        if card not in self.hands[seat]:
            raise IllegalAction(f"you hold no {card}")
        self.hands[seat].remove(card)
        self.pile.append(card)
        if sum(self.pile) > self.options["limit"]:
            self.busts[seat] += 1
            self.discard += self.pile
            self.pile = []
        if self.draw:
            self.hands[seat] = sorted([*self.hands[seat], self.draw.pop()])
        if not self.over:
            self.turn = (self.turn + 1) % self.players
            while not self.hands[self.turn]:
                self.turn = (self.turn + 1) % self.players

    def view(self, seat: int | None) -> View:
        view: View = {
            "game": "fifteen",
            "seat": seat,
            "players": self.players,
            "to_act": list(self.to_act()),
            "hand": list(self.hands[seat])
            if seat is not None and 0 <= seat < self.players
            else None,
            "hand_sizes": [len(h) for h in self.hands],
            "draw_pile": len(self.draw),
            "pile": list(self.pile),
            "total": sum(self.pile),
            "limit": self.options["limit"],
            "busts": list(self.busts),
        }
        if self.over:
            view["result"] = self.result()
        return view

    def result(self) -> Result:
        ranks = ranks_of(self.busts, "low")
        over = self.over
        return {
            "over": over,
            "scores": list(self.busts),
            "ranks": ranks,
            "winners": [s for s in range(self.players) if ranks[s] == 1] if over else [],
        }

    def cards(self) -> Counter[Any]:
        return Counter([*(c for h in self.hands for c in h), *self.draw, *self.pile, *self.discard])

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": "fifteen",
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "hands": [list(h) for h in self.hands],
            "draw": list(self.draw),
            "pile": list(self.pile),
            "discard": list(self.discard),
            "busts": list(self.busts),
            "turn": self.turn,
            "actions": [list(a) for a in self.actions],
        }

    def redraw_hidden(self, seat: int | None, rng: random.Random) -> FifteenState:
        other = self.clone()
        hidden = [s for s in range(self.players) if s != seat]
        pool = [c for s in hidden for c in other.hands[s]] + other.draw
        reorder(pool, rng)
        for s in hidden:
            k = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:k]), pool[k:]
        other.draw = pool
        return other

    def clone(self) -> FifteenState:
        other = FifteenState.__new__(FifteenState)
        self._clone_base(other)
        other.hands = [h.copy() for h in self.hands]
        other.draw = self.draw.copy()
        other.pile = self.pile.copy()
        other.discard = self.discard.copy()
        other.busts = self.busts.copy()
        other.turn = self.turn
        return other


def still_winnable(state: FifteenState, budget: int | None = None) -> bool | None:
    """**Peeking**: whether the next card drawn, read from the face-down draw pile, fits on
    the pile without a bust (None: nothing is left to draw)."""
    if state.over or not state.draw:
        return None
    return state.draw[-1] <= state.options["limit"] - sum(state.pile)


GAME = FifteenGame()
FifteenState.game = GAME
