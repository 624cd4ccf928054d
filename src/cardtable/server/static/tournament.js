// A tournament's page: its standings, rounds and the reader's next table, followed live over
// its socket (/ws/tournaments/ID: the tournament again after every change); enter, withdraw,
// and for its creator: start now and the invite link.
import { api, clear, copyText, el, showMessage, topbar } from "./common.js";
import { describeTime } from "./clock.js";
import { date, number, personName, t, tn } from "./i18n.js";
import { tournamentName, tournamentStatus } from "./tournaments.js";

const tournamentId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (s) => document.querySelector(s);
// an invite link carries its code after the #: it is never sent to the server with the page
const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
/** @type {import("@api").TournamentInfo | null} */
let shown = null;

/** @param {import("@api").TournamentInfo} info */
function facts(info) {
  const arena = info.format === "arena";
  const challenge = info.format === "duplicate";
  const parts = [info.title, arena ? t("arena of {time}", { time: describeTime(info.minutes * 60) })
    : challenge ? tn("duplicate challenge, {n} deal", "duplicate challenge, {n} deals", info.deals)
      : tn("Swiss, {n} round", "Swiss, {n} rounds", info.rounds),
  challenge ? (info.table_size > 1 ? t("teams of {n}", { n: info.table_size }) : t("alone"))
    : t("tables of up to {n}", { n: info.table_size })];
  if (info.clock) parts.push(t("{time} clock", { time: describeTime(info.clock.seconds) }));
  parts.push(info.rated ? t("rated") : t("unrated"));
  if (info.status === "open") parts.push(t("starts {when}", { when: date(info.starts_at) }));
  if (info.status === "running" && (arena || challenge)) {
    parts.push(t("ends {when}", { when: date(info.ends_at) }));
  } else if (info.status === "running") {
    parts.push(t("round {round} of {rounds}", { round: info.round, rounds: info.rounds }));
  } else parts.push(tournamentStatus(info.status, info.ended ?? null));
  return parts.join(" · ");
}

/** @param {string} path @param {object} [body] */
async function post(path, body) {
  try {
    render(await api("POST", `/api/tournaments/${encodeURIComponent(tournamentId)}/${path}`, body));
  } catch (e) {
    showMessage(e.message);
  }
}

/** @param {import("@api").TournamentInfo} info */
function actions(info) {
  const out = [];
  if (info.status !== "over" && !info.entered) {
    out.push(el("button", { type: "button", class: "primary", "data-testid": "enter",
      onclick: () => post("enter", { invite }) }, t("Enter")));
  }
  if (info.status !== "over" && info.entered) {
    out.push(el("button", { type: "button", "data-testid": "withdraw",
      onclick: () => post("withdraw") }, t("Withdraw")));
  }
  if (info.creator && info.status === "open") {
    out.push(el("button", { type: "button", "data-testid": "start-now",
      onclick: () => post("start") }, t("Start now")));
  }
  if (info.invite) {
    const link = `${location.origin}/tournaments/${info.id}#invite=${info.invite}`;
    out.push(el("button", { type: "button", "data-testid": "copy-invite",
      onclick: (e) => copyText(link, e.currentTarget) }, t("Copy the invite link")));
  }
  return out;
}

/** @param {import("@api").TournamentInfo} info */
function standings(info) {
  if (!info.standings.length) return el("p", { class: "muted" }, t("No entrant yet."));
  if (info.format === "duplicate") return challengeStandings(info);
  const rounds = info.format === "arena" ? [] : Array.from({ length: info.round }, (_, i) => i + 1);
  return el("table", { class: "list" },
    el("thead", {}, el("tr", {}, ["#", t("player"), t("points")].map((h) =>
      el("th", { scope: "col" }, h)), [t("Buchholz"), t("wins"), t("games"), ...rounds.map((r) =>
      t("R{n}", { n: r }))].map((h) => el("th", { scope: "col", class: "wide-only" }, h)))),
    el("tbody", {}, info.standings.map((s) => el("tr", { class: s.you ? "you" : null,
      "data-testid": "standing" },
    el("td", {}, String(s.place)),
    el("td", {}, personName(s.name), s.bot_account ? [" ", el("span", { class: "badge bot" }, t("bot"))] : "",
      s.withdrawn ? [" ", el("span", { class: "badge" }, t("withdrawn"))] : "",
      s.you ? [" ", el("span", { class: "badge" }, t("you"))] : "",
      s.on_streak ? [" ", el("span", { class: "badge streak", "data-testid": "on-streak",
        title: t("two wins in a row: the next game counts double") }, t("on a streak"))] : ""),
    el("td", { "data-testid": "points" }, el("b", {}, number(s.points))),
    el("td", { class: "wide-only" }, number(s.buchholz)),
    el("td", { class: "wide-only" }, String(s.wins)),
    el("td", { class: "wide-only" }, String(s.games)),
    rounds.map((r) => el("td", { class: "wide-only" }, s.by_round[r - 1] === null
      || s.by_round[r - 1] === undefined ? "–" : number(s.by_round[r - 1])))))));
}

// a duplicate challenge's entries: the total of the games' own scores, each deal's, the time
/** @param {import("@api").TournamentInfo} info */
function challengeStandings(info) {
  const deals = Array.from({ length: info.deals ?? 1 }, (_, i) => i + 1);
  return el("table", { class: "list" },
    el("thead", {}, el("tr", {}, ["#", t("entry"), t("score")].map((h) =>
      el("th", { scope: "col" }, h)), deals.map((d) => el("th", { scope: "col", class: "wide-only" },
      t("deal {n}", { n: d }))))),
    el("tbody", {}, info.standings.map((s) => el("tr", { class: s.you ? "you" : null,
      "data-testid": "standing" },
    el("td", {}, String(s.place)),
    el("td", {}, personName(s.name), s.you ? [" ", el("span", { class: "badge" }, t("you"))] : "",
      s.days_in_a_row > 1 ? [" ", el("span", { class: "badge streak", "data-testid": "days-in-a-row" },
        tn("{n} day in a row", "{n} days in a row", s.days_in_a_row))] : ""),
    el("td", { "data-testid": "points" }, el("b", {}, number(s.points))),
    deals.map((d) => el("td", { class: "wide-only" }, s.by_round[d - 1] === null
      || s.by_round[d - 1] === undefined ? "–" : number(s.by_round[d - 1])))))));
}

/** @param {import("@api").TournamentTable} table */
function tableLine(table) {
  const who = table.score !== null && table.score !== undefined
    ? t("{names}: {score}", { names: table.players.join(" & "), score: table.score })
    : table.players.map((name, i) => table.places
      ? t("{place}. {name}", { place: table.places[i], name }) : name).join(", ");
  const link = table.status === "over"
    ? el("a", { href: `/t/${table.table_id}/replay` }, t("Replay"))
    : table.status === "waiting" ? t("being set up")
      : el("a", { href: `/t/${table.table_id}` }, t("Watch"));
  return el("li", { "data-testid": "round-table" }, who, " · ", link);
}

/** @param {import("@api").TournamentInfo} info */
function rounds(info) {
  if (!info.round_list.length) {
    return el("p", { class: "muted" }, info.status === "open"
      ? t("The first round is paired when the tournament starts.") : t("No round was played."));
  }
  const arena = info.format === "arena";
  return [...info.round_list].reverse().map((r) => el("section", { "data-round": String(r.number),
    class: "tournament-rounds" },
    arena ? null : el("h3", {}, info.format === "duplicate" ? t("Deal {n}", { n: r.number })
      : t("Round {n}", { n: r.number })),
    el("ul", {}, r.tables.map(tableLine)),
    r.byes.length ? el("p", { class: "muted" }, t("Bye (½ point): {names}",
      { names: r.byes.join(", ") })) : null));
}

/** @param {import("@api").TournamentInfo} info */
function render(info) {
  if (shown && info.version < shown.version) return; // an older answer, overtaken
  shown = info;
  document.title = `${tournamentName(info)} · cardtable`;
  $("#title").textContent = tournamentName(info);
  $("#facts").textContent = facts(info);
  clear($("#actions")).append(...actions(info));
  const next = clear($("#next"));
  if (info.next_table) {
    next.append(info.format === "duplicate" ? t("Your next deal is ready.")
      : info.format === "arena" ? t("Your next game is ready.")
      : t("Your table of round {n} is ready.", { n: info.round }), " ",
      el("a", { href: `/t/${info.next_table}`, class: "button primary", "data-testid": "play-next" },
        t("Play")));
  } else if (info.entered && info.status === "running" && info.format === "duplicate") {
    const mine = info.standings.find((s) => s.you);
    next.append(mine && mine.deals_done >= (info.deals ?? 1)
      ? t("You have played every deal: the standings are final when the challenge ends.")
      : t("Your next deal is being dealt."));
  } else if (info.entered && info.status === "running" && info.format === "arena") {
    next.append(t("Waiting for opponents: you are seated as soon as they are free."));
  } else if (info.entered && info.status === "running") {
    next.append(t("Your game of this round is over: the next round starts when every table is done."));
  }
  clear($("#standings")).append(standings(info));
  clear($("#rounds")).append(...[rounds(info)].flat());
}

function follow() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tournaments/${encodeURIComponent(tournamentId)}`);
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "tournament") render(message.tournament);
    else if (message.type === "error") showMessage(message.message);
  };
  ws.onclose = (event) => {
    if (event.code !== 4404) setTimeout(follow, 2000); // (a restart, a dropped connection)
  };
}

async function main() {
  await topbar();
  try {
    render(await api("GET", `/api/tournaments/${encodeURIComponent(tournamentId)}`));
  } catch (e) {
    showMessage(e.message);
    return;
  }
  follow();
}

main();
