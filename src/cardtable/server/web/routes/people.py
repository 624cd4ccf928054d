"""People: a name and a cookie (no password), and a recovery code to be the same person in
another browser."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse

from cardtable.core.words import translatable
from cardtable.i18n.languages import LANGUAGES, NAMES
from cardtable.server.api.limits import TooMany, address_key
from cardtable.server.api.messages import (
    DeletedAnswer,
    HubError,
    LanguageAnswer,
    LanguageBody,
    LanguagesAnswer,
    MeAnswer,
    NameBody,
    RecoverBody,
    RecoveryAnswer,
)
from cardtable.server.web import deps, owndata, security
from cardtable.server.web.deps import COOKIE
from cardtable.server.web.language import COOKIE as LANGUAGE_COOKIE
from cardtable.server.web.language import catalog_language, request_language
from cardtable.server.web.naming import NAME, reserved_name

_, _n = translatable("cardtable")

router = APIRouter()


# -- people -----------------------------------------------------------------------------
@router.get("/api/me", response_model=MeAnswer)
async def get_me(request: Request) -> dict[str, Any]:
    player = deps.viewer(request)
    if player is None:
        return {"player": None}
    store = deps.store(request)
    return {
        "player": {"id": player.id, "name": player.name, "bot": player.bot_owner is not None},
        "recovery": store.has_recovery_code(player.id),
    }


@router.get("/api/languages", response_model=LanguagesAnswer)
async def get_languages(request: Request) -> dict[str, Any]:
    """The languages offered, and the one this request's reader reads."""
    offered = [{"code": code, "name": NAMES[code]} for code in LANGUAGES]
    return {"language": request_language(request), "languages": offered}


@router.post("/api/me/language", response_model=LanguageAnswer)
async def post_language(request: Request, response: Response, body: LanguageBody) -> dict[str, Any]:
    """Choose the language of every page: kept in this browser's cookie, and on the player
    when there is one (so it follows them to another browser)."""
    lang = catalog_language(body.language)
    if lang is None:
        raise HubError("bad_language", f"choose one of: {', '.join(LANGUAGES)}")
    response.set_cookie(
        LANGUAGE_COOKIE,
        lang,
        max_age=365 * 86400,
        samesite="lax",
        secure=security.cookie_secure(request),
    )
    player = deps.viewer(request)
    if player is not None:
        deps.store(request).set_language(player.id, lang)
    return {"language": lang, "saved": player is not None}


@router.post("/api/me", response_model=MeAnswer)
async def post_me(request: Request, response: Response, body: NameBody) -> dict[str, Any]:
    name = body.name.strip()
    if not NAME.match(name):
        raise HubError("bad_name", _("a name is 1 to 24 characters, without < or >"))
    if reserved_name(name, deps.hub(request).external_bots):
        raise HubError(
            "reserved_name",
            f"{name!r} is a bot's name (or looks like one): "
            "bots' names are kept for bots; choose another",
        )
    store = deps.store(request)
    player = deps.viewer(request)
    if player and player.bot_owner is not None:
        raise HubError("forbidden", _("a bot account keeps the name its owner gave it"), 403)
    if player:
        store.rename(player.id, name)
    else:
        # request.client is the connection's address (uvicorn takes it from
        # X-Forwarded-For only from a trusted proxy: docs/server.md, "Limits")
        host = request.client.host if request.client else None
        new_players = deps.limiters(request).new_players
        wait = new_players.wait(address_key(host)) if new_players is not None else 0
        if wait:
            raise TooMany(
                "too_many_players",
                _("too many new players from your address: wait {wait} s", wait=round(wait)),
                wait,
            )
        player, token = store.new_player(name)
        response.set_cookie(
            COOKIE,
            token,
            max_age=10 * 365 * 86400,
            httponly=True,
            samesite="lax",
            secure=security.cookie_secure(request),
        )
    return {"player": {"id": player.id, "name": name}}


@router.post("/api/me/recovery", response_model=RecoveryAnswer)
async def new_recovery(request: Request) -> dict[str, Any]:
    """A new recovery code for you (any older one stops working): used in another
    browser (``POST /api/me/recover``), it makes that browser you."""
    player = deps.me(request)
    if player.bot_owner is not None:  # a code would outlive the renewal of its token
        raise HubError(
            "bot_account",
            "a bot account has no recovery code: its owner "
            "renews its token (POST /api/me/bots/ID/token)",
            403,
        )
    wait = deps.limiters(request).recoveries.wait("new:" + player.id)
    if wait:
        said = _("you made several codes just now: wait {wait} s", wait=round(wait))
        raise TooMany("too_many_codes", said, wait)
    store = deps.store(request)
    return {"code": store.new_recovery_code(player.id)}


def try_code(request: Request) -> None:
    """A recovery code tried from the request's address (used or looked up: one budget)."""
    host = request.client.host if request.client else None
    wait = deps.limiters(request).recoveries.wait("use:" + address_key(host))
    if wait:
        said = _("too many recovery codes tried: wait {wait} s", wait=round(wait))
        raise TooMany("too_many_tries", said, wait)


def no_such_code() -> HubError:
    return HubError("bad_code", _("no player has this recovery code (was it renewed?)"), 404)


@router.post("/api/me/recover/whose", response_model=MeAnswer)
async def whose_code(request: Request, body: RecoverBody) -> dict[str, Any]:
    """Whose recovery code this is, without using it: a page asks before it makes the
    browser someone else (a link may carry another person's code)."""
    try_code(request)
    store = deps.store(request)
    player = store.whose_code(body.code)
    if player is None:
        raise no_such_code()
    return {"player": {"id": player.id, "name": player.name, "bot": False}}


@router.post("/api/me/recover", response_model=MeAnswer)
async def recover(request: Request, response: Response, body: RecoverBody) -> dict[str, Any]:
    """This browser becomes the player whose recovery code this is (its other browsers
    stay signed in); the code stays valid until renewed."""
    try_code(request)
    store = deps.store(request)
    found = store.recover(body.code)
    if found is None:
        raise no_such_code()
    player, token = found
    response.set_cookie(
        COOKIE,
        token,
        max_age=10 * 365 * 86400,
        httponly=True,
        samesite="lax",
        secure=security.cookie_secure(request),
    )
    return {
        "player": {"id": player.id, "name": player.name, "bot": player.bot_owner is not None},
        "recovery": True,
    }


# -- a person's own data (docs/server.md, "Your own data") --------------------------------
@router.get(
    "/api/me/records",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "your finished games' records, newest first, as one JSON list "
            "(a download; at most owndata.RECORDS_MAX games)",
            "content": {"application/json": {"schema": {"type": "array"}}},
        }
    },
)
async def my_records(request: Request) -> StreamingResponse:
    """Every finished game you played, as a record with its table, date and your seat."""
    player = deps.me(request)
    secret = request.app.state.replays.secret
    return StreamingResponse(
        owndata.records(deps.store(request), player.id, secret),
        media_type="application/json",
        headers={"content-disposition": 'attachment; filename="cardtable-my-games.json"'},
    )


@router.delete("/api/me", response_model=DeletedAnswer)
async def delete_me(request: Request, response: Response) -> dict[str, Any]:
    """Delete your identity: you leave your unfinished tables, your name is gone from every
    game ("a former player"), and this browser, your other browsers and your recovery code
    stop being you. Your finished games stay, and replay."""
    player = deps.me(request)
    if player.bot_owner is not None:
        raise HubError("forbidden", _("a bot account goes with its owner's identity"), 403)
    answer = await owndata.delete_identity(deps.hub(request), player)
    request.app.state.replays.forget_names()
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return answer
