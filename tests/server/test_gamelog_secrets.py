"""The game log keeps a simultaneous choice secret until it resolves, then tells it
(issue #24), over random Slide games with changes of mind (hypothesis), through the log's own
builder (``logbook.add``, as the live table and the replay build it):

- before the reveal resolves, what a seat (or a spectator) reads of the log is the same
  whatever the other seats chose, their changes of mind included: no line names their cell
  or card;
- once it resolved, every reveal that counted reads the card it turned up and its cell, for
  every viewer, and a change of mind is no line at all."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.core import logbook
from cardtable.server.tables import gamelog

SLIDE = games.get("slide")
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def random_actions(
    seed: int, players: int, count: int, rng: random.Random
) -> list[tuple[int, str]]:
    """``count`` actions of a random Slide game, a change of mind now and then."""
    state = SLIDE.deal(seed, players)
    out: list[tuple[int, str]] = []
    while len(out) < count and not state.over:
        chosen = [s for s in range(players) if state.legal(s) and s not in state.to_act()]
        seat = rng.choice(chosen) if chosen and rng.random() < 0.3 else rng.choice(state.to_act())
        action = rng.choice(state.legal(seat))
        state.act(seat, action)
        out.append((seat, action))
    return out


def read(actions: list[tuple[int, str]], seed: int, players: int, viewer: int | None) -> list[str]:
    log = gamelog.new_log(SLIDE, seed, players, {})
    for seat, action in actions:
        logbook.add(SLIDE, log, seat, action, NAMES[seat])
    return [e["text"] for e in logbook.as_read(log.entries, viewer)]


def twin(
    actions: list[tuple[int, str]], seed: int, players: int, viewer: int | None, rng: random.Random
) -> list[tuple[int, str]]:
    """The same game but every other seat's choices in the reveal still open made anew
    (another face-down cell each time, as many changes of mind)."""
    state = SLIDE.deal(seed, players)
    opened = 0  # the first action of the reveal still open
    for n, (seat, action) in enumerate(actions):
        state.act(seat, action)
        if not (action.startswith("reveal ") and state.phase == "reveal"):
            opened = n + 1
    state = SLIDE.deal(seed, players)
    out = []
    for n, (seat, action) in enumerate(actions):
        if n >= opened and seat != viewer:
            action = rng.choice(state.legal(seat))
        state.act(seat, action)
        out.append((seat, action))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.integers(1, 60),
    st.integers(0, 2**32).map(random.Random),
)
def test_no_seat_reads_a_choice_before_the_reveal_resolves(seed, players, count, rng):
    actions = random_actions(seed, players, count, rng)
    for viewer in (None, *range(players)):
        assert read(actions, seed, players, viewer) == read(
            twin(actions, seed, players, viewer, rng), seed, players, viewer
        )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.integers(1, 120),
    st.integers(0, 2**32).map(random.Random),
)
def test_every_reveal_that_counted_is_told_once_it_resolved(seed, players, count, rng):
    actions = random_actions(seed, players, count, rng)
    state = SLIDE.deal(seed, players)
    told: list[str] = []  # what every viewer must read of the resolved reveals
    step: dict[int, str] = {}  # per seat, its reveal still open (the last choice counts)
    for seat, action in actions:
        if action.startswith("reveal "):
            step[seat] = action.split(" ")[1]
        state.act(seat, action)
        if state.phase != "reveal" and step:
            revealed = state.view(None)["revealed"]
            told += [
                f"{NAMES[s]} revealed {'an' if revealed[s] == 8 else 'a'} {revealed[s]} from {cell}"
                for s, cell in sorted(step.items())
            ]
            step = {}
    for viewer in (None, *range(players)):
        texts = read(actions, seed, players, viewer)
        said = [t for t in texts if " revealed " in t]
        assert sorted(said) == sorted(told)
        # a change of mind is no line: one reveal line per seat and round at most
        assert len([t for t in texts if " chose " in t or " revealed " in t]) == len(told) + len(
            step
        )
