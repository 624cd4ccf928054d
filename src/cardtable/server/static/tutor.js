// The tutor beside the board at a tutorial table (issue #27): the step's explanation, the
// suggested move marked on the board, and after a move other than the suggestion what that
// move did. Its words come from the server (GET /api/tables/{id}/tutor, in the game's own
// catalog); no game is named here. One live region for the page's life, so a screen reader
// reads each new step once.
import { api, el, clear } from "./common.js";
import { say, t } from "./i18n.js";

/** @typedef {import("@api").TutorAnswer} TutorAnswer */

/**
 * @param {{ tableId: string, act: (action: string) => void, rerender: () => void }} options
 */
export function createTutor({ tableId, act, rerender }) {
  const words = el("div", { class: "tutor-words", "aria-live": "polite", "data-testid": "tutor-text" });
  const play = el("button", { type: "button", class: "primary", "data-testid": "tutor-play",
    "data-key": "tutor-play", disabled: true }, t("Play the suggested move"));
  const node = el("section", { class: "panel tutor", "aria-labelledby": "tutor-title",
    "data-testid": "tutor" },
  el("h2", { id: "tutor-title" }, t("Tutor")), words, el("div", { class: "row" }, play));
  /** @type {TutorAnswer | null} */
  let said = null;
  let askedFor = -1; // the table version the words were asked for
  let shownFor = -1;

  play.addEventListener("click", () => {
    if (said && said.suggest) act(said.suggest);
  });

  function show() {
    if (!said) return;
    const paragraphs = [];
    if (said.played) {
      // the suggestion in notation, where the sentence puts it
      const [before, after = ""] = t("The tutor suggested {action}.").split("{action}");
      paragraphs.push(el("p", { class: "tutor-deviation", "data-testid": "tutor-deviation" },
        t("Your move: {what}.", { what: say(said.played_msg ?? said.played) }), " ",
        before, el("span", { class: "notation" }, said.instead), after));
    }
    said.text.forEach((english, i) => {
      paragraphs.push(el("p", {}, say(said.text_msg[i] ?? english)));
    });
    if (said.done) {
      paragraphs.push(el("p", { "data-testid": "tutor-done" },
        t("Tutorial finished: well played. Start a real game from the lobby.")));
    }
    clear(words).append(...paragraphs);
    play.disabled = !said.suggest;
    play.dataset.suggest = said.suggest || ""; // (the move, for tests and the curious)
  }

  return {
    node,
    /** the suggested move now, for the board to mark (null: none) */
    get suggest() {
      return said && shownFor === askedFor ? said.suggest : null;
    },
    /** a new state: ask the tutor once per table version */
    async update(version) {
      if (version === askedFor) return;
      askedFor = version;
      play.disabled = true; // the suggestion is of the last position until the answer comes
      try {
        const answer = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/tutor`);
        if (askedFor !== version) return; // a newer state came meanwhile
        said = answer;
        shownFor = version;
        show();
        rerender();
      } catch (e) {
        if (e.status === 429 && askedFor === version) { // asked too often: once more, later
          askedFor = -1;
          setTimeout(() => { if (askedFor === -1) this.update(version); }, 1500);
          return;
        }
        clear(words).append(el("p", { class: "muted" }, e.message));
      }
    },
  };
}

/** Mark the board's controls that make the suggested move ("suggested", as a hint is).
 * @param {HTMLElement} board @param {string | null} action */
export function markSuggestion(board, action) {
  if (!action) return;
  for (const node of board.querySelectorAll("[data-action], [data-actions]")) {
    const own = /** @type {HTMLElement} */ (node);
    const actions = own.dataset.actions ? own.dataset.actions.split("|") : [own.dataset.action];
    if (actions.includes(action)) own.classList.add("suggested");
  }
}
