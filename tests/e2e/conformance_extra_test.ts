/**
 * QuestDB-behaviour cases taken from QuestDB's own Java tests and docs (each case's `source`
 * names the test method or page), in tests/fixtures/conformance_extra/<category>.jsonl, run
 * against the real server over REST /exec with the legacy column naming the QuestDB test suite
 * uses (QDB_CAIRO_SQL_COLUMN_ALIAS_EXPRESSION_ENABLED=false).
 *
 * The comparison is the conformance runner's: column names, column types where given, rows
 * (doubles within 1e-9 relative, `ordered: false` as a multiset); `{error: true, position}`
 * expects an error reply at that position. Each case's tables are dropped before and after it.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

type ColSpec = [string, string | null];
interface RowExpect {
  columns: ColSpec[] | null;
  rows: unknown[][];
  ordered: boolean;
}
interface ErrorExpect {
  error: true;
  position: number | null;
}
interface Case {
  id: string;
  source: string;
  setup: string[];
  query: string;
  expect: RowExpect | ErrorExpect;
}
type Body = Record<string, unknown>;

const DIR = new URL("../fixtures/conformance_extra/", import.meta.url);
const REL_TOL = 1e-9;

/**
 * `CONFORMANCE_EXTRA_ONLY=window,text_fn_ba` runs only the files whose names contain one of the
 * words (a quick check while working on one area); CI sets nothing and runs every file.
 */
const ONLY = (Deno.env.get("CONFORMANCE_EXTRA_ONLY") ?? "").split(",").map((w) => w.trim()).filter((w) => w);

function loadCategories(): { name: string; cases: Case[] }[] {
  const names = [...Deno.readDirSync(DIR)].filter((e) => e.name.endsWith(".jsonl")).map((e) => e.name)
    .filter((n) => ONLY.length === 0 || ONLY.some((w) => n.includes(w))).sort();
  return names.map((f) => ({
    name: f.replace(/\.jsonl$/, ""),
    cases: Deno.readTextFileSync(new URL(f, DIR)).split("\n").filter((l) => l.trim()).map((l) =>
      JSON.parse(l)
    ),
  }));
}

/**
 * Tables a case creates (dropped around it): those the shared runner finds in the setup, and
 * also `CREATE BATCH n / ATOMIC TABLE` and RENAME TABLE targets, in the setup or the query, so
 * that no case leaves a table behind for a later case's tables() or SHOW TABLES to list.
 */
function tablesCreatedBy(statements: string[]): string[] {
  const names: string[] = [];
  const name = `("[^"]+"|'[^']+'|[A-Za-z_][\\w.$-]*)`;
  const patterns = [
    new RegExp(
      `\\bcreate\\s+(?:batch\\s+\\d+\\s+|atomic\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?${name}`,
      "gi",
    ),
    new RegExp(`\\brename\\s+table\\s+${name}\\s+to\\s+${name}`, "gi"),
  ];
  for (const stmt of statements) {
    for (const re of patterns) {
      for (const m of stmt.matchAll(re)) {
        const t = m[m.length - 1];
        if (!names.includes(t)) names.push(t);
      }
    }
  }
  return names;
}

function numEq(a: number, b: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(a - b);
  return diff <= REL_TOL * Math.max(Math.abs(a), Math.abs(b)) || diff <= 1e-12;
}

function valueEq(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined;
  if (actual === null || actual === undefined) return false;
  if (typeof expected === "number") return typeof actual === "number" && numEq(expected, actual);
  if (typeof expected === "string" || typeof expected === "boolean") return expected === actual;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
      expected.every((e, i) => valueEq(e, actual[i]));
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

function rowEq(expected: unknown[], actual: unknown): boolean {
  return Array.isArray(actual) && actual.length === expected.length &&
    expected.every((e, i) => valueEq(e, actual[i]));
}

const normType = (t: string) => t.trim().toUpperCase().replace(/\s+/g, "");

/** Why the reply differs from the expected rows; null when it matches. */
function compareRows(exp: RowExpect, body: Body): string | null {
  const dataset = body.dataset;
  if (!Array.isArray(dataset)) return `no dataset: ${JSON.stringify(body).slice(0, 200)}`;
  if (exp.columns) {
    const cols = body.columns as { name?: string; type?: string }[];
    if (!Array.isArray(cols) || cols.length !== exp.columns.length) {
      return `columns ${JSON.stringify(cols?.map((c) => c.name))} != ${
        JSON.stringify(exp.columns.map((c) => c[0]))
      }`;
    }
    for (let i = 0; i < cols.length; i++) {
      const [name, type] = exp.columns[i];
      if (cols[i].name !== name) return `column ${i} name ${cols[i].name} != ${name}`;
      if (type !== null && normType(String(cols[i].type)) !== normType(type)) {
        return `column ${name} type ${cols[i].type} != ${type}`;
      }
    }
  }
  if (dataset.length !== exp.rows.length) return `row count ${dataset.length} != ${exp.rows.length}`;
  if (exp.ordered) {
    const i = exp.rows.findIndex((r, k) => !rowEq(r, dataset[k]));
    return i < 0
      ? null
      : `row ${i}: got ${JSON.stringify(dataset[i])}, expected ${JSON.stringify(exp.rows[i])}`;
  }
  const used = new Array(dataset.length).fill(false);
  for (const r of exp.rows) {
    const j = dataset.findIndex((a, k) => !used[k] && rowEq(r, a));
    if (j < 0) return `expected row not found: ${JSON.stringify(r)}`;
    used[j] = true;
  }
  return null;
}

async function exec(url: string, sql: string): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${url}/exec?query=${encodeURIComponent(sql)}`);
  return { status: res.status, body: JSON.parse(await res.text()) as Body };
}

const isError = (r: { status: number; body: Body }) =>
  typeof r.body.error === "string" || (r.status >= 400 && r.body.dataset === undefined);

/** Runs one case; the reason it fails, or null. */
async function runCase(url: string, c: Case): Promise<string | null> {
  const tables = tablesCreatedBy([...c.setup, c.query]);
  try {
    for (const t of tables) await exec(url, `DROP TABLE IF EXISTS ${t}`);
    for (const stmt of c.setup) {
      const r = await exec(url, stmt);
      if (isError(r)) return `setup failed: ${r.body.error} :: ${stmt.slice(0, 120)}`;
    }
    const r = await exec(url, c.query);
    if ("error" in c.expect) {
      if (!isError(r)) return `expected an error, got ${JSON.stringify(r.body.dataset).slice(0, 200)}`;
      const pos = c.expect.position;
      return pos === null || r.body.position === pos
        ? null
        : `error position ${r.body.position} != ${pos} (${r.body.error})`;
    }
    if (isError(r)) return `unexpected error: ${r.body.error} (position ${r.body.position})`;
    return compareRows(c.expect, r.body);
  } finally {
    for (const t of tables) await exec(url, `DROP TABLE IF EXISTS ${t}`);
  }
}

Deno.test({
  name: "conformance_extra: QuestDB test-suite cases pass against the server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const categories = loadCategories();
    assert.ok(categories.length > 0, "no fixture files");
    const server = await startServer({ env: { QDB_CAIRO_SQL_COLUMN_ALIAS_EXPRESSION_ENABLED: "false" } });
    try {
      for (const { name, cases } of categories) {
        await t.step(`${name} (${cases.length} cases)`, async () => {
          const failures: string[] = [];
          for (const c of cases) {
            const why = await runCase(server.httpUrl, c);
            if (why !== null) {
              failures.push(`${c.id} [${c.source}]\n    ${c.query.slice(0, 200)}\n    ${why}`);
            }
          }
          assert.deepEqual(failures, [], failures.join("\n"));
        });
      }
    } finally {
      await server.stop();
    }
  },
});
