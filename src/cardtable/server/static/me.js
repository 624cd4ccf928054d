// "My games": the person's unfinished tables (theirs to play first) to resume, and their
// finished games with result, date and replay, a page at a time (GET /api/my-games).
import { ago, api, askName, clear, copyText, el, getMe, showMessage, topbar } from "./common.js";

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

// what an unfinished table asks of its person: play (Resume), take back the seat the clock
// gave to a bot, or only watch the others play on after resigning
/** @param {import("@api").MyGame} g */
function unfinishedRow(g) {
  const state = g.you === "resigned" ? g.verdict || "You resigned."
    : g.you === "away" ? "a bot plays your seat: it is yours again when you come back"
      : g.status === "open" ? "waiting for players"
        : g.stuck ? "no move left: undo, or deal again (counted as lost)"
          : g.your_turn ? `your turn${g.your_deadline ? ` (${dueIn(g.your_deadline)})` : ""}`
            : g.to_act.length ? `waiting for ${g.to_act.join(", ")}` : "";
  const [label, testid] = g.you === "resigned" ? ["Watch", "watch"]
    : g.you === "away" ? ["Take your seat back", "take-back"] : ["Resume", "resume"];
  return el("tr", { "data-table": g.id, "data-testid": "unfinished-game" },
    el("td", {}, el("b", {}, g.title)),
    el("td", {}, g.players === 1 ? "alone" : `with ${g.opponents.join(", ")}`),
    el("td", { class: g.your_turn || g.you === "away" ? "turn"
      : g.you === "resigned" ? "lost" : "muted" }, state),
    el("td", {}, "active ", when(g.active_at)),
    el("td", {}, el("a", { class: `button${g.your_turn || g.you === "away" ? " primary" : ""}`,
      href: `/t/${g.id}`, "data-testid": testid }, label)));
}

/** @param {import("@api").MyGame} g */
function finishedRow(g) {
  const verdict = g.verdict || "Game over"; // (a closed game's says how it closed)
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
  /** @type {import("@api").MyGames} */
  let mine;
  try {
    mine = await api("GET", `/api/my-games?page=${page}&limit=${PAGE}`);
  } catch (e) {
    showMessage(e.message);
    return;
  }
  const resigned = mine.unfinished.filter((g) => g.you === "resigned");
  const turn = mine.unfinished.filter((g) => g.your_turn || g.you === "away");
  const others = mine.unfinished.filter((g) => !turn.includes(g) && !resigned.includes(g));
  const box = clear(root());
  if (page === 0) {
    box.append(
      section("Your turn", "your-turn", turn.map(unfinishedRow), "Nobody is waiting for you."),
      section("Unfinished", "unfinished", others.map(unfinishedRow),
        "No other unfinished tables."));
    // games others play on after you resigned: finished for you, still there to watch
    if (resigned.length) {
      box.append(section("Resigned — still being played", "resigned",
        resigned.map(unfinishedRow), ""));
    }
  }
  const nav = el("div", { class: "row" },
    page > 0 ? el("button", { type: "button", "data-testid": "newer",
      onclick: () => go(page - 1) }, "← Newer") : null,
    mine.more ? el("button", { type: "button", "data-testid": "older",
      onclick: () => go(page + 1) }, "Older →") : null);
  box.append(section(page ? `Finished (page ${page + 1})` : "Finished", "finished",
    mine.finished.map(finishedRow), "No finished games yet."), nav);
}

// "Bot accounts": programs of this person that play online with a token
// (docs/bot-protocol.md, "Online"); a token is shown once, when made or renewed
/** @param {import("@api").BotAccountAnswer} answer */
function tokenBox(answer) {
  const command = `cardtable bot connect ${location.origin} --token ${answer.token} expert`;
  const input = el("input", { readonly: true, value: answer.token, "data-testid": "bot-token",
    "aria-label": `token of ${answer.bot.name}`, onfocus: (e) => e.target.select() });
  return el("div", { class: "stack", "data-testid": "bot-token-box" },
    el("p", {}, `The token of ${answer.bot.name}, shown only now: keep it secret.`),
    el("div", { class: "row", style: "flex-wrap:nowrap" }, input,
      el("button", { type: "button", onclick: (e) => copyText(answer.token, e.currentTarget) },
        "Copy")),
    el("p", { class: "muted" }, "Run a program with it: ", el("code", {}, command)));
}

async function botsPanel() {
  const panel = el("section", { class: "panel", "data-testid": "bot-accounts" },
    el("h2", {}, "Bot accounts"));
  let mine;
  try {
    mine = await api("GET", "/api/me/bots");
  } catch {
    return null; // a bot account's own page: it owns none
  }
  const shown = el("div");
  const name = el("input", { maxlength: 24, placeholder: "name", "aria-label": "bot name",
    "data-testid": "new-bot-name" });
  const make = async () => {
    try {
      const answer = await api("POST", "/api/me/bots", { name: name.value.trim() });
      await renderBots(panel, shown, name, make);
      clear(shown).append(tokenBox(answer));
    } catch (e) {
      showMessage(e.message);
    }
  };
  await renderBots(panel, shown, name, make, mine);
  return panel;
}

// Whom a bot account plays with: who may invite it to a seat (its owner only, by default)
/** @param {import("@api").BotAccount} bot */
function playsWith(bot) {
  const choice = el("select", { "data-testid": "bot-plays-with",
    "aria-label": `who may invite ${bot.name} to a table`,
    onchange: async () => {
      try {
        bot.plays_with = (await api("POST", `/api/me/bots/${bot.id}/settings`,
          { plays_with: choice.value })).plays_with;
      } catch (e) {
        choice.value = bot.plays_with;
        showMessage(e.message);
      }
    } },
  el("option", { value: "owner", selected: bot.plays_with !== "anyone" }, "Plays only with me"),
  el("option", { value: "anyone", selected: bot.plays_with === "anyone" }, "Anyone may invite it"));
  return choice;
}

async function renderBots(panel, shown, name, make, mine) {
  const bots = (mine || await api("GET", "/api/me/bots")).bots;
  const renew = async (bot) => {
    try {
      clear(shown).append(tokenBox(await api("POST", `/api/me/bots/${bot.id}/token`, {})));
    } catch (e) {
      showMessage(e.message);
    }
  };
  clear(panel).append(el("h2", {}, "Bot accounts"),
    el("p", { class: "muted" }, "A bot account is played by a program of yours, with its "
      + "token: invite it to a table's open seat. It is shown and rated as a bot. A new "
      + "token ends the old one and every sign-in made with it."),
    bots.length ? el("table", { class: "list" }, el("tbody", {}, bots.map((b) =>
      el("tr", { "data-testid": "bot-account" }, el("td", {}, el("b", {}, b.name)),
        el("td", {}, playsWith(b)),
        el("td", {}, el("button", { type: "button", title: "its old token stops working",
          onclick: () => renew(b) }, "New token"))))))
      : "", // (the DOM's append would write a null as "null")
    el("div", { class: "row" }, name,
      el("button", { type: "button", "data-testid": "new-bot", onclick: make },
        "Make a bot account")),
    shown);
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
  const bots = await botsPanel();
  if (bots) root().after(bots);
}

main();
