"""Every message of the server's API as a pydantic model: HTTP bodies and answers, and the
websocket messages both ways.

FastAPI validates request bodies with these models and documents the answers
(``response_model``), so ``/openapi.json`` is the API's reference. Websocket messages from
clients are validated on receipt (``parse_client``); those the server sends are built as plain
dicts on the hot path (a model per message and connection would cost more than the view) in
exactly the shape of the models below, which ``server_message_schema`` exports and the tests
check every sent message against.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

#: bytes a client may send in one websocket message, characters of an action and of an id
MAX_MESSAGE = 4096
MAX_ACTION = 64
MAX_ID = 64


class HubError(Exception):
    """A refused request, with a code for clients and a reason for people (``ErrorAnswer``
    over HTTP, ``ErrorMessage`` over a websocket)."""

    def __init__(self, code: str, reason: str, status: int = 400,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status
        #: more fields for the answer (e.g. ``retry_after``)
        self.extra = extra or {}


def error(code: str, message: str, client_id: str | None = None) -> dict[str, Any]:
    """An ``ErrorMessage`` for a websocket."""
    return {"type": "error", "code": code, "message": message, "id": client_id}


def encodable(text: str) -> bool:
    """False for text with lone surrogates (JSON allows "\\ud800"): it can be neither
    stored nor sent back, so an id holding one is refused up front."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _encodable(text: str) -> str:
    if not encodable(text):
        raise ValueError("text with a lone surrogate")
    return text


ClientId = Annotated[StrictStr, Field(max_length=MAX_ID), AfterValidator(_encodable)]


# -- websocket: client -> server ------------------------------------------------------------
class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    #: the client's own id for the message, echoed in the answer
    id: ClientId | None = None


class ActMessage(_ClientMessage):
    """Play ``action`` (RULES.md notation) against ``version``, the last state seen. A
    resent ``id`` is answered with its first answer and applied once."""

    type: Literal["act"]
    action: Annotated[StrictStr, Field(max_length=MAX_ACTION)]
    version: StrictInt | None = None


class PingMessage(_ClientMessage):
    """Answered with a ``pong``."""

    type: Literal["ping"]


class SyncMessage(_ClientMessage):
    """Asks for the table as it is now (a ``state``)."""

    type: Literal["sync"]


ClientMessage = Annotated[ActMessage | PingMessage | SyncMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ActMessage | PingMessage | SyncMessage] = TypeAdapter(ClientMessage)
#: the refusal of a client message by the field that failed (the texts clients know)
FIELD_ERRORS = {
    "action": "action must be a short text, e.g. 'take 7 left'",
    "version": "version must be a whole number",
    "id": "id must be a short string",
}


def parse_client(message: dict[str, Any]) -> ActMessage | PingMessage | SyncMessage | str:
    """The client message as its model, or the reason it is refused (``bad_message``)."""
    try:
        return CLIENT_MESSAGE.validate_python(message)
    except ValidationError as e:
        for problem in e.errors():
            if problem["type"] in ("union_tag_invalid", "union_tag_not_found"):
                return f"unknown message type {message.get('type')!r}: act, ping or sync"
            loc = problem["loc"]
            field = str(loc[1]) if len(loc) > 1 else ""
            if field in FIELD_ERRORS:
                return FIELD_ERRORS[field]
        return "messages are JSON objects of a known type: act, ping or sync"


# -- table facts (HTTP answers, and the ``table`` of a state) -------------------------------
class SeatRun(BaseModel):
    """Who played a seat from one action on."""

    model_config = ConfigDict(populate_by_name=True)

    name: str
    bot: str | None = Field(description="the bot's spec, null for a person")
    from_: int = Field(alias="from", description="index in the action log of their first "
                       "action (0 for the first of a seat)")


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    taken: bool
    you: bool
    connected: bool | None = Field(description="whether the person has a connection; null "
                                   "for a bot or an open seat")
    history: list[SeatRun] | None = Field(
        None, description="once the game is over: who played this seat over time")


class TableInfo(BaseModel):
    """The public facts of a table."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "running", "over"]
    seed: str | None = Field(description="the deal as decimal text, null unless public")
    creator: bool = Field(description="whether you created the table")
    version: int
    can_undo: bool
    can_redo: bool
    seats: list[SeatInfo]
    notices: list[str]
    ended: Literal["abandoned", "resigned", "idle"] | None = Field(
        None, description="how an over table ended before its game did (docs/server.md, "
        "\"Table lifecycle\"); absent when it was played to its end")
    created_at: str | None = Field(None, description="when the table was created (ISO 8601, "
                                   "UTC): the lobby shows its age")


# -- websocket: server -> client ------------------------------------------------------------
class StateMessage(BaseModel):
    """The table as one connection may see it: its seat's view and legal actions."""

    type: Literal["state"]
    version: int
    seat: int | None = Field(description="the connection's seat, null for a spectator")
    table: TableInfo
    view: dict[str, Any] = Field(description="the game's view(seat)")
    legal: list[str] = Field(description="empty unless the table runs and the seat may act")
    spectators: int


class AckMessage(BaseModel):
    """An action was stored; the new ``state`` follows."""

    type: Literal["ack"]
    id: str | None
    version: int
    action: str


class ErrorMessage(BaseModel):
    type: Literal["error"]
    code: str
    message: str
    id: str | None
    retry_after: float | None = Field(None, description="rate_limited only: seconds to wait")


class PongMessage(BaseModel):
    type: Literal["pong"]
    id: str | None
    version: int


class PresenceMessage(BaseModel):
    """Who is connected changed: one per seat (to everyone), or only the number watching
    (``seat`` and ``connected`` null; to the seated connections)."""

    type: Literal["presence"]
    version: int
    seat: int | None
    connected: bool | None
    spectators: int


ServerMessage = Annotated[StateMessage | AckMessage | ErrorMessage | PongMessage
                          | PresenceMessage, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[StateMessage | AckMessage | ErrorMessage | PongMessage
                            | PresenceMessage] = TypeAdapter(ServerMessage)


def websocket_schema() -> dict[str, Any]:
    """JSON Schemas of the websocket messages, both ways (``GET /api/ws-schema``)."""
    return {"client": CLIENT_MESSAGE.json_schema(by_alias=True),
            "server": SERVER_MESSAGE.json_schema(by_alias=True)}


# -- HTTP bodies ----------------------------------------------------------------------------
class NameBody(BaseModel):
    name: str = Field(max_length=100)


class NewTable(BaseModel):
    game: str = Field(max_length=32)
    #: per seat: "me", "open" (for a friend) or a bot spec such as "greedy" or "search:hard"
    seats: list[str] = Field(max_length=6, description='per seat: "me", "open" (for a '
                             'friend) or a bot spec such as "greedy" or "search:hard"')
    options: dict[str, Any] = Field(default_factory=dict, max_length=8)
    seed: int | None = Field(None, description="a deal number, for a game played alone")
    replaces: str | None = Field(None, max_length=16, description="your unfinished game "
                                 "played alone that this new deal replaces: it is closed as "
                                 "abandoned (a loss) first")


class LeaveAnswer(BaseModel):
    """What leaving or resigning did (docs/server.md, "Table lifecycle")."""

    outcome: Literal["freed", "bot", "closed"] = Field(description="freed: an open table's "
                                                       "seat is free again; bot: the game "
                                                       "plays on with the game's fallback bot "
                                                       "in your seat; closed: the table ended")
    table: TableInfo


class MyGame(BaseModel):
    """One table of "My games"."""

    id: str
    game: str
    title: str
    players: int
    status: Literal["open", "running", "over"]
    ended: str | None = None
    seat: int | None = Field(description="your seat (from 0), null if you no longer hold it")
    your_turn: bool
    to_act: list[str] = Field(description="the names of those who must act now")
    opponents: list[str]
    created_at: str
    active_at: str
    finished_at: str | None = None
    verdict: str | None = Field(None, description="a finished game's result, for you")


class MyGames(BaseModel):
    """GET /api/my-games: your unfinished tables (yours to play first) and a page of the
    finished ones, newest first."""

    unfinished: list[MyGame]
    finished: list[MyGame]
    page: int
    more: bool = Field(description="whether an older page of finished games exists")


class JoinBody(BaseModel):
    seat: int | None = None


class BotBody(BaseModel):
    bot: str = Field(max_length=40)


# -- HTTP answers ---------------------------------------------------------------------------
class ErrorAnswer(BaseModel):
    """Every refusal: an HTTP status 4xx (5xx) with this body."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(description="a code for programs, e.g. bad_request, not_found")
    message: str = Field(description="the reason, for people")
    retry_after: float | None = Field(None, description="over a limit: seconds to wait")


class Player(BaseModel):
    id: str
    name: str


class MeAnswer(BaseModel):
    player: Player | None


class BotInfo(BaseModel):
    name: str
    levels: list[str]


class GameInfo(BaseModel):
    """A game's ``Game.describe()`` and the bots a table may seat."""

    model_config = ConfigDict(extra="allow")  # whatever else the game describes

    name: str
    title: str
    min_players: int
    max_players: int
    better: Literal["low", "high"]
    cooperative: bool
    advisor: bool = Field(description="hints offered")
    solver: bool = Field(description='"still winnable?" offered')
    undo_alone: bool = Field(description="played alone: undo, redo and restart offered")
    shows_deal_number: bool = Field(description="played alone: the deal number is public")
    rated: bool = Field(description="games of two or more change the ratings")
    has_talk: bool = Field(description="talk: actions out of turn that change no turn")
    fallback_bot: str = Field(description="the bot a failing bot's seat passes to")
    options: list[dict[str, Any]] = Field(description="{name, default, doc} each")
    bots: list[BotInfo]


class JoinAnswer(BaseModel):
    seat: int
    table: TableInfo


class HintAnswer(BaseModel):
    action: str | None
    reason: str | None


class WinnableAnswer(BaseModel):
    winnable: bool | None = Field(description="null: the solver's budget ran out")
    peeking: Literal[True]


class Stats(BaseModel):
    game: str
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_score: int | float | None


class LeaderboardRow(BaseModel):
    name: str
    game: str
    rating: float = Field(description="mu - 3 sigma")
    mu: float
    sigma: float
    games: int
    bot: bool


class ReplayActor(BaseModel):
    name: str
    bot: str | None


class ReplayAction(BaseModel):
    seat: int
    action: str
    by: ReplayActor | None


class ReplayStep(BaseModel):
    step: int
    steps: int
    view: dict[str, Any] = Field(description="the spectator's view after ``step`` actions")
    seat_views: list[dict[str, Any]]
    action: ReplayAction | None = Field(description="the action that led here; null at 0")
    played_by: list[list[SeatRun]]


class WebsocketSchema(BaseModel):
    client: dict[str, Any] = Field(description="JSON Schema of the messages clients send")
    server: dict[str, Any] = Field(description="JSON Schema of the messages the server sends")
