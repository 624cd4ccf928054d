// Clocks: the create form's time choice, and each seat's clock at the table, counting down
// from the server's deadlines (docs/server.md, "Clocks"). The server alone judges time: the
// page only shows what is left, measured against the server's clock (`clock.now`).
import { el } from "./common.js";
import { t, tn } from "./i18n.js";

// the choices the form offers, inside the server's limits (clock.py LIMITS), shortest first;
// `preset` is selected at first (clock.py DEFAULTS); `label` in the reader's words
export const CLOCK_CHOICES = {
  move: { label: () => t("Real time: a time per move"), times: [30, 60, 120, 300, 600], preset: 120 },
  game: { label: () => t("Real time: a time per game, each player"), times: [300, 600, 900, 1800, 3600],
    preset: 900 },
  turn: { label: () => t("Turn-based: a move within"), times: [3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400],
    preset: 86400 },
};

// "45 s", "2 min", "12 h", "3 days": a choice as a person reads it
export function describeTime(seconds) {
  const s = Math.round(seconds);
  if (s >= 86400 && s % 86400 === 0) return tn("{n} day", "{n} days", s / 86400);
  // TRANSLATORS: a time with a short unit, as on a clock: "12 h", "2 min", "45 s"
  if (s >= 3600 && s % 3600 === 0) return tn("{n} h", "{n} h", s / 3600);
  if (s >= 60 && s % 60 === 0) return tn("{n} min", "{n} min", s / 60);
  return tn("{n} s", "{n} s", s);
}

// what is left, as a clock shows it: "1:05", "0:09"; past an hour "2 h 05 min"; past a day
// "3 days 4 h"
export function formatLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) {
    const d = Math.floor(s / 86400);
    return tn("{n} day {h} h", "{n} days {h} h", d, { h: Math.floor((s % 86400) / 3600) });
  }
  if (s >= 3600) {
    return t("{h} h {min} min", { h: Math.floor(s / 3600),
      min: String(Math.floor((s % 3600) / 60)).padStart(2, "0") });
  }
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// -- the create form -----------------------------------------------------------------------
export function clockChoice() {
  const mode = el("select", { name: "clock-mode", "aria-label": t("clock"), "data-testid": "clock-mode" },
    el("option", { value: "none" }, t("No clock (play at your own pace)")),
    Object.entries(CLOCK_CHOICES).map(([value, c]) => el("option", { value }, c.label())));
  const time = el("select", { name: "clock-time", "aria-label": t("time"), "data-testid": "clock-time" });
  const fill = () => {
    const c = CLOCK_CHOICES[mode.value];
    time.replaceChildren(...(c ? c.times.map((t) => el("option", { value: String(t) }, describeTime(t))) : []));
    if (c) time.value = String(c.preset);
    time.hidden = !c;
  };
  mode.addEventListener("change", fill);
  fill();
  return el("div", { class: "row clock-choice", id: "clock-choice" },
    el("label", {}, t("Clock"), " ", mode), time);
}

// the form's choice as POST /api/tables wants it: {mode, seconds}, or null for none
export function readClock(root = document) {
  const mode = /** @type {HTMLSelectElement | null} */ (root.querySelector("[name=clock-mode]"));
  const time = /** @type {HTMLInputElement} */ (root.querySelector("[name=clock-time]"));
  if (!mode || mode.value === "none") return null;
  return { mode: mode.value, seconds: Number(time.value) };
}

// -- the table -----------------------------------------------------------------------------
// the server's clock minus this page's, per clock message (a re-render for presence keeps it)
const offsets = new WeakMap();

function offsetOf(clock) {
  if (!offsets.has(clock)) offsets.set(clock, clock.now - Date.now() / 1000);
  return offsets.get(clock);
}

function serverNow(clock) {
  return Date.now() / 1000 + offsetOf(clock);
}

/** @param {import("@api").ClockInfo} clock @param {number} i */
function seatTime(clock, i) {
  const c = clock.seats[i];
  if (c.deadline !== null) return { left: c.deadline - serverNow(clock), running: true };
  if (c.left !== null) return { left: c.left, running: false };
  return { left: null, running: false };
}

// a panel with every person's clock, and (the clock gave your seat to a bot) "take it back"
/** @param {import("@api").StateMessage} s @param {string[]} names */
export function clockPanel(s, names, takeBack) {
  const { table } = s;
  const clock = table.clock;
  const away = table.seats.filter((seat) => seat.you_away);
  if (!clock) return null;
  const rows = clock ? table.seats.filter((seat) => !seat.bot && seat.taken).map((seat) => {
    const left = seatTime(clock, seat.seat);
    return el("li", { class: `clock ${left.running ? "running" : ""}`, "data-seat": String(seat.seat),
      "data-testid": "clock" },
    el("span", { class: "name" }, seat.you ? t("{name} (you)", { name: names[seat.seat] }) : names[seat.seat]),
    el("span", { class: "time", role: "timer", "data-deadline": left.running ? String(clock.seats[seat.seat].deadline) : null },
      left.left === null ? "—" : formatLeft(left.left)));
  }) : [];
  const time = describeTime(clock.seconds);
  const about = clock.mode === "turn" ? t("Turn-based: a move within {time}.", { time })
    : clock.mode === "move" ? t("Real time: {time} a move.", { time })
      : t("Real time: {time} a player.", { time });
  const panel = el("section", { class: "panel clocks", "aria-label": t("clocks") },
    el("h2", {}, t("Clocks")),
    el("p", { class: "muted" }, about, " ",
      t("Out of time, a bot plays on; come back to take your seat again.")),
    el("ul", { class: "clock-list" }, rows),
    away.map((seat) => el("button", { type: "button", class: "primary", "data-testid": "take-back",
      onclick: () => takeBack(seat.seat) }, t("Take your seat back (seat {n})", { n: seat.seat + 1 }))));
  current = clock;
  tick();
  return panel;
}

// the head's clock, in sight on a phone too: your time while it runs, else the first
// running clock's, with whose it is
/** @param {import("@api").StateMessage} s @param {string[]} names */
export function clockBadge(s, names) {
  const clock = s.table.clock;
  if (!clock || s.table.status !== "running") return null;
  const running = clock.seats.map((c, i) => [c.deadline, i]).filter(([d]) => d !== null);
  if (!running.length) return null;
  const [deadline, seat] = running.find(([, i]) => i === s.seat) || running[0];
  current = clock;
  offsetOf(clock);
  return el("span", { class: "clock clock-badge running", "data-testid": "clock-badge" },
    seat === s.seat ? "" : `${names[seat]} `,
    el("span", { class: "time", role: "timer", "data-deadline": String(deadline) },
      formatLeft(deadline - serverNow(clock))));
}

let current = null;

// every running clock's text, from its deadline: four times a second
function tick() {
  if (!current) return;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(".clock [data-deadline]"))) {
    const left = Number(node.dataset.deadline) - serverNow(current);
    node.textContent = formatLeft(left);
    const real = current.mode !== "turn";
    node.closest(".clock").classList.toggle("low", real && left < 10);
    node.closest(".clock").classList.toggle("out", left <= 0);
  }
}

if (typeof window !== "undefined" && typeof setInterval === "function") setInterval(tick, 250);
