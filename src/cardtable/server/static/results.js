// The results panel of a finished game (from view.result), shared by the table and replay.
import { el } from "./common.js";

// who played each seat of a finished game, a person then the bot that took over:
// "Ann, then greedy bot" (seats[i].history from the server; `fallback` without one)
export function playedBy(table, fallback) {
  return table.seats.map((s, i) => (s.history
    ? s.history.map((h) => (h.bot ? `${h.name} bot` : h.name)).join(", then ")
    : fallback[i]));
}

export function results(view, table, names, links = true) {
  const r = view.result;
  if (!r) return null;
  const winners = new Set(r.winners);
  const parts = [];
  if (view.game === "slide") {
    const me = table.seats.findIndex((x) => x.you);
    const verdict = me >= 0 ? (winners.has(me) ? "You win!" : "The game is over.")
      : `${r.winners.map((w) => names[w]).join(" and ")} ${r.winners.length > 1 ? "win" : "wins"}.`;
    parts.push(el("div", { class: `verdict ${me >= 0 && winners.has(me) ? "won" : ""}` }, verdict));
    const order = [...r.scores.keys()].sort((a, b) => r.ranks[a] - r.ranks[b]);
    parts.push(el("table", { class: "list" },
      el("thead", {}, el("tr", {}, el("th", {}, "rank"), el("th", {}, "player"),
        el("th", {}, "score"), el("th", {}, "cards left"))),
      el("tbody", {}, order.map((i) => el("tr", { "data-seat": String(i) },
        el("td", {}, String(r.ranks[i])),
        el("td", {}, names[i], winners.has(i) ? el("span", { class: "winner-mark" }, " ★") : null),
        el("td", {}, String(r.scores[i])),
        el("td", {}, String(r.remaining[i])))))));
    parts.push(el("p", { class: "muted" }, "Lowest score wins; a tie goes to fewer cards left."));
  } else if (view.game === "doublets") {
    parts.push(el("div", { class: `verdict ${r.won ? "won" : "lost"}` },
      r.won ? "Won! All 48 cards are on the foundation." : "No more moves."));
    parts.push(el("p", {}, `Score ${r.scores[0]} of 48 · cards left ${48 - r.scores[0]}`));
  } else {
    parts.push(el("div", { class: `verdict ${r.won ? "won" : "lost"}` },
      r.won ? "You beat The Game! Every card is played." : `The Game wins: ${r.cards_left} cards left.`));
    if (!r.won) {
      parts.push(el("p", {}, r.good ? "10 or fewer cards left: a good result."
        : "More than 10 cards left."));
    }
    if (names.length > 1) {
      parts.push(el("p", { class: "played-by", "data-testid": "played-by" },
        `Played by ${names.join(" · ")}`));
    }
  }
  if (links) {
    parts.push(el("div", { class: "row" },
      el("a", { class: "button", href: `/t/${table.id}/replay`, "data-testid": "replay-link" },
        "▶ Watch the replay"),
      el("a", { class: "button", href: `/api/tables/${table.id}/record`,
        download: `${table.game}-${table.id}.json` }, "⬇ Download the record"),
      el("a", { class: "button", href: "/" }, "Back to the lobby")));
  }
  return el("section", { class: "panel results", "data-testid": "results",
    "data-won": r.won === undefined ? null : String(r.won), "aria-label": "results" },
  el("h2", {}, "Results"), ...parts);
}
