// The game log panel, shared by the table and the replay: every move in words, as the server
// wrote them for this viewer (a secret move reads "Ann chose a card to reveal" for the
// others until every seat has chosen, then "Ann revealed a 7 from b2"), and news the server
// marks (`news`: a deal's scoring). Newest at the bottom; the list stays scrolled to the
// bottom unless the reader scrolled up to read older moves.
import { el } from "./common.js";
import { say } from "./i18n.js";

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
export function logPanel(entries, { current = null, pick = null, title = "Game log" } = {},
  h = el) {
  const items = entries.map((e) => (e.news ? newsLine(e, h) : h("li", {
    class: `log-line ${e.n === current ? "current" : ""}`, "data-n": String(e.n),
    "data-seat": String(e.seat), "aria-current": e.n === current ? "step" : null,
  }, pick ? h("button", { type: "button", class: "log-pick", "data-key": `log-${e.n}`,
    title: `go to move ${e.n + 1}`, onclick: () => pick(e.n) },
  h("span", { class: "log-n" }, `${e.n + 1}.`), " ", words(e))
    : [h("span", { class: "log-n" }, `${e.n + 1}.`), " ", words(e)])));
  return h("section", { class: "panel log", "aria-label": "game log" },
    h("h2", {}, title),
    entries.length
      ? h("ol", { class: "log-list", "data-testid": "log", tabindex: "0",
        "aria-label": "moves, oldest first" }, items)
      : h("p", { class: "muted", "data-testid": "log" }, "No move yet."));
}

// news (a deal's scoring): what move n brought about, no move of its own (no number, never
// the current line)
function newsLine(e, h) {
  return h("li", { class: "log-line log-news", "data-n": String(e.n), "data-news": "1" },
    words(e));
}

// keep a re-rendered list where the reader left it: at the bottom (the newest move) unless
// they had scrolled up; `state` remembers between renders
export function keepScrolled(list, state) {
  if (!list) return;
  if (state.stuck === false && state.top !== undefined) list.scrollTop = state.top;
  else list.scrollTop = list.scrollHeight;
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
