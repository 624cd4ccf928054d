"""The reference client of bot accounts: ``cardtable bot connect URL --token T BOT``.

A bot account (made by a person: ``POST /api/me/bots``) plays through the same HTTP and
websocket API as a person, under the same limits, redaction and clocks. This client finds
the tables where the account holds a seat (``GET /api/my-games``: the seats it was invited to,
the tables it made), and with ``--join GAME`` takes open seats in the lobby; for each table
it opens the table's websocket with the token and plays the seat with a bot: any built-in
bot, or any bot-protocol program (``cmd:COMMAND``, docs/bot-protocol.md), so a program
written for simulations plays online unchanged.

What the bot learns is what the seat's state messages carry: its view and legal actions.
A program gets one ``event`` per state message (the latest action, with the view after it;
the server may send one state for several quick actions). The client reconnects when a
connection drops (a server restart, a table moving to another process) and stops a table
when its game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from cardtable import games
from cardtable.bots import is_external, make_bot
from cardtable.bots.lifecycle import can
from cardtable.seeds import new_key

log = logging.getLogger("cardtable.botclient")

#: seconds between looks at the account's games (and the lobby, with --join)
POLL = 1.0
#: seconds before a dropped table connection is opened again
RECONNECT = 0.5
#: the close code of a socket whose token was renewed (docs/server.md): not to reconnect
SIGNED_OUT = 4401
#: seconds a refused poll waits for the sockets to say why (``_why_refused``)
RENEWAL_WAIT = 2.0


class ClientError(Exception):
    """The server refused the token (or ended it), or the account is not a bot's."""


@dataclass
class Connection:
    """What the client needs of one server: its address and the bot account's token."""

    url: str
    token: str
    http: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.url = self.url.rstrip("/")
        self.http = httpx.AsyncClient(
            base_url=self.url, timeout=10, headers={"X-Cardtable-Token": self.token}
        )

    def ws_url(self, table_id: str) -> str:
        base = "wss" + self.url[5:] if self.url.startswith("https") else "ws" + self.url[4:]
        # a bot chooses among the actions themselves: no move labels; and the table info
        # only when it changed (``_seat`` keeps the last): docs/server.md
        return f"{base}/ws/tables/{table_id}?token={self.token}&labels=0&table=changed"

    async def get(self, path: str, **params: Any) -> Any:
        answer = await self.http.get(path, params=params or None)
        if answer.status_code == 401:
            raise ClientError("the server does not know this token")
        answer.raise_for_status()
        return answer.json()

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return await self.http.post(path, json=body)


class BotClient:
    """Plays every table of a bot account with ``spec`` until ``games`` games are over
    (None: until stopped)."""

    def __init__(
        self,
        url: str,
        token: str,
        spec: str,
        *,
        join: str | None = None,
        games: int | None = None,
        timeout: float = 5.0,
        say: Callable[[str], None] = print,
    ) -> None:
        self.conn = Connection(url, token)
        self.spec = spec
        self.join = join
        self.games = games
        self.timeout = timeout
        self.say = say
        self.finished: list[dict[str, Any]] = []  # {"table", "game", "result"} per game
        self._playing: dict[str, asyncio.Task[None]] = {}
        self._ids = itertools.count(1)

    async def run(self) -> list[dict[str, Any]]:
        me = (await self.conn.get("/api/me"))["player"]
        if me is None:
            raise ClientError("the server does not know this token")
        if not me.get("bot"):
            raise ClientError(
                f"{me['name']} is a person's account, not a bot account: make "
                "one with POST /api/me/bots and use its token"
            )
        self.say(f"connected as {me['name']} (a bot account)")
        try:
            while self.games is None or len(self.finished) < self.games:
                await self._look()
                await asyncio.sleep(POLL)
        finally:
            for task in self._playing.values():
                task.cancel()
            await asyncio.gather(*self._playing.values(), return_exceptions=True)
            await self.conn.http.aclose()
        return self.finished

    async def _look(self) -> None:
        """Start playing the account's new tables; with ``join``, take an open seat when it
        plays none."""
        for task_id in [t for t, task in self._playing.items() if task.done()]:
            error = self._playing.pop(task_id).exception()
            if error is not None:
                self.say(f"table {task_id}: {error}")
        try:
            mine = await self.conn.get("/api/my-games")
        except ClientError as e:
            raise await self._why_refused(e) from None
        for table in mine["unfinished"]:
            if table["id"] not in self._playing and self._wanted():
                self._playing[table["id"]] = asyncio.create_task(self._play(table["id"]))
        if self.join and not self._playing and self._wanted():
            for table in await self.conn.get("/api/tables", status="open"):
                if table["game"] == self.join and any(not s["taken"] for s in table["seats"]):
                    answer = await self.conn.post(f"/api/tables/{table['id']}/join", {})
                    if answer.status_code == 200:
                        self.say(f"joined table {table['id']} ({self.join})")
                        break

    async def _why_refused(self, refused: ClientError) -> ClientError:
        """The truer reason when the server stops knowing the token: a renewed token also
        closes the sockets (4401), which may say so a moment after the poll was refused."""
        playing = list(self._playing.values())
        if playing:
            await asyncio.wait(playing, timeout=RENEWAL_WAIT)
        for task in playing:
            if task.done() and not task.cancelled():
                error = task.exception()
                if isinstance(error, ClientError):
                    return error
        return refused

    def _wanted(self) -> bool:
        """Whether another table may start (``games`` counts those playing too)."""
        return self.games is None or len(self.finished) + len(self._playing) < self.games

    async def _play(self, table_id: str) -> None:
        bot: Any = None
        try:
            while True:
                try:
                    async with websockets.connect(
                        self.conn.ws_url(table_id), max_size=1 << 22
                    ) as ws:
                        bot, over = await self._seat(ws, table_id, bot)
                    if over:
                        return
                except websockets.ConnectionClosed as e:
                    if e.rcvd is not None and e.rcvd.code == SIGNED_OUT:
                        raise ClientError(
                            "the bot account's token was renewed: start again with the new one"
                        ) from None
                    log.info("table %s: connection lost (%s); again", table_id, e)
                except OSError as e:
                    log.info("table %s: connection lost (%s); again", table_id, e)
                await asyncio.sleep(RECONNECT)
        finally:
            if bot is not None and can(bot, "close"):
                await asyncio.to_thread(bot.close)

    async def _seat(self, ws: Any, table_id: str, bot: Any) -> tuple[Any, bool]:
        """Play one connection of a table: (the bot, whether the game is over)."""
        asked: int | None = None  # the version the bot last answered
        table: dict[str, Any] = {}  # the table info last sent (a state leaves it out if the same)
        sent: dict[str, Any] | None = None  # the act sent last, to send again when told
        async for text in ws:
            message = json.loads(text)
            kind = message.get("type")
            if kind == "error" and sent is not None and message.get("id") == sent["id"]:
                if message.get("code") == "rate_limited":  # a good client waits and resends
                    await asyncio.sleep(float(message.get("retry_after") or 0.1))
                    await ws.send(json.dumps(sent))
                    continue
                self.say(f"table {table_id}: {message.get('message')}")
                asked = None  # the fresh state that follows is asked again
                continue
            if kind != "state":
                continue
            view, legal, seat = message["view"], message["legal"], message["seat"]
            table = message.get("table") or table
            if seat is None:  # not (or no longer) seated here
                return bot, True
            if bot is None:
                bot = make_bot(self.spec, table["game"], new_key(), **self._extra(table, seat))
            last = message.get("last")
            if last is not None and can(bot, "event"):
                await asyncio.to_thread(bot.event, last["seat"], last["action"], view)
            talk: str | None = None
            if last is not None and last["seat"] != seat and can(bot, "react"):
                # a built-in bot learns of the others' actions through react, and may talk
                options = [a for a in legal if games.get(table["game"]).is_talk(a)]
                talk = await asyncio.to_thread(bot.react, view, options)
            if view.get("over") or table["status"] == "over":
                if can(bot, "finish"):
                    await asyncio.to_thread(bot.finish, view.get("result") or {})
                self.finished.append(
                    {
                        "table": table_id,
                        "game": table["game"],
                        "result": view.get("result"),
                    }
                )
                self.say(f"table {table_id}: over")
                return bot, True
            action = talk if talk in legal else None
            if (
                action is None
                and seat in view.get("to_act", ())
                and legal
                and asked != message["version"]
            ):
                asked = message["version"]
                action = await asyncio.to_thread(bot.choose, view, legal)
            if action is not None:
                sent = {
                    "type": "act",
                    "action": action,
                    "version": message["version"],
                    "id": f"b{next(self._ids)}",
                }
                await ws.send(json.dumps(sent))
        return bot, False

    def _extra(self, table: dict[str, Any], seat: int) -> dict[str, Any]:
        if not is_external(self.spec):
            return {}
        return {
            "seat": seat,
            "players": table["players"],
            "options": table["options"],
            "timeout": self.timeout,
        }


def connect(
    url: str,
    token: str,
    spec: str,
    *,
    join: str | None = None,
    games: int | None = None,
    timeout: float = 5.0,
    say: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Run the client until ``games`` games are over (or Ctrl-C); the games it finished."""
    client = BotClient(url, token, spec, join=join, games=games, timeout=timeout, say=say)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(client.run())
    return client.finished
