// The tournaments page: the list (GET /api/tournaments) and the form that creates one
// (POST /api/tournaments); a new tournament's page is opened once it is made.
import { api, el, getGames, showMessage, topbar } from "./common.js";
import { clockChoice, describeTime, readClock } from "./clock.js";
import { date, number, t } from "./i18n.js";

const $ = (s) => /** @type {HTMLFormElement} */ (document.querySelector(s));

// when it starts: in a few minutes (people gather) up to a week ahead
const STARTS = [
  { seconds: 300, label: () => t("in 5 minutes") },
  { seconds: 900, label: () => t("in 15 minutes") },
  { seconds: 1800, label: () => t("in 30 minutes") },
  { seconds: 3600, label: () => t("in an hour") },
  { seconds: 86400, label: () => t("tomorrow at this time") },
  { seconds: 7 * 86400, label: () => t("in a week") },
];

// an arena's lengths, in minutes (a duplicate challenge's too, up to a day)
const ARENA_MINUTES = [10, 20, 30, 45, 60, 90, 120];
const CHALLENGE_MINUTES = [30, 60, 120, 360, 720, 1440];

/** @param {string} status @param {string | null} ended */
export function tournamentStatus(status, ended) {
  if (status === "open") return t("taking entries");
  if (status === "running") return t("under way");
  return ended === "cancelled" ? t("cancelled: too few entrants") : t("over");
}

/** A tournament's name as the reader reads it: a deal of the day's in their words.
 * @param {import("@api").TournamentSummary} row */
export function tournamentName(row) {
  return row.daily ? t("{game}: deal of the day, {date}", { game: row.title,
    date: date(`${row.daily}T12:00:00Z`, { dateStyle: "medium" }) }) : row.name;
}

/** @param {import("@api").TournamentSummary} row */
export function tournamentRow(row) {
  return el("tr", { "data-testid": "tournament-row" },
    el("td", {}, el("a", { href: `/tournaments/${row.id}` }, tournamentName(row))),
    el("td", {}, row.title),
    el("td", {}, el("time", { datetime: row.starts_at }, date(row.starts_at))),
    el("td", {}, number(row.entrants)),
    el("td", {}, row.status === "running" && row.format !== "swiss"
      ? t("until {when}", { when: date(row.ends_at, { dateStyle: "short", timeStyle: "short" }) })
      : row.status === "running"
        ? t("round {round} of {rounds}", { round: row.round, rounds: row.rounds })
        : tournamentStatus(row.status, row.ended ?? null)));
}

/** @param {import("@api").GameInfo[]} games */
function fillForm(games) {
  const form = $("#new-form");
  const format = /** @type {HTMLSelectElement} */ (form.elements.namedItem("format"));
  // Swiss rounds and arenas for the games played against each other, a duplicate challenge
  // for those played alone or together (their own scores rank the entries)
  const fits = () => games.filter((g) => (format.value === "duplicate" ? g.cooperative
    : g.max_players >= 2 && !g.cooperative));
  const game = /** @type {HTMLSelectElement} */ (form.elements.namedItem("game"));
  const size = /** @type {HTMLSelectElement} */ (form.elements.namedItem("table_size"));
  const fillGames = () => game.replaceChildren(...fits().map((g) =>
    el("option", { value: g.name }, g.title)));
  fillGames();
  const sizes = () => {
    const g = fits().find((x) => x.name === game.value);
    const low = format.value === "duplicate" ? (g ? g.min_players : 1)
      : Math.max(2, g ? g.min_players : 2);
    const high = g ? g.max_players : 2;
    size.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) =>
      el("option", { value: String(low + i) }, String(low + i))));
    size.value = String(Math.min(high, Math.max(low, format.value === "duplicate" ? 1 : 4)));
  };
  game.addEventListener("change", sizes);
  sizes();
  const rounds = /** @type {HTMLSelectElement} */ (form.elements.namedItem("rounds"));
  rounds.replaceChildren(...Array.from({ length: 15 }, (_, i) =>
    el("option", { value: String(i + 1), selected: i + 1 === 3 }, String(i + 1))));
  const minutes = /** @type {HTMLSelectElement} */ (form.elements.namedItem("minutes"));
  const deals = /** @type {HTMLSelectElement} */ (form.elements.namedItem("deals"));
  deals.replaceChildren(...Array.from({ length: 10 }, (_, i) =>
    el("option", { value: String(i + 1), selected: i === 2 }, String(i + 1))));
  const showFormat = () => {
    for (const node of form.querySelectorAll("[data-format]")) {
      /** @type {HTMLElement} */ (node).hidden =
        !node.getAttribute("data-format").split(" ").includes(format.value);
    }
    const lengths = format.value === "duplicate" ? CHALLENGE_MINUTES : ARENA_MINUTES;
    minutes.replaceChildren(...lengths.map((m) =>
      el("option", { value: String(m), selected: m === (format.value === "duplicate" ? 120 : 30) },
        describeTime(m * 60))));
    fillGames();
    sizes();
  };
  format.addEventListener("change", showFormat);
  const starts = /** @type {HTMLSelectElement} */ (form.elements.namedItem("starts_in"));
  starts.replaceChildren(...STARTS.map((s, i) =>
    el("option", { value: String(s.seconds), selected: i === 1 }, s.label())));
  // a tournament's games always have a clock (the server's default: 2 min a move), so that
  // nobody holds a round up by never coming; a challenge played alone has none
  const clock = clockChoice();
  clock.querySelector("option[value=none]").remove();
  const mode = /** @type {HTMLSelectElement} */ (clock.querySelector("[name=clock-mode]"));
  mode.value = "move";
  mode.dispatchEvent(new Event("change"));
  clock.dataset.format = "swiss arena";
  $("#clock-slot").replaceWith(clock);
  // (after the clock is in the form: a format chosen before this script ran hides it too)
  showFormat();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
    try {
      const made = await api("POST", "/api/tournaments", {
        name: value("name").value, game: game.value, table_size: Number(size.value),
        format: format.value, rounds: Number(rounds.value), minutes: Number(minutes.value),
        deals: Number(deals.value),
        streaks: value("streaks").checked, starts_in: Number(starts.value),
        clock: format.value === "duplicate" ? null : readClock(),
        rated: value("rated").checked, invite_only: value("invite_only").checked,
        bots: value("bots").checked, min_games: Number(value("min_games").value || 0) });
      location.href = `/tournaments/${made.id}` + (made.invite ? `#invite=${made.invite}` : "");
    } catch (e) {
      showMessage(e.message);
    }
  });
}

async function main() {
  await topbar();
  try {
    fillForm(await getGames());
    /** @type {import("@api").TournamentList} */
    const list = await api("GET", "/api/tournaments");
    const body = document.getElementById("tournaments");
    body.replaceChildren(...list.tournaments.map(tournamentRow));
    if (!list.tournaments.length) {
      body.append(el("tr", {}, el("td", { colspan: "5", class: "muted" },
        t("No tournament yet: create the first."))));
    }
  } catch (e) {
    showMessage(e.message);
  }
}

if (document.getElementById("new-form")) main();
