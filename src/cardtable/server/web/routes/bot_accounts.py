"""Bot accounts: a person's programs, playing through the API like people, each with a
token its owner renews."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cardtable.core.words import translatable
from cardtable.server.api.limits import TooMany
from cardtable.server.api.messages import (
    BotAccount,
    BotAccountAnswer,
    BotAccounts,
    BotSettingsBody,
    HubError,
    NameBody,
)
from cardtable.server.storage import store as db
from cardtable.server.web import deps
from cardtable.server.web.deps import MAX_BOT_ACCOUNTS
from cardtable.server.web.naming import NAME, reserved_name
from cardtable.server.web.socket import sign_out

_, _n = translatable("cardtable")

router = APIRouter()


def owner(request: Request) -> db.Player:
    player = deps.me(request)
    if player.bot_owner is not None:
        raise HubError("forbidden", _("a bot account cannot own bot accounts"), 403)
    return player


@router.get("/api/me/bots", response_model=BotAccounts)
async def my_bots(request: Request) -> dict[str, Any]:
    store = deps.store(request)
    return {"bots": [bot_account(b) for b in store.bot_accounts_of(owner(request).id)]}


@router.post("/api/me/bots", response_model=BotAccountAnswer)
async def new_bot_account(request: Request, body: NameBody) -> dict[str, Any]:
    """A bot account of yours and its token (shown once: only its hash is kept)."""
    player = owner(request)
    store = deps.store(request)
    name = body.name.strip()
    if not NAME.match(name):
        raise HubError("bad_name", _("a name is 1 to 24 characters, without < or >"))
    if reserved_name(name, deps.hub(request).external_bots):  # the people's rule
        raise HubError(
            "reserved_name",
            f"{name!r} is a name of this server's bots (or looks like one): choose another",
        )
    if len(store.bot_accounts_of(player.id)) >= MAX_BOT_ACCOUNTS:
        raise HubError(
            "too_many_bots", f"you have {MAX_BOT_ACCOUNTS} bot accounts already (at most)", 409
        )
    if store.bot_account_named(name) is not None:
        raise HubError(
            "name_taken", _("there is a bot account called {name} already", name=repr(name)), 409
        )
    wait = deps.limiters(request).bot_accounts.wait(player.id)
    if wait:
        raise TooMany(
            "too_many_bots",
            _("you made several bot accounts just now: wait {wait} s", wait=round(wait)),
            wait,
        )
    bot, token = store.new_bot_account(player.id, name)
    return {"bot": bot_account(bot), "token": token}


@router.post("/api/me/bots/{bot_id}/token", response_model=BotAccountAnswer)
async def new_bot_token(request: Request, bot_id: str) -> dict[str, Any]:
    """A new token for your bot account: every other credential it had (the old token,
    browser tokens, a recovery code) stops working, and its open sockets close."""
    player = owner(request)
    store = deps.store(request)
    token = store.new_bot_token(player.id, bot_id[:32])
    bot = next((b for b in store.bot_accounts_of(player.id) if b.id == bot_id), None)
    if token is None or bot is None:
        raise HubError("not_found", _("you have no bot account with this id"), 404)
    await sign_out(request.app, bot.id)  # its open sockets too, at every process
    return {"bot": bot_account(bot), "token": token}


@router.post("/api/me/bots/{bot_id}/settings", response_model=BotAccount)
async def bot_settings(request: Request, bot_id: str, body: BotSettingsBody) -> dict[str, Any]:
    """Whom your bot account plays with: ``anyone`` may invite it to a seat, or only
    you (``owner``, the default)."""
    store = deps.store(request)
    bot = store.set_plays_with(owner(request).id, bot_id[:32], body.plays_with == "anyone")
    if bot is None:
        raise HubError("not_found", _("you have no bot account with this id"), 404)
    return bot_account(bot)


def bot_account(bot: db.Player) -> dict[str, Any]:
    """A bot account as its owner sees it (``messages.BotAccount``)."""
    return {"id": bot.id, "name": bot.name, "plays_with": bot.plays_with or "owner"}
