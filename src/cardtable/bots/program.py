"""A built-in bot as a bot-protocol program (``cardtable bot run SPEC``).

It speaks protocol 2 (docs/bot-protocol.md) on a pair of text streams: it answers ``hello``
with its name and ``"newgame": true`` (one process plays game after game), builds the bot for
the game with the seed the table sends, passes it the events of the other seats the way a
table passes them to a built-in bot (``react``, whose talk a program cannot say out of turn),
and answers each ``act`` with the bot's choice. The bot options ``bot`` and ``level`` choose
another bot or level than the command line's.

So any table that runs programs can seat a built-in bot as one, and a program run this way
plays exactly as the built-in bot with the same seed: the protocol's own check.
"""

from __future__ import annotations

import json
from typing import IO, Any

from cardtable import __version__
from cardtable.bots import make_bot
from cardtable.bots.lifecycle import can

#: the bot options this program understands (announced in its hello)
OPTIONS = ("bot", "level")


def spec_for(default: str, bot_options: dict[str, Any]) -> str:
    """The bot spec a game's ``bot_options`` ask for, on top of the command line's."""
    name, _, level = default.partition(":")
    name = str(bot_options.get("bot", name))
    level = str(bot_options.get("level", level))
    return f"{name}:{level}" if level else name


def serve(spec: str, stdin: IO[str], stdout: IO[str], newgame: bool = True) -> None:
    """Play every game the table sends on ``stdin`` until it closes; without ``newgame`` the
    hello does not offer to play game after game (the table starts a process per game)."""
    bot: Any = None
    seat: int | None = None

    def say(message: dict[str, Any]) -> None:
        stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdout.flush()

    def done() -> None:
        nonlocal bot
        if bot is not None and can(bot, "close"):
            bot.close()
        bot = None

    try:
        for line in stdin:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "hello":
                done()
                use = spec_for(spec, message.get("bot_options") or {})
                seat = message.get("seat")
                bot = make_bot(use, message["game"], int(message.get("seed") or 0))
                say(
                    {
                        "type": "hello",
                        "name": f"cardtable {use}",
                        "version": __version__,
                        "newgame": newgame,
                        "options": list(OPTIONS),
                    }
                )
            elif kind == "event" and bot is not None:
                # a table tells a built-in bot of the other seats' actions through react
                if message.get("seat") != seat and can(bot, "react"):
                    bot.react(message["view"], [])
            elif kind == "act":
                if bot is None:  # a protocol 1 table: no hello, so build from the act
                    seat = message.get("seat")
                    bot = make_bot(spec, message["game"])
                say({"action": bot.choose(message["view"], message["legal"])})
            elif kind == "over" and bot is not None and can(bot, "finish"):
                bot.finish(message["result"])
            elif kind == "newgame":
                done()
            # any other type: a later addition to the protocol; ignored
    finally:
        done()
