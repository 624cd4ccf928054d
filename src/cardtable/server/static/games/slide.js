// Slide: every seat's 4x4 grid, the centre, the reveal / take clicks.
// Nothing here knows the rules: clickable things come from the server's `legal` list.
import { el, focusOn } from "../common.js";
import { t } from "../i18n.js";

// its styles: slide.css
export const stylesheet = true;
export const labelsMoves = true; // its board names its moves: no labels asked

/** @typedef {import("@views/slide.view").View} View */
/** @typedef {import("@pages").Board<View>} Board */
/** @typedef {import("@pages").Context} Context */

const COLS = "abcd";
const cellName = (r, c) => `${COLS[c]}${r + 1}`;
const ARROWS = { left: "→", right: "←", top: "↓", bottom: "↑" };
// a push's words, one sentence per side (a row from the left or right, a column from the top
// or bottom): the button's name and its tooltip
const PUSH = {
  left: (card, row) => t("push the {card} into row {row} from the left", { card, row }),
  right: (card, row) => t("push the {card} into row {row} from the right", { card, row }),
  top: (card, column) => t("push the {card} into column {column} from the top", { card, column }),
  bottom: (card, column) => t("push the {card} into column {column} from the bottom", { card, column }),
};
const PUSH_TITLE = {
  left: (card) => t("push the {card} in from the left", { card }),
  right: (card) => t("push the {card} in from the right", { card }),
  top: (card) => t("push the {card} in from the top", { card }),
  bottom: (card) => t("push the {card} in from the bottom", { card }),
};

/** @param {View} view @param {number} seat */
export function seatExtra(view, seat, over = false) {
  const parts = [t("score {n}", { n: view.totals[seat] })];
  if (view.phase === "reveal" && !over) parts.push(view.chosen[seat] ? t("has chosen") : t("choosing…"));
  if (view.first === seat) parts.push(t("first player"));
  return parts.join(" · ");
}

/** @param {View} view @param {number} seat */
function removedCells(view, seat) {
  // (the view's schema promises the generic result; Slide's own has the deals)
  const result = /** @type {import("@views/slide.result").Result | undefined} */ (view.result);
  const deals = result ? result.deals : view.deal_results;
  if (!view.result || !deals || !deals.length) return new Set();
  return new Set(deals[deals.length - 1].seats[seat].removed);
}

function slideCard(value, attrs = {}) {
  const face = value === "?" ? "?" : String(value);
  const cls = value === "?" ? "card back" : `card s${value}`;
  const button = attrs.onclick || attrs.button;
  // a card that is no button is a picture, named by its aria-label
  return el(button ? "button" : "div",
    { type: button ? "button" : null, role: button ? null : "img", ...attrs, button: null,
      class: `${cls} ${attrs.class || ""}`.trim() }, face);
}

/** @param {View} view @param {number} seat @param {Board} s @param {Context} ctx @param {boolean} big */
function grid(view, seat, s, ctx, big) {
  const mine = seat === s.seat && !ctx.readOnly;
  const legal = mine ? s.legal : [];
  const removed = removedCells(view, seat);
  const arrows = big && mine; // only the player's own grid keeps room for push arrows
  const box = el("div", { class: `sgrid ${big ? "" : "small"} ${arrows ? "" : "plain"}`,
    role: "group", "aria-label": t("{name}'s grid", { name: ctx.names[seat] }) });
  const at = (node, r, c) => {
    node.style.gridRow = String(r + 1 + (arrows ? 1 : 0));
    node.style.gridColumn = String(c + 1 + (arrows ? 1 : 0));
    box.append(node);
  };
  for (let r = 0; r < 4; r += 1) {
    for (let c = 0; c < 4; c += 1) {
      const v = view.grids[seat][r][c];
      const name = cellName(r, c);
      if (v === null) {
        at(el("div", { class: "slot", role: "img", "aria-label": t("hole {cell}", { cell: name }),
          "data-cell": name }, ""), r, c);
        continue;
      }
      const action = `reveal ${name}`;
      const canReveal = v === "?" && legal.includes(action);
      const isChoice = mine && view.choice === name;
      const label = v === "?" ? t("face-down card {cell}", { cell: name })
        : t("{card}, face up, {cell}", { card: v, cell: name });
      const cls = [canReveal ? "playable" : "", isChoice ? "choice" : "",
        removed.has(name) ? "removed" : ""].join(" ");
      at(slideCard(v, {
        class: cls, "data-cell": name, "data-key": `cell-${seat}-${name}`,
        "aria-label": [label, isChoice ? t("your choice") : "", removed.has(name) ? t("removed") : ""]
          .filter(Boolean).join(", "),
        "aria-pressed": isChoice ? "true" : null,
        "data-action": canReveal ? action : null,
        onclick: canReveal ? () => ctx.act(action) : null,
        button: big,
        disabled: big && !canReveal ? true : null,
      }), r, c);
    }
  }
  // arrows at the ends of the hole's row and column, only for the selected centre value
  const picked = ctx.ui.picked;
  if (arrows && picked !== undefined && view.holes[seat]) {
    const hole = view.holes[seat];
    const hc = COLS.indexOf(hole[0]);
    const hr = Number(hole[1]) - 1;
    const spots = { left: [hr + 1, 0], right: [hr + 1, 5], top: [0, hc + 1], bottom: [5, hc + 1] };
    for (const side of ["left", "right", "top", "bottom"]) {
      const action = `take ${picked} ${side}`;
      if (!legal.includes(action)) continue;
      const line = side === "left" || side === "right" ? hr + 1 : hole[0];
      const arrow = el("button", {
        type: "button", class: "arrow", "data-action": action, "data-key": `arrow-${side}`,
        "aria-label": PUSH[side](picked, line),
        title: PUSH_TITLE[side](picked),
        onclick: () => { ctx.ui.picked = undefined; ctx.act(action); },
      }, ARROWS[side]);
      arrow.style.gridRow = String(spots[side][0] + 1);
      arrow.style.gridColumn = String(spots[side][1] + 1);
      box.append(arrow);
    }
  }
  return box;
}

// a phone tab's name, whole in a narrow tab: "Bob (Greedy)" for Bob's seat a bot plays on
// (the tab's title, read as its description, keeps "Bob — played by Greedy")
function tabName(table, seat, names) {
  const info = table && table.seats ? table.seats[seat] : null;
  return info && info.bot && info.person ? `${info.person} (${info.name})` : names[seat];
}

/** @param {HTMLElement} root @param {Board} s @param {Context} ctx */
export function render(root, s, ctx) {
  const view = s.view;
  const seats = [...Array(view.players).keys()];
  const me = s.seat;
  const myTurn = !ctx.readOnly && me !== null && s.legal.some((a) => a.startsWith("take "));

  // the picked centre card survives only while it can still be taken
  const takeValues = [...new Set(s.legal.filter((a) => a.startsWith("take "))
    .map((a) => Number(a.split(" ")[1])))];
  if (!takeValues.includes(ctx.ui.picked)) ctx.ui.picked = undefined;
  if (myTurn && takeValues.length === 1) ctx.ui.picked = takeValues[0];

  let line;
  const over = view.phase === "over" || !!ctx.over; // ctx.over: the table closed before
  if (over) line = t("The game is over.");
  else if (s.table.status === "open") line = t("Waiting for the other players to sit down.");
  else if (view.phase === "reveal") {
    if (me === null || ctx.readOnly) line = t("Everyone chooses a card to reveal.");
    else if (s.legal.length && !view.chosen[me]) line = t("Click one of your face-down cards to reveal it.");
    else if (view.chosen[me]) {
      line = t("You have chosen (click another to change your mind). Waiting for the others…");
    } else line = t("Waiting…");
  } else if (myTurn) {
    line = ctx.ui.picked === undefined ? t("Your turn: click a centre card to take.")
      : t("Now click an arrow to push the {card} into your grid.", { card: ctx.ui.picked });
  } else line = t("{name} takes a card.", { name: ctx.names[view.turn] ?? "…" });

  const centre = el("div", { class: "centre", role: "group", "aria-label": t("centre cards") },
    el("h3", {}, t("Centre")),
    el("div", { class: "cards" },
      view.centre.length ? view.centre.map((v, i) => {
        const actions = s.legal.filter((a) => a.startsWith(`take ${v} `));
        const can = myTurn && actions.length > 0;
        return slideCard(v, {
          class: `${can ? "playable" : ""} ${ctx.ui.picked === v && can ? "selected" : ""}`,
          "data-centre": String(v), "data-key": `centre-${v}-${i}`,
          "data-actions": can ? actions.join("|") : null,
          "aria-label": t("{card}, face up, in the centre", { card: v }),
          "aria-pressed": can ? String(ctx.ui.picked === v) : null,
          button: true, disabled: can ? null : true,
          onclick: can ? (e) => {
            ctx.ui.picked = v;
            ctx.rerender();
            if (e.detail === 0) focusOn(".arrow"); // keyboard: go on
          } : null,
        });
      }) : el("span", { class: "muted", style: "color:#cfe3da" }, t("empty"))));

  const info = el("div", {},
    el("h3", {}, view.target
      ? t("Round {round} of 16 · deal {deal} · target {target}", { round: view.round,
        deal: view.deal, target: view.target })
      : t("Round {round} of 16", { round: view.round })),
    el("div", {}, view.first !== null ? t("First player: {name}", { name: ctx.names[view.first] }) : ""),
    el("p", { class: "hintline", role: "status", "data-testid": "prompt" }, line),
    view.phase === "over" ? null : scoringNote(view, ctx));

  // my grid first and big, the others smaller
  const order = me !== null ? [me, ...seats.filter((x) => x !== me)] : seats;
  // on a phone one grid at a time, chosen by a tab (slide.css): the others' grids are one tap
  // away instead of below the whole page
  if (!order.includes(ctx.ui.gridTab)) ctx.ui.gridTab = order[0];
  const tabs = el("div", { class: "grid-tabs", role: "tablist", "aria-label": t("whose grid") },
    order.map((seat) => {
      const current = seat === ctx.ui.gridTab;
      const turn = view.phase === "take" && view.turn === seat;
      return el("button", { type: "button", role: "tab", class: current ? "current" : "",
        "aria-selected": String(current), "data-key": `tab-${seat}`, "data-tab": String(seat),
        title: seat === me ? t("You") : ctx.names[seat],
        onclick: () => { ctx.ui.gridTab = seat; ctx.rerender(); } },
      (turn ? "▶ " : "") + (seat === me ? t("You") : tabName(s.table, seat, ctx.names)),
      el("small", {}, ` ${view.totals[seat]}`));
    }));
  const grids = el("div", { class: "grids tabbed" }, order.map((seat) => {
    const big = me === null || seat === me;
    const turn = !over && ((view.phase === "take" && view.turn === seat)
      || (view.phase === "reveal" && !view.chosen[seat]));
    const state = view.phase === "reveal" && !over
      ? (view.chosen[seat] ? t("✓ chosen") : t("choosing…")) : t("score {n}", { n: view.totals[seat] });
    return el("section", { class: `grid-box ${turn ? "turn" : ""}`
      + (seat === ctx.ui.gridTab ? " current" : ""), "data-seat": String(seat) },
    el("div", { class: "who" }, el("span", {}, seat === me ? t("{name} (you)", { name: ctx.names[seat] })
      : ctx.names[seat]),
      el("span", { class: "state" }, state)),
    grid(view, seat, s, ctx, big));
  }));

  root.append(el("div", { class: "slide-board", "data-phase": view.phase,
    "data-round": String(view.round) },
    el("div", { class: "slide-top" }, info, centre), tabs, grids));
  markLast(root, s.last, ctx);
}

// the last move on the board: the grid of the seat that moved, and the card it revealed or
// pushed in (the row or column it went into). s.last from the server: its action is null
// while the move is secret from this viewer; ctx.fresh: it just happened.
function markLast(root, last, ctx) {
  if (!last) return;
  const box = root.querySelector(`.grid-box[data-seat="${last.seat}"]`);
  if (!box) return;
  const add = (node) => node.classList.add("last-move", ...(ctx.fresh ? ["arrive"] : []));
  box.classList.add("last-move"); // the grid is marked; only the card arrives
  const [verb, what, side] = (last.action || "").split(" ");
  if (verb === "reveal") {
    const cell = box.querySelector(`[data-cell="${what}"]`);
    if (cell) add(cell);
  } else if (verb === "take" && side) {
    // the pushed card sits at the end of the line it entered from
    const cells = [...box.querySelectorAll(".card[data-cell]")].filter((c) => c.textContent === what);
    const at = { left: (n) => n[0] === "a", right: (n) => n[0] === "d", top: (n) => n[1] === "1",
      bottom: (n) => n[1] === "4" }[side];
    const cell = cells.find((c) => at && at(c.dataset.cell));
    if (cell) add(cell);
  }
}

// a review's better move on a drawn board: the cell `seat` reveals, or the centre card it
// takes and the hole of its grid the push closes
/** @param {HTMLElement} root @param {string} action @param {number} seat */
export function highlight(root, action, seat) {
  const [verb, what] = action.split(" ");
  const box = root.querySelector(`.grid-box[data-seat="${seat}"]`);
  const nodes = verb === "reveal" ? [box && box.querySelector(`[data-cell="${what}"]`)]
    : verb === "take" ? [root.querySelector(`[data-centre="${what}"]`), box && box.querySelector(".slot")]
      : [];
  const found = nodes.filter(Boolean);
  for (const node of found) node.classList.add("better-move");
  return found.length > 0;
}

// how a grid scores, told before the end (it decides what to aim for); open or closed as the
// person left it, across the page's redraws
/** @param {View} view @param {Context} ctx */
function scoringNote(view, ctx) {
  const deals = view.target
    ? t("Deals go on until a total reaches {target}: the lowest total then wins.", { target: view.target })
    : "";
  const note = el("details", { class: "scoring", "data-testid": "scoring",
    open: ctx.ui.scoringOpen || null,
    ontoggle: (e) => { ctx.ui.scoringOpen = e.currentTarget.open; } },
  el("summary", {}, t("How scoring works")),
  el("p", {}, t("After round 16 every card is face up. Each card that touches a card of the same "
    + "number above, below, left or right is removed: pairs and groups cancel out (corners "
    + "do not count).")),
  el("p", {}, t("Your score is the sum of the cards left in your grid. The lowest score wins; a "
    + "tie goes to fewer cards left."), deals ? ` ${deals}` : ""));
  return note;
}
