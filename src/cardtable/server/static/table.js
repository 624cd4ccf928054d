// The table page: one websocket, rendered only from the server's `state` messages (and the
// small `presence` events that say who is connected and how many watch).
// Moves are never run here: an action is sent with the version it was made against and an
// id, and the page waits for the server's next state (the id makes a resend safe).
import {
  api, askName, clear, copyText, el, getGames, getMe, keepFocus, showMessage, topbar,
} from "./common.js";
import { playedBy, results } from "./results.js";
import * as slide from "./games/slide.js";
import * as theGame from "./games/the-game.js";
import * as doublets from "./games/doublets.js";

const RENDERERS = { slide, "the-game": theGame, doublets };
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (sel) => document.querySelector(sel);

let last = null; // the last state message
let ws = null;
let retry = 0;
let gone = false; // the table does not exist: stop reconnecting
const pending = new Map(); // id -> {action, version, sent}
let counter = 0;
const ui = {}; // per-page choices the server need not know (selected card, hint)
let statsShownFor = null;

function names(table) {
  return table.seats.map((s) => {
    if (s.bot) return `${s.name} (bot)`;
    return s.name || "open seat";
  });
}

// -- the socket ----------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
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
    $("#conn").textContent = "Connection lost: reconnecting…";
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

function receive(msg) {
  if (msg.type === "state") {
    last = msg;
    render();
  } else if (msg.type === "ack") {
    pending.delete(msg.id);
    setBusy();
  } else if (msg.type === "presence") {
    // someone's socket opened or closed, or the number watching changed: no new state
    if (!last) return;
    const seat = msg.seat === null ? null : last.table.seats[msg.seat];
    if (seat && seat.taken && !seat.bot) seat.connected = msg.connected;
    last.spectators = msg.spectators;
    render();
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
    if (!(p && p.resent && msg.code === "stale")) showMessage(msg.message);
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

async function handToBot(seat, bot) {
  try {
    await api("POST", `/api/tables/${tableId}/seats/${seat}/bot`, { bot });
  } catch (e) {
    showMessage(e.message);
  }
}

function seatsPanel(s, botNames) {
  const { table, view } = s;
  const toAct = new Set(view.to_act || []);
  const renderer = RENDERERS[table.game];
  const n = names(table);
  return el("section", { class: "panel", "aria-label": "players" },
    el("h2", {}, "Players"),
    table.seats.map((seat) => {
      const turn = table.status === "running" && toAct.has(seat.seat);
      const dot = seat.bot ? "bot" : seat.connected ? "on" : "";
      const presence = seat.bot ? "bot" : !seat.taken ? "free seat"
        : seat.connected ? "at the table" : "away";
      let actions = null;
      if (!seat.taken && table.status === "open" && s.seat === null) {
        actions = el("button", { type: "button", class: "primary", "data-testid": "join",
          "data-key": `join-${seat.seat}`, onclick: () => join(seat.seat) }, "Sit here");
      } else if (table.creator && seat.taken && !seat.bot && seat.connected === false
        && table.status !== "over") {
        const pick = el("select", { "aria-label": `bot for seat ${seat.seat + 1}` },
          botNames.map((b) => el("option", { value: b, selected: b === "greedy" || null }, b)));
        actions = el("div", { class: "row" }, pick,
          el("button", { type: "button", "data-key": `bot-${seat.seat}`,
            onclick: () => handToBot(seat.seat, pick.value) }, "Hand to bot"));
      }
      return el("div", { class: `seat ${turn ? "turn" : ""}`, "data-seat": String(seat.seat),
        "aria-label": `seat ${seat.seat + 1}: ${n[seat.seat]}, ${presence}${turn ? ", to play" : ""}` },
      el("span", { class: `dot ${dot}`, title: presence }),
      el("span", { class: "name" }, n[seat.seat], seat.you ? " (you)" : ""),
      el("span", {}, turn ? "▶" : ""),
      el("span", { class: "extra" }, seat.taken || seat.bot
        ? `${presence} · ${renderer.seatExtra(view, seat.seat)}` : presence),
      actions ? el("div", { class: "actions" }, actions) : null);
    }),
    s.spectators ? el("p", { class: "muted", "data-testid": "spectators" },
      s.spectators === 1 ? "1 person watching" : `${s.spectators} people watching`) : null);
}

function invitePanel(table) {
  const url = `${location.origin}/t/${table.id}`;
  const input = el("input", { readonly: true, value: url, "aria-label": "invite link",
    "data-testid": "invite", onfocus: (e) => e.target.select() });
  return el("section", { class: "panel invite" },
    el("h2", {}, "Waiting for players"),
    el("p", { class: "muted" }, "Send this link to a friend: they open it and take a free seat."),
    el("div", { class: "row", style: "flex-wrap:nowrap" }, input,
      el("button", { type: "button", onclick: (e) => copyText(url, e.currentTarget) }, "Copy")));
}

// -- rendering -----------------------------------------------------------------------------
let botNames = ["greedy"];

function statusLine(s) {
  const { table, view, legal } = s;
  if (table.status === "open") return "Waiting for players to sit down";
  if (table.status === "over") return "Game over";
  const n = names(table);
  if (legal.some((a) => !a.startsWith("signal "))) return "Your turn";
  const waiting = (view.to_act || []).map((i) => n[i]);
  return waiting.length ? `Waiting for ${waiting.join(", ")}` : "";
}

function render() {
  const s = last;
  if (!s) return;
  const { table, view } = s;
  const n = names(table);
  const line = statusLine(s);
  document.title = `${line === "Your turn" ? "▶ " : ""}${table.title} · cardtable`;
  document.body.dataset.version = String(s.version);
  document.body.dataset.status = table.status;
  document.body.dataset.seat = s.seat === null ? "" : String(s.seat);

  keepFocus(() => {
    const head = clear($("#head"));
    head.append(el("h1", {}, table.title),
      el("span", { class: `badge ${table.status}` }, table.status),
      el("span", { class: "status-line", "data-testid": "status" }, line),
      s.seat === null ? el("span", { class: "muted" }, "watching") : "");

    const board = clear($("#board"));
    const ctx = { act, ui, names: n, readOnly: false, rerender: render };
    RENDERERS[table.game].render(board, s, ctx);

    const side = clear($("#side"));
    if (table.status === "open") side.append(invitePanel(table));
    if (table.players > 1 || table.game !== "doublets") side.append(seatsPanel(s, botNames));
    if (table.game === "doublets") side.append(el("section", { class: "panel", id: "stats" }));
    if (table.notices && table.notices.length) {
      side.append(el("section", { class: "panel" }, el("h2", {}, "Table news"),
        el("ul", { class: "notices" }, table.notices.map((x) => el("li", {}, x)))));
    }

    const res = clear($("#results"));
    if (table.status === "over") res.append(results(view, table, playedBy(table, n)));
  });
  if (table.game === "doublets") refreshStats(table.status);
}

// statistics change only when a game ends; refetch then (and once on load)
let statsNode = null;
async function refreshStats(status) {
  const box = $("#stats");
  if (!box) return;
  if (statsShownFor !== status) {
    statsShownFor = status;
    try {
      statsNode = await doublets.stats();
    } catch {
      statsNode = el("p", { class: "muted" }, "Statistics need a name.");
    }
  }
  const now = $("#stats");
  if (now && statsNode) clear(now).append(statsNode);
}

async function main() {
  await topbar();
  try {
    const games = await getGames();
    const info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    const game = games.find((g) => g.name === info.game);
    if (game) botNames = game.bots.map((b) => b.name);
  } catch (e) {
    showMessage(e.message);
    if (e.status === 404) return;
  }
  await getMe();
  connect();
}

main();
