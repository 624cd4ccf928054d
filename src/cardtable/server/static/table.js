// The table page: one websocket, rendered only from the server's `state` messages (and the
// small `presence` events that say who is connected and how many watch).
// Moves are never run here: an action is sent with the version it was made against and an
// id, and the page waits for the server's next state (the id makes a resend safe).
import {
  api, askName, clear, copyText, el, getGames, getMe, keepFocus, showMessage, statusWord, topbar,
} from "./common.js";
import { keepScrolled, liveLog } from "./log.js";
import { leavePanel } from "./lifecycle.js";
import { rendererFor } from "./renderers.js";
import { playedBy, ranksSeats, results, seatName, summary } from "./results.js";
import { clockBadge, clockPanel } from "./clock.js";
import { signalControls, signalTurn } from "./signals.js";
import { createChat } from "./chat.js";
import { confirmStep } from "./confirm.js";
import { say, t, tn } from "./i18n.js";
import { reviewAsk } from "./review.js";
import { createTutor, markSuggestion } from "./tutor.js";

/** @typedef {import("@api").StateMessage} StateMessage */
/** @typedef {import("@api").TableInfo} TableInfo */
/** @typedef {import("@pages").ShownSeat} ShownSeat */

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (sel) => document.querySelector(sel);

/** @type {StateMessage | null} */
let last = null; // the last state message
let ws = null;
let retry = 0;
let gone = false; // the table does not exist: stop reconnecting
const pending = new Map(); // id -> {action, version, sent}
let counter = 0;
const ui = {}; // per-page choices the server need not know (selected card, hint)
let renderer = null; // the game's module (renderers.js), loaded before the socket opens
/** @type {import("@api").GameInfo | null} */
let game = null; // what the game offers (GET /api/games)
// the chat panel (chat.js): one node for the page's life, put back in the side after renders
const chat = createChat({ send: (m) => send(m), tableId });
// the game log: one live region for the page's life too (log.js)
const gameLog = liveLog();
// a tutorial's tutor (tutor.js), made at the first state of a tutorial table
let tutor = null;

/** @param {TableInfo} table */
function names(table) {
  return table.seats.map(seatName);
}

// -- the socket ----------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // the table info only when it changed (receive() keeps the last), and no move labels
  // where the board names its moves itself (docs/server.md)
  const query = renderer && renderer.labelsMoves ? "?table=changed&labels=0" : "?table=changed";
  ws = new WebSocket(
    `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`);
  const socket = ws;
  socket.onopen = () => {
    retry = 0;
    $("#conn").classList.add("hidden");
    // unanswered actions go again with the same id: the server applies each id once
    for (const [id, p] of pending) send({ type: "act", action: p.action, version: p.version, id });
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (socket !== ws) return;
    if (event.code === 4404) gone = true;
    if (gone) return;
    $("#conn").textContent = t("Connection lost: reconnecting…");
    $("#conn").classList.remove("hidden");
    const delay = Math.min(5000, 300 * 2 ** retry);
    retry += 1;
    setTimeout(connect, delay);
  };
}

function reconnectNow() {
  const old = ws;
  ws = null;
  if (old) old.close();
  connect();
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function setBusy() {
  document.body.dataset.busy = pending.size ? "1" : "";
}

function act(action) {
  if (!last || pending.size) return; // one action at a time; the next needs the new state
  counter += 1;
  const id = `c-${Date.now().toString(36)}-${counter}`;
  pending.set(id, { action, version: last.version, sent: Date.now(), resent: false });
  setBusy();
  showMessage(null);
  send({ type: "act", action, version: last.version, id });
}

// an action with no answer in a few seconds is sent again (same id, applied once)
setInterval(() => {
  for (const [id, p] of pending) {
    if (Date.now() - p.sent > 4000) {
      p.sent = Date.now();
      p.resent = true;
      send({ type: "act", action: p.action, version: p.version, id });
    }
  }
  send({ type: "ping", id: "keepalive" });
}, 4000);

/** @param {import("@api").ServerMessage} msg */
function receive(msg) {
  if (msg.type === "state") {
    // no table info: it is the last one, at this version (a socket's first state has it),
    // its seats stamped already (the countdowns go on)
    if (msg.table) for (const seat of msg.table.seats) stampHandOver(seat, seat.hand_over_in);
    else msg.table = { ...last.table, version: msg.version };
    // the game log comes as what changed since this socket's last state (docs/protocol.md):
    // keep the entries before log_from, the rest is new (a first state of a long game has
    // only the last entries: they are counted by n, not by place)
    const kept = msg.log_from > 0 && last && last.log
      ? last.log.filter((e) => e.n < msg.log_from) : [];
    msg.log = kept.concat(msg.log || []);
    last = msg;
    render();
  } else if (msg.type === "ack") {
    pending.delete(msg.id);
    setBusy();
  } else if (msg.type === "chat") {
    chat.receive(msg);
  } else if (msg.type === "presence") {
    // someone's socket opened or closed, or the number watching changed: no new state
    if (!last) return;
    const seat = msg.seat === null ? null : last.table.seats[msg.seat];
    if (seat && seat.taken && !seat.bot) {
      seat.connected = msg.connected;
      stampHandOver(seat, msg.hand_over_in);
    }
    last.spectators = msg.spectators;
    render();
  } else if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
    chat.error(msg); // said in the chat panel: the game's message area is for moves
  } else if (msg.type === "error") {
    const p = msg.id ? pending.get(msg.id) : null;
    if (p && msg.code === "rate_limited") {
      // the server asks us to slow down: the same action (same id) once it allows
      setTimeout(() => {
        if (pending.get(msg.id) === p) {
          p.sent = Date.now();
          send({ type: "act", action: p.action, version: p.version, id: msg.id });
        }
      }, 1000 * (msg.retry_after || 1));
      return;
    }
    if (msg.id) pending.delete(msg.id);
    setBusy();
    if (msg.code === "not_found") gone = true;
    // a resent action that went stale was overtaken by the fresh state: no need to alarm
    if (!(p && p.resent && msg.code === "stale")) showMessage(say(msg.msg ?? msg.message));
  }
}

// -- seats and invitations -----------------------------------------------------------------
async function join(seat) {
  const player = await askName();
  if (!player) return;
  try {
    await api("POST", `/api/tables/${tableId}/join`, { seat });
    reconnectNow(); // the socket's seat is fixed when it connects
  } catch (e) {
    showMessage(e.message);
  }
}

async function inviteBot(seat, bot) {
  if (!bot) return;
  try {
    await api("POST", `/api/tables/${tableId}/seats/${seat}/invite`, { bot });
  } catch (e) {
    showMessage(e.message);
  }
}

async function handToBot(seat, bot) {
  try {
    await api("POST", `/api/tables/${tableId}/seats/${seat}/bot`, { bot });
  } catch (e) {
    showMessage(e.message);
  }
}

// -- a person away: when their seat may go to a bot. The server says in how many seconds
// (`hand_over_in`, docs/server.md "Seats that go to bots"): the page counts down from when it
// was told, and offers "Hand to bot" only once the server would take it
/** @param {ShownSeat} seat @param {number | null | undefined} seconds */
function stampHandOver(seat, seconds) {
  seat.ready_at = seconds === null || seconds === undefined ? null : Date.now() + 1000 * seconds;
}

function handOverText(readyAt) {
  const left = Math.ceil((readyAt - Date.now()) / 1000);
  return left > 0 ? tn("Away: can be handed to a bot in {n} s", "Away: can be handed to a bot in {n} s", left)
    : t("Away: can be handed to a bot now");
}

function tickHandOver() {
  const nodes = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-ready-at]"));
  for (const node of nodes) {
    const readyAt = Number(node.dataset.readyAt);
    if (node instanceof HTMLButtonElement) node.disabled = Date.now() < readyAt;
    else node.textContent = handOverText(readyAt);
  }
}
setInterval(tickHandOver, 250);

// the seats that must act now: the server's `to_act` (a seat that has made its simultaneous
// choice is not among them, even while it may still change its mind)
/** @param {StateMessage} s */
function seatsToAct(s) {
  return s.to_act;
}

/** @param {StateMessage} s @param {string[]} botNames */
function seatsPanel(s, botNames) {
  const { table } = s;
  const view = s.view;
  const toAct = new Set(seatsToAct(s));
  const n = names(table);
  return el("section", { class: "panel", "aria-label": t("players") },
    el("h2", {}, t("Players")),
    table.seats.map((/** @type {ShownSeat} */ seat) => {
      const turn = table.status === "running" && toAct.has(seat.seat);
      const dot = seat.bot ? "bot" : seat.connected ? "on" : "";
      const presence = seat.bot ? t("bot") : !seat.taken ? t("free seat")
        : seat.connected ? t("at the table") : t("away");
      let actions = null;
      if (!seat.taken && table.status === "open" && s.seat === null) {
        actions = el("button", { type: "button", class: "primary", "data-testid": "join",
          "data-key": `join-${seat.seat}`, onclick: () => join(seat.seat) }, t("Sit here"));
      } else if (table.creator && seat.taken && !seat.bot && seat.connected === false
        && table.status !== "over") {
        const pick = el("select", { "aria-label": t("bot for seat {n}", { n: seat.seat + 1 }) },
          botNames.map((b) => el("option", { value: b,
            selected: (game && b === game.fallback_bot) || null }, b)));
        const readyAt = seat.ready_at ?? 0;
        actions = el("div", { class: "row" }, pick,
          el("button", { type: "button", "data-key": `bot-${seat.seat}`,
            "data-testid": "hand-to-bot", "data-ready-at": String(readyAt),
            disabled: Date.now() < readyAt ? true : null,
            onclick: () => handToBot(seat.seat, pick.value) }, t("Hand to bot")));
      }
      const away = seat.taken && !seat.bot && seat.connected === false && seat.ready_at
        ? el("span", { class: "extra hand-over-when", "data-testid": "hand-over-when",
          "data-ready-at": String(seat.ready_at) }, handOverText(seat.ready_at)) : null;
      if (!seat.taken && table.status === "open" && table.creator) {
        // a bot account (a program with its token) takes the seat and plays it from afar
        const name = el("input", { maxlength: 24, placeholder: t("bot account"),
          "aria-label": t("bot account to invite to seat {n}", { n: seat.seat + 1 }),
          "data-testid": "invite-bot-name" });
        const invite = el("div", { class: "row" }, name,
          el("button", { type: "button", "data-testid": "invite-bot",
            "data-key": `invite-${seat.seat}`,
            onclick: () => inviteBot(seat.seat, name.value.trim()) }, t("Invite")));
        actions = actions ? el("div", { class: "stack" }, actions, invite) : invite;
      }
      return el("div", { class: `seat ${turn ? "turn" : ""}`, "data-seat": String(seat.seat),
        role: "group",
        "aria-label": turn ? t("seat {n}: {name}, {presence}, to play", { n: seat.seat + 1, name: n[seat.seat], presence })
          : t("seat {n}: {name}, {presence}", { n: seat.seat + 1, name: n[seat.seat], presence }) },
      el("span", { class: `dot ${dot}`, title: presence }),
      el("span", { class: "name" }, seat.you ? t("{name} (you)", { name: n[seat.seat] }) : n[seat.seat]),
      el("span", {}, turn ? "▶" : ""),
      el("span", { class: "extra" }, [presence,
        seat.taken || seat.bot ? renderer.seatExtra(view, seat.seat, table.status === "over") : ""]
        .filter(Boolean).join(" · ")),
      away,
      actions ? el("div", { class: "actions" }, actions) : null);
    }),
    s.spectators ? el("p", { class: "muted", "data-testid": "spectators" },
      tn("{n} person watching", "{n} people watching", s.spectators)) : null);
}

/** @param {TableInfo} table */
function invitePanel(table) {
  const url = `${location.origin}/t/${table.id}`;
  const input = el("input", { readonly: true, value: url, "aria-label": t("invite link"),
    "data-testid": "invite", onfocus: (e) => e.target.select() });
  return el("section", { class: "panel invite" },
    el("h2", {}, t("Waiting for players")),
    el("p", { class: "muted" }, t("Send this link to a friend: they open it and take a free seat.")),
    el("div", { class: "row", style: "flex-wrap:nowrap" }, input,
      el("button", { type: "button", onclick: (e) => copyText(url, e.currentTarget) }, t("Copy"))));
}

// -- rendering -----------------------------------------------------------------------------
let botNames = [];

/** @param {StateMessage} s */
function statusLine(s) {
  const { table, legal } = s;
  if (table.status === "open") return t("Waiting for players to sit down");
  if (table.status === "over") {
    return table.ended && s.ending ? t("Game over: {result}", { result: s.ending.lines[0] })
      : t("Game over");
  }
  const n = names(table);
  // the seats that must act (talk, a game's signals, may be legal at any time)
  const toAct = seatsToAct(s);
  if (s.seat !== null && toAct.includes(s.seat) && legal.length) return t("Your turn");
  // a game played alone, running with nobody to act: stuck, held open for undo
  if (table.players === 1 && !toAct.length) return t("No move left");
  const waiting = toAct.map((i) => n[i]);
  return waiting.length ? t("Waiting for {names}", { names: waiting.join(", ") }) : "";
}

function render() {
  const s = last;
  if (!s) return;
  const { table, view } = s;
  const n = names(table);
  const line = statusLine(s);
  signalTurn(s); // the title, and the sound and notification when the turn comes
  document.body.dataset.version = String(s.version);
  document.body.dataset.status = table.status;
  document.body.dataset.seat = s.seat === null ? "" : String(s.seat);

  // (a control gone after a move gives the focus to the board: the next Tab is there)
  keepFocus(() => {
    const head = clear($("#head"));
    head.append(el("h1", {}, table.title),
      el("span", { class: `badge ${table.status}` }, statusWord(table.status)),
      // a practice table (a replayed deal, a tutorial): unrated, in no statistics
      table.practice ? el("span", { class: "badge practice", "data-testid": "practice-badge",
        title: t("unrated, not counted in your statistics") },
      table.practice === "tutorial" ? t("Tutorial") : t("Practice")) : "",
      el("span", { class: "status-line", "data-testid": "status" }, line),
      clockBadge(s, n) || "", // (the DOM's append would write a null as "null")
      s.seat === null ? el("span", { class: "muted" }, t("watching")) : "",
      el("a", { class: "rules-link", href: `/rules/${encodeURIComponent(table.game)}`,
        target: "_blank", rel: "noopener", "data-testid": "rules-link", "data-key": "rules" },
      t("Rules")));

    const board = clear($("#board"));
    // the last move arrives (a short animation) only once, not at every presence change
    const fresh = !!s.last && ui.lastSeen !== s.last.n;
    if (s.last) ui.lastSeen = s.last.n;
    // over: the table is over, even closed before its game's end (nobody waits any more)
    const ctx = { act, ui, names: n, readOnly: false, rerender: render, fresh,
      over: table.status === "over" };
    renderer.render(board, s, ctx);
    const learner = table.practice === "tutorial" && s.seat !== null;
    if (learner && !tutor) tutor = createTutor({ tableId, act, rerender: render });
    if (learner) markSuggestion(board, tutor.suggest);
    const bar = tools(s, ctx);
    if (bar) board.append(bar);

    // the side's panels, put in place at the end without moving those that live on (the log
    // and the chat: a live region taken out and put back would be read again, or not at all)
    const side = { nodes: [], append(...nodes) { this.nodes.push(...nodes); } };
    if (learner) side.append(tutor.node);
    if (table.status === "open") side.append(invitePanel(table));
    if (renderer.showSeats(table)) side.append(seatsPanel(s, botNames));
    const clocks = clockPanel(s, n, join);
    if (clocks) side.append(clocks);
    if (s.seat !== null && table.players > 1 && table.status !== "over") side.append(signalControls());
    if (renderer.sidePanels) side.append(el("div", { id: "game-panels" }));
    if (s.log) side.append(gameLog.update(s.log, s.last ? s.last.n : null));
    const leave = leavePanel(s, game, showMessage);
    if (leave) side.append(leave);
    if (table.notices && table.notices.length) {
      side.append(el("section", { class: "panel" }, el("h2", {}, t("Table news")),
        el("ul", { class: "notices" },
          table.notices.map((x, i) => el("li", {}, say(table.notices_msg?.[i] ?? x))))));
    }
    if (table.players > 1) { // a solitaire has nobody to talk to
      chat.update(s);
      side.append(chat.node);
    }
    placeChildren($("#side"), side.nodes);

    const res = clear($("#results"));
    if (table.status === "over") {
      // the end in the server's words (a table closed before its game's end has no game
      // result: the places a resignation made), and the replay all the same
      const who = playedBy(table, n);
      const result = /** @type {import("./results.js").Result | undefined} */ (view.result);
      res.append(results(summary(result, s.ending, table, who, ranksSeats(game, table)), table,
        who));
      // "Review this game", beside the replay (the same box across redraws: its progress)
      res.querySelector('[data-testid="replay-link"]')?.after(" ", reviewAsk(table.id));
    }
  }, $("#board"));
  keepScrolled(document.querySelector("#side .log-list"), ui.logScroll ||= {});
  if (tutor && table.practice === "tutorial" && s.seat !== null) tutor.update(s.version);
  if (renderer.sidePanels) refreshPanels(s);
}

// `parent`'s children become `nodes`, in order; a node already in its place is not moved
/** @param {HTMLElement} parent @param {Node[]} nodes */
function placeChildren(parent, nodes) {
  for (const child of [...parent.childNodes]) if (!nodes.includes(child)) child.remove();
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
}

// -- the table tools: exactly those the server lists for this page's person (`s.tools`, per
// game and player count: docs/server.md, "Table tools"); it refuses any other
/** @param {StateMessage} s @param {import("@pages").Context} ctx */
function tools(s, ctx) {
  const { table } = s;
  const offered = new Set(ctx.readOnly ? [] : s.tools || []);
  const id = table.id;
  const run = (fn) => async () => {
    try {
      await fn();
    } catch (e) {
      showMessage(e.message);
    }
  };
  const buttons = [];
  if (offered.has("undo")) {
    buttons.push(el("button", { type: "button", "data-key": "undo", "data-tool": "undo",
      disabled: table.can_undo ? null : true,
      title: t("Take back the last move. Cards you have seen stay known"),
      onclick: run(() => api("POST", `/api/tables/${id}/undo`)) }, t("↶ Undo")));
  }
  if (offered.has("redo")) {
    buttons.push(el("button", { type: "button", "data-key": "redo", "data-tool": "redo",
      disabled: table.can_redo ? null : true,
      onclick: run(() => api("POST", `/api/tables/${id}/redo`)) }, t("↷ Redo")));
  }
  if (offered.has("hint")) {
    buttons.push(el("button", { type: "button", "data-key": "hint", "data-tool": "hint",
      // (stuck, the hint says why no move is left)
      disabled: table.status === "running" ? null : true,
      onclick: run(async () => {
        const h = await api("GET", `/api/tables/${id}/hint`);
        ctx.ui.hint = { ...h, reason: say(h.msg ?? h.reason), version: s.version, at: Date.now() };
        ctx.rerender();
      }) }, t("Hint")));
  }
  // the solver reads the hidden cards, and the button says so
  if (offered.has("peek")) {
    buttons.push(el("button", { type: "button", "data-key": "peek", "data-tool": "peek",
      disabled: s.legal.length ? null : true,
      title: t("asks the solver, which looks at the hidden cards"),
      onclick: run(async () => {
        const w = await api("GET", `/api/tables/${id}/winnable`);
        const text = w.winnable === null ? t("no answer in time")
          : w.winnable ? t("yes, this deal can still be won") : t("no, this deal can no longer be won");
        ctx.ui.peek = { text, version: s.version, at: Date.now() };
        ctx.rerender();
      }) }, t("Still winnable? (peeks)")));
  }
  if (offered.has("restart")) {
    buttons.push(el("button", { type: "button", "data-key": "restart", "data-tool": "restart",
      onclick: run(async () => {
        if (!await lossConfirmed(s, "restart")) return;
        const t = await api("POST", `/api/tables/${id}/restart`);
        location.href = `/t/${t.id}`;
      }) }, t("⟲ Restart deal")));
  }
  if (offered.has("new_deal")) buttons.push(newDealForm(s, run));
  if (!buttons.length) return null;
  let advice = null;
  if (!renderer.showsAdvice) {
    const hint = ctx.ui.hint && ctx.ui.hint.version === s.version ? ctx.ui.hint : null;
    const peek = ctx.ui.peek && ctx.ui.peek.version === s.version ? ctx.ui.peek : null;
    // both, the latest first: asking one never hides the other's answer
    // the hint in the game's words, its notation after them
    const said = !hint ? "" : hint.action
      ? t("Hint: {reason} ({action})", { reason: hint.reason, action: hint.action })
      : t("Hint: {reason}", { reason: hint.reason });
    const parts = [hint ? { at: hint.at || 0, text: said } : null,
      peek ? { at: peek.at || 0, text: t("Still winnable? {answer}", { answer: peek.text }) } : null]
      .filter(Boolean);
    const text = parts.sort((a, b) => b.at - a.at).map((x) => x.text).join(" · ");
    advice = el("p", { class: "hintline", role: "status", "data-testid": "advice" }, text);
  }
  return el("div", { class: "tools-bar" }, el("div", { class: "tools" }, buttons), advice);
}

// "New deal": a deal number where the game shows them (GET /api/games), else a random deal
/** @param {StateMessage} s */
function newDealForm(s, run) {
  const { table } = s;
  const placeholder = t("deal #"); // (the box as wide as it, spinner included)
  const deal = game && game.shows_deal_number ? el("input", { type: "number", min: "0",
    inputmode: "numeric", placeholder, style: `width:max(7rem, ${placeholder.length + 5}ch)`,
    "aria-label": t("deal number (empty for a random deal)"), "data-testid": "deal-input" }) : null;
  return el("form", { class: "row", "data-tool": "new_deal", onsubmit: (event) => {
    event.preventDefault();
    run(async () => {
      if (!await lossConfirmed(s, "new-deal")) return;
      const seed = deal && deal.value !== "" ? Number(deal.value) : null;
      // the game under way is given up: the server closes it as abandoned (a lost deal)
      const replaces = table.status === "over" ? null : table.id;
      const t = await api("POST", "/api/tables", { game: table.game, seats: ["me"], seed, replaces });
      location.href = `/t/${t.id}`;
    })();
  } }, deal, el("button", { type: "submit", "data-key": "new-deal" }, t("New deal")));
}

// A new deal or a restart gives up the deal under way, which counts as lost (as AisleRiot
// and PySolFC count it): asked first. A deal that is over, or stuck (no move left: lost
// already, with its score), is dealt anew at once.
/** @param {StateMessage} s @param {string} testid */
async function lossConfirmed(s, testid) {
  const { table } = s;
  if (table.status === "over" || seatsToAct(s).length === 0) return true;
  const restart = testid === "restart";
  return confirmStep({ testid,
    title: restart ? t("Restart this deal?") : t("Start a new deal?"),
    text: t("The deal under way is not finished: it counts as a lost game in your statistics "
      + "and ends your winning streak."),
    yes: restart ? t("Restart (counts as lost)") : t("New deal (counts as lost)"),
    no: t("Keep playing") });
}

// a game's own side panels (statistics) change only when a game ends: asked again when the
// status changes (and once on load), and put back after every render
let panelsFor = null;
let panels = [];
async function refreshPanels(s) {
  if (panelsFor !== s.table.status) {
    panelsFor = s.table.status;
    try {
      panels = await renderer.sidePanels(s);
    } catch (e) {
      panels = [el("p", { class: "muted" }, e.message)];
    }
  }
  const box = $("#game-panels");
  if (box) clear(box).append(...panels);
}

// an address of a table that does not exist (a typo, an old link): say so, not "Loading…"
function notFound() {
  gone = true;
  document.title = `${t("No such table")} · cardtable`;
  document.body.dataset.status = "missing";
  clear($("#head")).append(el("h1", { "data-testid": "no-table" }, t("No such table")));
  // TRANSLATORS: {lobby} is a link whose words are "Go to the lobby"
  const [before, after = ""] = t("This table does not exist (or its link is wrong). {lobby} to "
    + "start a table or join one.").split("{lobby}");
  clear($("#board")).append(el("p", {}, before, el("a", { href: "/" }, t("Go to the lobby")), after));
}

async function main() {
  await topbar("#board");
  try {
    const games = await getGames();
    const info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    game = games.find((g) => g.name === info.game) || null;
    if (game) botNames = game.bots.map((b) => b.name);
    renderer = await rendererFor(info.game);
  } catch (e) {
    if (e.status === 404) {
      notFound();
      return;
    }
    showMessage(e.message);
  }
  if (!renderer) return; // the table's game is unknown: nothing to show
  await getMe();
  connect();
}

main();
