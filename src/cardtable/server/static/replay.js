// The replay page: steps through a finished game. The server rebuilds each step's spectator
// view from the record (GET /api/tables/{id}/replay?step=N); no rules run in the browser.
// The log lists the moves in words (the words a spectator reads), a page of LOG_PAGE moves
// at a time: the page of the current step, fetched when a step leaves the pages already
// fetched (a long game's whole log would be megabytes); a click on a line goes to the table
// after that move; autoplay steps on at the chosen speed; the address keeps the step
// (/t/<id>/replay#move=17, or ?move=17), so a link shows the same move. A game's review
// (review.js), once made, shows above the board: its chart leads to the moves, its marks
// stand in the log, and a marked move's better move is drawn on the board before it.
import { api, clear, copyText, el, getGames, showMessage, topbar } from "./common.js";
import { logPanel, scrollToLine } from "./log.js";
import { rendererFor } from "./renderers.js";
import { botName, playedBy, playedFor, ranksSeats, results, summary } from "./results.js";
import { personName, say, t } from "./i18n.js";
import { askReview, atStep, markLog, progressWords, reviewAsk, reviewPanel } from "./review.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (sel) => document.querySelector(sel);
const cache = new Map();
const LOG_PAGE = 200; // log lines per page fetched (the server gives at most 500)
const pages = new Map(); // page number -> the promise of its entries
/** @type {import("@api").TableInfo | null} */
let table = null;
/** @type {import("@api").GameInfo | null} */
let game = null; // what the game is (GET /api/games): whether it ranks its seats
let renderer = null; // the game's module (renderers.js)
let steps = 0;
let step = 0;
let wanted = 0; // the step last asked for: older answers are dropped
let words = []; // the current step's page of the game log: [{n, seat, who, text}]
let playedByRuns = null; // the record's played_by: per seat, who played from which action
let timer = null; // autoplay
/** @type {import("@api").Review | null} */
let review = null; // the game's review, once made

function label(who) {
  if (who.bot && who.person) return playedFor(who.person, who.name);
  return who.bot ? botName(who.name) : personName(who.name) || "?";
}

// who sat at each seat after `n` actions: a seat handed to a bot shows its person until then
// (the record's played_by: each seat's players with the index of their first action)
function names(n = 0) {
  return table.seats.map((s, i) => {
    const history = (playedByRuns && playedByRuns[i]) || s.history || [s];
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

// the page of the log holding line k (the move that led to step k + 1)
const pageOf = (k) => Math.floor(Math.max(0, k) / LOG_PAGE);

async function logPage(p) {
  if (!pages.has(p)) {
    const from = p * LOG_PAGE;
    pages.set(p, api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay?step=0&log=1`
      + `&log_offset=${from}&log_limit=${LOG_PAGE}`).then((data) => {
      steps = data.steps;
      playedByRuns = data.played_by || playedByRuns;
      return data.log || [];
    }));
  }
  try {
    return await pages.get(p);
  } catch (e) {
    pages.delete(p);
    throw e;
  }
}

async function go(n) {
  n = Math.max(0, Math.min(steps, n));
  wanted = n;
  let data;
  let page;
  try {
    [data, page] = await Promise.all([load(n), logPage(pageOf(n - 1))]);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (wanted !== n) return;
  step = n;
  steps = data.steps;
  words = page;
  playedByRuns = data.played_by || playedByRuns;
  show(data);
  remember();
  if (n + 1 <= steps) load(n + 1).catch(() => {}); // the next step is likely wanted soon
  if (n < steps && pageOf(n) !== pageOf(n - 1)) logPage(pageOf(n)).catch(() => {});
}

/** @param {import("@api").ReplayStep} data */
function show(data) {
  const n = names(step);
  const slider = $("#slider");
  slider.max = String(steps);
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", t("Step {step} of {steps}", { step, steps }));
  $("#first").disabled = $("#prev").disabled = step === 0;
  $("#next").disabled = $("#last").disabled = step === steps;
  const who = data.action && data.action.by ? label(data.action.by) : n[data.action?.seat];
  // the move in words (as the table's log read it), else the notation
  const what = !data.action ? t("the deal")
    : say(data.action.msg ?? data.action.text) || `${who}: ${data.action.action}`;
  $("#step").textContent = t("Step {step} of {steps}", { step, steps });
  $("#what").textContent = what;
  $("#notation").textContent = data.action ? data.action.action : "";
  document.body.dataset.step = String(step);
  const board = clear($("#board"));
  const last = data.action ? { n: step - 1, seat: data.action.seat, action: data.action.action }
    : null;
  // the last step of a table closed before its game's end shows it over, as its table does
  const ctx = { act: () => {}, ui: {}, names: n, readOnly: true, rerender: () => show(data),
    fresh: true, over: step === steps && table.status === "over" };
  renderer.render(board, { view: data.view, legal: [], labels: [], seat: null, table,
    version: step, seatViews: data.seat_views, last }, ctx);
  const side = clear($("#log-side"));
  // a long game's log shows one page: say which moves it holds
  const title = steps > LOG_PAGE && words.length
    ? t("Game log: moves {first}–{last} of {steps}", { first: words[0].n + 1,
      last: words[words.length - 1].n + 1, steps })
    : t("Game log");
  side.append(logPanel(words, { current: step - 1, title,
    pick: (k) => { pause(); go(k + 1); } }));
  scrollToLine(side.querySelector(".log-list"), step - 1);
  if (review) showReviewAt(board, side, n);
  const res = clear($("#results"));
  if (data.view.result) {
    const who = playedBy(table, n);
    const result = /** @type {import("./results.js").Result} */ (data.view.result);
    res.append(results(summary(result, data.ending, table, who, ranksSeats(game, table)), table,
      who, false));
  }
}

// the review at this step: the marks in the log, the move's note, the better move drawn
function showReviewAt(board, side, n) {
  markLog(side.querySelector(".log-list"), review);
  const { note, better } = atStep(review, step, n, (k) => { pause(); go(k); });
  $("#review-note").replaceChildren(...note);
  if (better) renderer.highlight(board, better.action, better.seat);
}

// the review: shown when made, followed while it is made, else the button that asks for it
async function loadReview(focus = false) {
  const box = clear($("#review"));
  let answer;
  try {
    answer = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/review`);
  } catch {
    return; // (a table closed before it started has no review to offer)
  }
  if (answer.status === "queued" || answer.status === "running") {
    const status = el("p", { role: "status", "data-testid": "review-progress" });
    box.append(el("section", { class: "panel review" }, el("h2", {}, t("Game review")), status));
    answer = await askReview(tableId, (a) => { status.textContent = progressWords(a); }, false)
      .catch(() => answer);
  }
  if (answer.status === "done" && answer.review) {
    review = answer.review;
    clear(box).append(reviewPanel(review, { names: names(steps), steps, tableId,
      go: (k) => { pause(); go(k); }, seat: table.seats.findIndex((s) => s.you) }));
    await go(step);
    if (focus) /** @type {HTMLElement} */ ($("#review-title")).focus();
    return;
  }
  clear(box).append(el("section", { class: "panel review" }, el("h2", {}, t("Game review")),
    answer.status === "failed" ? el("p", {}, progressWords(answer))
      : el("p", {}, reviewAsk(tableId, { open: () => loadReview(true) }))));
}

function keys(event) {
  if (event.target.matches("input, select, textarea") && event.target.id !== "slider") return;
  if (event.key === " " && !event.target.matches("button")) {
    event.preventDefault();
    toggle();
    return;
  }
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps };
  if (!(event.key in moves)) return;
  event.preventDefault();
  pause();
  go(moves[event.key]);
}

// -- autoplay: one step per tick at the chosen speed, stopping at the end
function playing() {
  return timer !== null;
}

// the button's glyph is drawn in CSS (.glyph): fonts without "⏸" showed an empty box (#24)
function showPlay(kind) {
  const button = $("#play");
  button.querySelector(".glyph").className = `glyph ${kind}`;
  button.querySelector(".label").textContent = kind === "play" ? t("Play") : t("Pause");
}

function pause() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  showPlay("play");
  $("#play").setAttribute("aria-pressed", "false");
  document.body.dataset.playing = "";
}

function tick() {
  if (step >= steps) {
    pause();
    return;
  }
  go(step + 1).then(() => {
    if (playing()) timer = setTimeout(tick, Number($("#speed").value));
  });
}

function play() {
  if (step >= steps) go(0); // from the start again
  showPlay("pause");
  $("#play").setAttribute("aria-pressed", "true");
  document.body.dataset.playing = "1";
  timer = setTimeout(tick, Number($("#speed").value));
}

function toggle() {
  if ($("#play").disabled) return; // (the replay's steps are not known yet)
  if (playing()) pause();
  else play();
}

// -- the address keeps the step: #move=N (or ?move=N in a link)
function wantedStep() {
  const hash = new URLSearchParams(location.hash.slice(1)).get("move");
  const query = new URLSearchParams(location.search).get("move");
  const n = Number.parseInt(hash ?? query ?? "0", 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

function linkTo(n) {
  return `${location.origin}${location.pathname}#move=${n}`;
}

function remember() {
  history.replaceState(null, "", `${location.pathname}#move=${step}`);
}

// a shared deal's number has 39 digits: shown short ("deal #3141…2653"), whole in the title,
// to screen readers and to copy; a solitaire's short number is shown as it is
const SHORT_DEAL = 12;

function showDeal(seed) {
  const span = $("#seed");
  const long = seed.length > SHORT_DEAL;
  const shown = long ? `${seed.slice(0, 4)}…${seed.slice(-4)}` : seed;
  span.textContent = t("deal #{number}", { number: shown });
  if (!long) return;
  span.title = t("deal #{number}", { number: seed });
  span.setAttribute("aria-label", t("deal number {number}", { number: seed }));
  const copy = el("button", { type: "button", "data-testid": "copy-deal",
    title: t("copy the whole deal number") }, t("Copy number"));
  copy.onclick = () => copyText(seed, copy);
  span.after(copy);
}

async function main() {
  const wantsReview = location.hash === "#review"; // ("Review this game" elsewhere led here)
  await topbar();
  try {
    table = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    game = (await getGames()).find((g) => g.name === table.game) || null;
    renderer = await rendererFor(table.game);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  $("#title").textContent = t("Replay: {title}", { title: table.title });
  $("#back").href = `/t/${table.id}`;
  $("#record").href = `/api/tables/${table.id}/record`;
  if (table.seed !== null) showDeal(table.seed);
  $("#first").onclick = () => go(0);
  $("#prev").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => go(steps);
  $("#slider").addEventListener("input", (e) => { pause(); go(Number(e.target.value)); });
  $("#play").onclick = toggle;
  $("#share").onclick = (e) => copyText(linkTo(step), e.currentTarget);
  for (const id of ["first", "prev", "next", "last"]) $(`#${id}`).addEventListener("click", pause, true);
  document.addEventListener("keydown", keys);
  window.addEventListener("hashchange", () => { if (wantedStep() !== step) go(wantedStep()); });
  // the log's first page tells how many steps there are (and who played which seat)
  try {
    await logPage(0);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  await go(wantedStep());
  $("#play").disabled = false; // a click before the steps were known would stop at once
  await loadReview(wantsReview);
}

main();
