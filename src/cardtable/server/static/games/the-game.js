// The Game: four piles, the hand, pile signals, and its results. Legal plays come from the
// server's `legal`.
import { el } from "../common.js";
import { summary } from "../results.js";

// its styles: the-game.css
export const stylesheet = true;

const PILES = ["up1", "up2", "down1", "down2"];
const PILE_TITLE = { up1: "▲ up 1", up2: "▲ up 2", down1: "▼ down 1", down2: "▼ down 2" };
const SIGNALS = ["avoid", "small", "good", "clear"];
const SIGNAL_TEXT = { avoid: "avoid", small: "small jump", good: "I have good", clear: "clear" };

export function seatExtra(view, seat) {
  const parts = [`${view.hand_sizes[seat]} cards in hand`];
  if (view.turn === seat && !view.over) parts.push(`played ${view.played_this_turn}`);
  return parts.join(" · ");
}

// a hue from blue (2) to red (99) so neighbouring values look alike
function tgCard(value, attrs = {}) {
  const hue = 220 - Math.round(((value - 1) / 99) * 220);
  const tag = attrs.onclick !== undefined || attrs.button ? "button" : "div";
  return el(tag, { type: tag === "button" ? "button" : null, ...attrs, button: null,
    class: `card tgc ${attrs.class || ""}`,
    style: `background: hsl(${hue} 55% 45%)` }, String(value));
}

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
        `${ctx.names[seat]}: ${SIGNAL_TEXT[byPile[pile]]}`)] : []));
    const sigButtons = me === null ? [] : SIGNALS.map((kind) => {
      const act = `signal ${pile} ${kind}`;
      if (!s.legal.includes(act)) return null;
      return el("button", { type: "button", "data-action": act, "data-key": act,
        "aria-label": `signal ${kind} on ${pile}`, onclick: () => ctx.act(act) }, kind);
    });
    return el("div", { class: "pile", "data-pile": pile },
      el("div", { class: "pile-name" }, PILE_TITLE[pile]),
      el("button", {
        type: "button", class: `pile-btn ${can ? "target" : ""}`,
        "data-action": can ? action : null, "data-key": `pile-${pile}`,
        "aria-label": `pile ${pile}, top ${top}` + (can ? `: play ${picked} here` : ""),
        "data-top": String(top),
        disabled: can ? null : true, onclick: can ? () => ctx.act(action) : null,
      }, tgCard(top, { "aria-hidden": "true" })),
      el("div", { class: "signals", "aria-label": `signals on ${pile}` }, sigs),
      el("div", { class: "sigbtns" }, sigButtons));
  }));

  let line;
  // (alone and stuck, the table stays open for undo: docs/server.md, "A stuck solitaire")
  if (view.over) {
    line = s.table.status === "running" ? "No move is left: undo to try another way, or deal again."
      : "The game is over.";
  } else if (s.table.status === "open") line = "Waiting for the other players to sit down.";
  else if (me === null) line = `${ctx.names[view.turn]} is playing.`;
  else if (!myTurn) line = `${ctx.names[view.turn]} is playing. You may signal at any time.`;
  else if (!plays.length) line = "Nothing in your hand fits a pile. End your turn.";
  else if (picked === undefined && s.legal.includes("end")) {
    line = "Your turn: pick a card, then a pile, or end your turn.";
  } else if (picked === undefined) line = `Your turn: pick a card, then a pile (at least ${view.minimum}).`;
  else line = `Play the ${picked} on a highlighted pile, or pick another card.`;

  const info = el("div", { class: "tg-info" },
    el("span", {}, "Draw pile ", el("b", { "data-testid": "draw-pile" }, String(view.draw_pile))),
    el("span", {}, "Played this turn ", el("b", {}, `${view.played_this_turn} / min ${view.minimum}`)),
    el("span", {}, "Cards left ", el("b", {}, String(view.cards_left))),
    el("span", {}, "Hands ", el("b", {}, view.hand_sizes.map((n, i) => `${ctx.names[i]} ${n}`).join(", "))));

  const handBox = el("div", { class: "hand", "aria-label": "your hand", "data-testid": "hand" },
    hand.map((v) => {
      const actions = plays.filter((a) => a.split(" ")[1] === String(v));
      const can = actions.length > 0;
      // on one's turn a card no legal play uses is dimmed and crossed out (the-game.css)
      return tgCard(v, {
        class: `${can ? "playable" : myTurn ? "unfit" : ""} ${picked === v ? "selected" : ""}`,
        "data-card": String(v), "data-key": `hand-${v}`,
        "data-actions": can ? actions.join("|") : null,
        "aria-label": `${v}, in your hand` + (can ? "" : ", no pile takes it now"),
        "aria-pressed": can ? String(picked === v) : null,
        disabled: can ? null : true, button: true,
        onclick: can ? (e) => {
          ctx.ui.picked = picked === v ? undefined : v;
          ctx.rerender();
          // from the keyboard (detail 0), go on to the piles that take the card
          if (e.detail === 0) document.querySelector(".pile-btn.target")?.focus();
        } : null,
      });
    }));

  // a finished game's replay shows every hand (the server sends each seat's view)
  const allHands = ctx.readOnly && s.seatViews ? el("div", { "data-testid": "all-hands" },
    el("h3", {}, "Hands"),
    s.seatViews.map((v, i) => el("div", { class: "row" },
      el("span", { class: "hand-owner" }, ctx.names[i]),
      el("div", { class: "hand", "aria-label": `${ctx.names[i]}'s hand` },
        (v.hand || []).map((c) => tgCard(c, { "aria-label": `${c}, in ${ctx.names[i]}'s hand` })))))) : null;

  const end = s.legal.includes("end");
  root.append(el("div", { class: "tg-board", "data-played": String(view.played_this_turn),
    "data-minimum": String(view.minimum) },
    piles,
    info,
    el("p", { class: "hintline", role: "status", "data-testid": "prompt" }, line),
    allHands,
    me === null ? null : el("div", {},
      el("h3", {}, "Your hand"),
      handBox,
      el("div", { class: "row", style: "margin-top:.6rem" },
        el("button", { type: "button", class: "primary", "data-action": end ? "end" : null,
          "data-key": "end", disabled: end ? null : true,
          onclick: end ? () => ctx.act("end") : null }, "End turn")))));
  markLast(root, s.last, ctx);
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

// cooperative: one verdict for the team, and who played, instead of a ranks table
export function resultSummary(view, table, names) {
  const sum = summary(view, table, names);
  if (!sum) return null;
  const r = view.result;
  return { ...sum, rows: null, playedBy: true,
    verdict: r.won ? "You beat The Game! Every card is played."
      : `The Game wins: ${r.cards_left} cards left.`,
    notes: r.won ? [] : [r.good ? "10 or fewer cards left: a good result."
      : "More than 10 cards left."] };
}
