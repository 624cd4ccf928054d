// The renderer of a game that has no module of its own (and the defaults of one that leaves
// an export out): its legal actions as buttons, its view as a readable tree (its results
// are the server's words, as every game's: results.js). A new game is playable in the
// browser with this before it has a board.
//
// A game's module, static/games/<name>.js, holds everything the pages show of that game. It
// may export (each optional; ../renderers.js fills in the rest from this module):
//   render(root, s, ctx)          the board; s = {view, legal, labels, seat, table, version,
//                                 seatViews, last}; last = {n, seat, action} the last move to
//                                 highlight (action null while secret from this viewer)
//                                 ctx = {act(action), ui (page-local choices), names, readOnly,
//                                 rerender(), fresh (the last move just happened: animate),
//                                 over (the table is over, even closed before its end)}
//   seatExtra(view, seat, over)   a few words under a seat in the players panel (over:
//                                 the table is over, even closed before its game's end)
//   sidePanels(s)                 async: extra side panels, asked again when the status changes
//   showSeats(table)              false: no players panel
//   showsAdvice                   true: the board shows ctx.ui.hint / ctx.ui.peek itself
//   stylesheet                    true: games/<name>.css holds its styles, loaded with it
//   highlight(root, action, seat) mark on a drawn board the card, pile or cell that `action`
//                                 of `seat` would move (a review's better move, on a replay);
//                                 true if something was marked
//   labelsMoves                   true: the board names its moves itself, so the page asks
//                                 the server for no labels (s.labels is then empty)
import { el } from "../common.js";
import { say, t } from "../i18n.js";

// the exports above that a game's module may have (a unit test holds each module to them)
export const HOOKS = ["render", "seatExtra", "sidePanels", "showSeats", "showsAdvice",
  "stylesheet", "highlight", "labelsMoves"];

export function seatExtra() {
  return "";
}

export function showSeats() {
  return true;
}

export const showsAdvice = false;

export const labelsMoves = false; // the buttons below read the server's labels

// a board that names its moves' elements (data-action) has them marked; else nothing
export function highlight(root, action) {
  const found = [...root.querySelectorAll("[data-action]")]
    .filter((node) => /** @type {HTMLElement} */ (node).dataset.action === action);
  for (const node of found) node.classList.add("better-move");
  return found.length > 0;
}

// the buttons' data: one per legal action, labelled by the game in words the reader's
// language puts together (the server's `labels_msg`), else in its English (`labels`,
// Game.move_label), else with the action itself (the server's notation)
export function moveButtons(legal, hint = null, labels = null, labelsMsg = null) {
  return legal.map((action, i) => ({ action,
    label: (labelsMsg && labelsMsg[i]) || (labels && labels[i]) || action,
    hinted: hint === action }));
}

// "hand_sizes" -> "hand sizes"
export function keyLabel(key) {
  return String(key).replace(/_/g, " ");
}

function scalar(value) {
  return value === null || typeof value !== "object";
}

export function scalarText(value) {
  if (value === null || value === undefined) return "–";
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return String(value);
}

// The view as nested lists: a list of plain values on one line ("3, 5, 8"), an object as a
// <dl>, anything deeper inside an open <details> so a long part can be folded away.
export function tree(value, h = el) {
  if (scalar(value)) return h("span", { class: "tree-value" }, scalarText(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "tree-value muted" }, t("none"));
    if (value.every(scalar)) {
      return h("span", { class: "tree-value" }, value.map(scalarText).join(", "));
    }
    return h("ol", { class: "tree-list" },
      value.map((item) => h("li", {}, tree(item, h))));
  }
  return h("dl", { class: "tree" }, Object.entries(value).flatMap(([key, item]) => {
    const inner = tree(item, h);
    return [h("dt", { "data-key-name": key }, keyLabel(key)),
      h("dd", {}, scalar(item) || (Array.isArray(item) && item.every(scalar)) ? inner
        : h("details", { open: true }, h("summary", {}, keyLabel(key)), inner))];
  }));
}

const SHOWN_ELSEWHERE = ["result", "game", "seat", "players", "to_act"];

export function board(s, ctx, h = el) {
  const hint = ctx.ui.hint && ctx.ui.hint.version === s.version ? ctx.ui.hint.action : null;
  const buttons = ctx.readOnly ? [] : moveButtons(s.legal, hint, s.labels, s.labels_msg);
  const rest = { ...s.view };
  // the results panel shows the result; the players panel whose view it is, the seats and
  // whose turn, counted from 1 (the raw fields count from 0)
  for (const key of SHOWN_ELSEWHERE) delete rest[key];
  let prompt;
  if (s.view.result && s.view.result.over) prompt = t("The game is over.");
  else if (buttons.length) prompt = t("Your move: choose one.");
  else if (ctx.readOnly || s.seat === null) prompt = "";
  else prompt = t("Waiting for the others.");
  return h("div", { class: "generic-board" },
    s.table.seed === null || s.table.seed === undefined ? null
      : h("h3", { "data-testid": "deal" }, t("Deal #{number}", { number: s.table.seed })),
    h("p", { class: "hintline", role: "status", "data-testid": "prompt" }, prompt),
    s.last && s.last.action ? h("p", { class: "last-move", "data-testid": "last-move" },
      t("Last move: {action}", { action: s.last.action })) : null,
    buttons.length ? h("div", { class: "moves", role: "group", "aria-label": t("your moves") },
      buttons.map((b) => h("button", { type: "button", class: `move ${b.hinted ? "hinted" : ""}`,
        "data-action": b.action, "data-key": `move-${b.action}`,
        onclick: () => ctx.act(b.action) }, say(b.label)))) : null,
    h("div", { class: "view-tree", role: "group",
      "aria-label": t("the table, as the game describes it") },
      tree(rest, h)));
}

export function render(root, s, ctx) {
  root.append(board(s, ctx));
}
