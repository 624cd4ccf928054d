// The game log panel, shared by the table and the replay: every move in words, as the server
// wrote them for this viewer (a secret move reads "Ann chose a card to reveal" for the
// others until every seat has chosen, then "Ann revealed a 7 from b2"), and news the server
// marks (`news`: a deal's scoring). Newest at the bottom; the list stays scrolled to the
// bottom unless the reader scrolled up to read older moves. The table's log is a live region
// that lives as long as the page (liveLog: a screen reader reads each new line once); the
// replay's is a list of links to its steps (logPanel).
import { el } from "./common.js";
import { say, t } from "./i18n.js";

// an entry's words in the reader's language (the server's `msg`), else its English `text`
/** @param {import("@api").LogEntry} e */
const words = (e) => say(e.msg ?? e.text);

// which log line is the current one: the table's last move, or the replay's step
// entries: [{n, seat, who, text, msg}], current: an index n or null, pick(n): a click on line n
/**
 * @param {import("@api").LogEntry[]} entries
 * @param {{current?: number | null, pick?: ((n: number) => void) | null, title?: string}} [how]
 * @param {Function} [h]
 */
export function logPanel(entries, { current = null, pick = null, title = t("Game log") } = {},
  h = el) {
  const items = entries.map((e) => logLine(e, current, pick, h));
  return h("section", { class: "panel log", "aria-label": t("game log") },
    h("h2", {}, title),
    entries.length
      ? h("ol", { class: "log-list", "data-testid": "log", tabindex: "0",
        "aria-label": t("moves, oldest first") }, items)
      : h("p", { class: "muted", "data-testid": "log" }, t("No move yet.")));
}

// one line of the log: a move (a button that goes there when `pick` is given), or news
function logLine(e, current, pick, h) {
  if (e.news) return newsLine(e, h);
  const line = [h("span", { class: "log-n" }, `${e.n + 1}.`), " ", words(e)];
  return h("li", {
    class: `log-line ${e.n === current ? "current" : ""}`, "data-n": String(e.n),
    "data-seat": String(e.seat), "aria-current": e.n === current ? "step" : null,
  }, pick ? h("button", { type: "button", class: "log-pick", "data-key": `log-${e.n}`,
    title: t("go to move {n}", { n: e.n + 1 }), onclick: () => pick(e.n) }, line) : line);
}

// The table's log: one panel for the page's life, whose list is a live region (role="log",
// polite, not atomic: a screen reader reads each new line once). A state adds the new lines
// and takes away those an undo took back; the lines already there stay as they are.
export function liveLog() {
  const list = el("ol", { class: "log-list", tabindex: "0", "aria-label": t("moves, oldest first") });
  const empty = el("p", { class: "muted" }, t("No move yet."));
  const region = el("div", { role: "log", "aria-live": "polite", "aria-atomic": "false",
    "aria-relevant": "additions", "aria-label": t("game log") }, list);
  const node = el("section", { class: "panel log", "data-testid": "log-panel" },
    el("h2", {}, t("Game log")), empty, region);
  const keyOf = (e) => `${e.n}|${e.news ? 1 : 0}|${e.text}`;
  let shown = []; // the keys of the lines in the list, in order
  /** @param {import("@api").LogEntry[]} entries @param {number | null} current */
  function update(entries, current) {
    const keys = entries.map(keyOf);
    let same = 0;
    while (same < shown.length && shown[same] === keys[same]) same += 1;
    while (list.children.length > same) list.lastElementChild.remove();
    list.append(...entries.slice(same).map((e) => logLine(e, null, null, el)));
    shown = keys;
    for (const line of list.querySelectorAll(".log-line:not(.log-news)")) {
      const now = Number(/** @type {HTMLElement} */ (line).dataset.n) === current;
      line.classList.toggle("current", now);
      if (now) line.setAttribute("aria-current", "step");
      else line.removeAttribute("aria-current");
    }
    // the lines, or the note that there are none, carry the tests' name of the log
    empty.hidden = entries.length > 0;
    list.hidden = !entries.length; // (an empty list would be a Tab stop with nothing in it)
    (entries.length ? list : empty).dataset.testid = "log";
    delete (entries.length ? empty : list).dataset.testid;
    return node;
  }
  return { node, update };
}

// news (a deal's scoring): what move n brought about, no move of its own (no number, never
// the current line)
function newsLine(e, h) {
  return h("li", { class: "log-line log-news", "data-n": String(e.n), "data-news": "1" },
    words(e));
}

// keep a re-rendered list where the reader left it: at the bottom (the newest move) unless
// they had scrolled up; `state` remembers between renders
const watched = new WeakSet(); // the lists whose scrolling is followed already
export function keepScrolled(list, state) {
  if (!list) return;
  if (state.stuck === false && state.top !== undefined) list.scrollTop = state.top;
  else list.scrollTop = list.scrollHeight;
  if (watched.has(list)) return;
  watched.add(list);
  list.addEventListener("scroll", () => {
    state.top = list.scrollTop;
    state.stuck = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  });
}

// bring line n into view (the replay's current step)
export function scrollToLine(list, n) {
  const line = list && list.querySelector(`[data-n="${n}"]`);
  if (line) line.scrollIntoView({ block: "nearest" });
}
