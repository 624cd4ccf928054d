// Doublets: the arch of reserves around the foundation, stock and waste, and the player's
// statistics. Playable cards come from `legal`; the solitaire tools (undo, redo,
// hint, still winnable?, restart, new deal) are the table page's: those the server lists.
// The comforts of a desktop patience (AisleRiot, PySolFC), all from `legal`: a card is played
// by a click (a double-click plays it once), by dragging it onto the foundation, or by the
// terminal's keys; forced moves may play themselves (docs/rules/doublets.md, "In cardtable").
import { api, el } from "../common.js";
import { number, t, tn } from "../i18n.js";

// its styles: doublets.css
export const stylesheet = true;
export const labelsMoves = true; // its board names its moves: no labels asked

/** @typedef {import("@views/doublets.view").View} View */
/** @typedef {import("@pages").Board<View>} Board */
/** @typedef {import("@pages").Context} Context */

const SUITS = { H: ["♥", "hearts", true], D: ["♦", "diamonds", true], C: ["♣", "clubs", false],
  S: ["♠", "spades", false] };
// a card's name, one message per suit (the rank's word or number inside it)
// TRANSLATORS: a card's name for screen readers; {rank} is "ace", "7", "queen"…
const CARD_NAME = {
  H: (rank) => t("{rank} of hearts", { rank }), D: (rank) => t("{rank} of diamonds", { rank }),
  C: (rank) => t("{rank} of clubs", { rank }), S: (rank) => t("{rank} of spades", { rank }),
};
const RANK_WORD = { A: t("ace"), J: t("jack"), Q: t("queen"), K: t("king") };
const VALUE_NAME = { 1: "A", 11: "J", 12: "Q", 13: "K" };
// the foundation's order, each value the double of the one before, mod 13 (A 2 4 8 3 6 Q J
// 9 5 10 7), as the terminal shows it
// "a 6", "an 8", "an A" (as the game's own words say it)
const withArticle = (name) => (name === "A" || name === "8"
  // TRANSLATORS: a card's value with English's article ("an 8"); most languages need only {value}
  ? t("an {value}", { value: name })
  // TRANSLATORS: a card's value with English's article ("a 6"); most languages need only {value}
  : t("a {value}", { value: name }));
const CYCLE = [1];
while (CYCLE.length < 12) CYCLE.push((2 * CYCLE[CYCLE.length - 1]) % 13);

/** @param {View} view */
export function seatExtra(view) {
  return t("score {n}", { n: view.score });
}

function parse(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

// "7 of clubs", "Q, queen of hearts": the letter a card shows is in its name (WCAG 2.5.3)
function cardLabel(card) {
  const { rank, suit } = parse(card);
  // the name holds the letter the card shows ("Q, queen of hearts"), as its face does
  return CARD_NAME[suit](RANK_WORD[rank] ? `${rank}, ${RANK_WORD[rank]}` : rank);
}

function playingCard(card, attrs = {}) {
  const { rank, suit } = parse(card);
  const [symbol, , red] = SUITS[suit];
  const tag = attrs.button ? "button" : "div";
  // a card that is no button is a picture, named by its aria-label
  return el(tag, { type: tag === "button" ? "button" : null,
    role: tag === "button" ? null : "img", ...attrs, button: null,
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

/** @param {HTMLElement} root @param {Board} s @param {Context} ctx */
export function render(root, s, ctx) {
  const view = s.view;
  const hint = ctx.ui.hint && ctx.ui.hint.version === s.version ? ctx.ui.hint : null;
  const cls = (action) => [s.legal.includes(action) ? "playable" : "",
    hint && hint.action === action ? "hinted" : ""].join(" ");

  const live = !ctx.readOnly && s.seat !== null;
  current = live ? { s, ctx } : null;
  // a playable card: a click plays it, the second click of a double-click is the same play,
  // and a drag onto the foundation plays it too
  const plays = (action, can) => (can && live ? {
    onclick: (e) => { if (e.detail <= 1 && !dragJustEnded()) ctx.act(action); },
    onpointerdown: (e) => startDrag(e, action),
  } : { onclick: can ? () => ctx.act(action) : null });

  const reserve = (i) => {
    const card = view.reserves[i - 1];
    const action = `play r${i}`;
    const can = s.legal.includes(action);
    const inner = card
      ? playingCard(card, {
        button: true, class: `${cls(action)} ${can && live ? "draggable" : ""}`,
        "data-action": can ? action : null, "data-key": `r${i}`,
        "aria-label": can ? t("reserve {slot}: {card}, face up, playable", { slot: `r${i}`, card: cardLabel(card) })
          : t("reserve {slot}: {card}, face up", { slot: `r${i}`, card: cardLabel(card) }),
        disabled: can ? null : true, ...plays(action, can),
      })
      : el("div", { class: "slot", role: "img", "aria-label": t("reserve {slot}: empty", { slot: `r${i}` }) },
        t("empty"));
    return el("div", { class: "cell", "data-slot": `r${i}` }, inner,
      el("div", { class: "label" }, `r${i}`));
  };

  const top = view.foundation[view.foundation.length - 1];
  const foundation = el("div", { class: "cell drop", "data-slot": "foundation" },
    playingCard(top, { class: "foundation", "aria-label": tn("foundation: {card}, {n} card",
      "foundation: {card}, {n} cards", view.foundation.length, { card: cardLabel(top) }) }),
    el("div", { class: "label" }, `F · ${view.foundation.length}`));
  const needName = VALUE_NAME[view.needed] || String(view.needed);
  const arch = el("div", { class: "arch", role: "group", "aria-label": t("reserves and foundation") },
    reserve(1), reserve(2), reserve(3),
    // TRANSLATORS: above the value the foundation needs next, in a narrow column: a short word
    reserve(4), el("div", { class: "needed", "data-testid": "needed" }, t("needs"), el("b", {}, needName)),
    reserve(5),
    reserve(6), foundation, reserve(7));

  // the stock: flip, or redeal when the stock is empty and a redeal is left
  const stockAction = s.legal.includes("flip") ? "flip" : s.legal.includes("redeal") ? "redeal" : null;
  const stock = el("div", { class: "cell" },
    view.stock > 0
      ? el("button", { type: "button", class: `card back ${stockAction ? cls(stockAction) : ""}`,
        "data-action": stockAction, "data-key": "stock",
        "aria-label": stockAction ? tn("stock, {n} card face down: flip one", "stock, {n} cards face down: flip one", view.stock)
          : tn("stock, {n} card face down", "stock, {n} cards face down", view.stock),
        disabled: stockAction ? null : true,
        onclick: stockAction ? () => ctx.act(stockAction) : null }, String(view.stock))
      : el("button", { type: "button", class: `slot ${stockAction ? cls(stockAction) : ""}`,
        "data-action": stockAction, "data-key": "stock",
        "aria-label": stockAction ? t("stock empty: redeal the waste") : t("stock empty"),
        disabled: stockAction ? null : true,
        onclick: stockAction ? () => ctx.act(stockAction) : null },
      stockAction === "redeal" ? t("↻ redeal") : t("empty")),
    el("div", {}, t("stock {n}", { n: view.stock })),
    el("div", {}, t("redeals left {n}", { n: view.redeals_left })));

  const wasteTop = view.waste[view.waste.length - 1];
  const wasteCan = s.legal.includes("play waste");
  const waste = el("div", { class: "cell", "data-slot": "waste" },
    wasteTop
      ? playingCard(wasteTop, {
        button: true, class: `${cls("play waste")} ${wasteCan && live ? "draggable" : ""}`,
        "data-action": wasteCan ? "play waste" : null, "data-key": "waste",
        "aria-label": wasteCan ? t("waste: {card}, face up, playable", { card: cardLabel(wasteTop) })
          : t("waste: {card}, face up", { card: cardLabel(wasteTop) }),
        disabled: wasteCan ? null : true, ...plays("play waste", wasteCan),
      })
      // TRANSLATORS: the empty waste's label, inside a slot as narrow as a card: a short word
      : el("div", { class: "slot", role: "img", "aria-label": t("waste: empty") }, t("waste")),
    el("div", {}, t("waste {n}", { n: view.waste.length })));

  const peek = ctx.ui.peek && ctx.ui.peek.version === s.version ? ctx.ui.peek : null;
  const keyNote = ctx.ui.keyNote && ctx.ui.keyNote.version === s.version ? ctx.ui.keyNote : null;
  // the hint (in the game's words, its notation after them, muted) and the solver's answer
  // together, the latest first: one never hides the other
  const advice = [hint ? { at: hint.at || 0, nodes: [t("Hint: {reason}", { reason: hint.reason }),
    hint.action ? el("span", { class: "notation", "data-testid": "hint-notation" },
      ` (${hint.action})`) : null] } : null,
  peek ? { at: peek.at || 0, nodes: [t("Peeking at the stock: {answer}", { answer: peek.text })] } : null]
    .filter(Boolean).sort((a, b) => b.at - a.at)
    .flatMap((x, i) => (i ? [" · ", ...x.nodes] : x.nodes)).filter(Boolean);
  // stuck: the deal stays open (undo, hint, restart) until the player deals anew or leaves
  const stuck = view.over && s.table.status === "running";
  const prompt = stuck && !advice.length
    ? t("No move is left: nothing fits the foundation (needs {card}). Undo to try another way, "
      + "restart the deal, or start a new one.", { card: withArticle(needName) })
    : view.over && !stuck ? t("The game is over.")
    : keyNote ? [keyNote.text]
    : advice.length ? advice
    : t("Needs {card}. Click a highlighted card (or drag it to the foundation) to play it, or the "
      + "stock to flip.", { card: withArticle(needName) });

  root.append(el("div", {},
    el("div", { class: "row", style: "justify-content:space-between" },
      el("h3", { "data-testid": "deal" }, s.table.seed === null ? "Doublets" : t("Deal #{number}", { number: s.table.seed })),
      el("span", {}, t("Score"), " ", el("b", { "data-testid": "score" }, String(view.score)), " / 48")),
    el("div", { class: "db-board" }, arch, el("div", { class: "stockwaste" }, stock, waste)),
    cycle(view.needed, view.over && !stuck),
    el("p", { class: "hintline", role: "status", "data-testid": "prompt" }, prompt),
    live && !view.over ? comforts(ctx) : null));
  markLast(root, s.last, ctx);
  if (live) scheduleAutoPlay(s, ctx);
}

// a review's better move on a drawn board: the card it plays, or the stock it flips or redeals
/** @param {HTMLElement} root @param {string} action */
export function highlight(root, action) {
  const [verb, from] = action.split(" ");
  const node = verb === "play" ? root.querySelector(`[data-slot="${from}"] .card`)
    : verb === "flip" || verb === "redeal" ? root.querySelector('[data-key="stock"]') : null;
  if (node) node.classList.add("better-move");
  return !!node;
}

// The doubling cycle, the next needed value marked (for screen readers too: the list's
// current step, and said in words)
function cycle(needed, over) {
  return el("div", { class: "db-cycle", "data-testid": "cycle" },
    el("span", { id: "db-cycle-label" }, t("Cycle")),
    el("ol", { "aria-labelledby": "db-cycle-label" }, CYCLE.map((v) => {
      const next = v === needed && !over;
      const name = VALUE_NAME[v] || String(v);
      return el("li", { class: next ? "next" : null, "aria-current": next ? "step" : null },
        name, next ? el("span", { class: "sr-only" }, " ", t("(next needed)")) : null);
    })));
}

// -- the comforts: keys, auto-play, dragging ----------------------------------------------
let current = null; // {s, ctx} of the table being played (null on a replay or when watching)

// the terminal's keys (tui/games/doublets.py and the terminal's u / h); undo and hint are the
// table page's own buttons, pressed for the player
const KEYS = [["1 – 7", t("play the card in reserve r1 … r7")], ["w", t("play the top of the waste")],
  ["f", t("flip a card from the stock (or redeal the waste)")], [t("u or Ctrl+Z"), t("undo")],
  ["Ctrl+Y", t("redo")],
  ["h", t("hint")], ["?", t("show or hide these keys")]];
const AUTO_KEY = "cardtable.doublets.autoplay";

function autoPlayOn() {
  try {
    return localStorage.getItem(AUTO_KEY) === "1";
  } catch {
    return false; // storage refused (private mode): off
  }
}

function comforts(ctx) {
  const auto = el("input", { type: "checkbox", id: "db-autoplay", "data-testid": "autoplay",
    checked: autoPlayOn() || null,
    onchange: (e) => {
      try {
        localStorage.setItem(AUTO_KEY, e.currentTarget.checked ? "1" : "0");
      } catch { /* not remembered, still on for this page */ }
      ctx.ui.autoPlay = e.currentTarget.checked;
      ctx.rerender();
    } });
  const help = el("details", { class: "db-keys", "data-testid": "keys-help",
    open: ctx.ui.keysOpen || null,
    ontoggle: (e) => { ctx.ui.keysOpen = e.currentTarget.open; } },
  el("summary", {}, t("Keys")),
  el("dl", {}, KEYS.flatMap(([k, what]) => [el("dt", {}, el("kbd", {}, k)), el("dd", {}, what)])));
  return el("div", { class: "db-comforts" },
    el("label", { for: "db-autoplay", title: t("When only one move is possible, it plays "
      + "itself (not right after an undo)") }, auto, " ", t("Auto-play forced moves")), help);
}

// A move is forced when it is the only legal one; it plays itself, after a short pause so the
// player sees it, while the box is ticked — but not while a move can be redone: right after an
// undo, playing the forced move again would make undo useless.
let autoTimer = null;
function scheduleAutoPlay(s, ctx) {
  clearTimeout(autoTimer);
  const on = ctx.ui.autoPlay ?? autoPlayOn();
  if (!on || s.table.status !== "running" || s.legal.length !== 1 || s.table.can_redo) return;
  const version = s.version;
  autoTimer = setTimeout(() => {
    if (current && current.s.version === version && current.s.legal.length === 1) {
      current.ctx.act(current.s.legal[0]);
    }
  }, 350);
}

function pressTool(key) {
  const button = /** @type {HTMLButtonElement | null} */ (
    document.querySelector(`.tools [data-key="${key}"]`));
  if (button && !button.disabled) button.click();
}

function onKey(e) {
  if (!current || e.altKey || e.metaKey || e.defaultPrevented) return;
  const target = e.target;
  if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
  const { s, ctx } = current;
  const key = e.key.toLowerCase();
  if (e.ctrlKey) {
    if (key === "z" || key === "y") {
      e.preventDefault();
      pressTool(key === "z" && !e.shiftKey ? "undo" : "redo");
    }
    return;
  }
  let action;
  if (/^[1-7]$/.test(key)) action = `play r${key}`;
  else if (key === "w") action = "play waste";
  else if (key === "f") action = s.legal.includes("redeal") ? "redeal" : "flip";
  else if (key === "u") return pressTool("undo");
  else if (key === "h") return pressTool("hint");
  else if (key === "?") {
    ctx.ui.keysOpen = !ctx.ui.keysOpen;
    return ctx.rerender();
  } else return;
  e.preventDefault();
  if (s.legal.includes(action)) {
    ctx.ui.keyNote = null;
    ctx.act(action);
  } else {
    // say why nothing happened, instead of a silent key
    const need = VALUE_NAME[s.view.needed] || String(s.view.needed);
    const text = action === "flip"
      ? t("Key {key}: the stock is empty and no redeal is left.", { key: e.key })
      : t("Key {key}: {slot} cannot be played now: the foundation needs {card}.",
        { key: e.key, slot: action.slice(5), card: withArticle(need) });
    ctx.ui.keyNote = { version: s.version, text };
    ctx.rerender();
  }
}

// dragging a playable card onto the foundation, with pointer events (a mouse, a finger, a pen)
let drag = null;
let dragEndedAt = 0;

function dragJustEnded() {
  return Date.now() - dragEndedAt < 300; // the click that ends a drag is not a second play
}

function startDrag(e, action) {
  if (e.button !== 0 || !current) return;
  drag = { action, x: e.clientX, y: e.clientY, node: e.currentTarget, ghost: null,
    version: current.s.version };
}

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest("[data-slot=foundation]") : null;
}

function onPointerMove(e) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return; // still a click
    drag.ghost = drag.node.cloneNode(true);
    drag.ghost.classList.add("drag-ghost");
    drag.ghost.removeAttribute("data-action");
    drag.ghost.setAttribute("aria-hidden", "true");
    document.body.append(drag.ghost);
    drag.node.classList.add("dragging");
  }
  drag.ghost.style.setProperty("left", `${e.clientX - drag.node.offsetWidth / 2}px`);
  drag.ghost.style.setProperty("top", `${e.clientY - drag.node.offsetHeight / 2}px`);
  document.querySelectorAll(".drop").forEach((d) => d.classList.remove("over"));
  const target = dropTarget(e.clientX, e.clientY);
  if (target) target.classList.add("over");
}

function onPointerUp(e) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return; // a click: the button's own handler plays it
  d.ghost.remove();
  d.node.classList.remove("dragging");
  document.querySelectorAll(".drop").forEach((x) => x.classList.remove("over"));
  dragEndedAt = Date.now();
  if (e.type === "pointerup" && dropTarget(e.clientX, e.clientY) && current
    && current.s.version === d.version && current.s.legal.includes(d.action)) {
    current.ctx.act(d.action);
  }
}

if (typeof document !== "undefined") {
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
}

// the prompt above shows the hint and the solver's answer: the tools need not repeat them
export const showsAdvice = true;

// alone at the table: no players panel
export function showSeats(table) {
  return table.players > 1;
}

// The player's Doublets statistics, for the side panel (asked again when the table's status
// changes: a finished game counts).
export async function sidePanels() {
  let body;
  try {
    body = await stats();
  } catch {
    body = el("p", { class: "muted" }, t("Statistics need a name."));
  }
  return [el("section", { class: "panel", id: "stats" }, body)];
}

async function stats() {
  const st = await api("GET", "/api/stats/doublets");
  const pct = st.played ? Math.round((100 * st.won) / st.played) : 0;
  return el("div", { class: "stats", "data-testid": "stats" },
    el("h3", {}, t("Your Doublets")),
    el("dl", {},
      el("dt", {}, t("played")), el("dd", {}, String(st.played)),
      el("dt", {}, t("won")), el("dd", {}, t("{won} ({percent}%)", { won: st.won, percent: number(pct) })),
      el("dt", {}, t("current streak")), el("dd", {}, String(st.current_streak)),
      el("dt", {}, t("best streak")), el("dd", {}, String(st.best_streak)),
      el("dt", {}, t("best score")), el("dd", {}, st.best_score === null ? "–" : String(st.best_score))));
}
