"""Solitaire comfort on the server: hints, "still winnable?" and per-player statistics.

Hints and the solver think in a worker process of their own (:class:`Advice`), never on the
event loop: a hint took 95 ms of the loop (833 ms in the worst position found), and a flood
of them held every other table. Each player may ask a few at a time (``HINTS``, ``PEEKS``),
and at most ``ADVICE_QUEUE`` questions wait for the worker; beyond, the answer is 503 ``busy``.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

from cardtable.core.words import translatable, wire
from cardtable.server.api.limits import RateLimiter, TooMany
from cardtable.server.tables.botpool import BotFailed, BotPool, RemoteBot, WorkerGone

_, _n = translatable("cardtable")

if TYPE_CHECKING:
    from cardtable.server.storage import store as db
    from cardtable.server.tables.live import LiveTable

#: hints per player: 5 at once, then one a second
HINTS = (1.0, 5)
#: "still winnable?" per player (a solver run of up to WINNABLE_BUDGET nodes): 3 at once,
#: then one every 10 s
PEEKS = (0.1, 3)
#: worker processes for advice, apart from the bots' workers (a hint flood never delays a bot)
ADVICE_WORKERS = 1
#: questions waiting for (or in) the advice worker, server-wide
ADVICE_QUEUE = 16
#: seconds a hint, and a "still winnable?" run, may think before its worker is killed
HINT_TIMEOUT = 10.0
WINNABLE_TIMEOUT = 30.0
BUSY_RETRY = 1.0  # seconds to wait after a 503 busy
WINNABLE_BUDGET = 2_000_000  # solver nodes for "still winnable?" (None beyond: no answer)


class WinnableProbe:
    """The solver's question as a bot-shaped object, so a bot worker can run it."""

    def __init__(self, state: Any, budget: int) -> None:
        self.state = state
        self.budget = budget

    def ask(self, _view: Any, _legal: Any) -> bool | None:
        return self.state.game.still_winnable(self.state, self.budget)


class Advice:
    """Hints and "still winnable?" for the players of games that offer them (a game's
    ``advisor`` and ``solver``), in worker processes of their own."""

    def __init__(self, workers: int = ADVICE_WORKERS, queue: int = ADVICE_QUEUE) -> None:
        self.pool = BotPool(workers)  # started at the first question
        self.queue = queue
        self.pending = 0
        self.hints = RateLimiter(*HINTS)
        self.peeks = RateLimiter(*PEEKS)

    async def hint(self, table: LiveTable, seat: int, player_id: str) -> dict[str, Any]:
        """The fair bot's move for the seat's view, with its reason in the game's words
        (``Game.describe_hint``). The table's advisor (the fair bot that watched the game)
        thinks on a copy; its new memory (a proved winning line) is kept if the table did
        not change meanwhile."""
        self._allow(self.hints, player_id, "hints")
        legal = table.state.legal(seat)
        if not legal:  # a stuck deal held open for undo: the game says why, in words
            reason = table.state.game.describe_hint(table.state.view(seat), None)
            return {
                "action": None,
                "reason": reason,
                "msg": wire(reason),
            }
        advisor, version = table.advisor, table.version
        copy = RemoteBot(advisor, "advisor")
        action, reason = await self._ask(copy, "hint", table.state.view(seat), legal, HINT_TIMEOUT)
        if table.advisor is advisor and table.version == version:
            table.advisor = pickle.loads(copy.blob)
        return {"action": action, "reason": reason, "msg": wire(reason)}

    async def winnable(self, table: LiveTable, player_id: str) -> dict[str, Any]:
        """**Peeking**: whether the deal can still be won (the solver reads the stock)."""
        self._allow(self.peeks, player_id, "questions whether the deal is winnable")
        probe = RemoteBot(WinnableProbe(table.state.clone(), WINNABLE_BUDGET), "winnable")
        answer = await self._ask(probe, "ask", None, None, WINNABLE_TIMEOUT)
        return {"winnable": answer, "peeking": True}

    def _allow(self, limiter: RateLimiter, player_id: str, what: str) -> None:
        wait = limiter.wait(player_id)
        if wait:
            wait = round(wait, 1)
            if what == "hints":
                raise TooMany("rate_limited", _("too many hints: wait {wait} s", wait=wait), wait)
            raise TooMany(
                "rate_limited",
                _("too many questions whether the deal is winnable: wait {wait} s", wait=wait),
                wait,
            )

    async def _ask(self, bot: RemoteBot, method: str, view: Any, legal: Any, timeout: float) -> Any:
        if self.pending >= self.queue:
            raise TooMany(
                "busy",
                _("the server is busy with other players' questions: try again soon"),
                BUSY_RETRY,
                503,
            )
        self.pending += 1
        try:
            return await self.pool.call(bot, method, view, legal, timeout)
        except TimeoutError:
            said = _("no answer within {seconds} s", seconds=format(timeout, "g"))
            raise TooMany("busy", said, BUSY_RETRY, 503) from None
        except (BotFailed, WorkerGone) as e:
            raise TooMany("busy", f"the advice worker failed: {e}", BUSY_RETRY, 503) from None
        finally:
            self.pending -= 1

    async def close(self) -> None:
        await self.pool.close()


def solitaire_stats(store: db.Storage, player_id: str, game: str) -> dict[str, Any]:
    """Played, won, win streaks and best score of one player's finished games."""
    finished = [
        (t.finished_at or t.created_at, t.result)
        for t in store.player_tables(player_id, game)
        # a practice table (a replayed deal, a tutorial) counts in no statistics
        if t.status == "over" and t.players == 1 and t.result and not t.practice
    ]
    finished.sort(key=lambda t: t[0])
    results = [result for _, result in finished if result]
    won = [bool(r.get("won")) for r in results]
    best_streak = streak = 0
    for w in won:
        streak = streak + 1 if w else 0
        best_streak = max(best_streak, streak)
    return {
        "game": game,
        "played": len(finished),
        "won": sum(won),
        "current_streak": streak,
        "best_streak": best_streak,
        # a deal given up (``ended``: abandoned, resigned, idle) is a loss, not a score
        "best_score": max((r["scores"][0] for r in results if not r.get("ended")), default=None),
    }
