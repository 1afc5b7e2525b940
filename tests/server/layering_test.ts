/**
 * The import picture of STYLE.md §1 for the listeners (issue #20, "writes through the
 * engine's door"): no listener imports another, nothing under server/ reaches the engine's
 * storage, table-level write permissions are checked only in the engine, and CSV is read by
 * the engine's one reader. Scans the source text, so a regression names the file and line.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";

const SERVER = new URL("../../server/", import.meta.url);
const LISTENERS = ["http", "pg", "ilp"];

interface Source {
  path: string;
  text: string;
}

async function sources(dir: URL, prefix = ""): Promise<Source[]> {
  const out: Source[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = prefix + e.name;
    if (e.isDirectory) out.push(...await sources(new URL(`${e.name}/`, dir), `${path}/`));
    else if (e.name.endsWith(".ts") || e.name.endsWith(".tsx")) {
      out.push({ path, text: await Deno.readTextFile(new URL(e.name, dir)) });
    }
  }
  return out;
}

/** `file:line: text` of each line of `s` matching `re`. */
function hits(s: Source, re: RegExp): string[] {
  return s.text.split("\n").flatMap((l, i) => re.test(l) ? [`server/${s.path}:${i + 1}: ${l.trim()}`] : []);
}

/** The module specifiers a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  const re = /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  return [...text.matchAll(re)].map((m) => m[1] ?? m[2]);
}

const all = await sources(SERVER);

Deno.test("layering: no listener folder imports another listener's files", () => {
  const bad: string[] = [];
  for (const s of all) {
    const own = s.path.split("/")[0];
    if (!LISTENERS.includes(own)) continue;
    const folder = new URL(`${s.path.slice(0, s.path.lastIndexOf("/") + 1)}`, SERVER);
    for (const spec of specifiers(s.text)) {
      if (!spec.startsWith(".")) continue;
      const target = new URL(spec, folder).href;
      if (!target.startsWith(SERVER.href)) continue;
      const into = target.slice(SERVER.href.length).split("/")[0];
      if (into !== own && LISTENERS.includes(into)) bad.push(`server/${s.path} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

Deno.test("layering: nothing under server/ touches the engine's storage", () => {
  assert.deepEqual(all.flatMap((s) => hits(s, /\.storage\b/)), []);
});

Deno.test("layering: table-level write permissions are checked in the engine, not in server/", () => {
  // INSERT, CREATE TABLE, ADD COLUMN and DROP TABLE of ILP, /imp and COPY are checked by the
  // engine's ingest door (engine/exec/permissions.ts) as they are for SQL.
  const re = /can\b[^)]*["'](INSERT|CREATE TABLE|ADD COLUMN|DROP TABLE)["']/;
  assert.deepEqual(all.flatMap((s) => hits(s, re)), []);
});

Deno.test("layering: server/ has no CSV reader of its own", () => {
  // The engine's reader (engine/ingest/csv_reader.ts) serves /imp and pg COPY FROM.
  assert.deepEqual(all.flatMap((s) => hits(s, /class\s+\w*Csv(Reader|Records?|Parser)\b/)), []);
});

Deno.test("layering: the engine's storage is not a public property", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_layering_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    assert.equal("storage" in engine, false);
    await engine.execute("CREATE TABLE t (x INT)", adminSession());
    assert.equal(engine.tableMeta("t")?.name, "t");
    assert.equal(engine.tableMeta("nope"), undefined);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
