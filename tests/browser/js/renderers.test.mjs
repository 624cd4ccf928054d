// Unit tests of the browser's per-game code, with node's test runner and no DOM: the pure
// parts (move buttons, result summaries, seat texts) and the DOM-building functions that take
// an element builder `h`, given one that builds plain objects.
// Run by tests/browser/test_js_units.py, which also writes real views of every registered
// game (the plugin game too) to the file named by CARDTABLE_SAMPLES.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";

import * as generic from "../../../src/cardtable/server/static/games/generic.js";
import * as slide from "../../../src/cardtable/server/static/games/slide.js";
import * as doublets from "../../../src/cardtable/server/static/games/doublets.js";
import * as theGame from "../../../src/cardtable/server/static/games/the-game.js";
import { rendererFor } from "../../../src/cardtable/server/static/renderers.js";
import { ranksSeats, results, summary, summaryLines } from
  "../../../src/cardtable/server/static/results.js";

// an element as {tag, attrs, children}
const h = (tag, attrs, ...children) => ({ tag, attrs: attrs || {},
  children: children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false) });
const text = (node) => (typeof node === "string" ? node
  : node.children.map(text).join(node.tag === "td" || node.tag === "th" ? " " : ""));
const all = (node, test) => (typeof node === "string" ? []
  : [...(test(node) ? [node] : []), ...node.children.flatMap((c) => all(c, test))]);

function tableOf(game, players, you = 0) {
  return { id: "t1", game, players, seed: null,
    seats: [...Array(players).keys()].map((i) => ({ seat: i, name: `P${i}`, you: i === you })) };
}

describe("the generic renderer", () => {
  it("labels every legal action with the action, in the server's order", () => {
    const legal = ["play 7", "play 2", "draw"];
    assert.deepEqual(generic.moveButtons(legal).map((b) => [b.action, b.label]),
      legal.map((a) => [a, a]));
    assert.deepEqual(generic.moveButtons(legal, "draw").map((b) => b.hinted), [false, false, true]);
  });

  it("builds one button per legal action that sends it, and none when read only", () => {
    const sent = [];
    const s = { view: { total: 4, hand: [2, 7] }, legal: ["play 2", "play 7"], seat: 0,
      version: 3, table: tableOf("x", 2) };
    const ctx = { act: (a) => sent.push(a), ui: {}, readOnly: false };
    const buttons = all(generic.board(s, ctx, h), (n) => n.tag === "button");
    assert.deepEqual(buttons.map((b) => b.attrs["data-action"]), ["play 2", "play 7"]);
    assert.deepEqual(buttons.map(text), ["play 2", "play 7"]);
    buttons[1].attrs.onclick();
    assert.deepEqual(sent, ["play 7"]);
    const watching = generic.board(s, { ...ctx, readOnly: true }, h);
    assert.equal(all(watching, (n) => n.tag === "button").length, 0);
  });

  it("marks the hinted move of this version only", () => {
    const s = { view: {}, legal: ["a", "b"], seat: 0, version: 5, table: tableOf("x", 1) };
    const hinted = (version) => all(generic.board(s, { act() {}, ui: { hint: { action: "b",
      version } } }, h), (n) => n.tag === "button" && n.attrs.class.includes("hinted"));
    assert.deepEqual(hinted(5).map(text), ["b"]);
    assert.equal(hinted(4).length, 0);
  });

  it("shows the view as a tree: words for keys, lists on a line, deeper parts in details", () => {
    const tree = generic.tree({ hand_sizes: [3, 2], over: false, pile: [], who: null,
      grids: [[1, 2], [3]], seat: { name: "Ann" } }, h);
    assert.equal(tree.tag, "dl");
    const dts = all(tree, (n) => n.tag === "dt");
    assert.deepEqual(dts.map(text), ["hand sizes", "over", "pile", "who", "grids", "seat", "name"]);
    const dd = (key) => tree.children[tree.children.findIndex((c) => c.attrs["data-key-name"] === key) + 1];
    assert.equal(text(dd("hand_sizes")), "3, 2");
    assert.equal(text(dd("over")), "no");
    assert.equal(text(dd("pile")), "none");
    assert.equal(text(dd("who")), "–");
    assert.equal(dd("grids").children[0].tag, "details");
    assert.equal(all(dd("grids"), (n) => n.tag === "li").length, 2);
  });

  it("leaves the result to the results panel, the seats and the turn to the players panel", () => {
    const s = { view: { total: 1, result: { over: true, scores: [0], winners: [0], ranks: [1] },
      game: "x", seat: 0, players: 1, to_act: [] }, legal: [], seat: 0, version: 1,
      table: tableOf("x", 1) };
    const keys = all(generic.board(s, { act() {}, ui: {} }, h), (n) => n.tag === "dt").map(text);
    assert.deepEqual(keys, ["total"]);
  });
});

describe("the results: the server's words", () => {
  const result = { over: true, scores: [4, 1, 1], winners: [1, 2], ranks: [3, 1, 1] };
  const names = ["Ann", "Bob", "Cy"];
  const ending = (verdict) => ({ verdict, lines: ["Shared win: Bob, Cy", "#1 Bob: 1", "#1 Cy: 1",
    "#3 Ann: 4"], breakdown: { columns: ["score"], seats: [[4], [1], [1]], table: [] },
  notes: [] });

  it("heads the figures with the server's first line, the seats by rank, ties by seat", () => {
    const sum = summary(result, ending(null), tableOf("x", 3, -1), names, true);
    assert.equal(sum.headline, "Shared win: Bob, Cy");
    assert.deepEqual(summaryLines(sum, names),
      ["Shared win: Bob, Cy", "#1 Bob: score 1", "#1 Cy: score 1", "#3 Ann: score 4"]);
    assert.equal(sum.won, null);
  });

  it("gives each player the server's verdict first, and marks the winners", () => {
    const sum = summary(result, ending("You shared 1st place with 1 other (of 3)."),
      tableOf("x", 3, 1), names, true);
    assert.equal(sum.mine, true);
    const panel = results(sum, tableOf("x", 3, 1), names, true, h);
    assert.equal(panel.attrs["data-testid"], "results");
    assert.equal(panel.children[1].attrs["data-testid"], "verdict");
    assert.equal(text(panel.children[1]), "You shared 1st place with 1 other (of 3).");
    assert.equal(text(panel.children[2]), "Shared win: Bob, Cy");
    const rows = all(panel, (n) => n.tag === "tr" && n.attrs["data-seat"] !== undefined);
    assert.deepEqual(rows.map((r) => r.attrs["data-seat"]), ["1", "2", "0"]);
    assert.equal(all(panel, (n) => n.attrs.class === "winner-mark").length, 2);
    assert.ok(all(panel, (n) => n.tag === "a").some((a) => a.attrs.href === "/t/t1/replay"));
    assert.equal(all(results(sum, tableOf("x", 3), names, false, h), (n) => n.tag === "a").length, 0);
    assert.equal(results(null, tableOf("x", 3), names, true, h), null);
  });

  it("has no words of its own for a game's end", () => {
    // the end of every game is the server's (Game.verdict, result_lines): no module says it
    for (const module of [generic, slide, doublets, theGame]) {
      assert.equal("resultSummary" in module, false);
    }
    const source = readFileSync(new URL("../../../src/cardtable/server/static/results.js",
      import.meta.url), "utf8");
    for (const words of ["win!", "wins.", "Nobody w"]) assert.equal(source.includes(words), false);
  });
});

describe("each game's results and seats", () => {
  it("Slide: one table of ranks and the server's figures per player, its notes", () => {
    const result = { over: true, scores: [12, 3], remaining: [5, 2], winners: [1], ranks: [2, 1],
      deals: [] };
    const ending = { verdict: null, lines: ["Winner: Bob", "#1 Bob: 3 (2 cards)"],
      breakdown: { columns: ["sum", "cards left", "cancelled"], seats: [[12, 5, 11], [3, 2, 14]],
        table: [] }, notes: ["Lowest sum wins."] };
    const sum = summary(result, ending, tableOf("slide", 2, 0), ["Ann", "Bob"], true);
    assert.deepEqual(summaryLines(sum, ["Ann", "Bob"]), ["Winner: Bob",
      "#1 Bob: sum 3, cards left 2, cancelled 14", "#2 Ann: sum 12, cards left 5, cancelled 11",
      "Lowest sum wins."]);
    // one presentation: the table, no list of the same lines
    const panel = results(sum, tableOf("slide", 2, 0), ["Ann", "Bob"], false, h);
    assert.equal(all(panel, (n) => n.attrs["data-testid"] === "result-lines").length, 0);
    const heads = all(panel, (n) => n.tag === "th").map(text);
    assert.deepEqual(heads, ["rank", "player", "sum", "cards left", "cancelled"]);
    const cells = all(panel, (n) => n.tag === "tr" && n.attrs["data-seat"] === "1")[0];
    assert.deepEqual(all(cells, (n) => n.tag === "td").map(text), ["1", "Bob  ★", "3", "2", "14"]);
    const seatView = { totals: [7, 9], phase: "reveal", chosen: [true, false], first: 1 };
    assert.equal(slide.seatExtra(seatView, 0), "score 7 · has chosen");
    assert.equal(slide.seatExtra(seatView, 1), "score 9 · choosing… · first player");
  });

  it("Doublets: the server's line, and the foundation's figures", () => {
    const won = { over: true, won: true, scores: [48], winners: [0], ranks: [1] };
    const lost = { over: true, won: false, scores: [30], winners: [], ranks: [1] };
    const t = tableOf("doublets", 1);
    const ending = (line, on) => ({ verdict: null, lines: [line], notes: [], breakdown: {
      columns: [], seats: [], table: [["on the foundation", on], ["left", 48 - on]] } });
    assert.deepEqual(summaryLines(summary(won, ending("All 48 cards are on the foundation: won!",
      48), t, ["Ann"], false)),
    ["All 48 cards are on the foundation: won!", "on the foundation: 48", "left: 0"]);
    const sum = summary(lost, ending("Score 30 of 48 cards on the foundation.", 30), t, ["Ann"],
      false);
    assert.deepEqual(summaryLines(sum),
      ["Score 30 of 48 cards on the foundation.", "on the foundation: 30", "left: 18"]);
    const dl = all(results(sum, t, ["Ann"], false, h), (n) => n.tag === "dd").map(text);
    assert.deepEqual(dl, ["30", "18"]);
    assert.equal(results(sum, t, ["Ann"], false, h).attrs["data-won"], "false");
    assert.equal(doublets.showSeats({ players: 1 }), false);
    assert.equal(doublets.showsAdvice, true);
    assert.equal(doublets.seatExtra({ score: 17 }), "score 17");
  });

  it("The Game: the team's line and who played, no ranks", () => {
    const names = ["Ann", "Bob"];
    const t = tableOf("the-game", 2);
    const good = { over: true, won: false, cards_left: 7, good: true, scores: [7, 7],
      winners: [], ranks: [1, 1] };
    const ending = { verdict: "The team did not win.", notes: ["Bob could not play 1 more card."],
      lines: ["The team did not win. Cards left: 7 (played 91).", "Bob could not play 1 card."],
      breakdown: { columns: ["cards in hand"], seats: [[3], [1]],
        table: [["draw pile", 3], ["cards left", 7]] } };
    // not ranked: the game is played as a team (GET /api/games: cooperative)
    const sum = summary(good, ending, t, names, false);
    assert.deepEqual(summaryLines(sum, names), ["The team did not win.",
      "The team did not win. Cards left: 7 (played 91).",
      "Ann: cards in hand 3", "Bob: cards in hand 1", "draw pile: 3", "cards left: 7",
      "Bob could not play 1 more card."]);
    const panel = results(sum, t, names, false, h);
    assert.deepEqual(all(panel, (n) => n.tag === "th").map(text), ["player", "cards in hand"]);
    assert.equal(panel.attrs["data-won"], "false");
    const seatView = { hand_sizes: [6, 7], turn: 1, over: false, played_this_turn: 1 };
    assert.equal(theGame.seatExtra(seatView, 0), "6 cards in hand");
    assert.equal(theGame.seatExtra(seatView, 1), "7 cards in hand · played 1");
  });

  it("ranks the seats of a game played by several, not as a team", () => {
    assert.equal(ranksSeats({ cooperative: false }, tableOf("slide", 3)), true);
    assert.equal(ranksSeats({ cooperative: true }, tableOf("the-game", 3)), false);
    assert.equal(ranksSeats({ cooperative: false }, tableOf("doublets", 1)), false);
    assert.equal(ranksSeats(null, tableOf("x", 2)), false);
  });
});

describe("choosing a renderer", () => {
  it("takes a game's module and fills in what it leaves out from the generic one", async () => {
    const r = await rendererFor("doublets");
    assert.equal(r.render, doublets.render);
    assert.equal(r.seatExtra, doublets.seatExtra);
    const s = await rendererFor("slide");
    assert.equal(s.showSeats, generic.showSeats);
    assert.equal(s.showsAdvice, false);
  });

  it("holds every game's module to the hooks the pages know", async () => {
    const dir = new URL("../../../src/cardtable/server/static/games/", import.meta.url);
    const modules = readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "generic.js");
    assert.ok(modules.length >= 3);
    for (const file of modules) {
      const module = await import(new URL(file, dir));
      const unknown = Object.keys(module).filter((k) => !generic.HOOKS.includes(k));
      assert.deepEqual(unknown, [], `${file} exports ${unknown.join(", ")}`);
    }
  });

  it("shows a game without a module, or with a strange name, generically", async () => {
    assert.equal(await rendererFor("no-such-game"), generic);
    assert.equal(await rendererFor("../common"), generic);
  });
});

// -- real views of every registered game, from the Python side -------------------------------
const samplesFile = process.env.CARDTABLE_SAMPLES;
describe("real views of every game", { skip: samplesFile ? false : "CARDTABLE_SAMPLES not set" },
  () => {
    const samples = samplesFile ? JSON.parse(readFileSync(samplesFile, "utf8")) : {};
    for (const [name, sample] of Object.entries(samples)) {
      const table = tableOf(name, sample.players, 0);
      const names = table.seats.map((s) => s.name);

      it(`${name}: the generic board offers exactly the legal actions`, () => {
        const { view, legal, seat } = sample.mid;
        const board = generic.board({ view, legal, seat, version: 1, table }, { act() {}, ui: {} }, h);
        const buttons = all(board, (n) => n.tag === "button");
        assert.deepEqual(buttons.map((b) => b.attrs["data-action"]), legal);
        assert.deepEqual(buttons.map(text), legal);
        const keys = all(board, (n) => n.tag === "dt" && n.attrs["data-key-name"] !== undefined)
          .map((n) => n.attrs["data-key-name"]);
        // every field of the game's own; those every view has are in the players panel
        const elsewhere = ["result", "game", "seat", "players", "to_act"];
        for (const key of Object.keys(view)) {
          assert.equal(keys.includes(key), !elsewhere.includes(key), key);
        }
      });

      it(`${name}: the results show the server's end, its figures per seat`, async () => {
        const renderer = await rendererFor(name);
        assert.equal(renderer === generic, !sample.has_module);
        const { ending } = sample;
        const sum = summary(sample.final.result, ending, table, names, sample.ranked);
        assert.equal(sum.headline, ending.lines[0]);
        const panel = results(sum, table, names, true, h);
        assert.equal(panel.attrs["data-testid"], "results");
        assert.equal(text(panel.children[1]), ending.verdict);
        const rows = all(panel, (n) => n.tag === "tr" && n.attrs["data-seat"] !== undefined);
        assert.equal(rows.length, ending.breakdown.seats.length);
        if (sample.ranked) {
          // in rank order, each row the seat's own figures
          const seats = rows.map((r) => Number(r.attrs["data-seat"]));
          const ranks = seats.map((s) => sample.final.result.ranks[s]);
          assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
          for (const [k, row] of rows.entries()) {
            const cells = all(row, (n) => n.tag === "td").map(text).slice(2);
            assert.deepEqual(cells, ending.breakdown.seats[seats[k]].map(String));
          }
        }
        for (const note of ending.notes) assert.ok(summaryLines(sum, names).includes(note));
        for (let seat = 0; seat < sample.players; seat += 1) {
          assert.equal(typeof renderer.seatExtra(sample.mid.view, seat), "string");
        }
      });
    }
  });
