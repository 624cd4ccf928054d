"""Practice tables and tutorials (issue #27): a finished solitaire played on from one of its
steps ("Try again from here"), each game's tutorial, and the tutor's words at a tutorial's
table. A practice table is never rated nor counted in a player's statistics
(docs/server.md, "Practice tables and tutorials")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.core.tutorial import Tutorial, coach
from cardtable.core.words import translatable, wire
from cardtable.server.api.limits import TooMany
from cardtable.server.api.messages import (
    HubError,
    PracticeBody,
    TableInfo,
    TutorAnswer,
    TutorialInfo,
)
from cardtable.server.web import deps
from cardtable.server.web.deps import created

_, _n = translatable("cardtable")

router = APIRouter()


@router.post(
    "/api/tables/{table_id}/practice", response_model=TableInfo, response_model_exclude_unset=True
)
async def practice(request: Request, table_id: str, body: PracticeBody) -> dict[str, Any]:
    """A new table for you: the finished game's deal (game, seed, players, options) with
    its record's first ``step`` actions replayed, played on live. Only a game played alone
    (a shared game's players could not all take it up), only once it is over (its record is
    public then); limited as a new table is (``TableEngine.create``)."""
    player = deps.me(request)
    h = deps.hub(request)
    replay = await request.app.state.replays.get(h, table_id)  # 404, 403 not over
    facts = replay.facts
    if facts["players"] != 1:
        raise HubError(
            "not_alone",
            _("only a game played alone can be practised from one of its steps"),
            403,
        )
    steps = len(replay.actions)
    if not 0 <= body.step <= steps or replay.state_at(body.step).over:
        raise HubError(
            "bad_step",
            _(
                "step {step} is not a position to play on: choose 0 to {last}",
                step=body.step,
                last=steps - 1,
            ),
        )
    table = h.create(
        player,
        facts["game"],
        ["me"],
        dict(facts["options"]),
        facts["seed"],
        practice="practice",
        steps=[(seat, action) for seat, action in replay.actions[: body.step]],
    )
    return (await created(h, table)).info(player.id)


@router.get("/api/tutorials", response_model=list[TutorialInfo])
async def tutorials(request: Request) -> list[dict[str, Any]]:
    """The games that have a tutorial, and whether you finished each."""
    viewer = deps.viewer(request)
    done = set(deps.store(request).tutorials_done(viewer.id)) if viewer else set()
    return [
        {"game": name, "title": games.get(name).title, "done": name in done}
        for name in games.names()
        if games.tutorial(name) is not None
    ]


def tutorial_of(game: str) -> Tutorial:
    """The game's tutorial, or ``not_found`` (404)."""
    try:
        found = games.tutorial(game)
    except CardtableError:
        found = None
    if found is None:
        raise HubError("not_found", _("there is no tutorial for {game}", game=repr(game)), 404)
    return found


@router.post("/api/tutorials/{game}", response_model=TableInfo, response_model_exclude_unset=True)
async def start_tutorial(request: Request, game: str) -> dict[str, Any]:
    """A tutorial table for you: the tutorial's fixed deal, you and its bots, unrated."""
    player = deps.me(request)
    tutorial = tutorial_of(game)
    h = deps.hub(request)
    table = h.create(
        player,
        tutorial.game,
        list(tutorial.seats),
        dict(tutorial.options),
        tutorial.seed,
        practice="tutorial",
    )
    return (await created(h, table)).info(player.id)


@router.get("/api/tables/{table_id}/tutor", response_model=TutorAnswer)
async def tutor(request: Request, table_id: str) -> dict[str, Any]:
    """The tutor's words now, for the learner only (the suggestion reads their cards)."""
    player = deps.me(request)
    wait = deps.limiters(request).tutor.wait(player.id)
    if wait:
        wait = round(wait, 1)
        raise TooMany(
            "rate_limited", _("too many questions to the tutor: wait {wait} s", wait=wait), wait
        )
    table = deps.hub(request).load(table_id)
    if table.practice != "tutorial":
        raise HubError("not_offered", _("this table is not a tutorial"), 403)
    tutorial = tutorial_of(table.game)
    if table.seat_of(player.id) != tutorial.learner:
        raise HubError("not_offered", _("the tutor speaks to the learner only"), 403)
    said = coach(tutorial, games.get(table.game), table.state.actions, player.name)
    return {
        "moves": said.moves,
        "text": [str(t) for t in said.text],
        "text_msg": [wire(t) for t in said.text],
        "suggest": said.suggest,
        "played": None if said.played is None else str(said.played),
        "played_msg": None if said.played is None else wire(said.played),
        "instead": said.instead,
        "done": said.done,
    }
