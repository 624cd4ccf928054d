// The language switcher: a labelled menu of the languages in their own names, in the top bar
// of every page (common.js builds it; the pages the server renders itself carry it in their
// HTML). Choosing one saves it (POST /api/me/language: a cookie, and on the player) and loads
// the page again in it: the server renders every page in the reader's language.
import { lang, t } from "./i18n.js";

/** @typedef {{code: string, name: string}} Language */

/** Save `code` as the reader's language, then show this page in it. */
async function choose(code) {
  const res = await fetch("/api/me/language", { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json", "x-cardtable": "1" },
    body: JSON.stringify({ language: code }) });
  if (res.ok) location.reload();
}

// keys that step a closed menu through its choices (each step is a "change" in Chromium)
const STEPS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End",
  "PageUp", "PageDown"]);

/**
 * The switcher's choice: the language chosen, unless it is already the page's. A pick with
 * the pointer (or from the open list) loads the page at once; stepping through the closed
 * menu with the arrow keys does not reload it at every step (WCAG's "on input"): Enter, or
 * leaving the menu, takes the language stepped to.
 * @param {HTMLSelectElement} select
 */
function wire(select) {
  let stepping = false;
  const go = () => {
    stepping = false;
    if (select.value && select.value !== lang) choose(select.value);
  };
  select.addEventListener("keydown", (event) => {
    if (STEPS.has(event.key) && !event.altKey) stepping = true;
    else if (event.key === "Enter") go();
  });
  select.addEventListener("change", () => { if (!stepping) go(); });
  select.addEventListener("blur", () => { if (stepping) go(); });
  return select;
}

/**
 * The switcher for the top bar, from GET /api/languages (null when it cannot be had).
 * @returns {Promise<HTMLElement | null>}
 */
export async function languageSwitcher() {
  /** @type {Language[]} */
  let languages;
  try {
    const res = await fetch("/api/languages", { credentials: "same-origin" });
    languages = (await res.json()).languages;
  } catch {
    return null;
  }
  const select = document.createElement("select");
  select.dataset.testid = "language";
  // TRANSLATORS: the label of the menu of languages in the top bar of every page
  select.setAttribute("aria-label", t("Language"));
  select.title = t("Language");
  for (const { code, name } of languages) {
    const option = new Option(name, code, false, code === lang);
    option.lang = code; // each name in its own language, as screen readers should say it
    select.append(option);
  }
  wire(select);
  const label = document.createElement("label");
  label.className = "lang-switch";
  label.append(select);
  return label;
}

// a page the server rendered whole (a rules page, "no such page") has its switcher in its HTML
if (typeof document !== "undefined") {
  for (const select of document.querySelectorAll("select[data-language-switcher]")) {
    wire(/** @type {HTMLSelectElement} */ (select));
  }
}
