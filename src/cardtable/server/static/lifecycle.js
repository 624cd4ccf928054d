// Leaving and resigning a table (docs/server.md, "Table lifecycle"). No game is named here:
// what leaving means comes from the game's facts (GET /api/games: cooperative).
import { api, el } from "./common.js";
import { t } from "./i18n.js";

// the side panel of a seated person at an unfinished table: Leave, and Resign in a started
// game played with others. `onError` shows a refusal.
/**
 * @param {import("@api").StateMessage} s @param {import("@api").GameInfo | null} game
 * @param {(message: string) => void} onError
 */
export function leavePanel(s, game, onError) {
  const { table } = s;
  if (s.seat === null || table.status === "over") return null;
  const alone = table.players === 1;
  const started = table.status === "running";
  const competitive = !alone && !(game && game.cooperative);
  const go = (path, question) => async () => {
    if (!window.confirm(question)) return;
    try {
      const answer = await api("POST", `/api/tables/${table.id}/${path}`);
      location.href = answer.outcome === "closed" ? `/t/${table.id}` : "/me";
    } catch (e) {
      onError(e.message);
    }
  };
  // the last person at a competitive table leaves it to bots: the game ends there (as the
  // server does, docs/server.md "Table lifecycle"), the bots sharing first place
  // (a bot account is a player's seat: the game plays on for it)
  const lastPerson = !table.seats.some((x) => x.seat !== s.seat && x.taken && !x.bot);
  // a seat a bot plays on for a person who left ranks last, not with the bots (#24)
  const leftBefore = table.seats.some((x) => x.seat !== s.seat && x.person)
    ? " " + t("Anyone who left before you ranks below you.") : "";
  const leaveWhy = !started ? t("Your seat becomes free for someone else.")
    : alone ? t("The deal is closed and counts as lost.")
      : competitive && lastPerson ? t("Leaving a started game is resigning. Nobody but bots "
        + "would play on, so the game ends now: the bots share first place, you rank below "
        + "them.") + leftBefore
        : competitive ? t("Leaving a started game is resigning: your seat ranks below every "
          + "seat still played, and a bot plays it on for the others.")
          : t("A bot plays your seat on for the others.");
  const buttons = [el("button", { type: "button", "data-testid": "leave",
    onclick: go("leave", t("Leave this table? {why}", { why: leaveWhy })) }, t("Leave table"))];
  if (started && !alone) {
    const why = competitive && lastPerson ? t("Nobody but bots would play on, so the game "
      + "ends now: the bots share first place, you rank below them.") + leftBefore
      : competitive ? t("You rank below every seat still played; the others play on against "
        + "a bot.")
      : t("The game ends as lost for the whole table.");
    buttons.push(el("button", { type: "button", "data-testid": "resign",
      onclick: go("resign", t("Resign? {why}", { why })) }, t("Resign")));
  }
  return el("section", { class: "panel", "aria-label": t("leave the table") },
    el("div", { class: "row" }, buttons), el("p", { class: "muted" }, leaveWhy));
}
