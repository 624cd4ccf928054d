// Each game's view and result as TypeScript types, from the JSON Schemas the server publishes
// (docs/schemas/, written by `cardtable schemas`), for the browser code's JSDoc types:
// `npm run types` writes types/views/<game>.d.ts; tests/browser/test_js_checks.py keeps them
// current, and `npm run check` (tsc) then fails on a page that reads a field a view lacks.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";

const SCHEMAS = "docs/schemas";
const OUT = process.argv[2] || "types/views";  // another folder: to compare
const BANNER = "// Written by `npm run types` from docs/schemas/: do not edit.";

const games = [...new Set(readdirSync(SCHEMAS).filter((f) => f.endsWith(".json"))
  .map((f) => f.split(".")[0]))].sort();
mkdirSync(OUT, { recursive: true });
// pydantic titles every field; without the titles each field's type is written in place
// rather than as an alias of its own
function untitled(schema, top = true) {
  if (Array.isArray(schema)) return schema.map((item) => untitled(item, false));
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "title" && !top) continue;
    out[key] = key === "properties"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untitled(v, false)]))
      : untitled(value, key === "$defs" || key === "definitions" ? true : false);
  }
  return out;
}

for (const game of games) {
  for (const [part, name] of [["view", "View"], ["result", "Result"]]) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS, `${game}.${part}.json`), "utf8"));
    const types = await compile({ ...untitled(schema), title: name }, name,
      { bannerComment: "", additionalProperties: false, format: false });
    const file = join(OUT, `${game}.${part}.d.ts`);
    writeFileSync(file, `${BANNER}\n\n${types}`);
    console.log(file);
  }
}
