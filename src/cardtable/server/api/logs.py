"""The server's log lines: which request, table and player a line is about, and the two
shapes a line takes (``--log-format text`` or ``json``).

A request's id, its table and its player are context variables, set by the web edge as a
request or a socket starts (and by the tunnel for a request forwarded from another process,
which carries the same id), so every line logged while it runs names them without each
caller passing them. A line never holds a token: anything that looks like one
(``token=...``, a cookie) is blanked before it is written, in both shapes.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import time
from contextvars import ContextVar

__all__ = [
    "JsonFormatter",
    "RedactingFormatter",
    "player_id",
    "request_id",
    "request_id_from",
    "table_id",
]

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
table_id: ContextVar[str | None] = ContextVar("table_id", default=None)
player_id: ContextVar[str | None] = ContextVar("player_id", default=None)

#: the header a request's id comes in (from the edge: a proxy or a balancer) and goes back in
HEADER = b"x-request-id"
#: an id taken from the edge: at most 64 of these characters, else a new one is made
GOOD_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
#: what a secret looks like in a line: a token in a query or a header, the cookie
SECRET = re.compile(r"((?:cardtable_)?token[\"']?\s*[=:]\s*[\"']?)[^\s&;\"',)]+", re.IGNORECASE)


def new_request_id() -> str:
    return secrets.token_hex(8)


def request_id_from(header: bytes | None) -> str:
    """The edge's ``X-Request-ID`` when it is a good one, else a new id."""
    if header:
        try:
            text = header.decode("ascii")
        except UnicodeDecodeError:
            return new_request_id()
        if GOOD_ID.match(text):
            return text
    return new_request_id()


def redact(text: str) -> str:
    return SECRET.sub(r"\1…", text)


class RedactingFormatter(logging.Formatter):
    """The text shape: time, level, logger, message, then the request, table and player the
    line is about when there are any; secrets blanked."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        about = " ".join(f"{k}={v}" for k, v in context(record).items())
        return redact(f"{line} [{about}]" if about else line)


class JsonFormatter(logging.Formatter):
    """The json shape: one JSON object a line (``ts``, ``level``, ``pid``, ``logger``,
    ``message``; ``request_id``, ``table_id``, ``player_id`` when known; ``exc`` with a
    traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        seconds = record.created
        ms = int((seconds - int(seconds)) * 1000)
        line: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{ms:03d}Z",
            "level": record.levelname.lower(),
            "pid": os.getpid(),
            "logger": record.name,
            "message": redact(record.getMessage()),
            **context(record),
        }
        if record.exc_info:
            line["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def context(record: logging.LogRecord) -> dict[str, str]:
    """The request, table and player a line is about: given by the caller (``extra=``) or
    from the context of the request that logs it."""
    about = {}
    for name, var in (("request_id", request_id), ("table_id", table_id), ("player_id", player_id)):
        value = getattr(record, name, None) or var.get()
        if value:
            about[name] = str(value)
    return about
