// Written by `npm run types`: do not edit. (from a server's /api/ws-schema and /openapi.json)

export type ServerMessage = (StateMessage | AckMessage | ErrorMessage | PongMessage | PresenceMessage | ChatServerMessage)

export interface Api {
AckMessage: AckMessage
BotAccount: BotAccount
BotAccountAnswer: BotAccountAnswer
BotAccounts: BotAccounts
BotBody: BotBody
BotInfo: BotInfo
BotSettingsBody: BotSettingsBody
Breakdown: Breakdown
ChatLine: ChatLine
ChatServerMessage: ChatServerMessage
ChatSettings: ChatSettings
ChatSettingsBody: ChatSettingsBody
ClockChoice: ClockChoice
ClockInfo: ClockInfo
DeletedAnswer: DeletedAnswer
Ending: Ending
EndingWords: EndingWords
EnterBody: EnterBody
ErrorAnswer: ErrorAnswer
ErrorMessage: ErrorMessage
GameInfo: GameInfo
GameTools: GameTools1
HintAnswer: HintAnswer
InviteBody: InviteBody
JoinAnswer: JoinAnswer
JoinBody: JoinBody
LanguageAnswer: LanguageAnswer
LanguageBody: LanguageBody
LanguagesAnswer: LanguagesAnswer
LastMove: LastMove
LeaderboardRow: LeaderboardRow
LeaveAnswer: LeaveAnswer
LogEntry: LogEntry
MeAnswer: MeAnswer
MyGame: MyGame
MyGames: MyGames
NameBody: NameBody
NewTable: NewTable
NewTournament: NewTournament
Player: Player
PongMessage: PongMessage
PracticeBody: PracticeBody
PresenceMessage: PresenceMessage
RecoverBody: RecoverBody
RecoveryAnswer: RecoveryAnswer
ReplayAction: ReplayAction
ReplayActor: ReplayActor
ReplayStep: ReplayStep
Review: Review
ReviewAnswer: ReviewAnswer
ReviewBody: ReviewBody
ReviewLabels: ReviewLabels
ReviewMove: ReviewMove
ReviewSummary: ReviewSummary
ReviewVerdict: ReviewVerdict
SeatClock: SeatClock
SeatInfo: SeatInfo
SeatRun: SeatRun
ServerMessage: ServerMessage
StateMessage: StateMessage
Stats: Stats
TableInfo: TableInfo
TournamentEntrant: TournamentEntrant
TournamentInfo: TournamentInfo
TournamentList: TournamentList
TournamentRound: TournamentRound
TournamentSummary: TournamentSummary
TournamentTable: TournamentTable
TutorAnswer: TutorAnswer
TutorialInfo: TutorialInfo
WebsocketSchema: WebsocketSchema
WinnableAnswer: WinnableAnswer
Words: Words
}
/**
 * An action was stored; the new ``state`` follows.
 */
export interface AckMessage {
type: "ack"
id: (string | null)
version: number
action: string
}
export interface BotAccount {
id: string
name: string
/**
 * who may invite it to a seat: anyone, or only its owner (the default)
 */
plays_with?: ("anyone" | "owner")
}
/**
 * A bot account and its token, shown once: the program sends it as the
 * ``X-Cardtable-Token`` header (HTTP) or the ``token`` query parameter (websocket).
 */
export interface BotAccountAnswer {
bot: BotAccount
token: string
}
export interface BotAccounts {
bots: BotAccount[]
}
export interface BotBody {
bot: string
}
export interface BotInfo {
name: string
levels: string[]
}
export interface BotSettingsBody {
/**
 * who may invite the bot account to a seat
 */
plays_with: ("anyone" | "owner")
}
/**
 * A finished game's figures (``Game.breakdown``): one table of them.
 */
export interface Breakdown {
/**
 * the headings of each seat's figures
 */
columns: string[]
/**
 * per seat, in seat order, its figures under ``columns`` (empty: none per seat)
 */
seats: (number | string)[][]
/**
 * the table's own figures, [heading, figure] each ("draw pile", 12)
 */
table: (number | string)[][]
}
/**
 * One chat message as everyone at the table reads it (plain text: never HTML).
 */
export interface ChatLine {
/**
 * its number: increasing in the order written
 */
n: number
/**
 * the writer's seat (from 0), null for a spectator
 */
seat: (number | null)
/**
 * the writer's name when they wrote it
 */
name: string
text: string
/**
 * a fixed phrase, for the reader's language
 */
msg?: (Words | string | null)
/**
 * when, UTC (ISO 8601)
 */
at: string
}
/**
 * Words for people as a message id with arguments (``core.words.wire``), for a client
 * to put into its reader's language: ``msg`` is the English template with ``{name}``
 * placeholders, looked up in ``domain``'s catalog (a game's name for a game's words,
 * ``cardtable`` for the platform's); each argument is a plain value or words of its own.
 * A count has ``plural`` (the English plural) and ``n`` (which form).
 */
export interface Words {
/**
 * the English template: the gettext message id
 */
msg: string
/**
 * the catalog: cardtable, web, or a game's name
 */
domain: string
/**
 * the placeholders' values: a name, a number, or words (Words)
 */
args?: ({
[k: string]: unknown
} | null)
/**
 * a count's English plural template
 */
plural?: (string | null)
/**
 * a count: the number that picks the form
 */
n?: (number | null)
}
/**
 * Chat: on (re)connecting, the table's last messages (``replay``: they replace what
 * the client shows); then each new message, and every change of the settings.
 */
export interface ChatServerMessage {
type: "chat"
replay: boolean
messages: ChatLine[]
settings: ChatSettings
}
export interface ChatSettings {
/**
 * free text; false: only the fixed phrases
 */
free: boolean
/**
 * spectators may write
 */
spectators: boolean
/**
 * what may always be said
 */
phrases: string[]
/**
 * the phrases, for the reader's language (in the same order)
 */
phrases_msg?: (Words | string)[]
/**
 * whether this connection may write
 */
can_write: boolean
/**
 * why not, for people
 */
why: (string | null)
/**
 * why not, for the reader's language
 */
why_msg?: (Words | string | null)
}
/**
 * The creator changes a table's chat (a field left out stays as it is).
 */
export interface ChatSettingsBody {
free?: (boolean | null)
spectators?: (boolean | null)
}
/**
 * The clock a new table gets: none (the default), real-time per move or per game, or
 * turn-based (a move within hours or days); ``seconds`` defaults per mode.
 */
export interface ClockChoice {
mode?: ("none" | "move" | "game" | "turn")
seconds?: (number | null)
}
/**
 * A table's clock (docs/server.md, "Clocks").
 */
export interface ClockInfo {
mode: ("move" | "game" | "turn")
/**
 * per move (move, turn) or per player (game)
 */
seconds: number
/**
 * the server's time when this was sent (seconds since the epoch): clients count down from the deadlines by it
 */
now: number
seats: SeatClock[]
}
export interface SeatClock {
/**
 * when this seat's time runs out (seconds since the epoch), null unless its time runs
 */
deadline: (number | null)
/**
 * a per-game clock's seconds left, while the seat's time does not run
 */
left: (number | null)
}
/**
 * Your identity is deleted (``DELETE /api/me``; docs/server.md, "Your own data").
 */
export interface DeletedAnswer {
deleted: boolean
/**
 * the unfinished tables you sat at, left as you deleted it
 */
left: number
}
/**
 * The end of the game in words.
 */
export interface Ending {
/**
 * Game.result_lines: the end in text, for text clients; or why a table closed before its game's end
 */
lines: string[]
/**
 * Game.verdict for this seat; null for a spectator
 */
verdict: (string | null)
/**
 * Game.breakdown: the figures per seat and for the table (null: a table closed before its game's end)
 */
breakdown?: (Breakdown | null)
/**
 * Game.result_notes: what the figures do not say (why it ended, how it is scored)
 */
notes?: string[]
/**
 * the same words, for the reader's language
 */
msg?: (EndingWords | null)
}
/**
 * An ending's words (``Ending``) as message ids with arguments, field for field.
 */
export interface EndingWords {
lines: (Words | string)[]
verdict: (Words | string | null)
notes: (Words | string)[]
/**
 * the breakdown's column headings
 */
columns?: ((Words | string)[] | null)
/**
 * the headings of the breakdown's table rows, in order
 */
table?: ((Words | string)[] | null)
}
export interface EnterBody {
/**
 * an invite-only tournament's code
 */
invite?: (string | null)
}
/**
 * Every refusal: an HTTP status 4xx (5xx) with this body.
 */
export interface ErrorAnswer {
/**
 * a code for programs, e.g. bad_request, not_found
 */
error: string
/**
 * the reason, for people
 */
message: string
/**
 * the reason, for the reader's language
 */
msg?: (Words | string | null)
/**
 * over a limit: seconds to wait
 */
retry_after?: (number | null)
[k: string]: unknown
}
export interface ErrorMessage {
type: "error"
code: string
message: string
/**
 * the message, for the reader's language
 */
msg?: (Words | string | null)
id: (string | null)
/**
 * rate_limited and chat_rate_limited only: seconds to wait
 */
retry_after?: (number | null)
}
/**
 * A game's ``Game.describe()`` and the bots a table may seat.
 */
export interface GameInfo {
name: string
title: string
min_players: number
max_players: number
better: ("low" | "high")
cooperative: boolean
/**
 * hints offered
 */
advisor: boolean
/**
 * "still winnable?" offered
 */
solver: boolean
/**
 * played alone: undo and redo offered
 */
undo_alone: boolean
tools: GameTools
/**
 * played alone: the deal number is public
 */
shows_deal_number: boolean
/**
 * games of two or more change the ratings
 */
rated: boolean
/**
 * talk: actions out of turn that change no turn
 */
has_talk: boolean
/**
 * a new table's chat is free text (false: fixed phrases only, which the creator may change)
 */
free_chat_default?: boolean
/**
 * the bot a failing bot's seat passes to
 */
fallback_bot: string
/**
 * {name, label, default, doc, msg} each (msg: label and doc as wire words)
 */
options: {
[k: string]: unknown
}[]
bots: BotInfo[]
[k: string]: unknown
}
/**
 * the table tools a seated person has, alone and at a shared table (Game.tools_for)
 */
export interface GameTools {
alone: ("undo" | "redo" | "hint" | "peek" | "restart" | "new_deal")[]
shared: ("undo" | "redo" | "hint" | "peek" | "restart" | "new_deal")[]
}
/**
 * The table tools of a seated person (spectators have none), by who plays.
 */
export interface GameTools1 {
alone: ("undo" | "redo" | "hint" | "peek" | "restart" | "new_deal")[]
shared: ("undo" | "redo" | "hint" | "peek" | "restart" | "new_deal")[]
}
export interface HintAnswer {
action: (string | null)
reason: (string | null)
/**
 * the reason, for the reader's language
 */
msg?: (Words | string | null)
}
export interface InviteBody {
/**
 * the name of a bot account
 */
bot: string
}
export interface JoinAnswer {
seat: number
table: TableInfo
}
/**
 * The public facts of a table.
 */
export interface TableInfo {
id: string
game: string
title: string
players: number
options: {
[k: string]: unknown
}
status: ("open" | "running" | "over")
/**
 * the deal as decimal text, null unless public
 */
seed: (string | null)
/**
 * whether you created the table
 */
creator: boolean
version: number
can_undo: boolean
can_redo: boolean
seats: SeatInfo[]
notices: string[]
/**
 * the notices, for the reader's language (in the same order)
 */
notices_msg?: (Words | string)[]
/**
 * null for a table without a clock
 */
clock?: (ClockInfo | null)
/**
 * when your time to move here runs out (seconds since the epoch): only where it is your turn at a table with a clock
 */
your_deadline?: (number | null)
/**
 * how an over table ended before its game did (docs/server.md, "Table lifecycle"); absent when it was played to its end
 */
ended?: (("abandoned" | "resigned" | "idle" | "too_long") | null)
/**
 * when the table was created (ISO 8601, UTC): the lobby shows its age
 */
created_at?: (string | null)
/**
 * a practice table: ``practice`` (a finished solitaire played on from a step) or ``tutorial`` (a game's tutorial); never rated nor in the statistics
 */
practice?: (("practice" | "tutorial") | null)
/**
 * the tournament this table is a game of (GET /api/tournaments/{id})
 */
tournament?: (string | null)
}
export interface SeatInfo {
seat: number
/**
 * the person's name, or the bot's, given once when it took the seat ("Greedy", "Greedy 3" beside another)
 */
name: (string | null)
/**
 * a bot playing a person's seat on (they left, resigned, ran out of time or were handed over): the person's name; pages show "Ann — played by Greedy"
 */
person?: (string | null)
bot: (string | null)
taken: boolean
you: boolean
/**
 * whether the person has a connection; null for a bot or an open seat
 */
connected: (boolean | null)
/**
 * the seat's player is a bot account: a program playing through the API with its token
 */
bot_account?: boolean
/**
 * once the game is over: who played this seat over time
 */
history?: (SeatRun[] | null)
/**
 * your seat, given to a bot when your time ran out: take it back (POST /api/tables/{id}/join with this seat, or reconnect)
 */
you_away?: (boolean | null)
/**
 * a person's seat without a connection at an unfinished table: seconds until the creator may hand it to a bot (0: now; the grace period, --seat-grace); null otherwise
 */
hand_over_in?: (number | null)
/**
 * the seat's name as pages show it, for the reader's language: the person's, a bot's marked as one ('Greedy (bot)'), a person's seat a bot plays on ('Ann — played by Greedy'), or 'open seat'
 */
shown?: (Words | string | null)
}
/**
 * Who played a seat from one action on.
 */
export interface SeatRun {
name: string
/**
 * the bot's spec, null for a person
 */
bot: (string | null)
/**
 * a bot on a person's seat: the person's name ("Ann — played by Greedy"); null otherwise
 */
person?: (string | null)
/**
 * index in the action log of their first action (0 for the first of a seat)
 */
from: number
}
export interface JoinBody {
seat?: (number | null)
}
export interface LanguageAnswer {
language: string
saved: boolean
}
export interface LanguageBody {
language: string
}
export interface LanguagesAnswer {
language: string
languages: {
[k: string]: string
}[]
}
export interface LastMove {
n: number
seat: number
/**
 * null while it is secret from this connection
 */
action: (string | null)
}
export interface LeaderboardRow {
name: string
game: string
/**
 * the rating as people read it: 1500 + 24 (mu - 3 sigma), like an Elo rating that starts at 1500
 */
score: number
/**
 * mu - 3 sigma
 */
rating: number
mu: number
sigma: number
games: number
bot: boolean
}
/**
 * What leaving or resigning did (docs/server.md, "Table lifecycle").
 */
export interface LeaveAnswer {
/**
 * freed: an open table's seat is free again; bot: the game plays on with the game's fallback bot in your seat; closed: the table ended
 */
outcome: ("freed" | "bot" | "closed")
table: TableInfo
}
/**
 * One action of the game log in words (``Game.describe_action``): the seat that played
 * it reads its own words, the others only the public ones until a secret action resolves.
 */
export interface LogEntry {
/**
 * index in the action log (news: of the action that brought it)
 */
n: number
seat: number
/**
 * who played it then (a bot marked as one); empty for news
 */
who: string
/**
 * the words in English
 */
text: string
/**
 * the same words, for the reader's language
 */
msg: (Words | string)
/**
 * news, not an action: what the action ``n`` brought about (Game.describe_news: Slide's scoring of a deal)
 */
news?: boolean
}
export interface MeAnswer {
player: (Player | null)
/**
 * whether the player has a recovery code
 */
recovery?: (boolean | null)
}
export interface Player {
id: string
name: string
/**
 * a bot account (played by a program with its token)
 */
bot?: boolean
}
/**
 * One table of "My games".
 */
export interface MyGame {
id: string
game: string
title: string
players: number
status: ("open" | "running" | "over")
ended?: (string | null)
/**
 * your seat (from 0), null if you no longer hold it
 */
seat: (number | null)
your_turn: boolean
/**
 * the names of those who must act now
 */
to_act: string[]
opponents: string[]
created_at: string
active_at: string
finished_at?: (string | null)
/**
 * a finished game's result, for you
 */
verdict?: (string | null)
/**
 * the same verdict's parts as words for the reader's language
 */
verdict_msg?: ((Words | string)[] | null)
/**
 * at an unfinished table: seated (yours to play), resigned (you resigned or left, others play on: yours to watch, you rank last) or away (the clock gave your seat to a bot: yours to take back)
 */
you?: ("seated" | "resigned" | "away")
/**
 * when your move at this clocked table is due (seconds since the epoch), else null
 */
your_deadline?: (number | null)
/**
 * a practice table (``TableInfo.practice``), else null
 */
practice?: (("practice" | "tutorial") | null)
/**
 * your game played alone has no move left and is held open for undo: yours to undo, or to deal anew (then it counts as lost)
 */
stuck?: boolean
}
/**
 * GET /api/my-games: your unfinished tables (yours to play first) and a page of the
 * finished ones, newest first.
 */
export interface MyGames {
unfinished: MyGame[]
finished: MyGame[]
page: number
/**
 * whether an older page of finished games exists
 */
more: boolean
}
export interface NameBody {
name: string
}
export interface NewTable {
game: string
/**
 * per seat: "me", "open" (for a friend) or a bot spec such as "greedy" or "search:hard"
 * 
 * @maxItems 6
 */
seats: []|[string]|[string, string]|[string, string, string]|[string, string, string, string]|[string, string, string, string, string]|[string, string, string, string, string, string]
options?: {
[k: string]: unknown
}
/**
 * a deal number, for a game played alone
 */
seed?: (number | null)
/**
 * none, real-time or turn-based
 */
clock?: (ClockChoice | null)
/**
 * your unfinished game played alone that this new deal replaces: it is closed as abandoned (a loss) first
 */
replaces?: (string | null)
}
/**
 * A tournament to create: the server runs it by itself from its start.
 */
export interface NewTournament {
name: string
game: string
/**
 * Swiss rounds, an arena of a length, or a duplicate challenge: every entry the same secret deals (docs/tournaments.md)
 */
format?: ("swiss" | "arena" | "duplicate")
/**
 * a duplicate challenge's
 */
deals?: number
/**
 * a Swiss tournament's
 */
rounds?: number
/**
 * an arena's length from its start (at most 240), a duplicate challenge's (at most a day)
 */
minutes?: number
/**
 * an arena's: two first places in a row, then double
 */
streaks?: boolean
/**
 * the largest table; a round's tables are as even as can be
 */
table_size?: number
/**
 * seconds from now to its first round
 */
starts_in?: number
/**
 * every game's clock
 */
clock?: (ClockChoice | null)
options?: {
[k: string]: unknown
}
rated?: boolean
/**
 * entered only with its invite code
 */
invite_only?: boolean
/**
 * finished games an entrant must have played here
 */
min_games?: number
/**
 * bot accounts may enter
 */
bots?: boolean
}
export interface PongMessage {
type: "pong"
id: (string | null)
version: number
}
/**
 * A practice table from a finished solitaire's record: its first ``step`` actions.
 */
export interface PracticeBody {
/**
 * how many actions of the finished game's record to keep
 */
step: number
}
/**
 * Who is connected changed: one per seat (to everyone), or only the number watching
 * (``seat`` and ``connected`` null; to the seated connections).
 */
export interface PresenceMessage {
type: "presence"
version: number
seat: (number | null)
connected: (boolean | null)
spectators: number
/**
 * seconds until the table's creator may hand this seat, whose person has no connection, to a bot (0: now; docs/server.md, "Seats that go to bots"); null for a connected person or a count of spectators
 */
hand_over_in?: (number | null)
}
export interface RecoverBody {
code: string
}
export interface RecoveryAnswer {
/**
 * the new recovery code: shown once, stored hashed
 */
code: string
}
export interface ReplayAction {
seat: number
action: string
by: (ReplayActor | null)
/**
 * the action in words, as a spectator reads it
 */
text?: (string | null)
/**
 * the same words, for the reader's language
 */
msg?: (Words | string | null)
}
export interface ReplayActor {
name: string
bot: (string | null)
/**
 * a bot on a person's seat: the person's name; null otherwise
 */
person?: (string | null)
}
export interface ReplayStep {
step: number
steps: number
/**
 * the spectator's view after ``step`` actions
 */
view: {
[k: string]: unknown
}
seat_views: {
[k: string]: unknown
}[]
/**
 * the action that led here; null at 0
 */
action: (ReplayAction | null)
played_by: SeatRun[][]
/**
 * with log=1, a page of the game in words as a spectator reads it: the entries from log_offset, log_limit of them
 */
log?: (LogEntry[] | null)
/**
 * with log=1, the first action whose entries ``log`` holds
 */
log_offset?: (number | null)
/**
 * the actions of the whole log (each has an entry, but a dropped change of mind; news are entries of their own)
 */
log_total: number
/**
 * at the game's end, as a table's (``verdict`` null); null before
 */
ending?: (Ending | null)
}
/**
 * A finished game's review (``cardtable.review.review_record``).
 */
export interface Review {
format: number
game: string
players: number
seats: number[]
depth: string
judge: string
bot: string
samples: number
/**
 * the drop (points) each mark starts at
 */
marks: {
[k: string]: number
}
/**
 * which way the game's score is best: low or high
 */
better: string
moves: ReviewMove[]
summary: ReviewSummary[]
verdict: (ReviewVerdict | null)
[k: string]: unknown
}
/**
 * One decision of a seat, judged from that seat's own view.
 */
export interface ReviewMove {
/**
 * 0-based index of the action in the record
 */
step: number
seat: number
played: string
/**
 * the best move found (the move played when it was)
 */
best: string
/**
 * winning chance (points of 100) with the best move
 */
before: number
/**
 * winning chance (points of 100) after the move played
 */
after: number
drop: number
mark: (("inaccuracy" | "mistake" | "blunder") | null)
accuracy: number
samples: number
score_before?: (number | null)
score_after?: (number | null)
rank_before?: (number | null)
rank_after?: (number | null)
/**
 * ``played`` and ``best`` as the game's move buttons read them
 */
labels?: (ReviewLabels | null)
}
/**
 * Moves as a game's move buttons label them (``Game.move_label``), for the reader's
 * language: the notation with the card played.
 */
export interface ReviewLabels {
played?: (Words | string | null)
best?: (Words | string | null)
alternative?: (Words | string | null)
}
export interface ReviewSummary {
seat: number
decisions: number
accuracy: (number | null)
blunder: number
mistake: number
inaccuracy: number
}
/**
 * With every card known (it peeks): could the deal be won, and until when.
 */
export interface ReviewVerdict {
peeking: true
status: ("won" | "never" | "lost_at" | "undecided")
step?: (number | null)
seat?: (number | null)
played?: (string | null)
alternative?: (string | null)
/**
 * why the move played lost the deal (Game.loss_reason), if plain
 */
reason?: (Words | string | null)
labels?: (ReviewLabels | null)
}
/**
 * A table's review: where it is, and the review once made.
 */
export interface ReviewAnswer {
/**
 * none: never asked
 */
status: ("none" | "queued" | "running" | "done" | "failed")
/**
 * decisions judged so far
 */
done?: number
/**
 * decisions to judge (0 until the review starts)
 */
total?: number
depth?: (string | null)
asked_at?: (string | null)
finished_at?: (string | null)
/**
 * processor seconds the review took
 */
cpu?: (number | null)
review?: (Review | null)
error?: (string | null)
}
/**
 * ``POST /api/tables/{id}/review``: how deep (more samples per decision, more time).
 */
export interface ReviewBody {
depth?: ("quick" | "normal" | "deep")
}
/**
 * The table as one connection may see it: its seat's view and legal actions.
 */
export interface StateMessage {
type: "state"
version: number
/**
 * the connection's seat, null for a spectator
 */
seat: (number | null)
/**
 * the table info; left out, on a socket opened with table=changed, when it is what this socket's last state carried (its version then this state's)
 */
table?: (TableInfo | null)
/**
 * the game's view(seat)
 */
view: {
[k: string]: unknown
}
/**
 * empty unless the table runs and the seat may act
 */
legal: string[]
spectators: number
/**
 * the first action whose entries this message carries: the client keeps its entries of the actions before it and replaces the rest with ``log`` (0: the whole log)
 */
log_from: number
/**
 * the actions in words from ``log_from`` on, as this connection may read them: what is new or changed (a secret action that resolved) since its last state
 */
log: LogEntry[]
/**
 * the last action, for the board to highlight
 */
last: (LastMove | null)
/**
 * the seats that must act now (empty unless the table runs): a seat not here is not to play, whatever its legal
 */
to_act: number[]
/**
 * a label per legal action (Game.move_label); empty for a socket opened with labels=0 (a client that names the moves itself)
 */
labels: string[]
/**
 * the labels, for the reader's language (in the same order)
 */
labels_msg?: (Words | string)[]
/**
 * once over: the end in words
 */
ending: (Ending | null)
/**
 * the table tools this connection's person has now (Game.tools_for, per game and player count; none for a spectator; undo and redo only while the game runs): a page offers these, and the server refuses the others (not_offered)
 */
tools: ("undo" | "redo" | "hint" | "peek" | "restart" | "new_deal")[]
}
export interface Stats {
game: string
played: number
won: number
current_streak: number
best_streak: number
best_score: (number | null)
}
/**
 * One line of the standings (a duplicate challenge's: one entry, its members' names
 * joined; ``points`` its total score in the game's own measure, ``by_round`` per deal).
 */
export interface TournamentEntrant {
place: number
name: string
you: boolean
bot_account: boolean
withdrawn: boolean
/**
 * points by place (docs/tournaments.md), to 3 decimals
 */
points: number
buchholz: number
wins: number
games: number
byes: number
/**
 * per round: its points; null: not played
 */
by_round: (number | null)[]
/**
 * an arena's: the next game counts double
 */
on_streak?: boolean
/**
 * a challenge's: the deals finished
 */
deals_done?: (number | null)
/**
 * a deal of the day's: the days in a row this entrant played it
 */
days_in_a_row?: (number | null)
}
/**
 * A tournament's page: its settings, standings and rounds, and what it holds for you.
 */
export interface TournamentInfo {
id: string
name: string
game: string
title: string
format: ("swiss" | "arena" | "duplicate")
status: ("open" | "running" | "over")
/**
 * cancelled: too few entrants at its start
 */
ended?: (string | null)
/**
 * ISO 8601, UTC
 */
starts_at: string
/**
 * a Swiss tournament's rounds (an arena: 0)
 */
rounds: number
/**
 * the round being played (0: not started); an arena's: its tables seated in batches so far
 */
round: number
/**
 * an arena's or a duplicate challenge's end (ISO 8601, UTC)
 */
ends_at?: (string | null)
entrants: number
invite_only: boolean
/**
 * a deal of the day's day (2026-12-04, UTC)
 */
daily?: (string | null)
version: number
finished_at: (string | null)
table_size: number
clock: (ClockChoice | null)
options: {
[k: string]: unknown
}
rated: boolean
min_games: number
bots: boolean
/**
 * an arena's or a challenge's length
 */
minutes?: (number | null)
/**
 * a duplicate challenge's number of deals
 */
deals?: (number | null)
/**
 * an arena's streaks on or off
 */
streaks?: (boolean | null)
/**
 * whether you created it
 */
creator: boolean
/**
 * the invite code: only for its creator
 */
invite?: (string | null)
/**
 * whether you are an entrant (not withdrawn)
 */
entered: boolean
/**
 * your table of the round being played, if any
 */
next_table: (string | null)
standings: TournamentEntrant[]
round_list: TournamentRound[]
}
export interface TournamentRound {
number: number
/**
 * when it was paired (ISO 8601, UTC)
 */
started_at: string
byes: string[]
tables: TournamentTable[]
}
export interface TournamentTable {
table_id: string
/**
 * the entrants' names, in seat order
 */
players: string[]
/**
 * their places once the game is over
 */
places: (number[] | null)
/**
 * a challenge's deal: the game's own score
 */
score?: (number | null)
status: ("waiting" | "open" | "running" | "over")
}
export interface TournamentList {
tournaments: TournamentSummary[]
}
/**
 * A tournament in a list.
 */
export interface TournamentSummary {
id: string
name: string
game: string
title: string
format: ("swiss" | "arena" | "duplicate")
status: ("open" | "running" | "over")
/**
 * cancelled: too few entrants at its start
 */
ended?: (string | null)
/**
 * ISO 8601, UTC
 */
starts_at: string
/**
 * a Swiss tournament's rounds (an arena: 0)
 */
rounds: number
/**
 * the round being played (0: not started); an arena's: its tables seated in batches so far
 */
round: number
/**
 * an arena's or a duplicate challenge's end (ISO 8601, UTC)
 */
ends_at?: (string | null)
entrants: number
invite_only: boolean
/**
 * a deal of the day's day (2026-12-04, UTC)
 */
daily?: (string | null)
}
/**
 * What the tutor says now at a tutorial table, to its learner (``core/tutorial.py``).
 */
export interface TutorAnswer {
/**
 * the learner's moves so far (talk not counted)
 */
moves: number
/**
 * the step's explanation, a paragraph each (English)
 */
text: string[]
/**
 * the same paragraphs, for the reader's language
 */
text_msg: (Words | string)[]
/**
 * the move suggested now; null: not yours to move
 */
suggest: (string | null)
/**
 * your last move in words, when it was not the one suggested
 */
played?: (string | null)
played_msg?: (Words | string | null)
/**
 * the move suggested in its place
 */
instead?: (string | null)
/**
 * the game is over: the tutorial is finished
 */
done: boolean
}
/**
 * A game's tutorial, for the lobby's "Learn to play".
 */
export interface TutorialInfo {
game: string
title: string
/**
 * you have played this tutorial to its end
 */
done: boolean
}
export interface WebsocketSchema {
/**
 * JSON Schema of the messages clients send
 */
client: {
[k: string]: unknown
}
/**
 * JSON Schema of the messages the server sends
 */
server: {
[k: string]: unknown
}
}
export interface WinnableAnswer {
/**
 * null: the solver's budget ran out
 */
winnable: (boolean | null)
peeking: true
}
