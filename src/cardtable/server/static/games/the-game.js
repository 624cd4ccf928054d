// The Game: four piles, the hand, pile signals. Legal plays come from the server's `legal`.
import { el, focusOn } from "../common.js";
import { t, tn } from "../i18n.js";

// its styles: the-game.css
export const stylesheet = true;
export const labelsMoves = true; // its board names its moves: no labels asked

/** @typedef {import("@views/the-game.view").View} View */
/** @typedef {import("@pages").Board<View>} Board */
/** @typedef {import("@pages").Context} Context */

const PILES = ["up1", "up2", "down1", "down2"];
// TRANSLATORS: The Game's four piles: two count up from 1, two count down from 100
const PILE_WORDS = { up1: t("up 1"), up2: t("up 2"), down1: t("down 1"), down2: t("down 2") };
const PILE_TITLE = { up1: `▲ ${PILE_WORDS.up1}`, up2: `▲ ${PILE_WORDS.up2}`,
  down1: `▼ ${PILE_WORDS.down1}`, down2: `▼ ${PILE_WORDS.down2}` };
const SIGNALS = ["avoid", "small", "good"];
// TRANSLATORS: The Game's signals on a pile, as a button says them
const SIGNAL_NAME = { avoid: t("avoid"), small: t("small"), good: t("good") };
const SIGNAL_TEXT = { avoid: t("avoid"), small: t("small jump"), good: t("I have good"),
  clear: t("clear") };
// what each signal says, in the rule book's words (talk is allowed, numbers are not)
const SIGNAL_HELP = { avoid: t("please don't play on this pile"),
  small: t("only a very small jump here, please"), good: t("I have good cards for this pile") };

/** @param {View} view @param {number} seat */
export function seatExtra(view, seat) {
  const parts = [tn("{n} card in hand", "{n} cards in hand", view.hand_sizes[seat])];
  if (view.turn === seat && !view.over) parts.push(t("played {n}", { n: view.played_this_turn }));
  return parts.join(" · ");
}

// a hue from blue (2) to red (99) so neighbouring values look alike
function tgCard(value, attrs = {}) {
  const hue = 220 - Math.round(((value - 1) / 99) * 220);
  const tag = attrs.onclick !== undefined || attrs.button ? "button" : "div";
  // a card that is no button is a picture, named by its aria-label
  return el(tag, { type: tag === "button" ? "button" : null,
    role: tag === "button" ? null : "img", ...attrs, button: null,
    class: `card tgc ${attrs.class || ""}`,
    style: `background: hsl(${hue} 55% 45%)` }, String(value));
}

/** @param {HTMLElement} root @param {Board} s @param {Context} ctx */
export function render(root, s, ctx) {
  const view = s.view;
  const me = ctx.readOnly ? null : s.seat;
  const plays = s.legal.filter((a) => a.startsWith("play "));
  const hand = view.hand || [];
  if (!hand.includes(ctx.ui.picked) || !plays.length) ctx.ui.picked = undefined;
  const picked = ctx.ui.picked;
  const myTurn = plays.length > 0 || s.legal.includes("end");

  const piles = el("div", { class: "tg-piles" }, PILES.map((pile) => {
    const action = picked !== undefined ? `play ${picked} ${pile}` : null;
    const can = action && plays.includes(action);
    const top = view.piles[pile];
    const sigs = view.signals.flatMap((byPile, seat) => (byPile[pile]
      ? [el("span", { class: `sig ${byPile[pile]}`, "data-signal": `${seat} ${byPile[pile]}` },
        t("{name}: {signal}", { name: ctx.names[seat], signal: SIGNAL_TEXT[byPile[pile]] }))] : []));
    return el("div", { class: "pile", "data-pile": pile },
      el("div", { class: "pile-name" }, PILE_TITLE[pile]),
      el("button", {
        type: "button", class: `pile-btn ${can ? "target" : ""}`,
        "data-action": can ? action : null, "data-key": `pile-${pile}`,
        "aria-label": can ? t("pile {pile}, top {top}: play {card} here", { pile: PILE_WORDS[pile], top, card: picked })
          : t("pile {pile}, top {top}", { pile: PILE_WORDS[pile], top }),
        "data-top": String(top),
        disabled: can ? null : true, onclick: can ? () => ctx.act(action) : null,
      }, tgCard(top, { "aria-hidden": "true" })),
      el("div", { class: "signals", role: "group",
        "aria-label": t("signals on {pile}", { pile: PILE_WORDS[pile] }) }, sigs));
  }));

  let line;
  // (alone and stuck, the table stays open for undo: docs/server.md, "A stuck solitaire")
  if (view.over) {
    line = s.table.status === "running" ? t("No move is left: undo to try another way, or deal again.")
      : t("The game is over.");
  } else if (s.table.status === "open") line = t("Waiting for the other players to sit down.");
  else if (me === null) line = t("{name} is playing.", { name: ctx.names[view.turn] });
  else if (!myTurn) line = t("{name} is playing. You may signal at any time.", { name: ctx.names[view.turn] });
  else if (!plays.length) line = t("Nothing in your hand fits a pile. End your turn.");
  else if (picked === undefined && s.legal.includes("end")) {
    line = t("Your turn: pick a card, then a pile, or end your turn.");
  } else if (picked === undefined) {
    line = t("Your turn: pick a card, then a pile (at least {n}).", { n: view.minimum });
  } else line = t("Play the {card} on a highlighted pile, or pick another card.", { card: picked });

  const info = el("div", { class: "tg-info" },
    el("span", {}, t("Draw pile"), " ", el("b", { "data-testid": "draw-pile" }, String(view.draw_pile))),
    el("span", {}, t("Played this turn"), " ",
      el("b", {}, t("{played} / min {minimum}", { played: view.played_this_turn, minimum: view.minimum }))),
    el("span", {}, t("Cards left"), " ", el("b", {}, String(view.cards_left))),
    el("span", {}, t("Hands"), " ", el("b", {}, view.hand_sizes.map((n, i) => `${ctx.names[i]} ${n}`).join(", "))));

  const handBox = el("div", { class: "hand", role: "group", "aria-label": t("your hand"),
    "data-testid": "hand" },
    hand.map((v) => {
      const actions = plays.filter((a) => a.split(" ")[1] === String(v));
      const can = actions.length > 0;
      // on one's turn a card no legal play uses is dimmed and crossed out (the-game.css)
      return tgCard(v, {
        class: `${can ? "playable" : myTurn ? "unfit" : ""} ${picked === v ? "selected" : ""}`,
        "data-card": String(v), "data-key": `hand-${v}`,
        "data-actions": can ? actions.join("|") : null,
        "aria-label": can ? t("{card}, in your hand", { card: v })
          : t("{card}, in your hand, no pile takes it now", { card: v }),
        "aria-pressed": can ? String(picked === v) : null,
        disabled: can ? null : true, button: true,
        onclick: can ? (e) => {
          ctx.ui.picked = picked === v ? undefined : v;
          ctx.rerender();
          // from the keyboard (detail 0), go on to the piles that take the card
          if (e.detail === 0) focusOn(".pile-btn.target");
        } : null,
      });
    }));

  // a finished game's replay shows every hand (the server sends each seat's view)
  const allHands = ctx.readOnly && s.seatViews ? el("div", { "data-testid": "all-hands" },
    el("h3", {}, t("Hands")),
    s.seatViews.map((v, i) => el("div", { class: "row" },
      el("span", { class: "hand-owner" }, ctx.names[i]),
      el("div", { class: "hand", role: "group", "aria-label": t("{name}'s hand", { name: ctx.names[i] }),
        "data-seat": String(i) },
        (v.hand || []).map((c) => tgCard(c, { "data-card": String(c), "aria-label": t("{card}, in {name}'s hand",
          { card: c, name: ctx.names[i] }) })))))) : null;

  const end = s.legal.includes("end");
  root.append(el("div", { class: "tg-board", "data-played": String(view.played_this_turn),
    "data-minimum": String(view.minimum) },
    piles,
    info,
    el("p", { class: "hintline", role: "status", "data-testid": "prompt" }, line),
    allHands,
    me === null ? null : el("div", {},
      el("h3", {}, t("Your hand")),
      handBox,
      el("div", { class: "row", style: "margin-top:.6rem" },
        el("button", { type: "button", class: "primary", "data-action": end ? "end" : null,
          "data-key": "end", disabled: end ? null : true,
          onclick: end ? () => ctx.act("end") : null }, t("End turn")))),
    me === null ? null : signalPanel(s, ctx)));
  markLast(root, s.last, ctx);
}

// a review's better move on a drawn board: the card in `seat`'s hand (a replay shows every
// hand) and the pile it goes on; "end" is the seat's hand
/** @param {HTMLElement} root @param {string} action @param {number} seat */
export function highlight(root, action, seat) {
  const [verb, card, pile] = action.split(" ");
  const hand = root.querySelector(`[data-testid="all-hands"] .hand[data-seat="${seat}"]`)
    || root.querySelector('[data-testid="hand"]');
  const nodes = verb === "play"
    ? [hand && hand.querySelector(`[data-card="${card}"]`), root.querySelector(`[data-pile="${pile}"] .pile-btn`)]
    : [];
  const found = nodes.filter(Boolean);
  for (const node of found) node.classList.add("better-move");
  return found.length > 0;
}

// The signals a seat gives, after its hand (the hand is a few Tabs from the top: #24): a
// legend in the rule book's words that each button points to, and one Tab stop for all twelve
// buttons (a toolbar: the arrow keys move between them). A signal is a toggle: pressing one's
// own signal again takes it back (`clear`).
/** @param {Board} s @param {Context} ctx */
function signalPanel(s, ctx) {
  const mine = s.view.signals[s.seat] || {};
  const offered = (pile) => s.legal.some((a) => a.startsWith(`signal ${pile} `));
  if (!PILES.some(offered)) return null; // the game is over: nothing to say any more
  const legend = el("ul", { class: "sig-legend" }, SIGNALS.map((kind) => el("li",
    { id: `sig-help-${kind}` }, t("{signal}: “{meaning}”", { signal: SIGNAL_NAME[kind], meaning: SIGNAL_HELP[kind] }))));
  const buttons = PILES.flatMap((pile) => SIGNALS.map((kind) => {
    const on = mine[pile] === kind;
    const act = `signal ${pile} ${on ? "clear" : kind}`;
    const can = s.legal.includes(act);
    return el("button", { type: "button", class: "sigbtn", "data-action": can ? act : null,
      "data-key": `sig-${pile}-${kind}`, "data-signal-kind": kind,
      "aria-label": t("{signal} on {pile}", { signal: SIGNAL_NAME[kind], pile: PILE_WORDS[pile] }),
      "aria-pressed": String(on), "aria-describedby": `sig-help-${kind}`,
      title: on ? t("your signal: press again to take it back") : null,
      disabled: can ? null : true, onclick: can ? () => ctx.act(act) : null }, SIGNAL_NAME[kind]);
  }));
  const current = roving(buttons, ctx.ui);
  const bar = el("div", { class: "sig-grid", role: "toolbar", "aria-label": t("signals to the table"),
    onkeydown: (e) => moveAlong(e, buttons),
    onfocusin: (e) => settle(/** @type {HTMLElement} */ (e.target), buttons, ctx.ui) },
  PILES.map((pile, i) => el("div", { class: "sig-pile", role: "group",
    "aria-label": t("signals on {pile}", { pile: PILE_WORDS[pile] }) },
    el("span", { class: "sig-pile-name", "aria-hidden": "true" }, PILE_TITLE[pile]),
    buttons.slice(i * SIGNALS.length, (i + 1) * SIGNALS.length))));
  current.tabIndex = 0;
  return el("section", { class: "tg-signals", "aria-labelledby": "sig-title" },
    el("h3", { id: "sig-title" }, t("Signals")),
    el("p", { class: "sig-note" }, t("Tell the others about a pile, never a number. Press your "
      + "signal again to take it back.")),
    legend, bar);
}

// one Tab stop for a toolbar: the button last moved to (else the first enabled one)
function roving(buttons, ui) {
  for (const b of buttons) b.tabIndex = -1;
  return buttons.find((b) => b.dataset.key === ui.sigAt && !b.disabled)
    || buttons.find((b) => !b.disabled) || buttons[0];
}

function moveAlong(e, buttons) {
  const live = buttons.filter((b) => !b.disabled);
  const at = live.indexOf(/** @type {HTMLButtonElement} */ (e.target));
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  let next = null;
  if (e.key === "Home") next = live[0];
  else if (e.key === "End") next = live[live.length - 1];
  else if (step && at >= 0) next = live[(at + step + live.length) % live.length];
  if (!next) return;
  e.preventDefault();
  next.focus(); // settle() makes it the Tab stop
}

// the button focused (by a key, a click or after a redraw) is the toolbar's one Tab stop
function settle(button, buttons, ui) {
  if (!buttons.includes(button)) return;
  for (const b of buttons) b.tabIndex = -1;
  button.tabIndex = 0;
  ui.sigAt = button.dataset.key;
}

// the last move on the board: the pile a card went on, or the signal given (s.last from the
// server; ctx.fresh: it just happened, so it arrives with a short animation)
function markLast(root, last, ctx) {
  if (!last || !last.action) return;
  const [verb, a, b] = last.action.split(" ");
  const node = verb === "play" ? root.querySelector(`[data-pile="${b}"] .pile-btn`)
    : verb === "signal" ? root.querySelector(`[data-pile="${a}"] [data-signal="${last.seat} ${b}"]`)
      : null;
  if (node) node.classList.add("last-move", ...(ctx.fresh ? ["arrive"] : []));
}
