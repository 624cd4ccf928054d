"""PettingZoo and Gymnasium environments for every game, generic over the protocol.

Nothing here names a game: a game offers its encoding (``Game.encoding``: the fixed action
space and the numeric observation of a view), and the environments play its states through
``to_act``, ``legal``, ``act`` and ``view`` like any other table (docs/rl.md).

- ``CardtableAEC`` (``make_env``): PettingZoo's AEC API, one seat after another.
- ``CardtableParallel`` (``make_parallel_env``): PettingZoo's Parallel API, every seat that
  must act acting at once (Slide's reveal).
- ``CardtableGym`` (``make_gym_env``): one learning seat, the others (if any) built-in bots.

How the protocol's shapes become environment steps:

- A simultaneous step (several seats in ``to_act()``) is taken one seat after another in AEC,
  each choice **buffered** until every seat of the step has chosen, then all are applied in
  seat order: no seat's observation shows another's choice of that step (nor whether it has
  chosen); the protocol says the order of such choices never matters.
- Talk (``Game.is_talk``: The Game's pile signals) is offered only to the seat that is to act,
  at most ``talk_limit`` times in a row between two moves (the table would otherwise never
  end); out-of-turn talk is left to built-in bots (``react``).
- Seats in ``opponents`` are played by built-in bots (``cardtable.bots.make_bot`` specs), fed
  their own views through the one bot lifecycle (``cardtable.bots.lifecycle``) as
  ``cardtable.sim`` does; they are not agents of the environment.
- Rewards come once, at the end, as the game's encoding scores the result.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from itertools import filterfalse
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from cardtable import games
from cardtable.bots import is_external, lifecycle, make_bot
from cardtable.bots.external import check_spec
from cardtable.bots.random import TalkMemo
from cardtable.core.protocol import Action, Game, State
from cardtable.rl.encoding import Encoding, load_encoding
from cardtable.seeds import bot_seed

#: a bot that talks more than this many times in a row without a move holds the table
BOT_TALK_LIMIT = 16
#: seeds drawn for a reset without one: 63 bits, as numpy draws them
_SEED_SPAN = 2**63

Opponents = Mapping[int, str] | Sequence[str | None] | None


def agent_name(seat: int) -> str:
    # (interned: every dict of the agents then finds a name by identity, whichever of its
    # copies it is given)
    return sys.intern(f"seat_{seat}")


def _opponents(spec: Opponents, players: int) -> dict[int, str]:
    """Seat -> bot spec, from a mapping or a list with one entry per seat (None: a learner)."""
    if spec is None:
        return {}
    if isinstance(spec, Mapping):
        out = dict(spec)
    else:
        entries = list(spec)
        if len(entries) != players:
            raise ValueError(
                f"opponents: give one entry per seat ({players}, None for a "
                f"learning seat) or a mapping seat -> bot, not {entries!r}"
            )
        out = {s: b for s, b in enumerate(entries) if b is not None}
    for seat, bot in out.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"opponents: there is no seat {seat!r} at a table of {players}")
        if not isinstance(bot, str):
            raise ValueError(f"opponents: seat {seat}'s bot must be a spec like 'greedy'")
    return out


class Table:
    """One game as the environments play it: the state, the bots, the buffered choices of a
    simultaneous step and the talk limit. The environments are thin layers over it."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: Opponents = None,
        talk_limit: int = 2,
        bot_key: int = 0,
    ) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        self.players, self.options = self.game.check_options(players, options or {})
        self.encoding: Encoding = load_encoding(self.game, self.players, self.options)
        self.opponents = _opponents(opponents, self.players)
        for spec in set(self.opponents.values()):  # an unknown bot fails here, not mid-game
            if is_external(spec):
                check_spec(spec)
            else:
                make_bot(spec, self.game.name)
        self.learners = [s for s in range(self.players) if s not in self.opponents]
        if not self.learners:
            raise ValueError("every seat is a bot: leave at least one seat to learn")
        if talk_limit < 0:
            raise ValueError("talk_limit must be 0 or more")
        self.talk_limit = talk_limit
        self.bot_key = bot_key
        self.state: State | None = None
        self.seats: lifecycle.BotSeats | None = None
        #: the encoding's observer of this table's views, kept from deal to deal: it checks
        #: what it remembers against each view, a new deal's too (and a fresh one costs more)
        self.observe = self.encoding.observer()
        #: whether an action is talk, asked of the game once per action text (None: no talk)
        self.talk: TalkMemo | None = TalkMemo(self.game.is_talk) if self.game.has_talk else None
        self._waiting: list[int] = []
        #: the learning seat to act next (the first waiting), None once over
        self.next_learner: int | None = None
        #: the state's ``over`` as the last change left it (read once per change)
        self.ended = False
        self._legal: dict[int, list[Action]] = {}

    # -- the game -----------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Deal ``seed`` (the same deal as ``cardtable`` deals for that seed) and let the bots
        play until a learning seat must act."""
        self.close()
        self.state = self.game.deal(seed, self.players, self.options)
        self.seed = seed
        self.seats = lifecycle.BotSeats(
            lifecycle.build(
                self.opponents,
                self.game.name,
                lambda s: bot_seed(self.bot_key, seed, s),
                lambda s, _spec: {"seat": s, "players": self.players, "options": self.options},
            )
        )
        self.pending: dict[int, Action] = {}
        self.talked = [0] * self.players
        self._next_step()
        self.play_bots()

    @property
    def live(self) -> State:
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return self.state

    @property
    def over(self) -> bool:
        return self.live.over

    # What the position asks is worked out once per position, as ``take`` changes it: the
    # seats waiting (kept up to date), each seat's legal actions (worked out when asked).
    def waiting(self) -> list[int]:
        """The seats of this step that have not chosen yet (all learners once bots have).
        Read it, never change it."""
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return self._waiting

    def _next_step(self) -> None:
        """A new step begins (the state's ``to_act``): every seat in it waits."""
        state = self.state
        assert state is not None
        self.step_seats = state.to_act()
        # (a seat to act: not over, as the protocol says; ``over`` is a property, a call
        # through a slot, asked only when no seat is to act)
        self.ended = over = not self.step_seats and state.over
        seats = [] if over else list(self.step_seats)
        if self.opponents:
            self._wait_for(seats)
            return
        # ``_wait_for`` without bots, written out: this is every step's path
        self._waiting, self._legal = seats, {}
        self.next_learner = seats[0] if seats else None

    def _wait_for(self, seats: list[int]) -> None:
        """The seats of this step still to choose: the position changed."""
        self._waiting = seats
        self._legal = {}
        if not self.opponents:
            self.next_learner = seats[0] if seats else None
            return
        self.next_learner = None
        for s in seats:
            if s not in self.opponents:
                self.next_learner = s
                break

    def current(self) -> int | None:
        """The learning seat to act next (the first in seat order), None once over."""
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return self.next_learner

    def legal(self, seat: int) -> list[Action]:
        """What ``seat`` may do now in the environment: its legal actions while it is to
        choose, talk only while under the limit; nothing otherwise."""
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[Action]:
        """``legal(seat)``, worked out once per position: read it, never change it."""
        out = self._legal.get(seat)
        if out is None:
            if seat not in self._waiting:
                out = []
            else:
                assert self.state is not None  # (a seat waits: dealt)
                out = self.state.legal(seat)
                talk = self.talk
                if talk is not None and self.talked[seat] >= self.talk_limit:
                    out = list(filterfalse(talk.__getitem__, out))  # (one call in C)
            self._legal[seat] = out
        return out

    def act(self, seat: int, action: Action) -> None:
        """A learning seat's action (one of ``legal(seat)``), then the bots until a learning
        seat must act again."""
        legal = self._legal.get(seat)  # (``_legal_now``, its look-up written out)
        if action not in (self._legal_now(seat) if legal is None else legal):
            raise ValueError(
                f"{action!r} is not legal for seat {seat} now "
                f"(legal: {', '.join(self.legal(seat)) or 'nothing'})"
            )
        self.take(seat, action)
        if self.opponents:
            self.play_bots()

    def take(self, seat: int, action: Action) -> None:
        """Record ``seat``'s choice (checked by the caller) without running the bots: talk at
        once, a move buffered until every seat of the step has chosen, then all applied."""
        state, seats, pending = self.state, self.seats, self.pending
        assert state is not None and seats is not None  # (a seat chose: dealt)
        if self.talk is not None and self.talk[action]:
            # talk changes no turn: said at once, seen by all, the seat still to choose
            self.talked[seat] += 1
            state.act(seat, action)
            if self.opponents:
                seats.react(state, seat)
            self.ended = not state.to_act() and state.over  # (as ``_next_step`` asks it)
            self._legal = {}
            return
        self.talked[seat] = 0
        if len(self.step_seats) == 1:  # (the one seat of the step: at once)
            state.act(seat, action)
            if self.opponents:  # (bots to tell or to react)
                seats.react(state, seat)
            self._next_step()
            if self.ended and self.opponents:  # (no bots: none to tell)
                seats.finish(state)
            return
        pending[seat] = action
        waiting = [s for s in self.step_seats if s not in pending]
        if waiting:
            self._wait_for(waiting)
            return
        for s in self.step_seats:  # every seat of the step has chosen: apply, in seat order
            if s in pending and not state.over:
                state.act(s, pending[s])
                if self.opponents:
                    seats.react(state, s)
        self.pending = {}
        self._next_step()
        if self.ended and self.opponents:
            seats.finish(state)

    def play_bots(self) -> None:
        """Let the bots choose, each from its own view, until a learning seat must act or the
        game is over."""
        state, seats = self.live, self.seats
        assert seats is not None
        if not self.opponents:
            return
        said = 0
        while not state.over:
            bots = [s for s in self.waiting() if s in self.opponents]
            if not bots:
                return
            seat = bots[0]
            action = seats.choose(state, seat)
            if self.game.has_talk and self.game.is_talk(action):
                said += 1
                if said > BOT_TALK_LIMIT:
                    raise RuntimeError(f"the bot at seat {seat} talked {said} times in a row")
            else:
                said = 0
            if action not in state.legal(seat):
                raise RuntimeError(f"the bot at seat {seat} chose {action!r}, not legal now")
            self.take(seat, action)

    def rewards(self) -> list[float]:
        """Each seat's reward: the encoding's score of the result at the end, else 0."""
        if not self.live.over:
            return [0.0] * self.players
        return self.encoding.rewards(self.live.result())

    def observation(self, seat: int) -> np.ndarray:
        """``seat``'s observation: its view, encoded (by the encoding's ``observer``, which
        rewrites only what changed since the views before)."""
        return self.observe(self.live.view(seat))

    def mask(self, seat: int) -> np.ndarray:
        return self.encoding.mask(self._legal_now(seat))

    def render(self) -> str:
        """The spectator's view as text (what anyone watching may know)."""
        return json.dumps(self.live.view(None))

    def close(self) -> None:
        if self.seats is not None:
            seats, self.seats = self.seats, None
            seats.close()


def _fresh_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(_SEED_SPAN))


def _observation_space(encoding: Encoding) -> spaces.Box:
    return spaces.Box(low=0.0, high=encoding.layout.high(), dtype=np.float32)


def _mask_space(encoding: Encoding) -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(len(encoding.actions),), dtype=np.int8)


class _OnTable:
    """What every environment here reads of its ``table``."""

    table: Table

    @property
    def encoding(self) -> Encoding:
        return self.table.encoding

    @property
    def state(self) -> State:
        """**Peeking**: the true state, for tests and debugging (never for an agent)."""
        return self.table.live


class _MultiAgent(_OnTable):
    """What the AEC and Parallel environments share: agents, spaces, seeds."""

    metadata: dict[str, Any] = {
        "name": "cardtable_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def _setup(
        self,
        game: str | Game,
        players: int | None,
        options: Mapping[str, Any] | None,
        opponents: Opponents,
        talk_limit: int,
        max_steps: int | None,
        render_mode: str | None,
        bot_key: int,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1 (or None: no limit)")
        self.table = Table(game, players, options, opponents, talk_limit, bot_key)
        self.render_mode = render_mode
        self.max_steps = max_steps
        enc = self.table.encoding
        self.possible_agents = [agent_name(s) for s in self.table.learners]
        self.seat_of = {agent_name(s): s for s in self.table.learners}
        self.agent_of = {s: agent_name(s) for s in self.table.learners}
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": _observation_space(enc), "action_mask": _mask_space(enc)}
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(enc.actions)) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None

    def _deal_seed(self, seed: int | None) -> int:
        # a given seed is the deal itself (same seed, same game as ``cardtable``'s deal
        # numbers); without one the next is drawn from the last seeded generator (made when
        # first drawn from: a generator costs more than a short game's reset)
        if seed is not None:
            self._rng, self._rng_seed = None, seed
            return seed
        if self._rng is None:
            self._rng = np.random.default_rng(self._rng_seed)
        return _fresh_seed(self._rng)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # ``Table.observation`` and ``Table.mask`` written out (``live`` and ``_legal_now``'s
        # look-up too: one Python call fewer each): this is every step's path
        table, seat = self.table, self.seat_of[agent]
        state = table.state
        if state is None:
            raise RuntimeError("reset the environment first")
        legal = table._legal.get(seat)
        return {
            "observation": table.observe(state.view(seat)),
            "action_mask": table.encoding.mask(table._legal_now(seat) if legal is None else legal),
        }

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.table.close()


class CardtableAEC(_MultiAgent, AECEnv):
    """PettingZoo AEC environment of one game: agents ``seat_0`` .. (bots' seats left out)."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: Opponents = None,
        talk_limit: int = 2,
        max_steps: int | None = None,
        render_mode: str | None = None,
        bot_key: int = 0,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(game, players, options, opponents, talk_limit, max_steps, render_mode, bot_key)
        self.metadata = {**self.metadata, "name": f"cardtable_{self.table.game.name}_v0"}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # ``options`` is accepted as the API asks; the game's options are the constructor's
        self.table.reset(self._deal_seed(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._after_step()

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """PettingZoo's ``agent_iter``, the same, its iterator a generator (resumed in C,
        where a ``__next__`` method is called through a slot, about 0.2 µs more a step)."""
        return _AgentIter(self, max_iter)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the agent to act: its observation, cumulative reward,
        termination, truncation, info), the same, calls shorter on every step's path."""
        agent = self.agent_selection
        if observe:  # (``observe`` written out: a Python call fewer)
            table, seat = self.table, self.seat_of[agent]
            state = table.state
            if state is None:
                raise RuntimeError("reset the environment first")
            legal = table._legal.get(seat)
            seen: dict[str, np.ndarray] | None = {
                "observation": table.observe(state.view(seat)),
                "action_mask": table.encoding.mask(
                    table._legal_now(seat) if legal is None else legal
                ),
            }
        else:
            seen = None
        return (
            seen,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _after_step(self) -> None:
        table, cut = self.table, False
        if table.ended:  # rewards once, at the end
            result = table.live.result()
            rewards = table.encoding.rewards(result)  # (``Table.rewards`` of the one result)
            for a in self.agents:
                self.rewards[a] = float(rewards[self.seat_of[a]])
                self.terminations[a] = True
                self.infos[a] = {"result": result}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:  # (and every step after: steps only grow)
                self.truncations[a] = True
            cut = True
        seat = None if cut else table.next_learner
        if seat is not None:
            self.agent_selection = self.agent_of[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is done")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        actions, index = table.encoding.actions, int(action)
        # ``Encoding.action`` written out (it raises for an index outside the space)
        notation = actions[index] if 0 <= index < len(actions) else table.encoding.action(index)
        seat = self.seat_of[agent]
        legal = table._legal.get(seat)  # (``Table.act`` without bots written out: a call fewer)
        if table.opponents or notation not in (table._legal_now(seat) if legal is None else legal):
            table.act(seat, notation)  # (refused there with its reason; or bots to play after)
        else:
            table.take(seat, notation)
        self.steps += 1
        # rewards come at the end only: until then ``rewards`` holds 0 for every agent (as
        # reset and the step before left it) and accumulating them changes nothing
        if table.ended:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._after_step()
            self._accumulate_rewards()
        elif self.max_steps is None:  # ``_after_step`` of a game going on, written out
            after = table.next_learner
            if after is not None:
                self.agent_selection = self.agent_of[after]
            elif self.agents:
                self.agent_selection = self.agents[0]
        else:
            self._after_step()


class _AgentIter(AECIterable):
    """``AECIterable`` whose iterator is a generator: the agent to act while any agent is
    left, at most ``max_iter`` times."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class CardtableParallel(_MultiAgent, ParallelEnv):
    """PettingZoo Parallel environment of one game: each ``step`` takes an action from every
    learning seat that must act now (all of them in a simultaneous step; the one whose turn
    it is otherwise). Actions of agents that are not to act (their mask is all 0) are
    ignored."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: Opponents = None,
        talk_limit: int = 2,
        max_steps: int | None = None,
        render_mode: str | None = None,
        bot_key: int = 0,
    ) -> None:
        self._setup(game, players, options, opponents, talk_limit, max_steps, render_mode, bot_key)
        self.metadata = {**self.metadata, "name": f"cardtable_{self.table.game.name}_v0"}
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.table.reset(self._deal_seed(seed))
        self.agents = list(self.possible_agents)
        self.steps = 0
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def acting(self) -> list[str]:
        """The agents that must send an action to the next ``step``."""
        return [agent_name(s) for s in self.table.waiting() if s not in self.table.opponents]

    def step(self, actions: Mapping[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        acting = self.acting()
        missing = [a for a in acting if a not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act in this step")
        # every choice is read against the position before any is applied (they are buffered)
        chosen = {a: self.encoding.action(int(actions[a])) for a in acting}
        for a in acting:
            seat = self.seat_of[a]
            if chosen[a] not in self.table._legal_now(seat):
                raise ValueError(f"{chosen[a]!r} is not legal for {a} now")
        for a in acting:
            if not self.table.over:
                self.table.take(self.seat_of[a], chosen[a])
        self.table.play_bots()
        self.steps += 1
        agents = self.agents
        over = self.table.over
        cut = not over and self.max_steps is not None and self.steps >= self.max_steps
        rewards = self.table.rewards()
        result = self.table.live.result() if over else None
        obs = {a: self.observe(a) for a in agents}
        rew = {a: float(rewards[self.seat_of[a]]) for a in agents}
        term = dict.fromkeys(agents, over)
        trunc = dict.fromkeys(agents, cut)
        infos: dict[str, dict[str, Any]] = {a: ({"result": result} if over else {}) for a in agents}
        if over or cut:
            self.agents = []
        return obs, rew, term, trunc, infos


class CardtableGym(_OnTable, gymnasium.Env):
    """Gymnasium environment of one learning seat (``seat``); every other seat is a built-in
    bot (``opponents``). Observations are the flat vector; the legal actions are
    ``action_masks()`` (sb3-contrib's MaskablePPO asks that) and ``info["action_mask"]``.

    An action outside the mask ends the episode with ``illegal_reward`` (``info["illegal"]``
    names it): a policy that ignores the mask learns to stop doing so, and random actions
    (``check_env``) never crash the game."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: Opponents = None,
        seat: int = 0,
        talk_limit: int = 2,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        bot_key: int = 0,
    ) -> None:
        rules = games.get(game) if isinstance(game, str) else game
        count, _ = rules.check_options(players, options or {})
        if not 0 <= seat < count:
            raise ValueError(f"there is no seat {seat} at a table of {count}")
        if opponents is not None and not isinstance(opponents, Mapping):
            others = [s for s in range(count) if s != seat]
            entries = list(opponents)
            if len(entries) == len(others):  # the other seats, in order
                opponents = {s: b for s, b in zip(others, entries, strict=True) if b is not None}
        table = Table(rules, players, options, opponents, talk_limit, bot_key)
        if table.learners != [seat]:
            raise ValueError(
                f"a single-agent environment learns one seat ({seat}): give a "
                f"bot for each of the other seats (opponents)"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table, self.seat = table, seat
        self.max_steps, self.illegal_reward, self.render_mode = (
            max_steps,
            illegal_reward,
            render_mode,
        )
        self.observation_space = _observation_space(table.encoding)
        self.action_space = spaces.Discrete(len(table.encoding.actions))
        self._done = True

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans over the action space (MaskablePPO's hook)."""
        if self._done:
            return np.zeros(len(self.encoding.actions), dtype=bool)
        return self.table.mask(self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat), "legal": self.table.legal(self.seat)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # a given seed is the deal itself; without one, the next from the seeded generator
        self.table.reset(seed if seed is not None else _fresh_seed(self.np_random))
        self.steps = 0
        self._done = self.table.over
        return self.table.observation(self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: reset the environment")
        notation = self.encoding.action(int(action))
        self.steps += 1
        if notation not in self.table._legal_now(self.seat):
            self._done = True
            info = {**self._info(), "illegal": notation}
            return (
                self.table.observation(self.seat),
                float(self.illegal_reward),
                True,
                False,
                info,
            )
        self.table.act(self.seat, notation)
        over = self.table.over
        cut = not over and self.max_steps is not None and self.steps >= self.max_steps
        self._done = over or cut
        reward = float(self.table.rewards()[self.seat])
        info = self._info()
        if over:
            info["result"] = self.table.live.result()
        return self.table.observation(self.seat), reward, over, cut, info

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.table.close()


def make_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    opponents: Opponents = None,
    **kwargs: Any,
) -> CardtableAEC:
    """The PettingZoo AEC environment of ``game`` (``talk_limit``, ``max_steps``,
    ``render_mode``, ``bot_key`` as keywords)."""
    return CardtableAEC(game, players, options, opponents, **kwargs)


def make_parallel_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    opponents: Opponents = None,
    **kwargs: Any,
) -> CardtableParallel:
    """The PettingZoo Parallel environment of ``game``."""
    return CardtableParallel(game, players, options, opponents, **kwargs)


def make_gym_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    opponents: Opponents = None,
    **kwargs: Any,
) -> CardtableGym:
    """The Gymnasium environment of one seat of ``game`` (``seat``, ``illegal_reward`` and the
    AEC keywords); ``opponents`` may list the other seats' bots in seat order."""
    return CardtableGym(game, players, options, opponents, **kwargs)


def register() -> list[str]:
    """Register ``cardtable/GAME-v0`` with Gymnasium for every game with an encoding, so
    ``gymnasium.make("cardtable/doublets-v0")`` (or ``("cardtable/slide-v0", players=2,
    opponents=["greedy"])``) builds a ``CardtableGym``. Done on import; returns the ids."""
    ids = []
    for name in games.names():
        if games.get(name).encoding is None:
            continue
        env_id = f"cardtable/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="cardtable.rl.env:CardtableGym", kwargs={"game": name}
            )
        ids.append(env_id)
    return ids


register()
