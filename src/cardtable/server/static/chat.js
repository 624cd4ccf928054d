// The table's chat panel. Messages come from the server's `chat` messages (the last ones on
// every (re)connect, then each new one); they are shown as text (textContent), never HTML.
// One panel node lives for the whole page, so a half-written message survives re-renders.
import { api, el, clear } from "./common.js";
import { date, say as read, t } from "./i18n.js";

const MAX = 300; // the server's chat.MAX_CHAT

export function createChat({ send, tableId }) {
  /** @type {import("@api").ChatSettings | null} */
  let settings = null;
  let state = null; // the last table state (the creator's controls)
  let counter = 0;
  const lines = el("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("chat messages"),
    "data-testid": "chat-lines", "data-empty": t("No messages yet.") }); // (shown by style.css)
  const input = el("input", { name: "chat", maxlength: String(MAX), autocomplete: "off",
    placeholder: t("Message…"), "aria-label": t("chat message"), "data-key": "chat-input",
    "data-testid": "chat-input" });
  const sendButton = el("button", { type: "submit", "data-testid": "chat-send" }, t("Send"));
  const form = el("form", { class: "row chat-form", onsubmit: (event) => {
    event.preventDefault();
    say(input.value);
  } }, input, sendButton);
  const phrases = el("div", { class: "row chat-phrases", role: "group",
    "aria-label": t("quick phrases") });
  const why = el("p", { class: "muted", "data-testid": "chat-why" });
  const problem = el("p", { class: "chat-error", role: "alert", "data-testid": "chat-error" });
  const controls = el("div", { class: "chat-controls" });
  const node = el("section", { class: "panel chat", "aria-label": t("chat"), "data-testid": "chat" },
    el("h2", {}, t("Chat")), lines, why, form, phrases, problem, controls);
  let lastSent = "";

  function say(text) {
    const t = text.trim();
    if (!t) return;
    counter += 1;
    lastSent = t;
    problem.textContent = "";
    send({ type: "chat", text: t, id: `chat-${counter}` });
    input.value = "";
  }

  /** @param {import("@api").ChatLine} m */
  function line(m) {
    const when = new Date(m.at);
    return el("li", { "data-n": String(m.n), title: isNaN(when.getTime()) ? null : date(when) },
      el("b", { class: "chat-name" }, m.name),
      m.seat === null ? el("span", { class: "muted" }, " ", t("(watching)")) : null,
      ": ", el("span", { class: "chat-text" }, read(m.msg ?? m.text)));
  }

  function showSettings() {
    if (!settings) return;
    const free = settings.free;
    input.hidden = !free;
    sendButton.hidden = !free;
    form.hidden = !settings.can_write || !free;
    clear(phrases);
    phrases.hidden = !settings.can_write;
    settings.phrases.forEach((p, i) => {
      phrases.append(el("button", { type: "button", class: "phrase", "data-phrase": p,
        onclick: () => say(p) }, read(settings.phrases_msg?.[i] ?? p)));
    });
    why.textContent = !settings.can_write ? read(settings.why_msg ?? settings.why)
      : free ? "" : t("Free chat is off at this table (the rules limit what players may say): "
        + "use the phrases.");
    why.hidden = !why.textContent;
    clear(controls);
    if (state && state.table.creator) {
      const toggle = (label, key, testid) => el("label", { class: "chat-toggle" },
        el("input", { type: "checkbox", checked: settings[key] || null, "data-testid": testid,
          onchange: async (e) => {
            try {
              await api("POST", `/api/tables/${encodeURIComponent(tableId)}/chat`,
                { [key]: e.target.checked });
            } catch (err) {
              problem.textContent = err.message;
            }
          } }), " ", label);
      controls.append(toggle(t("Free chat"), "free", "chat-free"),
        toggle(t("Spectators may write"), "spectators", "chat-spectators"));
    }
  }

  return {
    node,
    /** @param {import("@api").ChatServerMessage} msg */
    receive(msg) {
      const near = lines.scrollHeight - lines.scrollTop - lines.clientHeight < 40;
      if (msg.replay) clear(lines);
      for (const m of msg.messages) {
        if (!lines.querySelector(`[data-n="${m.n}"]`)) lines.append(line(m));
      }
      settings = msg.settings;
      showSettings();
      if (near || msg.replay) lines.scrollTop = lines.scrollHeight;
    },
    // a chat error for this page's message: said in the panel, the text given back
    /** @param {import("@api").ErrorMessage} msg */
    error(msg) {
      problem.textContent = read(msg.msg ?? msg.message);
      if (lastSent && !input.value && settings && settings.free) input.value = lastSent;
    },
    /** @param {import("@api").StateMessage} s */
    update(s) {
      const wasCreator = state && state.table.creator;
      state = s;
      if (Boolean(wasCreator) !== Boolean(s.table.creator)) showSettings();
    },
  };
}
