// Doublets: the arch of reserves around the foundation, stock and waste, its results and
// the player's statistics. Playable cards come from `legal`; the solitaire tools (undo, redo,
// hint, still winnable?, restart, new deal) are the table page's, from what the game offers.
import { api, el } from "../common.js";
import { summary } from "../results.js";

// its styles: doublets.css
export const stylesheet = true;

const SUITS = { H: ["♥", "hearts", true], D: ["♦", "diamonds", true], C: ["♣", "clubs", false],
  S: ["♠", "spades", false] };
const RANK_WORD = { A: "ace", J: "jack", Q: "queen", K: "king" };
const VALUE_NAME = { 1: "A", 11: "J", 12: "Q", 13: "K" };

export function seatExtra(view) {
  return `score ${view.score}`;
}

function parse(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

function cardLabel(card) {
  const { rank, suit } = parse(card);
  return `${RANK_WORD[rank] || rank} of ${SUITS[suit][1]}`;
}

function playingCard(card, attrs = {}) {
  const { rank, suit } = parse(card);
  const [symbol, , red] = SUITS[suit];
  const tag = attrs.button ? "button" : "div";
  return el(tag, { type: tag === "button" ? "button" : null, ...attrs, button: null,
    class: `card pc ${red ? "red" : ""} ${rank === "K" ? "king" : ""} ${attrs.class || ""}`,
    "data-card": card },
  el("span", {}, rank), el("span", { class: "suit", "aria-hidden": "true" }, symbol));
}

// the last move on the board: a card played lands on the foundation, a flip on the waste,
// a redeal empties it (s.last from the server; ctx.fresh: it just happened)
function markLast(root, last, ctx) {
  if (!last || !last.action) return;
  const slot = last.action.startsWith("play ") ? "foundation"
    : last.action === "flip" ? "waste" : null;
  const card = slot && root.querySelector(`[data-slot="${slot}"] .card`);
  if (card) card.classList.add("last-move", ...(ctx.fresh ? ["arrive"] : []));
}

export function render(root, s, ctx) {
  const view = s.view;
  const hint = ctx.ui.hint && ctx.ui.hint.version === s.version ? ctx.ui.hint : null;
  const cls = (action) => [s.legal.includes(action) ? "playable" : "",
    hint && hint.action === action ? "hinted" : ""].join(" ");

  const reserve = (i) => {
    const card = view.reserves[i - 1];
    const action = `play r${i}`;
    const can = s.legal.includes(action);
    const inner = card
      ? playingCard(card, {
        button: true, class: cls(action), "data-action": can ? action : null, "data-key": `r${i}`,
        "aria-label": `reserve r${i}: ${cardLabel(card)}, face up` + (can ? ", playable" : ""),
        disabled: can ? null : true, onclick: can ? () => ctx.act(action) : null,
      })
      : el("div", { class: "slot", "aria-label": `reserve r${i}: empty` }, "empty");
    return el("div", { class: "cell", "data-slot": `r${i}` }, inner,
      el("div", { class: "label" }, `r${i}`));
  };

  const top = view.foundation[view.foundation.length - 1];
  const foundation = el("div", { class: "cell", "data-slot": "foundation" },
    playingCard(top, { class: "foundation", "aria-label": `foundation: ${cardLabel(top)}, ${view.foundation.length} cards` }),
    el("div", { class: "label" }, `F · ${view.foundation.length}`));
  const needName = VALUE_NAME[view.needed] || String(view.needed);
  const arch = el("div", { class: "arch", "aria-label": "reserves and foundation" },
    reserve(1), reserve(2), reserve(3),
    reserve(4), el("div", { class: "needed", "data-testid": "needed" }, "needs", el("b", {}, needName)),
    reserve(5),
    reserve(6), foundation, reserve(7));

  // the stock: flip, or redeal when the stock is empty and a redeal is left
  const stockAction = s.legal.includes("flip") ? "flip" : s.legal.includes("redeal") ? "redeal" : null;
  const stock = el("div", { class: "cell" },
    view.stock > 0
      ? el("button", { type: "button", class: `card back ${stockAction ? cls(stockAction) : ""}`,
        "data-action": stockAction, "data-key": "stock",
        "aria-label": `stock, ${view.stock} cards face down` + (stockAction ? ": flip one" : ""),
        disabled: stockAction ? null : true,
        onclick: stockAction ? () => ctx.act(stockAction) : null }, String(view.stock))
      : el("button", { type: "button", class: `slot ${stockAction ? cls(stockAction) : ""}`,
        "data-action": stockAction, "data-key": "stock",
        "aria-label": stockAction ? "stock empty: redeal the waste" : "stock empty",
        disabled: stockAction ? null : true,
        onclick: stockAction ? () => ctx.act(stockAction) : null },
      stockAction === "redeal" ? "↻ redeal" : "empty"),
    el("div", {}, `stock ${view.stock}`),
    el("div", {}, `redeals left ${view.redeals_left}`));

  const wasteTop = view.waste[view.waste.length - 1];
  const wasteCan = s.legal.includes("play waste");
  const waste = el("div", { class: "cell", "data-slot": "waste" },
    wasteTop
      ? playingCard(wasteTop, {
        button: true, class: cls("play waste"), "data-action": wasteCan ? "play waste" : null,
        "data-key": "waste",
        "aria-label": `waste: ${cardLabel(wasteTop)}, face up` + (wasteCan ? ", playable" : ""),
        disabled: wasteCan ? null : true, onclick: wasteCan ? () => ctx.act("play waste") : null,
      })
      : el("div", { class: "slot", "aria-label": "waste: empty" }, "waste"),
    el("div", {}, `waste ${view.waste.length}`));

  const peek = ctx.ui.peek && ctx.ui.peek.version === s.version ? ctx.ui.peek : null;
  // the hint and the solver's answer together, the latest first: one never hides the other
  const advice = [hint ? { at: hint.at || 0, text: `Hint: ${hint.action} — ${hint.reason}` } : null,
    peek ? { at: peek.at || 0, text: `Peeking at the stock: ${peek.text}` } : null]
    .filter(Boolean).sort((a, b) => b.at - a.at).map((x) => x.text).join(" · ");
  const prompt = view.over ? "The game is over."
    : advice || `Needs a ${needName}. Click a highlighted card to play it, or the stock to flip.`;

  root.append(el("div", {},
    el("div", { class: "row", style: "justify-content:space-between" },
      el("h3", { "data-testid": "deal" }, s.table.seed === null ? "Doublets" : `Deal #${s.table.seed}`),
      el("span", {}, "Score ", el("b", { "data-testid": "score" }, String(view.score)), " / 48")),
    el("div", { class: "db-board" }, arch, el("div", { class: "stockwaste" }, stock, waste)),
    el("p", { class: "hintline", role: "status", "data-testid": "prompt" }, prompt)));
  markLast(root, s.last, ctx);
}

// the prompt above shows the hint and the solver's answer: the tools need not repeat them
export const showsAdvice = true;

// alone at the table: no players panel
export function showSeats(table) {
  return table.players > 1;
}

export function resultSummary(view, table, names) {
  const sum = summary(view, table, names);
  if (!sum) return null;
  const r = view.result;
  return { ...sum, rows: null,
    verdict: r.won ? "Won! All 48 cards are on the foundation." : "No more moves.",
    notes: [`Score ${r.scores[0]} of 48 · cards left ${48 - r.scores[0]}`] };
}

// The player's Doublets statistics, for the side panel (asked again when the table's status
// changes: a finished game counts).
export async function sidePanels() {
  let body;
  try {
    body = await stats();
  } catch {
    body = el("p", { class: "muted" }, "Statistics need a name.");
  }
  return [el("section", { class: "panel", id: "stats" }, body)];
}

async function stats() {
  const st = await api("GET", "/api/stats/doublets");
  const pct = st.played ? Math.round((100 * st.won) / st.played) : 0;
  return el("div", { class: "stats", "data-testid": "stats" },
    el("h3", {}, "Your Doublets"),
    el("dl", {},
      el("dt", {}, "played"), el("dd", {}, String(st.played)),
      el("dt", {}, "won"), el("dd", {}, `${st.won} (${pct}%)`),
      el("dt", {}, "current streak"), el("dd", {}, String(st.current_streak)),
      el("dt", {}, "best streak"), el("dd", {}, String(st.best_streak)),
      el("dt", {}, "best score"), el("dd", {}, st.best_score === null ? "–" : String(st.best_score))));
}
