// The replay page: steps through a finished game. The server rebuilds each step's spectator
// view from the record (GET /api/tables/{id}/replay?step=N); no rules run in the browser.
import { api, clear, el, showMessage, topbar } from "./common.js";
import { rendererFor } from "./renderers.js";
import { playedBy, results } from "./results.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (sel) => document.querySelector(sel);
const cache = new Map();
let table = null;
let renderer = null; // the game's module (renderers.js)
let steps = 0;
let step = 0;
let wanted = 0; // the step last asked for: older answers are dropped

function label(who) {
  return who.bot ? `${who.name} (bot)` : who.name || "?";
}

// who sat at each seat after `n` actions: a seat handed to a bot shows its person until then
function names(n = 0) {
  return table.seats.map((s) => {
    const history = s.history || [s];
    const now = history.filter((h, i) => i === 0 || h.from < n).pop();
    return label(now);
  });
}

async function load(n) {
  if (!cache.has(n)) {
    cache.set(n, api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay?step=${n}`));
  }
  try {
    return await cache.get(n);
  } catch (e) {
    cache.delete(n);
    throw e;
  }
}

async function go(n) {
  n = Math.max(0, Math.min(steps, n));
  wanted = n;
  let data;
  try {
    data = await load(n);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (wanted !== n) return;
  step = n;
  steps = data.steps;
  show(data);
  if (n + 1 <= steps) load(n + 1).catch(() => {}); // the next step is likely wanted soon
}

function show(data) {
  const n = names(step);
  const slider = $("#slider");
  slider.max = String(steps);
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", `step ${step} of ${steps}`);
  $("#first").disabled = $("#prev").disabled = step === 0;
  $("#next").disabled = $("#last").disabled = step === steps;
  const who = data.action && data.action.by ? label(data.action.by) : n[data.action?.seat];
  const what = data.action ? `${who}: ${data.action.action}` : "the deal";
  $("#step").textContent = `Step ${step} of ${steps}`;
  $("#what").textContent = what;
  document.body.dataset.step = String(step);
  const board = clear($("#board"));
  const ctx = { act: () => {}, ui: {}, names: n, readOnly: true, rerender: () => show(data) };
  renderer.render(board, { view: data.view, legal: [], seat: null, table,
    version: step, seatViews: data.seat_views }, ctx);
  const res = clear($("#results"));
  const sum = data.view.result ? renderer.resultSummary(data.view, table, playedBy(table, n)) : null;
  if (sum) res.append(results(sum, table, playedBy(table, n), false));
}

function keys(event) {
  if (event.target.matches("input, select, textarea") && event.target.id !== "slider") return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps };
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
}

async function main() {
  await topbar();
  try {
    table = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    renderer = await rendererFor(table.game);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  $("#title").textContent = `Replay: ${table.title}`;
  $("#back").href = `/t/${table.id}`;
  $("#record").href = `/api/tables/${table.id}/record`;
  if (table.seed !== null) $("#seed").textContent = `deal #${table.seed}`;
  $("#first").onclick = () => go(0);
  $("#prev").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => go(steps);
  $("#slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", keys);
  await go(0);
}

main();
