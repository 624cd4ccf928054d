// The results panel of a finished game, shared by the table and the replay. Only what every
// game has lives here: the generic `result` (over, winners, ranks, scores) in words. A game's
// module (games/<name>.js) may export its own `resultSummary` of the same shape.
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

// The summary as plain lines ("#1 Bob: 3", as the game's result_lines in Python), for tests
// and for anything that wants text.
export function summaryLines(sum) {
  if (!sum) return [];
  const lines = [sum.verdict];
  for (const row of sum.rows || []) {
    const extra = row.extra.map((x, k) => `, ${sum.columns[k]} ${x}`).join("");
    lines.push(`#${row.rank ?? "–"} ${row.name}: ${row.score}${extra}`);
  }
  return [...lines, ...sum.notes];
}

// The panel. `h` builds the elements (`el` in the page; a plain builder in unit tests).
export function results(sum, table, names, links = true, h = el) {
  if (!sum) return null;
  const verdictClass = sum.won === true || sum.mine ? "won" : sum.won === false ? "lost" : "";
  const parts = [];
  // the server's words first (a state's `ending`): this seat's own verdict, then why it ended
  const end = sum.ending;
  if (end && end.verdict) {
    parts.push(h("p", { class: `personal-verdict ${verdictClass}`, "data-testid": "verdict" },
      end.verdict));
  }
  parts.push(h("div", { class: `verdict ${end && end.verdict ? "sub" : ""} ${verdictClass}` },
    sum.verdict));
  if (end && end.lines && end.lines.length) {
    parts.push(h("ul", { class: "result-lines", "data-testid": "result-lines" },
      end.lines.map((line) => h("li", {}, line))));
  }
  if (sum.rows && sum.rows.length) {
    parts.push(h("table", { class: "list" },
      h("thead", {}, h("tr", {}, ["rank", "player", "score", ...sum.columns]
        .map((x) => h("th", {}, x)))),
      h("tbody", {}, sum.rows.map((row) => h("tr", { "data-seat": String(row.seat) },
        h("td", {}, row.rank === null ? "–" : String(row.rank)),
        h("td", {}, row.name, row.winner ? h("span", { class: "winner-mark" }, " ★") : null),
        h("td", {}, String(row.score)),
        row.extra.map((x) => h("td", {}, String(x))))))));
  }
  for (const note of sum.notes) parts.push(h("p", {}, note));
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
