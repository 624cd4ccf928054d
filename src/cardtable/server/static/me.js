// "My games": the person's unfinished tables (theirs to play first) to resume, and their
// finished games with result, date and replay, a page at a time (GET /api/my-games).
import { ago, api, askName, clear, el, getMe, showMessage, topbar } from "./common.js";
import { ENDED } from "./lifecycle.js";

const PAGE = 20;
const root = () => document.getElementById("mine");
let page = Number(new URLSearchParams(location.search).get("page") || 0) || 0;

function when(iso) {
  return el("time", { datetime: iso, title: iso }, ago(iso));
}

// "due in 5 h": the time left to move at a clocked (turn-based or real-time) table
export function dueIn(deadline, now = Date.now() / 1000) {
  const left = Math.max(0, deadline - now);
  const [n, unit] = left >= 86400 ? [left / 86400, "d"] : left >= 3600 ? [left / 3600, "h"]
    : left >= 60 ? [left / 60, "min"] : [left, "s"];
  return `due in ${Math.floor(n)} ${unit}`;
}

function unfinishedRow(g) {
  const state = g.status === "open" ? "waiting for players"
    : g.your_turn ? `your turn${g.your_deadline ? ` (${dueIn(g.your_deadline)})` : ""}`
      : g.to_act.length ? `waiting for ${g.to_act.join(", ")}` : "";
  return el("tr", { "data-table": g.id, "data-testid": "unfinished-game" },
    el("td", {}, el("b", {}, g.title)),
    el("td", {}, g.players === 1 ? "alone" : `with ${g.opponents.join(", ")}`),
    el("td", { class: g.your_turn ? "turn" : "muted" }, state),
    el("td", {}, "active ", when(g.active_at)),
    el("td", {}, el("a", { class: `button${g.your_turn ? " primary" : ""}`, href: `/t/${g.id}`,
      "data-testid": "resume" }, "Resume")));
}

function finishedRow(g) {
  const verdict = g.verdict || (g.ended ? ENDED[g.ended] : "Game over");
  return el("tr", { "data-table": g.id, "data-testid": "finished-game" },
    el("td", {}, el("b", {}, g.title)),
    el("td", {}, g.players === 1 ? "alone" : `with ${g.opponents.join(", ")}`),
    el("td", { class: g.ended ? "lost" : "" }, verdict),
    el("td", {}, g.finished_at ? when(g.finished_at) : ""),
    el("td", {}, el("a", { class: "button", href: `/t/${g.id}/replay`, "data-testid": "replay" },
      "Replay")));
}

function section(title, testid, rows, empty) {
  return el("section", { class: "panel", "data-testid": testid },
    el("h2", {}, title),
    rows.length ? el("table", { class: "list" }, el("tbody", {}, rows))
      : el("p", { class: "muted" }, empty));
}

async function render() {
  let mine;
  try {
    mine = await api("GET", `/api/my-games?page=${page}&limit=${PAGE}`);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  const turn = mine.unfinished.filter((g) => g.your_turn);
  const others = mine.unfinished.filter((g) => !g.your_turn);
  const box = clear(root());
  if (page === 0) {
    box.append(
      section("Your turn", "your-turn", turn.map(unfinishedRow), "Nobody is waiting for you."),
      section("Unfinished", "unfinished", others.map(unfinishedRow),
        "No other unfinished tables."));
  }
  const nav = el("div", { class: "row" },
    page > 0 ? el("button", { type: "button", "data-testid": "newer",
      onclick: () => go(page - 1) }, "← Newer") : null,
    mine.more ? el("button", { type: "button", "data-testid": "older",
      onclick: () => go(page + 1) }, "Older →") : null);
  box.append(section(page ? `Finished (page ${page + 1})` : "Finished", "finished",
    mine.finished.map(finishedRow), "No finished games yet."), nav);
}

function go(p) {
  page = p;
  history.replaceState(null, "", p ? `/me?page=${p}` : "/me");
  render();
}

async function main() {
  await topbar();
  if (!(await getMe()) && !(await askName())) {
    clear(root()).append(el("p", { class: "muted" }, "Choose a name to keep a list of your games."));
    return;
  }
  await render();
}

main();
