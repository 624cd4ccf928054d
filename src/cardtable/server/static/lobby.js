// The lobby: create a table (seats: me / open / bots), play a game alone, join or watch
// tables. Every choice is built from GET /api/games: no game is named here.
import {
  ago, api, askName, clear, el, getGames, getMe, showMessage, statusWord, topbar,
} from "./common.js";
import { clockChoice, readClock } from "./clock.js";
import { tournamentRow } from "./tournaments.js";
import { date, say, t } from "./i18n.js";
import { seatName } from "./results.js";

const $ = (sel) => document.querySelector(sel);
/** @type {import("@api").GameInfo[]} */
let games = [];

// -- creating a table ----------------------------------------------------------------------
/** @param {import("@api").GameInfo} game @param {number} index */
function seatChoices(game, index) {
  const options = [];
  // TRANSLATORS: a seat of a new table: the person creating it sits there
  if (index === 0) options.push(["me", t("me")]);
  options.push(["open", t("open (a friend)")]);
  for (const bot of game.bots) {
    if (bot.levels.length) {
      for (const level of bot.levels) {
        options.push([`${bot.name}:${level}`, t("{bot} bot ({level})", { bot: bot.name, level })]);
      }
    } else options.push([bot.name, t("{bot} bot", { bot: bot.name })]);
  }
  return options;
}

/** @param {import("@api").GameInfo} game @param {number} index */
function defaultSeat(game, index) {
  if (index === 0) return "me";
  const names = game.bots.map((b) => b.name);
  return names.includes(game.fallback_bot) ? game.fallback_bot : names[0];
}

// an option as people read it: its label, and a seat as "Seat 1" to "Seat N" (the value sent
// stays the 0-based seat of the protocol), a list of choices as a menu
function optionInput(opt, players) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.seat) {
    input = el("select", { id, name: opt.name, "data-seat": "1" },
      [...Array(players).keys()].map((i) => el("option", { value: String(i),
        selected: i === opt.default || null }, t("Seat {n}", { n: i + 1 }))));
  } else if (opt.choices && opt.choices.length && typeof opt.default !== "boolean") {
    input = el("select", { id, name: opt.name },
      opt.choices.map((c) => el("option", { value: String(c),
        selected: c === opt.default || null }, String(c))));
  } else if (typeof opt.default === "boolean") {
    input = el("input", { type: "checkbox", id, name: opt.name, checked: opt.default || null });
  } else {
    // numbers; an empty box means "off" (null) where that is the default
    // (as wide as its placeholder in the reader's language, spinner included)
    const placeholder = opt.default === null ? t("off") : null;
    input = el("input", { type: "number", id, name: opt.name,
      style: `width:max(6rem, ${(placeholder || "").length + 5}ch)`,
      value: opt.default === null ? "" : String(opt.default), placeholder });
  }
  return el("div", {},
    // (an option's label and doc are the game's words, sent by the server: `msg` in the
    // reader's language)
    el("label", { for: id }, el("b", {}, say(opt.msg?.label ?? (opt.label || opt.name))), " ", input),
    el("div", { class: "option-doc" }, say(opt.msg?.doc ?? opt.doc)));
}

/** @param {import("@api").GameInfo} game */
function readOptions(game) {
  const out = {};
  for (const opt of game.options) {
    const input = /** @type {HTMLInputElement | null} */ (
      document.getElementById(`opt-${opt.name}`));
    if (!input) continue;
    if (input.type === "checkbox") {
      if (input.checked !== opt.default) out[opt.name] = input.checked;
    } else if (input.value === "") {
      if (opt.default !== null) out[opt.name] = opt.default;
    } else if (Number(input.value) !== opt.default) out[opt.name] = Number(input.value);
  }
  return out;
}

function renderCreate() {
  const form = $("#create-form");
  const gameSelect = form.querySelector("[name=game]");
  const game = games.find((g) => g.name === gameSelect.value) || games[0];
  const countSelect = form.querySelector("[name=count]");
  const wanted = Number(countSelect.value) || Math.max(2, game.min_players);
  clear(countSelect);
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    countSelect.append(el("option", { value: String(n), selected: n === wanted || null }, String(n)));
  }
  if (!countSelect.value || Number(countSelect.value) < game.min_players) {
    countSelect.value = String(game.min_players);
  }
  const count = Number(countSelect.value);
  const seats = clear($("#seat-rows"));
  for (let i = 0; i < count; i += 1) {
    const select = el("select", { name: `seat-${i}`, "aria-label": t("Seat {n}", { n: i + 1 }) },
      seatChoices(game, i).map(([value, text]) => el("option", {
        value, selected: value === defaultSeat(game, i) || null }, text)));
    seats.append(el("div", { class: "seat-row" },
      el("span", { class: "seat-label" }, t("Seat {n}", { n: i + 1 })), select));
  }
  const opts = clear($("#options"));
  if (game.options.length) {
    opts.append(el("h3", {}, t("Options")), ...game.options.map((o) => optionInput(o, count)));
  }
  rulesLink($("#create-rules"), game);
}

async function createTable(event) {
  event.preventDefault();
  if (!(await askName())) return;
  const form = $("#create-form");
  const game = games.find((g) => g.name === form.querySelector("[name=game]").value);
  const seats = [...form.querySelectorAll("#seat-rows select")].map((s) => s.value);
  try {
    const table = await api("POST", "/api/tables", { game: game.name, seats, options: readOptions(game),
      clock: readClock(form) });
    location.href = `/t/${table.id}`;
  } catch (e) {
    showMessage(e.message);
  }
}

// -- playing alone: every game that allows one player, pure solitaires first --------------
function aloneGames() {
  return games.filter((g) => g.min_players === 1)
    .sort((a, b) => a.max_players - b.max_players);
}

function renderAlone() {
  const game = games.find((g) => g.name === $("#alone-form [name=alone-game]").value);
  if (!game) return;
  // a deal number is offered where the game makes it public to the one who plays it
  $("#alone-deal").classList.toggle("hidden", !game.shows_deal_number);
  if (!game.shows_deal_number) $("#alone-deal").value = "";
  $("#alone-form [data-testid=play-alone]").textContent = t("Play {game}", { game: game.title });
  rulesLink($("#alone-rules"), game);
  $("#alone-about").textContent = [
    game.tools.alone.includes("undo") ? t("Undo, redo and restart, at your own pace.")
      : t("At your own pace."),
    game.shows_deal_number ? t("Every deal has a number: play the same one again or share it.")
      : "",
  ].filter(Boolean).join(" ");
}

// one click to the chosen game's rules page (GET /rules/GAME, rendered by the server)
/** @param {import("@api").GameInfo} game */
function rulesLink(link, game) {
  if (!link) return;
  link.href = `/rules/${encodeURIComponent(game.name)}`;
  link.textContent = t("{game}: rules", { game: game.title });
}

async function playAlone(event) {
  event.preventDefault();
  if (!(await askName())) return;
  const game = $("#alone-form [name=alone-game]").value;
  const value = $("#alone-deal").value;
  try {
    const table = await api("POST", "/api/tables", {
      game, seats: ["me"], seed: value === "" ? null : Number(value) });
    location.href = `/t/${table.id}`;
  } catch (e) {
    showMessage(e.message);
  }
}

// -- learning: each game's tutorial (GET /api/tutorials), a check mark once finished -------
/** @param {string} game */
async function startTutorial(game) {
  if (!(await askName())) return;
  try {
    const table = await api("POST", `/api/tutorials/${encodeURIComponent(game)}`);
    location.href = `/t/${table.id}`;
  } catch (e) {
    showMessage(e.message);
  }
}

async function renderLearn() {
  /** @type {import("@api").TutorialInfo[]} */
  let tutorials;
  try {
    tutorials = await api("GET", "/api/tutorials");
  } catch {
    return;
  }
  const list = clear($("#learn-list"));
  for (const tutorial of tutorials) {
    list.append(el("li", { class: "row", "data-tutorial": tutorial.game },
      el("button", { type: "button", "data-testid": `learn-${tutorial.game}`,
        onclick: () => startTutorial(tutorial.game) },
      t("Learn to play {game}", { game: tutorial.title })),
      tutorial.done ? el("span", { class: "done", "data-testid": `learned-${tutorial.game}` },
        t("✓ finished")) : null));
  }
  $("#learn").classList.toggle("hidden", !tutorials.length);
  // a rules page's "Learn with the tutorial" comes here with ?learn=GAME: start it
  const asked = new URLSearchParams(location.search).get("learn");
  if (asked && tutorials.some((x) => x.game === asked)) {
    history.replaceState(null, "", "/");
    await startTutorial(asked);
  }
}

// -- the list of tables --------------------------------------------------------------------
async function join(table) {
  if (!(await askName())) return;
  try {
    await api("POST", `/api/tables/${table.id}/join`, { seat: null });
    location.href = `/t/${table.id}`;
  } catch (e) {
    showMessage(e.message);
  }
}

async function refreshTables() {
  /** @type {import("@api").TableInfo[]} */
  let tables;
  try {
    tables = await api("GET", "/api/tables?status=open,running");
  } catch {
    return; // the next refresh tries again
  }
  const body = clear($("#tables"));
  if (!tables.length) {
    body.append(el("tr", {}, el("td", { colspan: "4", class: "muted" },
      t("No tables yet: create one above, and invite a friend with its link."))));
    return;
  }
  for (const row of tables) {
    const mine = row.seats.some((s) => s.you);
    const free = row.seats.some((s) => !s.taken);
    const players = row.seats.map((s) => (s.taken ? seatName(s) : "—")).join(", ");
    const buttons = [];
    if (mine) buttons.push(el("a", { class: "button primary", href: `/t/${row.id}` }, t("Back to table")));
    else if (row.status === "open" && free) {
      buttons.push(el("button", { type: "button", class: "primary", "data-testid": `join-${row.id}`,
        onclick: () => join(row) }, t("Join")));
    }
    if (!mine) buttons.push(el("a", { class: "button", href: `/t/${row.id}` }, t("Watch")));
    body.append(el("tr", { "data-table": row.id },
      el("td", {}, el("b", {}, row.title), row.practice ? el("span", { class: "badge practice",
        "data-testid": "practice-badge" }, t("Practice")) : null),
      el("td", {}, el("span", { class: `badge ${row.status}` }, statusWord(row.status)),
        row.created_at ? el("span", { class: "muted age", "data-testid": "table-age",
          title: t("created {when}", { when: date(row.created_at) }) }, ` ${ago(row.created_at)}`)
          : null),
      el("td", {}, players),
      el("td", {}, el("div", { class: "row" }, buttons))));
  }
}

// no name yet: ask inline, the way a site greets a new visitor
function welcome() {
  const input = el("input", { name: "name", maxlength: "24", required: true,
    "aria-label": t("Your name"), placeholder: t("your name"), autocomplete: "nickname" });
  const box = el("form", { class: "panel full", id: "welcome" },
    el("h2", {}, t("Welcome! What should the other players call you?")),
    el("div", { class: "row" }, input, el("button", { type: "submit", class: "primary" }, t("Save"))),
    el("p", { class: "muted" }, t("No password: this browser remembers you.")));
  box.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("POST", "/api/me", { name: input.value.trim() });
      location.reload();
    } catch (e) {
      showMessage(e.message);
    }
  });
  $(".lobby").prepend(box);
}

async function main() {
  await topbar();
  try {
    games = await getGames();
  } catch (e) {
    showMessage(e.message);
    return;
  }
  const gameSelect = $("#create-form [name=game]");
  for (const g of games) {
    if (g.max_players < 2) continue; // played alone only: the "Play alone" form has it
    gameSelect.append(el("option", { value: g.name }, g.title));
  }
  const alone = aloneGames();
  const aloneSelect = $("#alone-form [name=alone-game]");
  for (const g of alone) aloneSelect.append(el("option", { value: g.name }, g.title));
  $("#alone").classList.toggle("hidden", !alone.length);
  aloneSelect.classList.toggle("hidden", alone.length < 2);
  aloneSelect.addEventListener("change", renderAlone);
  gameSelect.addEventListener("change", () => {
    $("#create-form [name=count]").value = "";
    renderCreate();
  });
  $("#create-form [name=count]").addEventListener("change", renderCreate);
  $("#create-form").addEventListener("submit", createTable);
  $("#clock-slot").replaceWith(clockChoice()); // real time, turn-based or no clock
  $("#alone-form").addEventListener("submit", playAlone);
  // the deal box as wide as its placeholder in the reader's language, spinner included
  const deal = $("#alone-deal");
  deal.style.setProperty("width", `max(7rem, ${deal.placeholder.length + 5}ch)`);
  renderCreate();
  renderAlone();
  refreshTables();
  setInterval(refreshTables, 4000);
  const me = await getMe();
  if (!me) welcome();
  await renderLearn();
  await renderTournaments();
}

// the tournaments to come and under way: the first few, the rest on /tournaments
async function renderTournaments() {
  /** @type {import("@api").TournamentList} */
  const list = await api("GET", "/api/tournaments");
  const live = list.tournaments.filter((row) => row.status !== "over").slice(0, 5);
  $("#lobby-tournaments").replaceChildren(...live.map(tournamentRow));
  $("#tournaments-panel").classList.toggle("hidden", !live.length);
}

main();
