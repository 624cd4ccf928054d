// Unit tests of seats' names (issue #24), with node's test runner and no DOM: a bot playing
// a person's seat on is shown with the person ("Ann — played by Greedy"), on the table and
// in a finished game's "played by".
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { playedBy, seatName } from "../../../src/cardtable/server/static/results.js";

describe("a seat's name", () => {
  it("is a person's, a bot's marked as one, or a person's seat a bot plays on", () => {
    assert.equal(seatName({ name: "Ann", bot: null }), "Ann");
    assert.equal(seatName({ name: "Greedy", bot: "greedy" }), "Greedy (bot)");
    assert.equal(seatName({ name: "Robo", bot: null, bot_account: true }), "Robo (bot)");
    assert.equal(seatName({ name: "Greedy", bot: "greedy", person: "Ann" }),
      "Ann — played by Greedy");
    assert.equal(seatName({ name: null, bot: null }), "open seat");
  });

  it("says once who played a seat a bot took over, and who came back", () => {
    const ann = { name: "Ann", bot: null, person: null, from: 0 };
    const forAnn = { name: "Greedy", bot: "greedy", person: "Ann", from: 9 };
    const table = { seats: [{ history: [ann, forAnn] }, { history: [{ ...forAnn, from: 0 }] },
      { history: [ann, forAnn, { ...ann, from: 20 }] },
      { history: [{ name: "Greedy", bot: "greedy", person: null, from: 0 }] }, {}] };
    assert.deepEqual(playedBy(table, ["", "", "", "", "Bob"]), [
      "Ann — played by Greedy", "Ann — played by Greedy",
      "Ann — played by Greedy, then Ann", "Greedy bot", "Bob"]);
  });
});
