"""The server's configuration: one object, built once and passed down.

``cardtable serve`` builds a :class:`ServerSettings` from its command-line options, and every
option it leaves out comes from a ``CARDTABLE_*`` environment variable (``--seat-grace`` from
``CARDTABLE_SEAT_GRACE``), the way a container or a process manager sets it, else from the
default. ``create_app`` and uvicorn's configuration read it; nothing below them parses an
option again. docs/server.md, "Options", lists each option with its variable.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from cardtable.server.api.limits import NEW_PLAYERS_PER_MINUTE
from cardtable.server.tables.botpool import DEFAULT_WORKERS
from cardtable.server.tables.botrunner import BOT_TIMEOUT, EXTERNAL_NAME
from cardtable.server.tables.engine import SEAT_GRACE
from cardtable.server.tables.lifecycle import IDLE_CLOSE
from cardtable.server.tables.reviews import REVIEW_QUEUE, REVIEW_WORKERS, REVIEWS_PER_DAY
from cardtable.server.web.security import normalize_origin

#: the environment variables' prefix: ``CARDTABLE_BOT_DELAY`` sets ``bot_delay``
ENV_PREFIX = "CARDTABLE_"
LogLevel = Literal["debug", "info", "warning"]
LogFormat = Literal["text", "json"]
WebSockets = Literal["auto", "websockets", "websockets-sansio", "wsproto"]
#: a list given in one environment variable: comma-separated (a JSON list also works)
Listed = Annotated[list[str], NoDecode]


class ServerSettings(BaseSettings):
    """Every option of ``cardtable serve`` (the command's help says what each does)."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    db: str | None = None
    data: Path | None = None
    bot_delay: float = Field(default=0.8, ge=0)
    bot_timeout: float = Field(default=BOT_TIMEOUT, gt=0)
    #: NAME=COMMAND, offered to tables as ``ext:NAME``
    external_bot: Listed = []
    bot_workers: int = Field(default=DEFAULT_WORKERS, ge=1)
    seat_grace: float = Field(default=SEAT_GRACE, ge=0, le=86400)
    min_clock: int | None = Field(default=None, ge=1, le=3600)
    idle_close: float = Field(default=IDLE_CLOSE, ge=0)
    allowed_origin: Listed = []
    secure_cookies: bool = False
    forwarded_allow_ips: str | None = None
    new_players_per_minute: int = Field(default=NEW_PLAYERS_PER_MINUTE, ge=0)
    max_connections: int = Field(default=10_000, ge=1)
    log_level: LogLevel = "info"
    log_format: LogFormat = "text"
    #: ``GET /metrics`` on a port of its own (docs/server.md, "Health, metrics and logs")
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    #: seconds a stopping server answers /readyz 503 while it still serves
    drain: float = Field(default=0, ge=0, le=300)
    ws: WebSockets = "auto"
    bus: str | None = None
    #: game reviews (docs/server.md, "Game review")
    review_workers: int = Field(default=REVIEW_WORKERS, ge=1, le=64)
    review_queue: int = Field(default=REVIEW_QUEUE, ge=1, le=10_000)
    reviews_per_day: int = Field(default=REVIEWS_PER_DAY, ge=0, le=10_000)

    @field_validator("external_bot", "allowed_origin", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):  # from the environment
            text = value.strip()
            if text.startswith("["):
                import json

                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator("external_bot")
    @classmethod
    def _external(cls, entries: list[str]) -> list[str]:
        from cardtable.bots.external import check_command
        from cardtable.core.errors import CardtableError

        for entry in entries:
            name, eq, command = entry.partition("=")
            if not eq or not EXTERNAL_NAME.match(name.strip()):
                raise ValueError(f"{entry!r}: write NAME=COMMAND, NAME of letters, digits, _ or -")
            try:
                check_command(command)
            except CardtableError as e:
                raise ValueError(f"{name.strip()}: {e.reason}") from None
        return entries

    @field_validator("allowed_origin")
    @classmethod
    def _origins(cls, origins: list[str]) -> list[str]:
        for origin in origins:
            if normalize_origin(origin) is None:
                raise ValueError(f"{origin!r}: write an origin such as https://cards.example")
        return origins

    @field_validator("bus")
    @classmethod
    def _bus(cls, url: str | None) -> str | None:
        if url is not None and not re.match(r"^(redis|rediss|unix)://", url):
            raise ValueError("a Redis URL: redis://host:6379/0")
        return url

    @property
    def external_bots(self) -> dict[str, str]:
        """NAME -> COMMAND of the external bots the operator offers."""
        pairs = (entry.partition("=") for entry in self.external_bot)
        return {name.strip(): command for name, _, command in pairs}


def option_name(field: str) -> str:
    """A setting's command-line option: ``seat_grace`` -> ``--seat-grace``."""
    return "--" + field.replace("_", "-")


def env_name(field: str) -> str:
    """A setting's environment variable: ``seat_grace`` -> ``CARDTABLE_SEAT_GRACE``."""
    return ENV_PREFIX + field.upper()
