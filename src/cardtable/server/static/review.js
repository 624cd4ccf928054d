// Game review in the browser (docs/server.md, "Game review"): asking for a finished table's
// review and following its progress ("Review this game", on the results panel, the replay
// page and My games), and showing it on the replay page: each seat's accuracy and marks, the
// winning-chance chart of a chosen seat (its points lead to their moves), the marks in the
// log (?! ? ?? as lichess writes them, with words for screen readers), the better move of a
// marked move (in words, and drawn on the board by the game's renderer: its `highlight`),
// and the verdict with every card known, in a box of its own.
import { api, ApiError, el } from "./common.js";
import { number, say, t, tn } from "./i18n.js";

/** @typedef {import("@api").ReviewAnswer} ReviewAnswer */
/** @typedef {import("@api").Review} Review */
/** @typedef {import("@api").ReviewMove} ReviewMove */

// seconds between two looks at a running review
const POLL = 1000;
const SVG = "http://www.w3.org/2000/svg";

// -- the marks: lichess's signs, and words for those who do not see them ----------------------
export const MARKS = ["blunder", "mistake", "inaccuracy"];
export const SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** @param {string} mark */
export function markWord(mark) {
  // TRANSLATORS: a move that lost some winning chance (10+ points), as chess players say it
  if (mark === "inaccuracy") return t("inaccuracy");
  // TRANSLATORS: a move that lost a good part of the winning chance (20+ points), chess's word
  if (mark === "mistake") return t("mistake");
  // TRANSLATORS: a move that threw much of the winning chance away (30+ points), chess's word
  return t("blunder");
}

/** @param {string} mark @param {number} n */
function markCount(mark, n) {
  if (mark === "inaccuracy") return tn("{n} inaccuracy", "{n} inaccuracies", n);
  if (mark === "mistake") return tn("{n} mistake", "{n} mistakes", n);
  return tn("{n} blunder", "{n} blunders", n);
}

// a chance in points of 100 as the reader writes a percentage
const pct = (x) => t("{n} %", { n: number(Math.round(x)) });

// -- asking ----------------------------------------------------------------------------------
const path = (id) => `/api/tables/${encodeURIComponent(id)}/review`;

/**
 * Ask for the table's review (or find the one asked) and follow it until it is made;
 * `progress(answer)` after each look. Resolves with the last answer (done or failed).
 * @param {string} tableId @param {(a: ReviewAnswer) => void} progress
 * @returns {Promise<ReviewAnswer>}
 */
export async function askReview(tableId, progress, ask = true) {
  /** @type {ReviewAnswer} */
  let answer = ask ? await api("POST", path(tableId), {}) : await api("GET", path(tableId));
  progress(answer);
  while (answer.status === "queued" || answer.status === "running") {
    await new Promise((resolve) => { setTimeout(resolve, POLL); });
    answer = await api("GET", path(tableId));
    progress(answer);
  }
  return answer;
}

/** The words of a review's progress. @param {ReviewAnswer} a */
export function progressWords(a) {
  if (a.status === "queued") return t("Waiting for a free reviewer…");
  if (a.status === "running" && a.total) {
    return tn("Reviewing: {done} of {n} move judged…", "Reviewing: {done} of {n} moves judged…",
      a.total, { done: a.done });
  }
  if (a.status === "running") return t("Reviewing…");
  if (a.status === "failed") return t("The review failed: {error}", { error: a.error || "?" });
  if (a.status === "done") return t("The review is ready.");
  return "";
}

const asked = new Map(); // table id -> its "Review this game" box (kept across redraws)

/**
 * "Review this game": a button that asks for the review, then its progress (a polite live
 * region), then `open()` (by default the replay page's review). The same box is given again
 * for the same table, so a redrawn results panel keeps a review being followed.
 * @param {string} tableId @param {{open?: () => void, label?: string}} [how]
 */
export function reviewAsk(tableId, { open, label } = {}) {
  if (asked.has(tableId)) return asked.get(tableId);
  const go = open || (() => { location.assign(`/t/${encodeURIComponent(tableId)}/replay#review`); });
  const status = el("span", { class: "review-progress", role: "status", "aria-live": "polite",
    "data-testid": "review-progress" });
  const button = el("button", { type: "button", class: "button review-ask", "data-testid": "review-ask",
    onclick: async () => {
      button.disabled = true;
      try {
        const last = await askReview(tableId, (a) => {
          status.textContent = progressWords(a);
          bar.hidden = a.status !== "running" || !a.total;
          bar.max = a.total || 1;
          bar.value = a.done || 0;
        });
        if (last.status === "done") go();
        else button.disabled = false;
      } catch (e) {
        status.textContent = e instanceof ApiError ? e.message : String(e);
        button.disabled = e instanceof ApiError && e.code === "review_limit";
      }
    } }, label || t("Review this game"));
  const bar = el("progress", { class: "review-bar", hidden: true, max: "1", value: "0",
    "aria-label": t("review progress") });
  const box = el("span", { class: "review-box", "data-table": tableId }, button, " ", bar, " ", status);
  asked.set(tableId, box);
  return box;
}

// -- the review on the replay page -------------------------------------------------------------
/**
 * The review's section. `how.names`: the seats' names; `how.go(step)`: show the replay at
 * `step`; `how.seat`: the seat whose chart is shown first.
 * @param {Review} review
 * @param {{names: string[], go: (step: number) => void, seat?: number, steps: number,
 *   tableId: string}} how
 */
export function reviewPanel(review, how) {
  const seats = review.seats;
  let seat = seats.includes(how.seat) ? how.seat : seats[0];
  const chartBox = el("div", { class: "review-chart-box" });
  const draw = () => {
    chartBox.replaceChildren(chart(review, seat, how), chartTable(review, seat, how));
  };
  const picker = seats.length > 1 ? el("label", { class: "review-seat" }, t("Chart of"), " ",
    el("select", { "data-testid": "review-seat", onchange: (e) => {
      seat = Number(e.currentTarget.value);
      draw();
    } }, seats.map((s) => el("option", { value: String(s), selected: s === seat || null },
      how.names[s] ?? String(s))))) : null;
  draw();
  return el("section", { class: "panel review", id: "review-panel", "data-testid": "review",
    "aria-labelledby": "review-title" },
  el("h2", { id: "review-title", tabindex: "-1" }, t("Game review")),
  el("p", { class: "muted" }, t("Each move judged from what its player could see: the winning "
    + "chance with the best move found, and after the move played.")),
  summaryTable(review, how.names),
  picker, chartBox,
  verdictBox(review, how),
  practiceButton(review, how));
}

/** Per seat: accuracy and how many moves earned each mark. @param {Review} review */
function summaryTable(review, names) {
  return el("table", { class: "review-summary", "data-testid": "review-summary" },
    el("caption", { class: "sr-only" }, t("Accuracy and marks per player")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")),
      el("th", { scope: "col" }, t("Accuracy")),
      // TRANSLATORS: column headings: how many moves of each player earned each mark
      el("th", { scope: "col" }, t("Inaccuracies")), el("th", { scope: "col" }, t("Mistakes")),
      el("th", { scope: "col" }, t("Blunders")))),
    el("tbody", {}, review.summary.map((row) => el("tr", { "data-seat": String(row.seat) },
      el("th", { scope: "row" }, names[row.seat] ?? String(row.seat)),
      el("td", { "data-testid": "accuracy" }, row.accuracy === null ? "–" : pct(row.accuracy)),
      MARKS.slice().reverse().map((m) => el("td", { "aria-label": markCount(m, row[m]),
        class: row[m] ? `has-${m}` : null }, String(row[m])))))));
}

// the chart's size in its own units (it scales to the page's width)
const W = 600;
const H = 180;
const PAD = { left: 48, right: 10, top: 10, bottom: 12 };

/** @param {Review} review @param {number} seat */
function movesOf(review, seat) {
  return review.moves.filter((m) => m.seat === seat);
}

/**
 * A move of a decision or of the verdict as the game's move buttons label it ("play r3 · 8♥"),
 * else its notation.
 * @param {{labels?: import("@api").ReviewLabels | null} & Record<string, any>} m
 * @param {"played" | "best" | "alternative"} which
 */
export function label(m, which) {
  const words = m.labels && m.labels[which];
  return words ? say(words) : String(m[which] ?? "");
}

// a point's words: the move, the chance before and after, its mark
/** @param {ReviewMove} m @param {string[]} names */
export function moveWords(m, names) {
  const base = t("Move {n}, {name}: {played}, winning chance {before} → {after}", {
    n: m.step + 1, name: names[m.seat] ?? String(m.seat), played: label(m, "played"),
    before: pct(m.before), after: pct(m.after) });
  return m.mark ? `${base} (${markWord(m.mark)})` : base;
}

/**
 * The winning-chance chart of one seat: its chance after each of its moves, a point per
 * move, marked moves in their colour. The points are one Tab stop (the arrow keys move along
 * them, Home and End jump); a click, Enter or Space shows that move in the replay.
 * @param {Review} review @param {number} seat
 */
function chart(review, seat, how) {
  const moves = movesOf(review, seat);
  const steps = Math.max(1, how.steps);
  const x = (step) => PAD.left + ((W - PAD.left - PAD.right) * (step + 1)) / steps;
  const y = (chance) => PAD.top + ((H - PAD.top - PAD.bottom) * (100 - chance)) / 100;
  const svg = document.createElementNS(SVG, "svg");
  const attrs = (node, a) => { for (const [k, v] of Object.entries(a)) node.setAttribute(k, String(v)); return node; };
  const make = (tag, a = {}) => attrs(document.createElementNS(SVG, tag), a);
  attrs(svg, { viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "group",
    "aria-label": t("{name}'s winning chance, move by move", { name: how.names[seat] ?? seat }),
    "data-testid": "review-chart", "data-seat": seat });
  const title = make("title");
  title.textContent = t("{name}'s winning chance, move by move", { name: how.names[seat] ?? seat });
  svg.append(title);
  for (const level of [0, 50, 100]) {
    svg.append(make("line", { x1: PAD.left, x2: W - PAD.right, y1: y(level), y2: y(level),
      class: "grid-line", "aria-hidden": "true" }));
    const label = make("text", { x: PAD.left - 4, y: y(level) + 4, class: "axis", "text-anchor": "end",
      "aria-hidden": "true" });
    label.textContent = pct(level);
    svg.append(label);
  }
  if (moves.length) {
    const first = moves[0];
    const line = [[PAD.left, y(first.before)], ...moves.map((m) => [x(m.step), y(m.after)])];
    svg.append(make("polyline", { points: line.map((p) => p.join(",")).join(" "),
      class: "chance-line", "aria-hidden": "true" }));
  }
  const points = moves.map((m, i) => {
    const point = make("circle", { cx: x(m.step), cy: y(m.after), r: m.mark ? 6 : 3.5,
      class: `point ${m.mark || ""}`, role: "button", tabindex: i === 0 ? 0 : -1,
      "aria-label": moveWords(m, how.names), "data-step": m.step,
      "data-testid": m.mark ? `point-${m.mark}` : "point" });
    const tip = make("title");
    tip.textContent = moveWords(m, how.names);
    point.append(tip);
    point.addEventListener("click", () => how.go(m.step + 1));
    return point;
  });
  svg.append(...points);
  svg.addEventListener("keydown", (e) => {
    const at = points.indexOf(/** @type {any} */ (e.target));
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
      Home: 0, End: points.length - 1 }[e.key];
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      how.go(moves[at].step + 1);
    } else if (to !== undefined) {
      e.preventDefault();
      e.stopPropagation(); // (the replay's own arrow keys step the game)
      const next = points[Math.max(0, Math.min(points.length - 1, to))];
      for (const p of points) p.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      /** @type {any} */ (next).focus();
    }
  });
  return svg;
}

/** The chart in words: the seat's marked moves, each a link to it. @param {Review} review */
function chartTable(review, seat, how) {
  const moves = movesOf(review, seat);
  const marked = moves.filter((m) => m.mark);
  return el("details", { class: "review-text", "data-testid": "review-text" },
    el("summary", {}, t("The chart in words")),
    el("p", {}, tn("{n} move judged.", "{n} moves judged.", moves.length)),
    marked.length ? el("ol", {}, marked.map((m) => el("li", {},
      el("button", { type: "button", class: "linklike", onclick: () => how.go(m.step + 1) },
        moveWords(m, how.names)),
      m.best !== m.played ? ` · ${t("better: {action}", { action: label(m, "best") })}` : "")))
      : el("p", {}, t("No move was marked.")));
}

/** With every card known: could the deal be won, and until when. @param {Review} review */
function verdictBox(review, how) {
  const v = review.verdict;
  if (!v) return null;
  let words;
  let go = null;
  if (v.status === "won") words = t("The deal was won.");
  else if (v.status === "never") words = t("The deal could not be won, whatever was played.");
  else if (v.status === "undecided") words = t("The solver could not decide it within its budget.");
  else {
    const args = { n: v.step + 1, name: how.names[v.seat] ?? v.seat, played: label(v, "played"),
      alternative: label(v, "alternative") };
    words = v.alternative
      ? t("The deal was winnable until move {n}: {name} played {played}; {alternative} would have kept it winnable.", args)
      : t("The deal was winnable until move {n}: {name} played {played}.", args);
    go = el("button", { type: "button", onclick: () => how.go(v.step) },
      t("Go to move {n}", { n: v.step + 1 }));
  }
  // why the move lost the deal, where the game can say it plainly (Game.loss_reason)
  const why = v.reason ? el("p", { "data-testid": "verdict-reason" },
    // TRANSLATORS: a review's verdict: why the move it names lost the deal
    t("Why: {reason}.", { reason: say(v.reason) })) : null;
  return el("section", { class: "review-verdict", "data-testid": "review-verdict",
    "aria-labelledby": "verdict-title" },
  el("h3", { id: "verdict-title" }, t("With every card known")),
  el("p", { class: "muted" }, t("This verdict peeks at every hidden card, which no player could.")),
  el("p", {}, words, go ? " " : null, go), why);
}

/** The first marked move of a game played alone, whose position may be played again. */
export function firstMistake(review) {
  return review.players === 1 ? review.moves.find((m) => m.mark) || null : null;
}

// a solitaire: a practice table from the position before the first marked move
function practiceButton(review, how) {
  const first = firstMistake(review);
  if (!first) return null;
  const button = el("button", { type: "button", class: "primary", "data-testid": "try-again",
    onclick: async () => {
      button.disabled = true;
      try {
        const table = await api("POST", `/api/tables/${encodeURIComponent(how.tableId)}/practice`,
          { step: first.step });
        location.assign(`/t/${encodeURIComponent(table.id)}`);
      } catch (e) {
        button.disabled = false;
        note.textContent = e.message;
      }
    } }, t("Try again from here"));
  const note = el("span", { role: "status" });
  return el("p", { class: "review-practice" },
    t("Your first marked move was move {n}: play on from the position before it.", { n: first.step + 1 }),
    " ", button, " ", note);
}

/**
 * The review's words for the replay's step (the step after `step` actions): the move just
 * played (its chance and mark, and the better move), and, before a marked move, the better
 * move to draw on the board. Returns {note, better: {action, seat} | null}.
 * @param {Review} review @param {number} step
 */
export function atStep(review, step, names, go) {
  const played = review.moves.find((m) => m.step === step - 1);
  const next = review.moves.find((m) => m.step === step && m.mark);
  const parts = [];
  if (played) {
    parts.push(el("span", { "data-testid": "review-move" }, moveWords(played, names)));
    if (played.score_before !== null && played.score_before !== undefined) {
      // TRANSLATORS: the game's score (points, or cards left in a cooperative game) expected with the
      // best move found and after the move played
      parts.push(" · ", t("expected score {before} → {after}", {
        before: number(played.score_before), after: number(played.score_after ?? 0) }));
    }
    if (played.mark && played.best !== played.played) {
      parts.push(" · ", el("span", { "data-testid": "review-better" },
        t("better: {action}", { action: label(played, "best") })), " ",
      el("button", { type: "button", "data-testid": "show-better", onclick: () => go(played.step) },
        t("Show the better move")));
    }
  }
  if (next) {
    if (parts.length) parts.push(el("br"));
    parts.push(el("span", { "data-testid": "review-before" }, t(
      "Next, {name} plays {played} ({mark}): {best} was better, marked on the board.",
      { name: names[next.seat] ?? next.seat, played: label(next, "played"),
        mark: markWord(next.mark), best: label(next, "best") })));
  }
  return { note: parts, better: next ? { action: next.best, seat: next.seat } : null };
}

/**
 * The marks beside the log's lines: "??" and, for screen readers, the word.
 * @param {HTMLElement} list @param {Review} review
 */
export function markLog(list, review) {
  if (!list) return;
  for (const m of review.moves) {
    if (!m.mark) continue;
    const line = list.querySelector(`.log-line[data-n="${m.step}"]:not(.log-news)`);
    if (!line || line.querySelector(".review-mark")) continue;
    const target = line.querySelector("button") || line;
    target.append(" ", el("span", { class: `review-mark ${m.mark}`, "data-testid": "log-mark",
      title: markWord(m.mark) },
    el("span", { "aria-hidden": "true" }, SIGN[m.mark]),
    el("span", { class: "sr-only" }, `(${markWord(m.mark)})`)));
  }
}
