// "My games": the person's unfinished tables (theirs to play first) to resume, and their
// finished games with result, date and replay, a page at a time (GET /api/my-games).
import { ago, api, askName, clear, copyText, el, getMe, showMessage, topbar } from "./common.js";
import { date, personName, say, t, tn } from "./i18n.js";
import { tournamentRow } from "./tournaments.js";
import { reviewAsk } from "./review.js";
import { confirmStep } from "./confirm.js";

const PAGE = 20;
const root = () => document.getElementById("mine");
let page = Number(new URLSearchParams(location.search).get("page") || 0) || 0;

function when(iso) {
  return el("time", { datetime: iso, title: date(iso) }, ago(iso));
}

// "due in 5 h": the time left to move at a clocked (turn-based or real-time) table
export function dueIn(deadline, now = Date.now() / 1000) {
  const left = Math.max(0, deadline - now);
  if (left >= 86400) return tn("due in {n} d", "due in {n} d", Math.floor(left / 86400));
  if (left >= 3600) return tn("due in {n} h", "due in {n} h", Math.floor(left / 3600));
  if (left >= 60) return tn("due in {n} min", "due in {n} min", Math.floor(left / 60));
  return tn("due in {n} s", "due in {n} s", Math.floor(left));
}

// what an unfinished table asks of its person: play (Resume), take back the seat the clock
// gave to a bot, or only watch the others play on after resigning
/** @param {import("@api").MyGame} g */
function unfinishedRow(g) {
  const state = g.you === "resigned" ? t("You resigned: you rank below every seat still played.")
    : g.you === "away" ? t("a bot plays your seat: it is yours again when you come back")
      : g.status === "open" ? t("waiting for players")
        : g.stuck ? t("no move left: undo, or deal again (counted as lost)")
          : g.your_turn && g.your_deadline ? t("your turn ({due})", { due: dueIn(g.your_deadline) })
            : g.your_turn ? t("your turn")
              : g.to_act.length ? t("waiting for {names}", { names: g.to_act.join(", ") }) : "";
  const [label, testid] = g.you === "resigned" ? [t("Watch"), "watch"]
    : g.you === "away" ? [t("Take your seat back"), "take-back"] : [t("Resume"), "resume"];
  return el("tr", { "data-table": g.id, "data-testid": "unfinished-game" },
    el("td", {}, el("b", {}, g.title), practiceBadge(g)),
    el("td", {}, withWhom(g)),
    el("td", { class: g.your_turn || g.you === "away" ? "turn"
      : g.you === "resigned" ? "lost" : "muted" }, state),
    el("td", {}, activeWhen(g.active_at)),
    el("td", {}, el("a", { class: `button${g.your_turn || g.you === "away" ? " primary" : ""}`,
      href: `/t/${g.id}`, "data-testid": testid }, label)));
}

// "alone", or whom the game was played with
/** @param {import("@api").MyGame} g */
function withWhom(g) {
  return g.players === 1 ? t("alone") : t("with {names}", { names: g.opponents.map(personName).join(", ") });
}

// "active 5 min ago": one sentence, the time element where the language puts it
function activeWhen(iso) {
  const [before, after = ""] = t("active {when}").split("{when}");
  return [before, when(iso), after];
}

/** @param {import("@api").MyGame} g */
function finishedRow(g) {
  // (a closed game's verdict says how it closed), in the reader's words where it has them
  const parts = g.verdict_msg && g.verdict_msg.length ? g.verdict_msg.map(say) : null;
  const verdict = parts ? parts.join(" · ") : g.verdict ? say(g.verdict) : t("Game over");
  return el("tr", { "data-table": g.id, "data-testid": "finished-game" },
    el("td", {}, el("b", {}, g.title), practiceBadge(g)),
    el("td", {}, withWhom(g)),
    el("td", { class: g.ended ? "verdict lost" : "verdict" }, verdict),
    el("td", {}, g.finished_at ? when(g.finished_at) : ""),
    el("td", {}, el("a", { class: "button", href: `/t/${g.id}/replay`, "data-testid": "replay" },
      t("Replay")), " ", reviewAsk(g.id)));
}

// a practice table (a replayed deal, a tutorial): unrated, in no statistics
/** @param {import("@api").MyGame} g */
function practiceBadge(g) {
  if (!g.practice) return null;
  return el("span", { class: "badge practice", "data-testid": "practice-badge" },
    g.practice === "tutorial" ? t("Tutorial") : t("Practice"));
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
      section(t("Your turn"), "your-turn", turn.map(unfinishedRow), t("Nobody is waiting for you.")),
      section(t("Unfinished"), "unfinished", others.map(unfinishedRow),
        t("No other unfinished tables.")));
    // games others play on after you resigned: finished for you, still there to watch
    if (resigned.length) {
      box.append(section(t("Resigned — still being played"), "resigned",
        resigned.map(unfinishedRow), ""));
    }
  }
  const nav = el("div", { class: "row" },
    page > 0 ? el("button", { type: "button", "data-testid": "newer",
      onclick: () => go(page - 1) }, t("← Newer")) : null,
    mine.more ? el("button", { type: "button", "data-testid": "older",
      onclick: () => go(page + 1) }, t("Older →")) : null);
  box.append(section(page ? t("Finished (page {n})", { n: page + 1 }) : t("Finished"), "finished",
    mine.finished.map(finishedRow), t("No finished games yet.")), nav);
}

// "Bot accounts": programs of this person that play online with a token
// (docs/bot-protocol.md, "Online"); a token is shown once, when made or renewed
/** @param {import("@api").BotAccountAnswer} answer */
function tokenBox(answer) {
  const command = `cardtable bot connect ${location.origin} --token ${answer.token} expert`;
  const input = el("input", { readonly: true, value: answer.token, "data-testid": "bot-token",
    "aria-label": t("token of {name}", { name: answer.bot.name }), onfocus: (e) => e.target.select() });
  return el("div", { class: "stack", "data-testid": "bot-token-box" },
    el("p", {}, t("The token of {name}, shown only now: keep it secret.", { name: answer.bot.name })),
    el("div", { class: "row", style: "flex-wrap:nowrap" }, input,
      el("button", { type: "button", onclick: (e) => copyText(answer.token, e.currentTarget) },
        t("Copy"))),
    el("p", { class: "muted" }, t("Run a program with it:"), " ", el("code", {}, command)));
}

async function botsPanel() {
  const panel = el("section", { class: "panel", "data-testid": "bot-accounts" },
    el("h2", {}, t("Bot accounts")));
  let mine;
  try {
    mine = await api("GET", "/api/me/bots");
  } catch {
    return null; // a bot account's own page: it owns none
  }
  const shown = el("div");
  const name = el("input", { maxlength: 24, placeholder: t("name"), "aria-label": t("bot name"),
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
    "aria-label": t("who may invite {name} to a table", { name: bot.name }),
    onchange: async () => {
      try {
        bot.plays_with = (await api("POST", `/api/me/bots/${bot.id}/settings`,
          { plays_with: choice.value })).plays_with;
      } catch (e) {
        choice.value = bot.plays_with;
        showMessage(e.message);
      }
    } },
  el("option", { value: "owner", selected: bot.plays_with !== "anyone" }, t("Plays only with me")),
  el("option", { value: "anyone", selected: bot.plays_with === "anyone" }, t("Anyone may invite it")));
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
  clear(panel).append(el("h2", {}, t("Bot accounts")),
    el("p", { class: "muted" }, t("A bot account is played by a program of yours, with its "
      + "token: invite it to a table's open seat. It is shown and rated as a bot. A new "
      + "token ends the old one and every sign-in made with it.")),
    bots.length ? el("table", { class: "list" }, el("tbody", {}, bots.map((b) =>
      el("tr", { "data-testid": "bot-account" }, el("td", {}, el("b", {}, b.name)),
        el("td", {}, playsWith(b)),
        el("td", {}, el("button", { type: "button", title: t("its old token stops working"),
          onclick: () => renew(b) }, t("New token")))))))
      : "", // (the DOM's append would write a null as "null")
    el("div", { class: "row" }, name,
      el("button", { type: "button", "data-testid": "new-bot", onclick: make },
        t("Make a bot account"))),
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
    clear(root()).append(el("p", { class: "muted" }, t("Choose a name to keep a list of your games.")));
    return;
  }
  await render();
  const bots = await botsPanel();
  if (bots) root().after(bots);
  const entered = await tournamentsPanel();
  if (entered) root().after(entered);
  document.querySelector("main").append(dataPanel());
}

// "Your data": every finished game's record in one file (GET /api/me/records), and deleting
// the identity (DELETE /api/me) after a question that names what it does
function dataPanel() {
  const remove = async () => {
    const yes = await confirmStep({
      title: t("Delete your identity?"),
      text: t("You leave your unfinished tables, and your name is gone from every game: "
        + "they show a former player. This browser, your other browsers and your recovery "
        + "code stop being you. Your finished games stay and still replay. This cannot be undone."),
      yes: t("Delete my identity"), no: t("Keep it"), testid: "delete-me" });
    if (!yes) return;
    try {
      await api("DELETE", "/api/me");
    } catch (e) {
      showMessage(e.message);
      return;
    }
    location.assign("/?deleted=1");
  };
  return el("section", { class: "panel", "data-testid": "your-data" },
    el("h2", {}, t("Your data")),
    el("p", {}, t("Every finished game of yours, as records in one file (JSON).")),
    el("div", { class: "row" },
      el("a", { class: "button", href: "/api/me/records", download: "cardtable-my-games.json",
        "data-testid": "download-records" }, t("Download my games")),
      el("button", { type: "button", "data-testid": "delete-identity",
        onclick: remove }, t("Delete my identity"))));
}

// the tournaments the person entered, newest first (GET /api/me/tournaments)
async function tournamentsPanel() {
  /** @type {import("@api").TournamentList} */
  const list = await api("GET", "/api/me/tournaments");
  if (!list.tournaments.length) return null;
  return el("section", { class: "panel", "data-testid": "my-tournaments" },
    el("h2", {}, t("Your tournaments")),
    el("table", { class: "list stacked" }, el("tbody", {}, list.tournaments.map(tournamentRow))));
}

main();
