"""The review of a finished game: every decision of every seat, judged from that seat's view.

For each decision (a seat with more than one legal move that is not talk) the game's
``review_bot``, which has been shown that seat's views and nothing else, names the best move.
Both it and the move played are then tried on the same positions sampled from the seat's view
(common random numbers: the two moves meet the same hidden cards, so their difference is not
drowned by luck) and scored by the game's judge. The chance of winning *before* the move is
the better of the two, *after* is the move played's; the drop marks the move. Where the call is
close to a mark's threshold, more samples are drawn.

The samples come from ``redraw_hidden``, which depends on the seat's view alone, and every
random number from the decision's place in the game: a review never changes with cards its
seat could not see, and the same record gives the same review on any machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.protocol import Game, Record, State
from cardtable.core.words import wire
from cardtable.review.judges import SAMPLES, Judge, Outcome, judge_for, judge_kind
from cardtable.review.verdict import verdict

#: the marks, worst first, with the drop in winning chance (points of 100) that earns each.
#: lichess marks chess moves at 5, 10 and 15; these games are far luckier, so the same sizes
#: would mark ordinary play (docs/review.md, "Where the marks fall")
MARKS = (("blunder", 30.0), ("mistake", 20.0), ("inaccuracy", 10.0))
#: the review's depth -> how many times the normal samples it draws
DEPTHS = {"quick": 0.5, "normal": 1.0, "deep": 3.0}
#: a close call draws more samples, up to this many times the first batch
MORE = 4
#: the review's own random stream (never the deal's seed, which would tie it to the cards)
SALT = 0x5EED_2027
#: the format of a review's JSON (``Review.data``); bump when it changes
FORMAT = 1

Review = dict[str, Any]
Progress = Callable[[int, int], None]


class NotFinished(ValueError):
    """Only a finished game is reviewed: its record is public and nothing is left to hide."""


class BudgetSpent(RuntimeError):
    """The review used up its processor time before it was done."""


@dataclass
class _Tally:
    """One move's samples so far: per move tried, the outcomes in sample order."""

    played: list[Outcome]
    best: list[Outcome]

    def chances(self) -> tuple[float, float]:
        return _share(self.best), _share(self.played)

    def drop_error(self) -> float:
        """The standard error of the drop (points), from the paired differences."""
        n = len(self.played)
        if n < 2:
            return 100.0
        diffs = [b.won - p.won for b, p in zip(self.best, self.played, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return 100 * math.sqrt(var / n)


def _share(outcomes: list[Outcome]) -> float:
    return 100 * sum(o.won for o in outcomes) / len(outcomes)


def _mean(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 2) if known else None


def mark_of(drop: float) -> str | None:
    """The mark a drop of ``drop`` points earns (``MARKS``), or None."""
    return next((name for name, at in MARKS if drop >= at), None)


def move_accuracy(drop: float) -> float:
    """A move's accuracy from its drop, as lichess computes it from the drop in win chance
    (its published fit): 100 for no drop, about 64 for 10 points, 25 for 30."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669))


class _Reviewer:
    def __init__(self, game: Game, depth: str, budget: float | None) -> None:
        self.game = game
        self.bot = game.review_bot or game.advisor or game.fallback_bot
        self.judge: Judge = judge_for(game)
        self.kind = judge_kind(game)
        self.samples = max(2, round(SAMPLES[self.kind] * DEPTHS[depth]))
        self.budget = budget
        self.started = time.process_time()

    def check_budget(self) -> None:
        if self.budget is not None and time.process_time() - self.started > self.budget:
            raise BudgetSpent(f"the review used its {self.budget:g} s of processor time")

    def _outcome(self, sample: State, seat: int, action: str, rng_seed: int) -> Outcome:
        trial = sample.clone()
        trial.act(seat, action)
        return self.judge(trial, seat, random.Random(rng_seed))

    def tally(self, state: State, step: int, seat: int, played: str, best: str) -> _Tally:
        """Both moves on the same samples, more of them while the mark is in doubt."""
        tally = _Tally([], [])
        fixed = self._is_fixed(state, seat, step)
        batch = 1 if fixed else self.samples
        while True:
            for k in range(len(tally.played), len(tally.played) + batch):
                seed = (SALT * 1_000_003 + step) * 10_007 + k
                sample = state.redraw_hidden(seat, random.Random(seed))
                outcome = self._outcome(sample, seat, played, seed)
                tally.played.append(outcome)
                tally.best.append(
                    outcome if best == played else self._outcome(sample, seat, best, seed)
                )
            if fixed or best == played or len(tally.played) >= MORE * self.samples:
                return tally
            before, after = tally.chances()
            drop, error = before - after, tally.drop_error()
            if not any(abs(drop - at) < 2 * error for _, at in MARKS):
                return tally

    def _is_fixed(self, state: State, seat: int, step: int) -> bool:
        """Whether nothing is hidden from the seat and the judge is exact: one sample is all."""
        if self.kind != "solver":
            return False
        first = state.redraw_hidden(seat, random.Random(step))
        return first == state.redraw_hidden(seat, random.Random(step + 1))

    def decision(self, state: State, step: int, seat: int, played: str, best: str) -> dict:
        tally = self.tally(state, step, seat, played, best)
        chance_best, chance_played = tally.chances()
        if chance_played > chance_best:  # the move played did better: it was the best found
            best, chance_best, tally.best = played, chance_played, tally.played
        drop = chance_best - chance_played
        move: dict[str, Any] = {
            "step": step,
            "seat": seat,
            "played": played,
            "best": best,
            "before": round(chance_best, 1),
            "after": round(chance_played, 1),
            "drop": round(drop, 1),
            "mark": mark_of(drop),
            "accuracy": round(move_accuracy(drop), 1),
            "samples": len(tally.played),
        }
        if tally.played[0].score is not None:
            move["score_before"] = _mean([o.score for o in tally.best])
            move["score_after"] = _mean([o.score for o in tally.played])
        if self._ranked(state):
            move["rank_before"] = _mean([o.rank for o in tally.best])
            move["rank_after"] = _mean([o.rank for o in tally.played])
        return move

    def _ranked(self, state: State) -> bool:
        return not self.game.cooperative and state.players > 1


def review_record(
    record: Record,
    *,
    depth: str = "normal",
    seats: list[int] | None = None,
    ended: bool = False,
    budget: float | None = None,
    progress: Progress | None = None,
) -> Review:
    """The review of the finished game ``record`` (``BadRecord`` if it does not replay).

    ``ended``: the game was ended at its table (a resignation) though its rules did not end
    it; otherwise a record that does not reach the game's end is ``NotFinished``. ``seats``:
    only these (default every seat). ``budget``: processor seconds, then ``BudgetSpent``.
    ``progress(done, total)`` is called after each of the seats' actions.
    """
    final = games.replay(record)
    game = final.game
    if not (final.over or ended):
        raise NotFinished("the game is not over: only a finished game is reviewed")
    chosen = sorted(set(range(final.players) if seats is None else seats))
    if not set(chosen) <= set(range(final.players)):
        raise ValueError(f"the seats of this game are 0 to {final.players - 1}")
    talk = game.is_talk
    total = sum(1 for seat, action in record["actions"] if seat in chosen and not talk(action))
    walk = steps(game, record)
    review = review_steps(
        game, walk, chosen, depth=depth, budget=budget, progress=progress, total=total
    )
    review["verdict"] = verdict(game, record)
    return review


def steps(game: Game, record: Record) -> Iterator[tuple[State, int, str]]:
    """``(position before, seat, action)`` for each action of ``record`` (one state, moved
    on after each: use each position before asking for the next)."""
    state = game.deal(record["seed"], record["players"], record["options"])
    for seat, action in record["actions"]:
        yield state, seat, action
        state.act(seat, action)


def review_steps(
    game: Game,
    walk: Iterable[tuple[State, int, str]],
    seats: list[int],
    *,
    depth: str = "normal",
    budget: float | None = None,
    progress: Progress | None = None,
    total: int = 0,
) -> Review:
    """The review of the game ``walk`` goes through (``steps``), for ``seats``, with no
    verdict; ``progress(done, total)`` after each of the seats' actions. It reads each
    position only through the seats' views and ``redraw_hidden``: positions the seats cannot
    tell apart give the same review (a test holds it to that)."""
    if depth not in DEPTHS:
        raise ValueError(f"the depths are {', '.join(DEPTHS)}, not {depth!r}")
    reviewer = _Reviewer(game, depth, budget)
    players = 0
    finders = {s: make_bot(reviewer.bot, game.name, seed=SALT + s) for s in seats}
    done, moves = 0, []
    for step, (state, seat, action) in enumerate(walk):
        players = state.players
        for s, bot in finders.items():  # each finder remembers what its seat saw, as a player
            observe = getattr(bot, "observe", None)
            if observe is not None:
                observe(state.view(s))
        if seat not in finders or game.is_talk(action):
            continue
        legal = [a for a in state.legal(seat) if not game.is_talk(a)]
        if len(legal) > 1:
            reviewer.check_budget()
            view = state.view(seat)
            best = finders[seat].choose(view, legal)
            move = reviewer.decision(state, step, seat, action, best)
            move["labels"] = {m: wire(game.move_label(view, move[m])) for m in ("played", "best")}
            moves.append(move)
        done += 1
        if progress is not None:
            progress(done, total)
    return {
        "format": FORMAT,
        "game": game.name,
        "players": players,
        "seats": seats,
        "depth": depth,
        "judge": reviewer.kind,
        "bot": reviewer.bot,
        "samples": reviewer.samples,
        "marks": {name: at for name, at in MARKS},
        "better": game.better,
        "moves": moves,
        "summary": _summary(moves, seats),
        "verdict": None,
    }


def _summary(moves: list[dict], seats: list[int]) -> list[dict]:
    """Per seat: its accuracy (the mean of its moves') and how many moves earned each mark."""
    out = []
    for seat in seats:
        mine = [m for m in moves if m["seat"] == seat]
        counts = {name: sum(1 for m in mine if m["mark"] == name) for name, _ in MARKS}
        accuracy = round(sum(m["accuracy"] for m in mine) / len(mine), 1) if mine else None
        out.append({"seat": seat, "decisions": len(mine), "accuracy": accuracy, **counts})
    return out
