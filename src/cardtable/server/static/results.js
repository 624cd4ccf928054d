// The results panel of a finished game, shared by the table and the replay. Only what every
// game has lives here: the generic `result` (over, winners, ranks, scores) in words, and the
// game's own figures as the server sends them (`ending.breakdown`, Game.breakdown, and its
// `notes`), in one table. A game's module (games/<name>.js) may export its own
// `resultSummary` of the same shape (its headline).
import { el } from "./common.js";

// a seat's name as every page shows it (docs/server.md, "Seats that go to bots"): a person's,
// a bot's marked as one, or a person's seat a bot plays on: "Ann — played by Greedy"
export function seatName(seat) {
  if (seat.bot && seat.person) return `${seat.person} — played by ${seat.name}`;
  if (seat.bot || seat.bot_account) return `${seat.name} (bot)`;
  return seat.name || "open seat";
}

// who played each seat of a finished game (seats[i].history from the server; `fallback`
// without one): "Ann", "Ann — played by Greedy" (her seat went to a bot), "Greedy bot"
export function playedBy(table, fallback) {
  return table.seats.map((s, i) => {
    if (!s.history) return fallback[i];
    const labels = s.history.map((h) => (h.bot && h.person ? `${h.person} — played by ${h.name}`
      : h.bot ? `${h.name} bot` : h.name));
    // "Ann" then "Ann — played by Greedy" says it once
    return labels.filter((x, k) => !labels[k + 1] || !labels[k + 1].startsWith(`${x} — `))
      .join(", then ");
  });
}

function joinNames(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

// The end of a game as data (no DOM, so node's test runner checks it):
// {verdict, won (true/false, or null when the result does not say), columns (extra table
// headings), rows ([{seat, rank, name, score, winner, extra}], or null for no table), notes
// (lines under it), playedBy (a "Played by ..." line)}.
export function summary(view, table, names) {
  const r = view.result;
  if (!r) return null;
  const winners = new Set(r.winners || []);
  const me = table.seats.findIndex((x) => x.you);
  let verdict;
  if (me >= 0 && winners.has(me)) {
    const others = [...winners].filter((w) => w !== me).map((w) => names[w]);
    verdict = others.length ? `You win, with ${joinNames(others)}!` : "You win!";
  } else if (winners.size) {
    const list = [...winners].map((w) => names[w]);
    verdict = `${joinNames(list)} ${list.length > 1 ? "win" : "wins"}.`;
  } else verdict = "Nobody wins.";
  const seats = [...(r.scores || []).keys()];
  const rank = (i) => (r.ranks ? r.ranks[i] : null);
  const order = r.ranks ? seats.sort((a, b) => rank(a) - rank(b) || a - b) : seats;
  return {
    verdict,
    won: typeof r.won === "boolean" ? r.won : null,
    mine: me >= 0 && winners.has(me),
    columns: [],
    rows: order.map((i) => ({ seat: i, rank: rank(i), name: names[i], score: r.scores[i],
      winner: winners.has(i), extra: [] })),
    notes: [],
    playedBy: false,
  };
}

// The end's figures, one table (no list repeating it): the server's `breakdown` of the game
// (Game.breakdown: the headings, a row of figures per seat, the table's own figures) when
// the summary has the state's `ending`, else each seat's score. Rows in rank order when the
// game ranks its seats (sum.rows), else in seat order; none when the game has no figures
// per seat. {ranked, columns, rows: [{seat, rank, name, winner, cells}], table: [[h, v]]}
export function figures(sum, names) {
  const breakdown = sum.ending && sum.ending.breakdown;
  if (!breakdown) {
    return { ranked: true, columns: ["score", ...sum.columns], table: [],
      rows: (sum.rows || []).map((row) => ({ ...row, cells: [row.score, ...row.extra] })) };
  }
  const ranked = Boolean(sum.rows);
  const order = sum.rows || breakdown.seats.map((_, seat) => ({ seat, rank: null,
    name: names[seat], winner: false }));
  const rows = breakdown.seats.length
    ? order.map((row) => ({ ...row, cells: breakdown.seats[row.seat] })) : [];
  return { ranked, columns: breakdown.columns, rows, table: breakdown.table };
}

// The summary as plain lines ("#1 Bob: 3", "#1 Bob: sum 3, cards left 2"), for tests and
// for anything that wants text.
export function summaryLines(sum, names = []) {
  if (!sum) return [];
  const lines = [sum.verdict];
  const fig = figures(sum, names);
  const plain = !(sum.ending && sum.ending.breakdown); // the score alone, unnamed
  for (const row of fig.rows) {
    const cells = row.cells.map((x, k) => (plain && k === 0 ? `${x}` : `${fig.columns[k]} ${x}`));
    lines.push(`${fig.ranked ? `#${row.rank ?? "–"} ` : ""}${row.name}: ${cells.join(", ")}`);
  }
  for (const [heading, value] of fig.table) lines.push(`${heading}: ${value}`);
  return [...lines, ...notesOf(sum)];
}

// the server's notes on the end (Game.result_notes), then the page's own
function notesOf(sum) {
  return [...((sum.ending && sum.ending.notes) || []), ...sum.notes];
}

function figuresTable(fig, h) {
  const head = [...(fig.ranked ? ["rank"] : []), "player", ...fig.columns];
  return h("table", { class: "list figures", "data-testid": "figures" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, fig.rows.map((row) => h("tr", { "data-seat": String(row.seat) },
      fig.ranked ? h("td", {}, row.rank === null ? "–" : String(row.rank)) : null,
      h("td", { class: "name" }, row.name,
        row.winner ? h("span", { class: "winner-mark" }, " ★") : null),
      row.cells.map((x) => h("td", {}, String(x)))))));
}

// The panel. `h` builds the elements (`el` in the page; a plain builder in unit tests).
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
    sum.verdict));
  const fig = figures(sum, names);
  if (fig.rows.length) parts.push(figuresTable(fig, h));
  if (fig.table.length) {
    parts.push(h("dl", { class: "figures", "data-testid": "table-figures" },
      fig.table.map(([heading, value]) => h("div", {}, h("dt", {}, heading),
        h("dd", {}, String(value))))));
  }
  // a table closed before its game's end has no figures: why it closed, in the server's words
  if (end && !end.breakdown && end.lines && end.lines.length) {
    parts.push(h("ul", { class: "result-lines", "data-testid": "result-lines" },
      end.lines.map((line) => h("li", {}, line))));
  }
  for (const note of notesOf(sum)) parts.push(h("p", { class: "result-note" }, note));
  if (sum.playedBy && names.length > 1) {
    parts.push(h("p", { class: "played-by", "data-testid": "played-by" },
      `Played by ${names.join(" · ")}`));
  }
  if (links) {
    parts.push(h("div", { class: "row" },
      h("a", { class: "button", href: `/t/${table.id}/replay`, "data-testid": "replay-link" },
        "▶ Watch the replay"),
      h("a", { class: "button", href: `/api/tables/${table.id}/record`,
        download: `${table.game}-${table.id}.json` }, "⬇ Download the record"),
      h("a", { class: "button", href: "/" }, "Back to the lobby")));
  }
  return h("section", { class: "panel results", "data-testid": "results",
    "data-won": sum.won === null ? null : String(sum.won), "aria-label": "results" },
  h("h2", {}, "Results"), ...parts);
}
