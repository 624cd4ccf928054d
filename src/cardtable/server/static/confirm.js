// A question before a step that cannot be taken back, as a modal dialog made like the
// others of the site (common.js): an alert dialog named by its title and described by its
// text, the safe choice focused first, so Enter, Space or Escape keep things as they are.
import { el } from "./common.js";

let asked = 0; // ids of the dialogs' title and text, one pair per question

/**
 * Ask `title` with `text`; resolves true only when the person chooses `yes`.
 * @param {{title: string, text: string, yes: string, no: string, testid?: string}} q
 * @returns {Promise<boolean>}
 */
export function confirmStep({ title, text, yes, no, testid = "confirm" }) {
  return new Promise((resolve) => {
    asked += 1;
    const ids = [`confirm-title-${asked}`, `confirm-text-${asked}`];
    let chosen = false;
    const keep = el("button", { type: "button", "data-testid": `${testid}-no`,
      onclick: () => dialog.close() }, no);
    const go = el("button", { type: "button", class: "primary", "data-testid": `${testid}-yes`,
      onclick: () => { chosen = true; dialog.close(); } }, yes);
    const dialog = el("dialog", { role: "alertdialog", "aria-labelledby": ids[0],
      "aria-describedby": ids[1], "data-testid": testid },
    el("div", { class: "stack" },
      el("h2", { id: ids[0] }, title),
      el("p", { id: ids[1] }, text),
      el("div", { class: "row" }, go, keep)));
    dialog.addEventListener("close", () => { dialog.remove(); resolve(chosen); });
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
