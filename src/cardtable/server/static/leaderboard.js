// The leaderboard: ratings per game, best first (the server's order). The rating people read is
// `score` (like Elo, from 1500); openskill's μ and σ are behind a detail.
import { api, el, getGames, showMessage, topbar } from "./common.js";
import { number, personName, t } from "./i18n.js";

async function main() {
  await topbar();
  const root = document.getElementById("boards");
  /** @type {import("@api").GameInfo[]} */
  let games;
  try {
    games = await getGames();
  } catch (e) {
    showMessage(e.message);
    return;
  }
  for (const g of games) {
    /** @type {import("@api").LeaderboardRow[]} */
    const rows = await api("GET", `/api/leaderboard?game=${encodeURIComponent(g.name)}`);
    let body;
    if (!rows.length) {
      const why = g.max_players < 2 ? t("played alone: not rated (see your statistics at the table)")
        : g.cooperative ? t("cooperative: everyone shares one result, so it is not rated")
          : !g.rated ? t("not rated") : t("no rated games yet");
      body = el("p", { class: "muted" }, why);
    } else {
      body = el("table", { class: "list" },
        el("thead", {}, el("tr", {}, ["#", t("player"), t("rating"), t("games"), t("details")]
          .map((h) => el("th", {}, h)))),
        el("tbody", {}, rows.map((r, i) => el("tr", {},
          el("td", {}, String(i + 1)),
          // a bot's row says so in a badge of its own (people may not take bots' names)
          el("td", { "data-bot": String(r.bot) }, r.bot ? r.name.replace(/ bot$/, "") : personName(r.name),
            " ", r.bot ? el("span", { class: "badge bot" }, t("bot")) : null),
          el("td", { "data-testid": "score",
            title: t("like an Elo rating: a new player has 1500, and it rises as you win") },
          el("b", {}, String(r.score))),
          el("td", {}, String(r.games)),
          el("td", {}, el("details", { class: "rating-detail" }, el("summary", {}, "μ, σ"),
            el("span", {}, t("skill μ {mu}, uncertainty σ {sigma}; ranked by μ − 3σ = {rating} "
              + "(1500 + 24 × that)", { mu: number(r.mu), sigma: number(r.sigma),
              rating: number(r.rating) }))))))));
    }
    root.append(el("section", { class: "panel", "data-game": g.name },
      el("h2", {}, g.title), body));
  }
}

main();
