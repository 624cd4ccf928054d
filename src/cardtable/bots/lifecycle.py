"""The one life of a table's bots, shared by the simulator, the terminal table and the server.

Every table runs its bots the same way: a bot **chooses** from its seat's view and legal
actions; after any action the bots that have ``event`` (external programs) are told who did
what, as their seat learns it, with their new view; the bots of the *other* seats that have
``react`` may answer with **talk** (The Game's pile signals), once per action (talk is not
answered); at the end each bot is told the **result** once (``finish``); and whatever
happens, each is **closed** (``close``: an external program ends or waits for its next game).

``BotSeats`` does all of it for tables that play in one thread (``sim.play_one``, the
terminal). The server asks its bots in worker processes, so it uses the pieces:
``talk_options`` and ``can``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from cardtable.bots import Bot, is_external, make_bot
from cardtable.bots.lazy import Handout
from cardtable.core.protocol import Action, State


def can(bot: Any, hook: str) -> bool:
    """Whether ``bot`` has the optional hook (``react``, ``event``, ``finish``, ``close``,
    ``observe``)."""
    return callable(getattr(bot, hook, None))


def talk_options(state: State, seat: int) -> list[Action]:
    """What ``seat`` may say now, out of turn: its legal actions that are talk."""
    talk = state.game.is_talk
    return [a for a in state.legal(seat) if talk(a)] if state.game.has_talk else []


def build(
    specs: Mapping[int, str],
    game: str,
    seed_for: Callable[[int], int],
    extra_for: Callable[[int, str], dict[str, Any]] | None = None,
) -> dict[int, Bot]:
    """A bot for each seat in ``specs`` (``make_bot`` specs), each with its own seed; if one
    cannot be built, those built already are closed before the error goes on. ``extra_for``
    gives an external bot its ``seat``, ``timeout``, ``players`` and ``options``."""
    bots: dict[int, Bot] = {}
    try:
        for seat, spec in specs.items():
            extra = extra_for(seat, spec) if extra_for and is_external(spec) else {}
            bots[seat] = make_bot(spec, game, seed_for(seat), **extra)
    except BaseException:
        close_all(bots.values())
        raise
    return bots


def finish_all(bots: Iterable[Any], result: Mapping[str, Any]) -> None:
    for bot in bots:
        if can(bot, "finish"):
            bot.finish(result)


def close_all(bots: Iterable[Any]) -> None:
    """Close every bot, even when one of them fails to (the first failure is raised last)."""
    failure: BaseException | None = None
    for bot in bots:
        if can(bot, "close"):
            try:
                bot.close()
            except Exception as e:  # noqa: PERF203 - every bot is closed whatever happens
                failure = failure or e
    if failure is not None:
        raise failure


class SeatFailed(Exception):
    """A bot failed (an exception from ``choose`` or ``react``, or an answer the rules refuse);
    ``seat`` is whose, ``error`` what it raised."""

    def __init__(self, seat: int, step: str, error: Exception) -> None:
        super().__init__(f"the bot at seat {seat} failed to {step}: {error}")
        self.seat, self.step, self.error = seat, step, error


class BotSeats:
    """The bots of one table played in one thread, through the whole lifecycle."""

    def __init__(self, bots: Mapping[int, Bot]) -> None:
        self.bots = dict(bots)
        # asked after every action: known once, not looked up each time
        self._reactors = [(seat, bot) for seat, bot in self.bots.items() if can(bot, "react")]
        self._watchers = [(seat, bot) for seat, bot in self.bots.items() if can(bot, "event")]
        #: whether any bot is told of actions or may answer them (``react``)
        self.listens = bool(self._reactors or self._watchers)
        self._finished = False

    def __contains__(self, seat: object) -> bool:
        return seat in self.bots

    def choose(self, state: State, seat: int) -> Action:
        """The bot's answer for ``seat``, from its own view and legal actions."""
        return self.bots[seat].choose(state.view(seat), state.legal(seat))

    def react(
        self, state: State, actor: int, quiet: Collection[int] = (), wrap: bool = False
    ) -> list[tuple[int, Action]]:
        """After ``actor``'s action: the bots that watch are told (``tell``), and the other
        bots that ``react`` may answer with talk, which is played (and told) at once. Bots in
        ``quiet`` (busy choosing) are not asked. Returns what was said; ``wrap`` turns a
        bot's failure into ``SeatFailed``."""
        if not self._reactors and not self._watchers:  # most tables: nobody to ask
            return []
        self.tell(state, wrap)
        said: list[tuple[int, Action]] = []
        for seat, bot in self._reactors:
            if seat == actor or seat in quiet or state.over:
                continue
            options = talk_options(state, seat)
            if not options:
                continue
            try:
                answer = bot.react(state.view(seat), options)  # type: ignore[attr-defined]
                if answer:
                    state.act(seat, answer)
                    said.append((seat, answer))
                    self.tell(state, wrap)
            except Exception as e:
                if wrap:
                    raise SeatFailed(seat, "react", e) from None
                raise
        return said

    def tell(self, state: State, wrap: bool = False) -> None:
        """Tell the watching bots (``event``) about the last action: who acted, the action
        as each seat learns it (its own in full, another's as ``public_action`` gives it),
        and each one's view now."""
        if not self._watchers or not state.actions:
            return
        actor, action = state.actions[-1]
        public = state.game.public_action(action)
        for seat, bot in self._watchers:
            try:
                told = action if seat == actor else public
                bot.event(actor, told, state.view(seat))  # type: ignore[attr-defined]
            except Exception as e:
                if wrap:
                    raise SeatFailed(seat, "watch", e) from None
                raise

    def finish(self, state: State) -> None:
        """Tell every bot the result, once, when the game is over."""
        if state.over and not self._finished:
            self._finished = True
            finish_all(self.bots.values(), state.result())

    def close(self) -> None:
        close_all(self.bots.values())


def play_out(state: State, seats: BotSeats) -> None:
    """Play ``state`` to the end with a bot in every seat to act (``sim.play_one``).

    Each bot is handed its view and legal list built by their first read (``bots.lazy``):
    a bot that reads none of one (the random bot its view, a greedy one its legal list)
    never pays for it."""
    # (looked up once: at a table where no bot reacts or watches, the plain path of
    # simulations, an action is a choice and nothing more)
    act, to_act = state.act, state.to_act
    bots, listens = seats.bots, seats.listens
    ask = Handout(state, bots).ask
    try:
        while not state.over:
            for k, seat in enumerate(to_act()):
                # the first seat was just asked for; a later one may have been served by now
                if k and (state.over or seat not in to_act()):
                    continue
                act(seat, ask(bots[seat], seat))
                if listens:
                    seats.react(state, seat)
        seats.finish(state)
    finally:
        seats.close()
