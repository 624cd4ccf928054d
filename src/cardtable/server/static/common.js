// Shared helpers: the JSON API, DOM building, the top bar and the name dialog.
import { say, t, tn } from "./i18n.js";
import { languageSwitcher } from "./language.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  // x-cardtable: the server refuses a POST without a JSON body or this header (a page on
  // another site cannot send it without asking first, and the server never agrees)
  const headers = method === "GET" ? {} : { "x-cardtable": "1" };
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;  // no JSON body (an empty answer, a proxy's page)
  }
  if (!res.ok) {
    // the reason in the reader's language (`msg`), else in English
    const detail = data && (say(data.msg ?? data.message)
      || (typeof data.detail === "string" ? data.detail : null));
    throw new ApiError(res.status, data && data.error, detail || `${res.status} ${res.statusText}`);
  }
  return data;
}

// el("button", {class: "x", onclick: f, dataset: {action: "flip"}}, "text", child)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // property by property: the Content-Security-Policy blocks style attributes (and cssText)
    else if (key === "style") setStyle(node, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// "width:6rem; color:#cfe3da" set through the CSSOM, which the policy allows
function setStyle(node, text) {
  for (const declaration of String(text).split(";")) {
    const colon = declaration.indexOf(":");
    if (colon > 0) node.style.setProperty(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// Move the keyboard focus to the first element `selector` finds, if any.
export function focusOn(selector) {
  const node = /** @type {HTMLElement | null} */ (document.querySelector(selector));
  if (node) node.focus();
}

// Re-rendering replaces elements; put keyboard focus back on the "same" one (by data-key),
// or on `fallback` when it is gone or disabled (a card played): the focus is never lost to
// the page's top, where a keyboard would have to start again.
/** @param {() => void} render @param {HTMLElement | null} [fallback] */
export function keepFocus(render, fallback = null) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const key = active && active.dataset ? active.dataset.key : null;
  render();
  if (key) {
    const again = /** @type {HTMLButtonElement | null} */ (
      document.querySelector(`[data-key="${CSS.escape(key)}"]`));
    if (again && !again.disabled) again.focus();
    else if (fallback && document.activeElement === document.body) fallback.focus();
  }
}

/** @type {import("@api").Player | null} */
let me = null;
let hasRecovery = false;

export async function getMe() {
  if (me === null) {
    /** @type {import("@api").MeAnswer} */
    const answer = await api("GET", "/api/me");
    me = answer.player;
    hasRecovery = Boolean(answer.recovery);
  }
  return me;
}

// -- one person, several browsers: a recovery code (no password) ----------------------------
// A link `…/#recover=CODE` (the code stays out of server logs: a fragment is never sent)
// offers to make this browser the person whose code it is, and never does without a click:
// a link may carry someone else's code, and this browser would lose who it was.
async function recoverFromLink() {
  const match = location.hash.match(/^#recover=([A-Za-z0-9-]{1,64})$/);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);
  let whose;
  try {
    whose = (await api("POST", "/api/me/recover/whose", { code: match[1] })).player;
  } catch (e) {
    showMessage(e.message);
    return;
  }
  if (me && me.id === whose.id) {
    showMessage(t("This recovery link is yours: this browser plays as {name} already.", { name: me.name }), "info");
    return;
  }
  if (!(await confirmSwitch(whose))) return;
  try {
    await recover(match[1]);
    showMessage(t("Welcome back, {name}: this browser plays as you now.", { name: me.name }), "info");
  } catch (e) {
    showMessage(e.message);
  }
}

// Asks before a link switches this browser to `whose`: who it becomes, who it stops being
// (with a way to keep a code for them first). Resolves true on the one button that switches;
// Cancel, Escape or closing keep the identity.
function confirmSwitch(whose) {
  return new Promise((resolve) => {
    const current = me;
    const out = el("div", { class: "stack", "data-testid": "recovery-out" });
    const loses = current
      ? el("p", { "data-testid": "recover-loses" }, hasRecovery
        ? t("You are {name} now: come back as {name} with the recovery code you kept, or make "
          + "a new one first, or you lose {name}.", { name: current.name })
        : t("You are {name} now: keep a recovery code for {name} first, or you lose {name}.",
          { name: current.name }))
      : el("p", { "data-testid": "recover-loses" }, t("This browser has no name yet."));
    const keep = current ? el("button", { type: "button", "data-testid": "recovery-make",
      onclick: async () => {
        if (await makeCode(out) && keep) keep.textContent = t("Make a new code for {name}", { name: current.name });
      } }, t("Make a recovery code for {name}", { name: current.name })) : null;
    const no = el("button", { type: "button", "data-testid": "recover-cancel",
      onclick: () => dialog.close() }, current ? t("Stay {name}", { name: current.name }) : t("Cancel"));
    let yes = false;
    const go = el("button", { type: "button", class: "primary", "data-testid": "recover-confirm",
      onclick: () => { yes = true; dialog.close(); } }, t("Play as {name}", { name: whose.name }));
    const dialog = el("dialog", { role: "alertdialog", "aria-labelledby": "recover-ask-title",
      "aria-describedby": "recover-ask-what", "data-testid": "recover-ask" },
    el("div", { class: "stack" },
      el("h2", { id: "recover-ask-title" }, t("Play as {name}?", { name: whose.name })),
      el("div", { id: "recover-ask-what", class: "stack" },
        el("p", { "data-testid": "recover-who" }, t("This link signs you in as {name}.", { name: whose.name })),
        loses),
      out, el("div", { class: "row" }, keep, go, no)));
    dialog.addEventListener("close", () => { dialog.remove(); resolve(yes); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus(); // the safe choice first: Enter or Space keeps who this browser is
  });
}

export async function recover(code) {
  const answer = await api("POST", "/api/me/recover", { code: code.trim() });
  me = answer.player;
  hasRecovery = true;
  renderWho();
  return answer;
}

// Make (or renew) the person's recovery code and show it, with its link, in `out`.
async function makeCode(out) {
  try {
    const { code } = await api("POST", "/api/me/recovery");
    hasRecovery = true;
    const link = `${location.origin}/#recover=${code}`;
    const linkInput = el("input", { readonly: true, value: link, "aria-label": t("recovery link"),
      onfocus: (e) => e.target.select() });
    clear(out).append(
      el("p", { role: "status" }, t("Your recovery code (keep it secret, like a password):")),
      el("p", { class: "recovery-code", "data-testid": "recovery-code" }, code),
      el("p", { class: "muted" }, t("Or open this link in the other browser:")),
      el("div", { class: "row", style: "flex-wrap:nowrap" }, linkInput,
        el("button", { type: "button", onclick: (e) => copyText(link, e.currentTarget) }, t("Copy"))));
    return true;
  } catch (e) {
    clear(out).append(el("p", { role: "alert" }, e.message));
    return false;
  }
}

// The dialog that shows (makes) the person's recovery code, or takes one from another device.
export function recoveryDialog() {
  const out = el("div", { class: "stack", "data-testid": "recovery-out" });
  const make = el("button", { type: "button", class: "primary", "data-testid": "recovery-make",
    onclick: async () => {
      if (await makeCode(out)) make.textContent = t("Make a new code");
    } }, hasRecovery ? t("Make a new code") : t("Make my recovery code"));
  const close = el("button", { type: "button", onclick: () => dialog.close() }, t("Close"));
  const dialog = el("dialog", { "aria-label": t("Play on another device") },
    el("div", { class: "stack" },
      el("h2", {}, t("Play as you on another device")),
      el("p", { class: "muted" }, t("No password: a recovery code makes another browser you, "
        + "with your tables and your place on the leaderboard."),
      hasRecovery ? " " + t("You have a code already; a new one replaces it (the old one stops "
        + "working).") : ""),
      out, el("div", { class: "row" }, make, close)));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

// The name dialog: resolves with the player once a name is saved (or at once if known).
export async function askName(force = false) {
  const known = await getMe();
  if (known && !force) return known;
  return new Promise((resolve) => {
    const input = el("input", {
      name: "name", maxlength: "24", required: true, autocomplete: "nickname",
      "aria-label": t("Your name"), value: known ? known.name : "",
    });
    const error = el("p", { class: "muted", role: "alert" });
    const cancel = el("button", { type: "button", onclick: () => dialog.close() }, t("Cancel"));
    // a person who played elsewhere types their recovery code instead of a new name
    const codeInput = el("input", { name: "code", autocomplete: "off", maxlength: "64",
      "aria-label": t("Recovery code"), placeholder: "XXXXX-XXXXX-XXXXX-XXXXX",
      "data-testid": "recover-code" });
    const useCode = el("button", { type: "button", "data-testid": "recover-use", onclick: async () => {
      try {
        await recover(codeInput.value);
        dialog.close();
        resolve(me);
      } catch (e) {
        error.textContent = e.message;
      }
    } }, t("Use code"));
    const recoverBox = known ? null : el("details", { class: "recover" },
      el("summary", {}, t("I played on another device (recovery code)")),
      el("div", { class: "row", style: "flex-wrap:nowrap" }, codeInput, useCode));
    const form = el("form", { method: "dialog", class: "stack" },
      el("h2", {}, t("Your name")),
      el("p", { class: "muted" }, t("Other players see it at the table. No password needed.")),
      input, error,
      el("div", { class: "row" }, el("button", { class: "primary", type: "submit" }, t("Save")),
        known || !force ? cancel : null), recoverBox);
    const dialog = el("dialog", { "aria-label": t("Choose your name") }, form);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        me = (await api("POST", "/api/me", { name: input.value.trim() })).player;
        dialog.close();
        renderWho();
        resolve(me);
      } catch (e) {
        error.textContent = e.message;
      }
    });
    dialog.addEventListener("close", () => { dialog.remove(); if (!me) resolve(null); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

function renderWho() {
  const who = document.querySelector(".topbar .who");
  if (!who) return;
  clear(who);
  if (me) {
    who.append(playingAs(me.name),
      el("button", { type: "button", onclick: () => askName(true) }, t("Rename")),
      el("button", { type: "button", "data-testid": "other-device", title: t("a recovery code"),
        onclick: () => recoveryDialog() }, t("Other devices")));
  } else {
    who.append(el("button", { type: "button", class: "primary", onclick: () => askName(true) },
      t("Choose a name")));
  }
}

// "Playing as <b>Ann</b>": the sentence is one message, the name bold wherever the language
// puts it
function playingAs(name) {
  const [before, after = ""] = t("Playing as {name}").split("{name}");
  return el("span", {}, before, el("b", { "data-testid": "me-name" }, name), after);
}

// A keyboard's first Tab stop, out of sight until reached: straight to the page's content
// (`target`: the table's board), past the top bar's links (WCAG 2.4.1)
function skipLink(target) {
  return el("a", { class: "skip-link", href: "#", "data-testid": "skip", onclick: (event) => {
    event.preventDefault(); // (the replay keeps its step in the address's fragment)
    const node = /** @type {HTMLElement | null} */ (document.querySelector(target));
    if (!node) return;
    if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
    node.focus();
  } }, t("Skip to the content"));
}

/** @param {string} [skipTo] where the skip link goes (a selector) */
export async function topbar(skipTo = "main") {
  // on a phone the links and the person's buttons fold behind one Menu button (style.css), so
  // the bar is one line and the page starts near the top (#24); elsewhere the button is hidden
  const toggle = el("button", { type: "button", class: "menu-toggle", "aria-expanded": "false",
    "aria-controls": "topbar-menu", "data-testid": "menu" }, t("☰ Menu"));
  const bar = el("header", { class: "topbar" },
    skipLink(skipTo),
    el("a", { class: "brand", href: "/" }, "cardtable"),
    toggle,
    el("div", { class: "topbar-menu", id: "topbar-menu" },
      el("nav", { "aria-label": t("Main") },
        el("a", { href: "/" }, t("Lobby")),
        el("a", { href: "/tournaments", "data-testid": "tournaments-link" }, t("Tournaments")),
        el("a", { href: "/leaderboard" }, t("Leaderboard")),
        el("a", { href: "/me", "data-testid": "my-games-link" }, t("My games"))),
      el("div", { class: "who" })));
  const setOpen = (open) => {
    bar.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => setOpen(!bar.classList.contains("open")));
  // Escape closes an open menu and gives the focus back to its button, as a menu button does
  bar.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  document.body.prepend(bar);
  const [switcher] = await Promise.all([languageSwitcher(), getMe()]);
  if (switcher) bar.querySelector(".topbar-menu").append(switcher);
  await recoverFromLink();
  renderWho();
  // a recovery link opened over this very page changes only the fragment: load it afresh,
  // so that the page asks, then runs as whoever the person chose
  window.addEventListener("hashchange", () => {
    if (location.hash.startsWith("#recover=")) location.reload();
  });
}

// One message area per page: errors stay until dismissed or replaced.
export function showMessage(text, kind = "error") {
  const box = document.getElementById("messages");
  if (!box) return;
  clear(box);
  if (!text) return;
  box.append(el("div", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status",
    "data-testid": "message" },
  el("span", {}, text),
  el("button", { type: "button", "aria-label": t("Dismiss message"), onclick: () => clear(box) }, "×")));
}

/** @type {import("@api").GameInfo[] | null} */
let games = null;

/** @returns {Promise<import("@api").GameInfo[]>} */
export async function getGames() {
  if (games === null) games = await api("GET", "/api/games");
  return games;
}

export function gameTitle(name) {
  const g = (games || []).find((x) => x.name === name);
  return g ? g.title : name;
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // clipboard needs a secure context: select the text for a manual copy instead
    const input = button && button.previousElementSibling;
    if (input && input.select) input.select();
    document.execCommand && document.execCommand("copy");
  }
  if (button) {
    const old = button.textContent;
    button.textContent = t("Copied");
    setTimeout(() => { button.textContent = old; }, 1500);
  }
}

// "just now", "3 min ago", "5 h ago", "2 days ago": the age of an ISO 8601 time (UTC)
export function ago(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return t("just now");
  if (s < 3600) return tn("{n} min ago", "{n} min ago", Math.floor(s / 60));
  if (s < 86400) return tn("{n} h ago", "{n} h ago", Math.floor(s / 3600));
  return tn("{n} day ago", "{n} days ago", Math.floor(s / 86400));
}

// a table's status as its badge says it (the class keeps the status itself)
export function statusWord(status) {
  // TRANSLATORS: the status badge of a table: waiting for players, being played, finished
  const words = { open: t("open"), running: t("running"), over: t("over") };
  return words[status] || status;
}
