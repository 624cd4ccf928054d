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

from typing import Annotated, Any, Literal, NotRequired, TypedDict

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

from cardtable.core.words import wire

#: bytes a client may send in one websocket message, characters of an action and of an id
MAX_MESSAGE = 4096
MAX_ACTION = 64
MAX_ID = 64


class HubError(Exception):
    """A refused request, with a code for clients and a reason for people (``ErrorAnswer``
    over HTTP, ``ErrorMessage`` over a websocket)."""

    def __init__(
        self, code: str, reason: str, status: int = 400, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status
        #: more fields for the answer (e.g. ``retry_after``)
        self.extra = extra or {}


class NotHolder(HubError):
    """This process does not hold the table (with several processes only its lease holder
    loads, runs and writes it): refused before anything reaches the database. A client is
    told to try again (503 ``moved``): its request then reaches the holder."""

    def __init__(self, table_id: str, what: str) -> None:
        super().__init__(
            "moved",
            f"table {table_id} is held by another server process ({what} refused here): try again",
            503,
            {"retry_after": 1},
        )
        self.table_id = table_id
        self.what = what


def error(code: str, message: str, client_id: str | None = None) -> dict[str, Any]:
    """An ``ErrorMessage`` for a websocket: the reason in English (``message``) and as words
    a client puts into its reader's language (``msg``: ``core.words.wire``)."""
    return {
        "type": "error",
        "code": code,
        "message": message,
        "msg": wire(message),
        "id": client_id,
    }


def encodable(text: str) -> bool:
    """False for text with lone surrogates (JSON allows "\\ud800"): it can be neither
    stored nor sent back, so an id holding one is refused up front; and for text with a NUL
    character ("\\u0000"), which PostgreSQL's text columns refuse."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def _encodable(text: str) -> str:
    if not encodable(text):
        raise ValueError("text with a lone surrogate or a NUL character")
    return text


ClientId = Annotated[StrictStr, Field(max_length=MAX_ID), AfterValidator(_encodable)]


# -- websocket: client -> server ------------------------------------------------------------
class Words(BaseModel):
    """Words for people as a message id with arguments (``core.words.wire``), for a client
    to put into its reader's language: ``msg`` is the English template with ``{name}``
    placeholders, looked up in ``domain``'s catalog (a game's name for a game's words,
    ``cardtable`` for the platform's); each argument is a plain value or words of its own.
    A count has ``plural`` (the English plural) and ``n`` (which form)."""

    msg: str = Field(description="the English template: the gettext message id")
    domain: str = Field(description="the catalog: cardtable, web, or a game's name")
    args: dict[str, Any] | None = Field(
        None, description="the placeholders' values: a name, a number, or words (Words)"
    )
    plural: str | None = Field(None, description="a count's English plural template")
    n: int | None = Field(None, description="a count: the number that picks the form")


#: words a client renders with ``say()``: ``Words``, or plain text that needs no translating
Said = Words | str


class EndingWords(BaseModel):
    """An ending's words (``Ending``) as message ids with arguments, field for field."""

    lines: list[Said]
    verdict: Said | None
    notes: list[Said]
    columns: list[Said] | None = Field(None, description="the breakdown's column headings")
    table: list[Said] | None = Field(
        None, description="the headings of the breakdown's table rows, in order"
    )


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


class ChatMessage(_ClientMessage):
    """Write ``text`` in the table's chat (at most ``chat.MAX_CHAT`` characters; with free
    chat off, one of the fixed phrases). Errors: chat_not_allowed, chat_empty, chat_too_long,
    chat_phrases_only, chat_rate_limited (with ``retry_after``), chat_full."""

    type: Literal["chat"]
    text: Annotated[StrictStr, Field(max_length=MAX_MESSAGE)]


ClientMessage = Annotated[
    ActMessage | PingMessage | SyncMessage | ChatMessage, Field(discriminator="type")
]
CLIENT_MESSAGE: TypeAdapter[ActMessage | PingMessage | SyncMessage | ChatMessage] = TypeAdapter(
    ClientMessage
)
#: the refusal of a client message by the field that failed (the texts clients know)
FIELD_ERRORS = {
    "action": "action must be a short text, e.g. 'take 7 left'",
    "version": "version must be a whole number",
    "id": "id must be a short string",
    "text": "text must be a string",
}


def parse_client(
    message: dict[str, Any],
) -> ActMessage | PingMessage | SyncMessage | ChatMessage | str:
    """The client message as its model, or the reason it is refused (``bad_message``)."""
    try:
        return CLIENT_MESSAGE.validate_python(message)
    except ValidationError as e:
        for problem in e.errors():
            if problem["type"] in ("union_tag_invalid", "union_tag_not_found"):
                return f"unknown message type {message.get('type')!r}: act, ping, sync or chat"
            loc = problem["loc"]
            field = str(loc[1]) if len(loc) > 1 else ""
            if field in FIELD_ERRORS:
                return FIELD_ERRORS[field]
        return "messages are JSON objects of a known type: act, ping, sync or chat"


# -- table facts (HTTP answers, and the ``table`` of a state) -------------------------------
class SeatRun(BaseModel):
    """Who played a seat from one action on."""

    model_config = ConfigDict(populate_by_name=True)

    name: str
    bot: str | None = Field(description="the bot's spec, null for a person")
    person: str | None = Field(
        None,
        description="a bot on a person's seat: the person's "
        'name ("Ann — played by Greedy"); null otherwise',
    )
    from_: int = Field(
        alias="from",
        description="index in the action log of their first action (0 for the first of a seat)",
    )


class SeatInfo(BaseModel):
    seat: int
    name: str | None = Field(
        description="the person's name, or the bot's, given once when "
        'it took the seat ("Greedy", "Greedy 3" beside another)'
    )
    person: str | None = Field(
        None,
        description="a bot playing a person's seat on (they "
        "left, resigned, ran out of time or were handed over): the "
        'person\'s name; pages show "Ann — played by Greedy"',
    )
    bot: str | None
    taken: bool
    you: bool
    connected: bool | None = Field(
        description="whether the person has a connection; null for a bot or an open seat"
    )
    bot_account: bool = Field(
        False,
        description="the seat's player is a bot account: a "
        "program playing through the API with its token",
    )
    history: list[SeatRun] | None = Field(
        None, description="once the game is over: who played this seat over time"
    )
    you_away: bool | None = Field(
        None,
        description="your seat, given to a bot when your time ran out: take it back "
        "(POST /api/tables/{id}/join with this seat, or reconnect)",
    )
    hand_over_in: float | None = Field(
        None,
        description="a person's seat without a connection at an unfinished table: "
        "seconds until the creator may hand it to a bot (0: now; the grace period, "
        "--seat-grace); null otherwise",
    )
    shown: Said | None = Field(
        None,
        description="the seat's name as pages show it, for the reader's language: the "
        "person's, a bot's marked as one ('Greedy (bot)'), a person's seat a bot plays on "
        "('Ann — played by Greedy'), or 'open seat'",
    )


class SeatClock(BaseModel):
    deadline: float | None = Field(
        description="when this seat's time runs out (seconds "
        "since the epoch), null unless its time runs"
    )
    left: float | None = Field(
        description="a per-game clock's seconds left, while the seat's time does not run"
    )


class ClockInfo(BaseModel):
    """A table's clock (docs/server.md, "Clocks")."""

    mode: Literal["move", "game", "turn"]
    seconds: int = Field(description="per move (move, turn) or per player (game)")
    now: float = Field(
        description="the server's time when this was sent (seconds since "
        "the epoch): clients count down from the deadlines by it"
    )
    seats: list[SeatClock]


class ClockChoice(BaseModel):
    """The clock a new table gets: none (the default), real-time per move or per game, or
    turn-based (a move within hours or days); ``seconds`` defaults per mode."""

    mode: Literal["none", "move", "game", "turn"] = "none"
    seconds: StrictInt | None = None


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
    notices_msg: list[Said] = Field(
        [], description="the notices, for the reader's language (in the same order)"
    )
    clock: ClockInfo | None = Field(None, description="null for a table without a clock")
    your_deadline: float | None = Field(
        None,
        description="when your time to move here runs out (seconds since the epoch): "
        "only where it is your turn at a table with a clock",
    )
    ended: Literal["abandoned", "resigned", "idle", "too_long"] | None = Field(
        None,
        description="how an over table ended before its game did (docs/server.md, "
        '"Table lifecycle"); absent when it was played to its end',
    )
    created_at: str | None = Field(
        None, description="when the table was created (ISO 8601, UTC): the lobby shows its age"
    )
    practice: Literal["practice", "tutorial"] | None = Field(
        None,
        description="a practice table: ``practice`` (a finished solitaire played on from a "
        "step) or ``tutorial`` (a game's tutorial); never rated nor in the statistics",
    )
    tournament: str | None = Field(
        None, description="the tournament this table is a game of (GET /api/tournaments/{id})"
    )


#: a table tool (``protocol.TOOLS``): undo, redo, a hint, "still winnable?" (peeking), the same
#: deal again, a new deal
Tool = Literal["undo", "redo", "hint", "peek", "restart", "new_deal"]


# -- websocket: server -> client ------------------------------------------------------------
class LogEntry(BaseModel):
    """One action of the game log in words (``Game.describe_action``): the seat that played
    it reads its own words, the others only the public ones until a secret action resolves."""

    n: int = Field(description="index in the action log (news: of the action that brought it)")
    seat: int
    who: str = Field(description="who played it then (a bot marked as one); empty for news")
    text: str = Field(description="the words in English")
    msg: Said = Field(description="the same words, for the reader's language")
    news: bool = Field(
        False,
        description="news, not an action: what the action ``n`` "
        "brought about (Game.describe_news: Slide's scoring of a deal)",
    )


class LastMove(BaseModel):
    n: int
    seat: int
    action: str | None = Field(description="null while it is secret from this connection")


class Breakdown(BaseModel):
    """A finished game's figures (``Game.breakdown``): one table of them."""

    columns: list[str] = Field(description="the headings of each seat's figures")
    seats: list[list[int | str]] = Field(
        description="per seat, in seat order, its figures under ``columns`` (empty: none per seat)"
    )
    table: list[list[int | str]] = Field(
        description='the table\'s own figures, [heading, figure] each ("draw pile", 12)'
    )


class Ending(BaseModel):
    """The end of the game in words."""

    lines: list[str] = Field(
        description="Game.result_lines: the end in text, for text "
        "clients; or why a table closed before its game's end"
    )
    verdict: str | None = Field(description="Game.verdict for this seat; null for a spectator")
    breakdown: Breakdown | None = Field(
        None,
        description="Game.breakdown: the figures per "
        "seat and for the table (null: a table closed "
        "before its game's end)",
    )
    notes: list[str] = Field(
        [],
        description="Game.result_notes: what the figures do not "
        "say (why it ended, how it is scored)",
    )
    msg: EndingWords | None = Field(None, description="the same words, for the reader's language")


class StateMessage(BaseModel):
    """The table as one connection may see it: its seat's view and legal actions."""

    type: Literal["state"]
    version: int
    seat: int | None = Field(description="the connection's seat, null for a spectator")
    table: TableInfo | None = Field(
        None,
        description="the table info; left out, on a socket opened with table=changed, when "
        "it is what this socket's last state carried (its version then this state's)",
    )
    view: dict[str, Any] = Field(description="the game's view(seat)")
    legal: list[str] = Field(description="empty unless the table runs and the seat may act")
    spectators: int
    log_from: int = Field(
        description="the first action whose entries this message "
        "carries: the client keeps its entries of the actions before it "
        "and replaces the rest with ``log`` (0: the whole log)"
    )
    log: list[LogEntry] = Field(
        description="the actions in words from ``log_from`` on, as "
        "this connection may read them: what is new or changed (a "
        "secret action that resolved) since its last state"
    )
    last: LastMove | None = Field(description="the last action, for the board to highlight")
    to_act: list[int] = Field(
        description="the seats that must act now (empty unless the "
        "table runs): a seat not here is not to play, whatever its legal"
    )
    labels: list[str] = Field(
        description="a label per legal action (Game.move_label); empty for a socket "
        "opened with labels=0 (a client that names the moves itself)"
    )
    labels_msg: list[Said] = Field(
        [], description="the labels, for the reader's language (in the same order)"
    )
    ending: Ending | None = Field(description="once over: the end in words")
    tools: list[Tool] = Field(
        description="the table tools this connection's person has now "
        "(Game.tools_for, per game and player count; none for a "
        "spectator; undo and redo only while the game runs): a page "
        "offers these, and the server refuses the others (not_offered)"
    )


class Shared(dict[str, Any]):
    """A message sent as it is to every connection of one kind (a table's spectators, a
    person's sockets): built once, encoded once by the first writer that sends it
    (``socket.encode`` keeps the text here), and never changed once pushed."""

    text: str | None = None


class StateDict(TypedDict):
    """A ``StateMessage`` as the server builds it (``broadcast.state_message``), field for
    field: mypy checks it where it is built, and a test holds its keys to the model's."""

    type: Literal["state"]
    version: int
    seat: int | None
    table: NotRequired[dict[str, Any]]
    view: dict[str, Any]
    legal: list[str]
    spectators: int
    log_from: int
    log: list[dict[str, Any]]
    last: dict[str, Any] | None
    to_act: list[int]
    labels: list[str]
    labels_msg: list[Any]
    ending: dict[str, Any] | None
    tools: list[str]


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
    msg: Said | None = Field(None, description="the message, for the reader's language")
    id: str | None
    retry_after: float | None = Field(
        None, description="rate_limited and chat_rate_limited only: seconds to wait"
    )


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
    hand_over_in: float | None = Field(
        None,
        description="seconds until the table's creator may hand this seat, whose "
        'person has no connection, to a bot (0: now; docs/server.md, "Seats that go to '
        'bots"); null for a connected person or a count of spectators',
    )


class ChatLine(BaseModel):
    """One chat message as everyone at the table reads it (plain text: never HTML)."""

    n: int = Field(description="its number: increasing in the order written")
    seat: int | None = Field(description="the writer's seat (from 0), null for a spectator")
    name: str = Field(description="the writer's name when they wrote it")
    text: str
    msg: Said | None = Field(None, description="a fixed phrase, for the reader's language")
    at: str = Field(description="when, UTC (ISO 8601)")


class ChatSettings(BaseModel):
    free: bool = Field(description="free text; false: only the fixed phrases")
    spectators: bool = Field(description="spectators may write")
    phrases: list[str] = Field(description="what may always be said")
    phrases_msg: list[Said] = Field(
        [], description="the phrases, for the reader's language (in the same order)"
    )
    can_write: bool = Field(description="whether this connection may write")
    why: str | None = Field(description="why not, for people")
    why_msg: Said | None = Field(None, description="why not, for the reader's language")


class ChatServerMessage(BaseModel):
    """Chat: on (re)connecting, the table's last messages (``replay``: they replace what
    the client shows); then each new message, and every change of the settings."""

    type: Literal["chat"]
    replay: bool
    messages: list[ChatLine]
    settings: ChatSettings


ServerMessage = Annotated[
    StateMessage | AckMessage | ErrorMessage | PongMessage | PresenceMessage | ChatServerMessage,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[
    StateMessage | AckMessage | ErrorMessage | PongMessage | PresenceMessage | ChatServerMessage
] = TypeAdapter(ServerMessage)


def websocket_schema() -> dict[str, Any]:
    """JSON Schemas of the websocket messages, both ways (``GET /api/ws-schema``)."""
    return {
        "client": CLIENT_MESSAGE.json_schema(by_alias=True),
        "server": SERVER_MESSAGE.json_schema(by_alias=True),
    }


# -- HTTP bodies ----------------------------------------------------------------------------
class NameBody(BaseModel):
    name: str = Field(max_length=100)


class LanguageBody(BaseModel):
    #: one of the languages offered (``GET /api/languages``)
    language: str = Field(max_length=16)


class LanguageAnswer(BaseModel):
    language: str
    #: saved on the player (it follows them to another browser) or only in this browser's
    #: cookie (no player yet)
    saved: bool


class LanguagesAnswer(BaseModel):
    #: the language of this request's reader
    language: str
    #: every language offered: code and name in its own words
    languages: list[dict[str, str]]


class NewTable(BaseModel):
    game: str = Field(max_length=32)
    #: per seat: "me", "open" (for a friend) or a bot spec such as "greedy" or "search:hard"
    seats: list[str] = Field(
        max_length=6,
        description='per seat: "me", "open" (for a '
        'friend) or a bot spec such as "greedy" or "search:hard"',
    )
    options: dict[str, Any] = Field(default_factory=dict, max_length=8)
    seed: int | None = Field(None, description="a deal number, for a game played alone")
    clock: ClockChoice | None = Field(None, description="none, real-time or turn-based")
    replaces: str | None = Field(
        None,
        max_length=16,
        description="your unfinished game "
        "played alone that this new deal replaces: it is closed as "
        "abandoned (a loss) first",
    )


class LeaveAnswer(BaseModel):
    """What leaving or resigning did (docs/server.md, "Table lifecycle")."""

    outcome: Literal["freed", "bot", "closed"] = Field(
        description="freed: an open table's "
        "seat is free again; bot: the game "
        "plays on with the game's fallback bot "
        "in your seat; closed: the table ended"
    )
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
    verdict_msg: list[Said] | None = Field(
        None, description="the same verdict's parts as words for the reader's language"
    )
    you: Literal["seated", "resigned", "away"] = Field(
        "seated",
        description="at an unfinished table: seated (yours to play), resigned (you "
        "resigned or left, others play on: yours to watch, you rank last) or away (the clock "
        "gave your seat to a bot: yours to take back)",
    )
    your_deadline: float | None = Field(
        None,
        description="when your move at this clocked "
        "table is due (seconds since the epoch), else null",
    )
    practice: Literal["practice", "tutorial"] | None = Field(
        None, description="a practice table (``TableInfo.practice``), else null"
    )
    stuck: bool = Field(
        False,
        description="your game played alone has no move left and is "
        "held open for undo: yours to undo, or to deal anew (then it counts "
        "as lost)",
    )


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


class InviteBody(BaseModel):
    bot: str = Field(max_length=100, description="the name of a bot account")


#: whom a bot account plays with: anyone may invite it, or only its owner (the default)
PlaysWith = Literal["anyone", "owner"]


class BotAccount(BaseModel):
    id: str
    name: str
    plays_with: PlaysWith = Field(
        "owner", description="who may invite it to a seat: anyone, or only its owner (the default)"
    )


class BotSettingsBody(BaseModel):
    plays_with: PlaysWith = Field(description="who may invite the bot account to a seat")


class BotAccountAnswer(BaseModel):
    """A bot account and its token, shown once: the program sends it as the
    ``X-Cardtable-Token`` header (HTTP) or the ``token`` query parameter (websocket)."""

    bot: BotAccount
    token: str


class BotAccounts(BaseModel):
    bots: list[BotAccount]


# -- HTTP answers ---------------------------------------------------------------------------
class ErrorAnswer(BaseModel):
    """Every refusal: an HTTP status 4xx (5xx) with this body."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(description="a code for programs, e.g. bad_request, not_found")
    message: str = Field(description="the reason, for people")
    msg: Said | None = Field(None, description="the reason, for the reader's language")
    retry_after: float | None = Field(None, description="over a limit: seconds to wait")


class Player(BaseModel):
    id: str
    name: str
    bot: bool = Field(False, description="a bot account (played by a program with its token)")


class MeAnswer(BaseModel):
    player: Player | None
    recovery: bool | None = Field(None, description="whether the player has a recovery code")


class DeletedAnswer(BaseModel):
    """Your identity is deleted (``DELETE /api/me``; docs/server.md, "Your own data")."""

    deleted: bool
    left: int = Field(description="the unfinished tables you sat at, left as you deleted it")


class BotInfo(BaseModel):
    name: str
    levels: list[str]


class GameTools(BaseModel):
    """The table tools of a seated person (spectators have none), by who plays."""

    alone: list[Tool]
    shared: list[Tool]


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
    undo_alone: bool = Field(description="played alone: undo and redo offered")
    tools: GameTools = Field(
        description="the table tools a seated person has, alone and at a "
        "shared table (Game.tools_for)"
    )
    shows_deal_number: bool = Field(description="played alone: the deal number is public")
    rated: bool = Field(description="games of two or more change the ratings")
    has_talk: bool = Field(description="talk: actions out of turn that change no turn")
    free_chat_default: bool = Field(
        True,
        description="a new table's chat is free text (false: "
        "fixed phrases only, which the creator may change)",
    )
    fallback_bot: str = Field(description="the bot a failing bot's seat passes to")
    options: list[dict[str, Any]] = Field(
        description="{name, label, default, doc, msg} each (msg: label and doc as wire words)"
    )
    bots: list[BotInfo]


class JoinAnswer(BaseModel):
    seat: int
    table: TableInfo


class HintAnswer(BaseModel):
    action: str | None
    reason: str | None
    msg: Said | None = Field(None, description="the reason, for the reader's language")


class PracticeBody(BaseModel):
    """A practice table from a finished solitaire's record: its first ``step`` actions."""

    step: int = Field(
        ge=0, le=10_000, description="how many actions of the finished game's record to keep"
    )


class TutorialInfo(BaseModel):
    """A game's tutorial, for the lobby's "Learn to play"."""

    game: str
    title: str
    done: bool = Field(description="you have played this tutorial to its end")


class TutorAnswer(BaseModel):
    """What the tutor says now at a tutorial table, to its learner (``core/tutorial.py``)."""

    moves: int = Field(description="the learner's moves so far (talk not counted)")
    text: list[str] = Field(description="the step's explanation, a paragraph each (English)")
    text_msg: list[Said] = Field(description="the same paragraphs, for the reader's language")
    suggest: str | None = Field(description="the move suggested now; null: not yours to move")
    played: str | None = Field(
        None, description="your last move in words, when it was not the one suggested"
    )
    played_msg: Said | None = None
    instead: str | None = Field(None, description="the move suggested in its place")
    done: bool = Field(description="the game is over: the tutorial is finished")


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


class ChatSettingsBody(BaseModel):
    """The creator changes a table's chat (a field left out stays as it is)."""

    free: bool | None = None
    spectators: bool | None = None


class RecoveryAnswer(BaseModel):
    code: str = Field(description="the new recovery code: shown once, stored hashed")


class RecoverBody(BaseModel):
    code: str = Field(max_length=64)


class LeaderboardRow(BaseModel):
    name: str
    game: str
    score: int = Field(
        description="the rating as people read it: 1500 + 24 (mu - 3 sigma), "
        "like an Elo rating that starts at 1500"
    )
    rating: float = Field(description="mu - 3 sigma")
    mu: float
    sigma: float
    games: int
    bot: bool


class ReplayActor(BaseModel):
    name: str
    bot: str | None
    person: str | None = Field(
        None, description="a bot on a person's seat: the person's name; null otherwise"
    )


class ReplayAction(BaseModel):
    seat: int
    action: str
    by: ReplayActor | None
    text: str | None = Field(None, description="the action in words, as a spectator reads it")
    msg: Said | None = Field(None, description="the same words, for the reader's language")


class ReplayStep(BaseModel):
    step: int
    steps: int
    view: dict[str, Any] = Field(description="the spectator's view after ``step`` actions")
    seat_views: list[dict[str, Any]]
    action: ReplayAction | None = Field(description="the action that led here; null at 0")
    played_by: list[list[SeatRun]]
    log: list[LogEntry] | None = Field(
        None,
        description="with log=1, a page of the game in "
        "words as a spectator reads it: the entries from "
        "log_offset, log_limit of them",
    )
    log_offset: int | None = Field(
        None, description="with log=1, the first action whose entries ``log`` holds"
    )
    log_total: int = Field(
        description="the actions of the whole log (each has an entry, "
        "but a dropped change of mind; news are entries of their own)"
    )
    ending: Ending | None = Field(
        None, description="at the game's end, as a table's (``verdict`` null); null before"
    )


class WebsocketSchema(BaseModel):
    client: dict[str, Any] = Field(description="JSON Schema of the messages clients send")
    server: dict[str, Any] = Field(description="JSON Schema of the messages the server sends")


# -- game review (docs/server.md, "Game review"; the JSON of cardtable.review) --------------
ReviewMark = Literal["inaccuracy", "mistake", "blunder"]


class ReviewBody(BaseModel):
    """``POST /api/tables/{id}/review``: how deep (more samples per decision, more time)."""

    depth: Literal["quick", "normal", "deep"] = "normal"


class ReviewMove(BaseModel):
    """One decision of a seat, judged from that seat's own view."""

    step: int = Field(description="0-based index of the action in the record")
    seat: int
    played: str
    best: str = Field(description="the best move found (the move played when it was)")
    before: float = Field(description="winning chance (points of 100) with the best move")
    after: float = Field(description="winning chance (points of 100) after the move played")
    drop: float
    mark: ReviewMark | None
    accuracy: float
    samples: int
    score_before: float | None = None
    score_after: float | None = None
    rank_before: float | None = None
    rank_after: float | None = None
    labels: ReviewLabels | None = Field(
        None, description="``played`` and ``best`` as the game's move buttons read them"
    )


class ReviewLabels(BaseModel):
    """Moves as a game's move buttons label them (``Game.move_label``), for the reader's
    language: the notation with the card played."""

    played: Said | None = None
    best: Said | None = None
    alternative: Said | None = None


class ReviewSummary(BaseModel):
    seat: int
    decisions: int
    accuracy: float | None
    blunder: int
    mistake: int
    inaccuracy: int


class ReviewVerdict(BaseModel):
    """With every card known (it peeks): could the deal be won, and until when."""

    peeking: Literal[True]
    status: Literal["won", "never", "lost_at", "undecided"]
    step: int | None = None
    seat: int | None = None
    played: str | None = None
    alternative: str | None = None
    reason: Said | None = Field(
        None, description="why the move played lost the deal (Game.loss_reason), if plain"
    )
    labels: ReviewLabels | None = None


class Review(BaseModel):
    """A finished game's review (``cardtable.review.review_record``)."""

    model_config = ConfigDict(extra="allow")

    format: int
    game: str
    players: int
    seats: list[int]
    depth: str
    judge: str
    bot: str
    samples: int
    marks: dict[str, float] = Field(description="the drop (points) each mark starts at")
    better: str = Field(description="which way the game's score is best: low or high")
    moves: list[ReviewMove]
    summary: list[ReviewSummary]
    verdict: ReviewVerdict | None


class ReviewAnswer(BaseModel):
    """A table's review: where it is, and the review once made."""

    status: Literal["none", "queued", "running", "done", "failed"] = Field(
        description="none: never asked"
    )
    done: int = Field(0, description="decisions judged so far")
    total: int = Field(0, description="decisions to judge (0 until the review starts)")
    depth: str | None = None
    asked_at: str | None = None
    finished_at: str | None = None
    cpu: float | None = Field(None, description="processor seconds the review took")
    review: Review | None = None
    error: str | None = None


# -- tournaments (docs/tournaments.md) -------------------------------------------------------
#: the most rounds of a Swiss tournament
MAX_ROUNDS = 15
#: the most entrants of a tournament
MAX_ENTRANTS = 200
#: the longest arena, in minutes
MAX_ARENA_MINUTES = 240
#: the longest duplicate challenge (a deal of the day), in minutes
MAX_CHALLENGE_MINUTES = 24 * 60
#: the most deals of a duplicate challenge
MAX_DEALS = 10
#: tournaments a person may have created that are not over yet
MAX_OPEN_TOURNAMENTS = 5
#: the latest start: this many seconds from now (two weeks)
MAX_START_IN = 14 * 24 * 3600


class NewTournament(BaseModel):
    """A tournament to create: the server runs it by itself from its start."""

    name: str = Field(min_length=1, max_length=60)
    game: str = Field(max_length=32)
    format: Literal["swiss", "arena", "duplicate"] = Field(
        "swiss",
        description="Swiss rounds, an arena of a length, or a duplicate challenge: every "
        "entry the same secret deals (docs/tournaments.md)",
    )
    deals: StrictInt = Field(1, ge=1, le=MAX_DEALS, description="a duplicate challenge's")
    rounds: StrictInt = Field(3, ge=1, le=MAX_ROUNDS, description="a Swiss tournament's")
    minutes: StrictInt = Field(
        30,
        ge=1,
        le=MAX_CHALLENGE_MINUTES,
        description="an arena's length from its start (at most 240), a duplicate challenge's "
        "(at most a day)",
    )
    streaks: bool = Field(True, description="an arena's: two first places in a row, then double")
    table_size: StrictInt = Field(
        2, ge=1, le=6, description="the largest table; a round's tables are as even as can be"
    )
    starts_in: StrictInt = Field(
        300, ge=0, le=MAX_START_IN, description="seconds from now to its first round"
    )
    clock: ClockChoice | None = Field(None, description="every game's clock")
    options: dict[str, Any] = Field(default_factory=dict, max_length=8)
    rated: bool = True
    invite_only: bool = Field(False, description="entered only with its invite code")
    min_games: StrictInt = Field(
        0, ge=0, le=1000, description="finished games an entrant must have played here"
    )
    bots: bool = Field(False, description="bot accounts may enter")


class EnterBody(BaseModel):
    invite: str | None = Field(None, max_length=32, description="an invite-only tournament's code")


class TournamentEntrant(BaseModel):
    """One line of the standings (a duplicate challenge's: one entry, its members' names
    joined; ``points`` its total score in the game's own measure, ``by_round`` per deal)."""

    place: int
    name: str
    you: bool
    bot_account: bool
    withdrawn: bool
    points: float = Field(description="points by place (docs/tournaments.md), to 3 decimals")
    buchholz: float
    wins: int
    games: int
    byes: int
    by_round: list[float | None] = Field(description="per round: its points; null: not played")
    on_streak: bool = Field(False, description="an arena's: the next game counts double")
    deals_done: int | None = Field(None, description="a challenge's: the deals finished")
    days_in_a_row: int | None = Field(
        None, description="a deal of the day's: the days in a row this entrant played it"
    )


class TournamentTable(BaseModel):
    table_id: str
    players: list[str] = Field(description="the entrants' names, in seat order")
    places: list[int] | None = Field(description="their places once the game is over")
    score: int | None = Field(None, description="a challenge's deal: the game's own score")
    status: Literal["waiting", "open", "running", "over"]


class TournamentRound(BaseModel):
    number: int
    started_at: str = Field(description="when it was paired (ISO 8601, UTC)")
    byes: list[str]
    tables: list[TournamentTable]


class TournamentSummary(BaseModel):
    """A tournament in a list."""

    id: str
    name: str
    game: str
    title: str
    format: Literal["swiss", "arena", "duplicate"]
    status: Literal["open", "running", "over"]
    ended: str | None = Field(None, description="cancelled: too few entrants at its start")
    starts_at: str = Field(description="ISO 8601, UTC")
    rounds: int = Field(description="a Swiss tournament's rounds (an arena: 0)")
    round: int = Field(
        description="the round being played (0: not started); an arena's: its tables seated"
        " in batches so far"
    )
    ends_at: str | None = Field(
        None, description="an arena's or a duplicate challenge's end (ISO 8601, UTC)"
    )
    entrants: int
    invite_only: bool
    daily: str | None = Field(None, description="a deal of the day's day (2026-12-04, UTC)")


class TournamentInfo(TournamentSummary):
    """A tournament's page: its settings, standings and rounds, and what it holds for you."""

    version: int
    finished_at: str | None
    table_size: int
    clock: ClockChoice | None
    options: dict[str, Any]
    rated: bool
    min_games: int
    bots: bool
    minutes: int | None = Field(None, description="an arena's or a challenge's length")
    deals: int | None = Field(None, description="a duplicate challenge's number of deals")
    streaks: bool | None = Field(None, description="an arena's streaks on or off")
    creator: bool = Field(description="whether you created it")
    invite: str | None = Field(None, description="the invite code: only for its creator")
    entered: bool = Field(description="whether you are an entrant (not withdrawn)")
    next_table: str | None = Field(description="your table of the round being played, if any")
    standings: list[TournamentEntrant]
    round_list: list[TournamentRound]


class TournamentList(BaseModel):
    tournaments: list[TournamentSummary]
