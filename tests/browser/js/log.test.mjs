// Unit tests of the game log panel, the move labels and the end in words (issue #11), with
// node's test runner and no DOM: the builders take an element builder `h`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import * as generic from "../../../src/cardtable/server/static/games/generic.js";
import { logPanel } from "../../../src/cardtable/server/static/log.js";
import { results, summary, summaryLines } from
  "../../../src/cardtable/server/static/results.js";

const h = (tag, attrs, ...children) => ({ tag, attrs: attrs || {},
  children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false) });
const text = (node) => (typeof node === "string" ? node : node.children.map(text).join(""));
const all = (node, test) => (typeof node === "string" ? []
  : [...(test(node) ? [node] : []), ...node.children.flatMap((c) => all(c, test))]);

describe("the log panel", () => {
  const entries = [{ n: 0, seat: 0, who: "Ann", text: "Ann chose a card to reveal" },
    { n: 1, seat: 1, who: "Bob", text: "Bob chose b2 to reveal" }];

  it("lists every move in order, numbered from 1, the current one marked", () => {
    const panel = logPanel(entries, { current: 1 }, h);
    const lines = all(panel, (x) => x.tag === "li");
    assert.deepEqual(lines.map(text), ["1. Ann chose a card to reveal", "2. Bob chose b2 to reveal"]);
    assert.deepEqual(lines.map((l) => l.attrs["aria-current"]), [null, "step"]);
  });

  it("makes each line a button that picks its move when asked to", () => {
    const picked = [];
    const panel = logPanel(entries, { pick: (n) => picked.push(n) }, h);
    const buttons = all(panel, (x) => x.tag === "button");
    assert.equal(buttons.length, 2);
    buttons[1].attrs.onclick();
    assert.deepEqual(picked, [1]);
  });

  it("shows news apart: no number, no button, never the current move", () => {
    const scored = [...entries, { n: 1, seat: 1, who: "", news: true,
      text: "Scoring: Ann cancelled 8 cards, 8 left sum to 47" }];
    const panel = logPanel(scored, { current: 1, pick: () => {} }, h);
    const lines = all(panel, (x) => x.tag === "li");
    assert.equal(text(lines[2]), "Scoring: Ann cancelled 8 cards, 8 left sum to 47");
    assert.equal(lines[2].attrs.class, "log-line log-news");
    assert.equal(lines[2].attrs["aria-current"], undefined);
    assert.equal(all(lines[2], (x) => x.tag === "button").length, 0);
  });

  it("says so when there is no move yet", () => {
    assert.match(text(logPanel([], {}, h)), /No move yet/);
  });
});

describe("move labels", () => {
  it("uses the server's labels, and the action where it has none", () => {
    const buttons = generic.moveButtons(["play 2", "draw"], null, ["play 2 · +1", ""]);
    assert.deepEqual(buttons.map((b) => b.label), ["play 2 · +1", "draw"]);
  });

  it("labels in the words the server sent for the reader's language, where it sent them", () => {
    const words = { msg: "play {card} on {pile}", domain: "x", args: { card: 2, pile: "up" } };
    // (the English differs here only to tell which one the button shows)
    const buttons = generic.moveButtons(["play 2", "draw"], null, ["English", "draw"],
      [words, null]);
    assert.deepEqual(buttons.map((b) => b.label), [words, "draw"]);
    const shown = generic.board({ view: {}, legal: ["play 2", "draw"], seat: 0, table: {},
      labels: ["English", "draw"], labels_msg: [words, null] },
    { ui: {}, readOnly: false, act: () => {} }, h);
    const moves = all(shown, (x) => x.tag === "button").map(text);
    assert.deepEqual(moves, ["play 2 on up", "draw"]);
  });
});

describe("the end in words", () => {
  it("shows why a table closed early in the server's lines, where it has no figures", () => {
    const table = { id: "t", game: "x", players: 3, ended: "resigned",
      seats: [{ seat: 0, name: "Ann", you: true }, { seat: 1, name: "Bob" },
        { seat: 2, name: "Greedy", bot: "greedy" }] };
    const lines = ["Resigned", "Nobody but bots played on: the game ended there.", "#1 Greedy",
      "#2 Ann (resigned)", "#3 Bob (resigned)"];
    const sum = summary(null, { verdict: "You came 2nd of 3.", lines, notes: [] }, table,
      ["Ann", "Bob", "Greedy"], true);
    const panel = results(sum, table, ["Ann", "Bob", "Greedy"], false, h);
    const first = panel.children[1];
    assert.equal(first.attrs["data-testid"], "verdict");
    assert.equal(text(first), "You came 2nd of 3.");
    assert.equal(text(panel.children[2]), "Resigned");
    assert.equal(panel.attrs["data-won"], "false");
    const shown = all(panel, (x) => x.attrs["data-testid"] === "result-lines")[0];
    assert.deepEqual(shown.children.map(text), lines.slice(1)); // (the first is the headline)
    assert.equal(all(panel, (x) => x.attrs["data-testid"] === "figures").length, 0);
  });

  it("says how a table closed in the server's words, its first line", () => {
    const table = { id: "t", game: "x", players: 1, ended: "abandoned",
      seats: [{ seat: 0, name: "Ann", you: true }] };
    const sum = summary(null, { verdict: null, lines: ["Abandoned (counted as lost)"], notes: [] },
      table, ["Ann"], false);
    assert.deepEqual(summaryLines(sum), ["Abandoned (counted as lost)"]);
  });
});
