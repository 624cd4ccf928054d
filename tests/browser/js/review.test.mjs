// Unit tests of the review's pure parts (static/review.js), with node's test runner and no DOM:
// the marks' signs and words, the progress in words, the first marked move of a solitaire.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { firstMistake, markWord, moveWords, progressWords, SIGN } from
  "../../../src/cardtable/server/static/review.js";

const move = (step, mark, seat = 0) => ({ step, seat, played: "flip", best: "play r2",
  before: 100, after: mark ? 40 : 100, drop: mark ? 60 : 0, mark, accuracy: 50, samples: 1 });

describe("the review's words", () => {
  it("signs the marks as lichess does, and names them", () => {
    assert.deepEqual(SIGN, { inaccuracy: "?!", mistake: "?", blunder: "??" });
    assert.deepEqual(["inaccuracy", "mistake", "blunder"].map(markWord),
      ["inaccuracy", "mistake", "blunder"]);
  });

  it("tells where a review is", () => {
    assert.equal(progressWords({ status: "queued", done: 0, total: 0 }), "Waiting for a free reviewer…");
    assert.equal(progressWords({ status: "running", done: 3, total: 40 }),
      "Reviewing: 3 of 40 moves judged…");
    assert.equal(progressWords({ status: "running", done: 0, total: 0 }), "Reviewing…");
    assert.equal(progressWords({ status: "failed", done: 0, total: 0, error: "too long" }),
      "The review failed: too long");
  });

  it("says a move with its chance and mark, counted from 1", () => {
    assert.equal(moveWords(move(4, "blunder"), ["Ann"]),
      "Move 5, Ann: flip, winning chance 100 % → 40 % (blunder)");
    assert.equal(moveWords(move(0, null), ["Ann"]), "Move 1, Ann: flip, winning chance 100 % → 100 %");
  });

  it("offers a practice from the first marked move of a game played alone only", () => {
    const moves = [move(1, null), move(7, "mistake"), move(9, "blunder")];
    assert.equal(firstMistake({ players: 1, moves }).step, 7);
    assert.equal(firstMistake({ players: 2, moves }), null);
    assert.equal(firstMistake({ players: 1, moves: [move(1, null)] }), null);
  });
});
