// The browser code's types, written from what the server publishes, for its JSDoc types
// (`npm run types`; tests/browser/test_js_checks.py keeps them current, and `npm run check`
// then fails on a page that reads a field the server no longer sends):
// - types/views/<game>.view.d.ts and .result.d.ts: each game's view and result, from the JSON
//   Schemas in docs/schemas/ (written by `cardtable schemas`);
// - types/api.d.ts: the server's messages (the websocket's, GET /api/ws-schema) and its HTTP
//   answers (/openapi.json), from a `cardtable serve` this starts on a free port, with a
//   fresh data folder ($PYTHON, else .venv/bin/python, else python3; PYTHONPATH is passed on).
// `node tools/types.mjs FOLDER` writes them into FOLDER instead (to compare).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";

const SCHEMAS = "docs/schemas";
const OUT = process.argv[2] || "types";
const BANNER = "// Written by `npm run types`: do not edit.";
const OPTIONS = { bannerComment: "", additionalProperties: false, format: false };

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
      : key === "$defs" || key === "definitions"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untitled(v, true)]))
        : untitled(value, false);
  }
  return out;
}

async function views() {
  const games = [...new Set(readdirSync(SCHEMAS).filter((f) => f.endsWith(".view.json"))
    .map((f) => f.split(".")[0]))].sort();
  mkdirSync(join(OUT, "views"), { recursive: true });
  for (const game of games) {
    for (const [part, name] of [["view", "View"], ["result", "Result"]]) {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, `${game}.${part}.json`), "utf8"));
      const types = await compile({ ...untitled(schema), title: name }, name, OPTIONS);
      const file = join(OUT, "views", `${game}.${part}.d.ts`);
      writeFileSync(file, `${BANNER} (from docs/schemas/)\n\n${types}`);
      console.log(file);
    }
  }
}

// -- the server's messages, as a real server publishes them --------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function published() {
  const python = process.env.PYTHON
    || (existsSync(".venv/bin/python") ? ".venv/bin/python" : "python3");
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), "cardtable-types-"));
  const server = spawn(python, ["-m", "cardtable", "serve", "--port", String(port)],
    { env: { ...process.env, CARDTABLE_DATA: data }, stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  server.stderr.on("data", (chunk) => { said += chunk; });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (const deadline = Date.now() + 60000; ;) {
      try {
        const ws = await (await fetch(`${base}/api/ws-schema`)).json();
        const api = await (await fetch(`${base}/openapi.json`)).json();
        return { ws, api };
      } catch {
        if (server.exitCode !== null || Date.now() > deadline) {
          throw new Error(`the server did not start (${python} -m cardtable serve):\n${said}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    server.kill();
    rmSync(data, { recursive: true, force: true });
  }
}

async function messages() {
  const { ws, api } = await published();
  // one set of definitions: the HTTP answers' and the websocket's (the same models where
  // both name one), with the union of the websocket's server messages; the root, `Api`,
  // names each, so that every one is written
  const definitions = JSON.parse(JSON.stringify({ ...api.components.schemas, ...ws.server.$defs,
    ServerMessage: { title: "ServerMessage", oneOf: ws.server.oneOf } })
    .replace(/#\/(components\/schemas|\$defs)\//g, "#/definitions/"));
  const names = Object.keys(definitions).sort();
  const root = untitled({ title: "Api", type: "object", required: names, definitions,
    properties: Object.fromEntries(names.map((n) => [n, { $ref: `#/definitions/${n}` }])) });
  const types = await compile(root, "Api", OPTIONS);
  const file = join(OUT, "api.d.ts");
  writeFileSync(file, `${BANNER} (from a server's /api/ws-schema and /openapi.json)\n\n${types}`);
  console.log(file);
}

await views();
await messages();
