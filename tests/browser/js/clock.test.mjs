// Unit tests of the clock's and the turn signals' pure parts (no DOM): how times read, and
// when a seat is really to act (a seat out of `to_act`, or one that may only talk, is not).
// Run by tests/browser/test_js_units.py with the other unit tests.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { CLOCK_CHOICES, describeTime, formatLeft } from "../../../src/cardtable/server/static/clock.js";
import { isMyTurn } from "../../../src/cardtable/server/static/signals.js";

describe("clock texts", () => {
  it("reads choices as a person would", () => {
    assert.equal(describeTime(30), "30 s");
    assert.equal(describeTime(120), "2 min");
    assert.equal(describeTime(3600), "1 h");
    assert.equal(describeTime(86400), "1 day");
    assert.equal(describeTime(7 * 86400), "7 days");
  });
  it("counts down in minutes and seconds, then hours, then days", () => {
    assert.equal(formatLeft(59.2), "1:00");
    assert.equal(formatLeft(9), "0:09");
    assert.equal(formatLeft(-3), "0:00");
    assert.equal(formatLeft(2 * 3600 + 5 * 60), "2 h 05 min");
    assert.equal(formatLeft(3 * 86400 + 4 * 3600), "3 days 4 h");
  });
  it("offers only times inside the server's limits (clock.py LIMITS)", () => {
    const limits = { move: [30, 600], game: [300, 3600], turn: [3600, 7 * 86400] };
    for (const [mode, c] of Object.entries(CLOCK_CHOICES)) {
      for (const t of c.times) assert.ok(t >= limits[mode][0] && t <= limits[mode][1], `${mode} ${t}`);
    }
  });
});

describe("your turn", () => {
  const state = (seat, toAct, legal, status = "running") => ({
    seat, legal, view: { to_act: toAct }, table: { status, title: "T" } });
  it("is this seat in to_act with something to do", () => {
    assert.equal(isMyTurn(state(0, [0, 1], ["a"])), true);
  });
  it("is not a seat that made its choice in a simultaneous round", () => {
    assert.equal(isMyTurn(state(0, [1], [])), false);
  });
  it("is not a seat that may only talk, a spectator, or a table not running", () => {
    assert.equal(isMyTurn(state(0, [1], ["signal 1 good"])), false);
    assert.equal(isMyTurn(state(null, [0], ["a"])), false);
    assert.equal(isMyTurn(state(0, [0], ["a"], "over")), false);
  });
});
