// "Your turn" signals: the tab's title, a short generated sound (Web Audio: no sound file),
// which a toggle mutes (remembered in localStorage), and a browser notification while the
// tab is hidden, if the person allowed them (asked only when they click, never on load);
// a screen reader hears "Your turn" once (an assertive live region, table.html).
// Only when this seat is really to act: a seat that has made its choice in a simultaneous
// round, or that may only talk, is waiting like everyone else.
import { el } from "./common.js";
import { t } from "./i18n.js";

const MUTE_KEY = "cardtable.sound";
let audio = null;
let before = null; // whether it was this seat's turn in the last state (null: none yet)
let lastVersion = null;
//: what the signals did, for the page's tests (counts only)
export const signalled = { sounds: 0, notifications: 0 };
if (typeof window !== "undefined") window.cardtableSignals = signalled;

/** @param {import("@api").StateMessage | null} s */
export function isMyTurn(s) {
  if (!s || s.seat === null || s.table.status !== "running") return false;
  const toAct = /** @type {number[] | undefined} */ (s.view.to_act) || [];
  return toAct.includes(s.seat) && s.legal.length > 0;
}

export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "off";
  } catch {
    return false;
  }
}

function setMuted(off) {
  try {
    localStorage.setItem(MUTE_KEY, off ? "off" : "on");
  } catch {
    // storage refused (private mode): the choice lasts as long as the page
  }
}

// two short rising tones, quiet, a quarter of a second in all
export function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  try {
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime + 0.01;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = t0 + i * 0.13;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.13);
    });
    return true;
  } catch {
    return false;
  }
}

function notify(title) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  try {
    const note = new Notification(t("Your turn — {title}", { title }),
      { body: t("cardtable: it is your move"), tag: location.pathname });
    note.onclick = () => window.focus();
    signalled.notifications += 1;
  } catch {
    // some browsers allow notifications only from a service worker: the title still says it
  }
}

// after every state: the title always, and on the change to "your turn" the sound and
// the notification
/** @param {import("@api").StateMessage} s */
export function signalTurn(s) {
  const mine = isMyTurn(s);
  const title = s.table.title;
  document.title = mine ? `▶ ${t("Your turn — {title}", { title })}` : `${title} · cardtable`;
  document.body.dataset.myTurn = mine ? "1" : "";
  announce(s, mine);
  const fresh = s.version !== lastVersion;
  lastVersion = s.version;
  if (mine && before === false && fresh) {
    if (!muted() && chime()) signalled.sounds += 1;
    notify(title);
  }
  before = mine;
}

// "Your turn" said once to a screen reader when the turn comes (an assertive live region,
// table.html), emptied when the turn goes: a re-render or a presence change never says it
// again, and the next turn says it anew. The end is said once too, in the server's words
// (this seat's verdict, else the headline).
const YOUR_TURN = t("Your turn");
/** @param {import("@api").StateMessage} s @param {boolean} mine */
function announce(s, mine) {
  const box = document.getElementById("announce");
  if (!box) return;
  const end = s.table.status === "over" && s.ending
    ? s.ending.verdict || s.ending.lines[0] || "" : "";
  const text = end || (mine ? YOUR_TURN : "");
  if (box.textContent !== text) box.textContent = text;
}

// the mute toggle and (where the browser can) the button that asks for notifications
export function signalControls() {
  const sound = el("button", { type: "button", "data-testid": "mute", "data-key": "mute", "aria-pressed": muted() ? "true" : "false",
    title: t("the short sound when it becomes your turn") }, soundWord());
  sound.addEventListener("click", () => {
    setMuted(!muted());
    sound.setAttribute("aria-pressed", muted() ? "true" : "false");
    sound.textContent = soundWord();
    if (!muted()) chime(); // a click lets the page make sound: let the person hear it
  });
  const parts = [sound];
  if (typeof window !== "undefined" && "Notification" in window && Notification.permission === "default") {
    const ask = el("button", { type: "button", "data-testid": "notify", "data-key": "notify" },
      t("Notify me when it is my turn"));
    ask.addEventListener("click", async () => {
      try {
        await Notification.requestPermission();
      } finally {
        ask.remove();
      }
    });
    parts.push(ask);
  }
  return el("div", { class: "row signals", role: "group", "aria-label": t("turn signals") }, parts);
}

function soundWord() {
  return muted() ? t("♪ Sound off") : t("♪ Sound on");
}
