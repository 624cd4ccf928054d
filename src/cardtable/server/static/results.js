// The results panel of a finished game, shared by the table and the replay. Its words are
// the server's (a state's or a replay step's `ending`, docs/server.md): this seat's verdict
// (Game.verdict), the headline for everyone (the first of Game.result_lines), the game's
// figures (Game.breakdown) in one table and its notes (Game.result_notes); the page adds only
// the order and marks the generic `result` gives (ranks, winners, won). A table closed
// before its game's end has no figures: its headline says how it ended (lifecycle.js), and
// the server's lines say the rest.
import { el } from "./common.js";
import { personName, say, t } from "./i18n.js";

/** @typedef {import("@api").Ending} Ending */
/** @typedef {import("@api").TableInfo} TableInfo */
/** @typedef {{over?: boolean, winners?: number[], ranks?: number[], won?: boolean}} Result */
/** @typedef {{seat: number, rank: number | null, name: string, winner: boolean}} Row */
/**
 * @typedef {object} Summary the end of a game as data (no DOM, so node's tests check it)
 * @property {Ending | null} ending the server's words
 * @property {string} headline the end for everyone
 * @property {boolean | null} won true or false, or null when the result does not say
 * @property {boolean} mine this page's person is among the winners
 * @property {Row[] | null} rows the seats in rank order, or null when the game ranks none
 */

// a bot's seat names in the server's words (the cardtable catalog: gamelog.py and live.py
// build the same), so they read in the reader's language
/** @param {string} person @param {string} bot */
export const playedFor = (person, bot) =>
  say({ msg: "{person} — played by {bot}", domain: "cardtable", args: { person: personName(person), bot } });
/** @param {string} name */
export const botName = (name) => say({ msg: "{name} (bot)", domain: "cardtable", args: { name } });

// a seat's name as every page shows it (docs/server.md, "Seats that go to bots"): a person's,
// a bot's marked as one, or a person's seat a bot plays on: "Ann — played by Greedy"
export function seatName(seat) {
  if (seat.shown) return say(seat.shown);  // the server's words, in the reader's language
  if (seat.bot && seat.person) return playedFor(seat.person, seat.name);
  if (seat.bot || seat.bot_account) return botName(seat.name);
  return personName(seat.name) || t("open seat");
}

// who played each seat of a finished game (seats[i].history from the server; `fallback`
// without one): "Ann", "Ann — played by Greedy" (her seat went to a bot), "Greedy bot"
export function playedBy(table, fallback) {
  return table.seats.map((s, i) => {
    if (!s.history) return fallback[i];
    const labels = s.history.map((h) => (h.bot && h.person ? playedFor(h.person, h.name)
      : h.bot ? t("{bot} bot", { bot: h.name }) : personName(h.name)));
    // "Ann" then "Ann — played by Greedy" says it once
    return labels.filter((x, k) => !labels[k + 1] || !labels[k + 1].startsWith(`${x} — `))
      // TRANSLATORS: between the players of one seat, in the order they played it
      .join(t(", then "));
  });
}

/**
 * Whether a game ranks its seats at a table: played by several, and not as a team.
 * @param {import("@api").GameInfo | null} game @param {TableInfo} table
 */
export function ranksSeats(game, table) {
  return Boolean(game && !game.cooperative) && table.players > 1;
}

/**
 * The end of a game: the server's `ending` with the order and marks of the view's `result`
 * (none for a table closed before its game's end). `ranked`: the game ranks its seats (it is
 * played by several, not as a team: GET /api/games).
 * @param {Result | null | undefined} result
 * @param {Ending | null | undefined} ending
 * @param {TableInfo} table
 * @param {string[]} names
 * @param {boolean} ranked
 * @returns {Summary}
 */
export function summary(result, ending, table, names, ranked) {
  ending = ending && readable(ending);
  const r = result || {};
  const winners = new Set(r.winners || []);
  const me = table.seats.findIndex((x) => x.you);
  const closed = !ending || !ending.breakdown;
  // the server's first line: a game's headline, or how a table closed early (one source)
  const headline = (ending && ending.lines[0]) || t("Game over");
  const rank = (i) => (r.ranks ? r.ranks[i] : null);
  const seats = [...(r.ranks || []).keys()].sort((a, b) => rank(a) - rank(b) || a - b);
  return {
    ending: ending || null,
    headline,
    won: typeof r.won === "boolean" ? r.won : closed && table.ended ? false : null,
    mine: me >= 0 && winners.has(me),
    rows: ranked && !closed ? seats.map((i) => ({ seat: i, rank: rank(i), name: names[i],
      winner: winners.has(i) })) : null,
  };
}

// The ending's words in the reader's language: the server's `msg` (the same words as message
// ids), each field falling back to its English
/** @param {Ending} ending @returns {Ending} */
function readable(ending) {
  const m = ending.msg;
  if (!m) return ending;
  const each = (english, wired) => english.map((x, i) => say(wired?.[i] ?? x));
  const b = ending.breakdown;
  return {
    ...ending,
    lines: each(ending.lines, m.lines),
    verdict: ending.verdict && say(m.verdict ?? ending.verdict),
    notes: each(ending.notes || [], m.notes),
    breakdown: b && { ...b, columns: each(b.columns, m.columns),
      table: b.table.map(([heading, value], i) => [say(m.table?.[i] ?? heading), value]) },
  };
}

// The end's figures, one table (no list repeating it): the server's `breakdown` of the game
// (Game.breakdown: the headings, a row of figures per seat, the table's own figures). Rows in
// rank order when the game ranks its seats (sum.rows), else in seat order; none when the
// game has no figures per seat. {ranked, columns, rows: [{seat, rank, name, winner, cells}],
// table: [[h, v]]}
/** @param {Summary} sum @param {string[]} names */
export function figures(sum, names) {
  const breakdown = sum.ending && sum.ending.breakdown;
  if (!breakdown) return { ranked: false, columns: [], rows: [], table: [] };
  const ranked = Boolean(sum.rows);
  const order = sum.rows || breakdown.seats.map((_, seat) => ({ seat, rank: null,
    name: names[seat], winner: false }));
  const rows = breakdown.seats.length
    ? order.map((row) => ({ ...row, cells: breakdown.seats[row.seat] })) : [];
  return { ranked, columns: breakdown.columns, rows, table: breakdown.table };
}

// The summary as plain lines ("Winner: Bob", "#1 Bob: sum 3, cards left 2"), for tests and
// for anything that wants text.
/** @param {Summary | null} sum @param {string[]} names */
export function summaryLines(sum, names = []) {
  if (!sum) return [];
  const lines = [...(sum.ending && sum.ending.verdict ? [sum.ending.verdict] : []), sum.headline];
  const fig = figures(sum, names);
  for (const row of fig.rows) {
    const cells = row.cells.map((x, k) => `${fig.columns[k]} ${x}`);
    lines.push(`${fig.ranked ? `#${row.rank ?? "–"} ` : ""}${personName(row.name)}: ${cells.join(", ")}`);
  }
  for (const [heading, value] of fig.table) lines.push(`${heading}: ${value}`);
  return [...lines, ...closedLines(sum), ...notesOf(sum)];
}

// the server's notes on the end (Game.result_notes)
/** @param {Summary} sum */
function notesOf(sum) {
  return (sum.ending && sum.ending.notes) || [];
}

// a table closed before its game's end: why, and the places, in the server's lines
/** @param {Summary} sum */
function closedLines(sum) {
  return sum.ending && !sum.ending.breakdown ? sum.ending.lines.slice(1) : [];
}

function figuresTable(fig, h) {
  const head = [...(fig.ranked ? [t("rank")] : []), t("player"), ...fig.columns];
  return h("table", { class: "list figures", "data-testid": "figures" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, fig.rows.map((row) => h("tr", { "data-seat": String(row.seat) },
      fig.ranked ? h("td", {}, row.rank === null ? "–" : String(row.rank)) : null,
      h("td", { class: "name" }, personName(row.name),
        row.winner ? h("span", { class: "winner-mark" }, " ★") : null),
      row.cells.map((x) => h("td", {}, String(x)))))));
}

// The panel. `h` builds the elements (`el` in the page; a plain builder in unit tests).
/**
 * @param {Summary | null} sum @param {TableInfo} table @param {string[]} names
 * @param {boolean} [links] @param {Function} [h]
 */
export function results(sum, table, names, links = true, h = el) {
  if (!sum) return null;
  const verdictClass = sum.won === true || sum.mine ? "won" : sum.won === false ? "lost" : "";
  const parts = [];
  // the server's words first (a state's `ending`): this seat's own verdict, then the figures
  const end = sum.ending;
  if (end && end.verdict) {
    parts.push(h("p", { class: `personal-verdict ${verdictClass}`, "data-testid": "verdict" },
      end.verdict));
  }
  parts.push(h("div", { class: `verdict ${end && end.verdict ? "sub" : ""} ${verdictClass}` },
    sum.headline));
  const fig = figures(sum, names);
  if (fig.rows.length) parts.push(figuresTable(fig, h));
  if (fig.table.length) {
    parts.push(h("dl", { class: "figures", "data-testid": "table-figures" },
      fig.table.map(([heading, value]) => h("div", {}, h("dt", {}, heading),
        h("dd", {}, String(value))))));
  }
  // a table closed before its game's end has no figures: why it closed, in the server's words
  const lines = closedLines(sum);
  if (lines.length) {
    parts.push(h("ul", { class: "result-lines", "data-testid": "result-lines" },
      lines.map((line) => h("li", {}, line))));
  }
  for (const note of notesOf(sum)) parts.push(h("p", { class: "result-note" }, note));
  if (links) {
    parts.push(h("div", { class: "row" },
      h("a", { class: "button", href: `/t/${table.id}/replay`, "data-testid": "replay-link" },
        t("▶ Watch the replay")),
      h("a", { class: "button", href: `/api/tables/${table.id}/record`,
        download: `${table.game}-${table.id}.json` }, t("⬇ Download the record")),
      h("a", { class: "button", href: "/" }, t("Back to the lobby"))));
  }
  return h("section", { class: "panel results", "data-testid": "results",
    "data-won": sum.won === null ? null : String(sum.won), "aria-label": t("results") },
  h("h2", {}, t("Results")), ...parts);
}
