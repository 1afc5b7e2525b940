/**
 * Differential test of the vectorized operators (issue #16): generated GROUP BY, DISTINCT
 * aggregate, FILTER and ORDER BY ... LIMIT shapes over a small table full of NULLs (and over an
 * empty table) run once on the operators the planner picks and once on the row-at-a-time
 * reference (`setReferenceExecution`), and the answers must agree. Groups are compared as
 * multisets (operators may emit groups in another order); top-N output in order, since ties
 * keep input order in both. Doubles agree within 1e-9 relative (the WASM kernels add in
 * another order than the rows do).
 *
 * Seeds: VECTOR_DIFF_SEEDS="1,2,3" replays others; each seed generates its own table and shapes.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { type Rng, rng } from "../../fuzz/prng.ts";
import { rows } from "../_result_rows.ts";

const SEEDS = (Deno.env.get("VECTOR_DIFF_SEEDS") ?? "1,2,3,4").split(",").map(Number);
const SHAPES_PER_SEED = 60;

const COLUMNS = [
  ["s", "SYMBOL"],
  ["side", "SYMBOL"],
  ["i", "INT"],
  ["l", "LONG"],
  ["d", "DOUBLE"],
  ["f", "FLOAT"],
  ["sh", "SHORT"],
  ["b", "BYTE"],
  ["bo", "BOOLEAN"],
  ["str", "STRING"],
  ["c", "CHAR"],
] as const;

/** One generated row's SQL literals; about one value in six is NULL where the type has NULL. */
function rowLiterals(r: Rng, n: number): string {
  const nul = () => r.chance(0.17);
  const ts = `'2024-01-0${1 + r.int(3)}T${String(r.int(24)).padStart(2, "0")}:00:0${r.int(10)}.${n}Z'`;
  const vals = [
    nul() ? "NULL" : `'k${r.int(7)}'`,
    nul() ? "NULL" : r.pick(["'buy'", "'sell'"]),
    nul() ? "NULL" : String(r.int(2000) - 1000),
    nul()
      ? "NULL"
      : r.pick(["9007199254740993", "-9007199254740993", String(r.int(50) - 25), "4611686018427387904"]),
    nul() ? "NULL" : r.pick(["0.0", "-0.0", (r.next() * 200 - 100).toFixed(3), String(r.int(5))]),
    nul() ? "NULL" : (r.next() * 10).toFixed(2),
    String(r.int(100) - 50),
    String(r.int(10)),
    r.pick(["true", "false"]),
    nul() ? "NULL" : `'t${r.int(5)}'`,
    nul() ? "NULL" : `'${"abc"[r.int(3)]}'`,
  ];
  return `(${ts}, ${vals.join(", ")})`;
}

const NUMERIC = ["i", "l", "d", "f", "sh", "b"];
const KEYS = [
  "s",
  "side",
  "i",
  "l",
  "d",
  "f",
  "sh",
  "b",
  "bo",
  "str",
  "c",
  "ts",
  "i % 5",
  "hour(ts)",
  "d * 2",
  "concat(s, side)",
  "l + 1",
];
const FILTERS = [
  "i > 0",
  "side = 'buy'",
  "s IN ('k1', 'k2')",
  "d IS NULL",
  "l < 0 OR sh > 10",
  "str = 't1'",
  "NOT bo",
];

function aggregateOf(r: Rng): string {
  const x = r.pick(NUMERIC);
  const any = r.pick([...NUMERIC, "s", "str", "ts", "c"]);
  const base = r.pick([
    "count(*)",
    `count(${any})`,
    `sum(${x})`,
    `avg(${x})`,
    `min(${r.pick([...NUMERIC, "ts", "s", "str"])})`,
    `max(${r.pick([...NUMERIC, "ts"])})`,
    `count(DISTINCT ${any})`,
    `count_distinct(${r.pick(["s", "i", "l", "str"])})`,
    `sum(DISTINCT ${r.pick(["i", "d"])})`,
    `first(${any})`,
    `last(${any})`,
    `sum(d - f)`,
    `max(i * 2)`,
    `avg(l * 3)`,
    `stddev_samp(${x})`,
  ]);
  return r.chance(0.25) ? `${base} FILTER (WHERE ${r.pick(FILTERS)})` : base;
}

function shapeOf(r: Rng, table: string): { sql: string; ordered: boolean } {
  const where = r.chance(0.4) ? ` WHERE ${r.pick(FILTERS)}` : "";
  if (r.chance(0.25)) {
    const keys = Array.from(
      { length: 1 + r.int(3) },
      () =>
        `${r.pick(["i", "l", "d", "f", "ts", "s", "str", "sh", "d * 2", "i % 3"])}${
          r.chance(0.5) ? " DESC" : ""
        }`,
    );
    return {
      sql: `SELECT ts, s, i, l, d, str FROM ${table}${where} ORDER BY ${keys.join(", ")} LIMIT ${
        r.pick([1, 3, 10, 50])
      }`,
      ordered: true,
    };
  }
  const keys = [...new Set(Array.from({ length: r.int(4) }, () => r.pick(KEYS)))];
  const aggs = Array.from({ length: 1 + r.int(3) }, () => aggregateOf(r));
  const select = [...keys, ...aggs].join(", ");
  const group = keys.length ? ` GROUP BY ${keys.join(", ")}` : "";
  return { sql: `SELECT ${select} FROM ${table}${where}${group}`, ordered: false };
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b || (a === null && b === null);
}

const key = (row: unknown[]) => JSON.stringify(row, (_, v) => (typeof v === "bigint" ? `${v}n` : v));

function compare(got: unknown[][], want: unknown[][], ordered: boolean): string | undefined {
  if (got.length !== want.length) return `row count ${got.length} != ${want.length}`;
  const sort = (rs: unknown[][]) => ordered ? rs : [...rs].sort((x, y) => (key(x) < key(y) ? -1 : 1));
  const g = sort(got), w = sort(want);
  for (let i = 0; i < g.length; i++) {
    for (let c = 0; c < w[i].length; c++) {
      if (!same(g[i][c], w[i][c])) return `row ${i} col ${c}: ${key([g[i][c]])} != ${key([w[i][c]])}`;
    }
  }
  return undefined;
}

async function explain(engine: Engine, sql: string): Promise<string> {
  return (await rows(engine, `EXPLAIN ${sql}`)).map((r) => r[0]).join("\n");
}

for (const seed of SEEDS) {
  Deno.test(`vectorized operators agree with the row reference (seed ${seed})`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_vdiff_" });
    const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
    try {
      const r = rng(seed * 7919);
      const ddl = COLUMNS.map(([n, t]) => `${n} ${t}`).join(", ");
      for (const t of ["t", "e"]) {
        await engine.execute(
          `CREATE TABLE ${t} (ts TIMESTAMP, ${ddl}) TIMESTAMP(ts) PARTITION BY DAY`,
          adminSession(),
        );
      }
      const values = Array.from({ length: 1500 }, (_, n) => rowLiterals(r, n));
      for (let at = 0; at < values.length; at += 500) {
        await engine.execute(`INSERT INTO t VALUES ${values.slice(at, at + 500).join(", ")}`, adminSession());
      }
      let vectorized = 0, rejected = 0;
      for (let i = 0; i < SHAPES_PER_SEED; i++) {
        const { sql, ordered } = shapeOf(r, r.chance(0.1) ? "e" : "t");
        setReferenceExecution(false);
        const plan = await explain(engine, sql);
        if (/vectorized hash|Top N/.test(plan)) vectorized++;
        let got: unknown[][], want: unknown[][];
        try {
          got = await rows(engine, sql);
        } catch (e) {
          // An unsupported shape must fail the same way on both paths.
          rejected++;
          setReferenceExecution(true);
          await assert.rejects(rows(engine, sql), Error, `${sql}: vector path failed with ${e}`);
          continue;
        } finally {
          setReferenceExecution(false);
        }
        setReferenceExecution(true);
        try {
          want = await rows(engine, sql);
          assert.doesNotMatch(await explain(engine, sql), /vectorized hash|Top N|wasm kernels/);
        } finally {
          setReferenceExecution(false);
        }
        const diff = compare(got, want, ordered);
        assert.equal(diff, undefined, `seed ${seed}: ${sql}\n${plan}\n${diff}`);
        if (Deno.env.get("VECTOR_DIFF_VERBOSE")) console.log(sql, got.length);
      }
      // The generator must exercise the new operators, not only the reference.
      assert.ok(vectorized >= SHAPES_PER_SEED / 2, `only ${vectorized} shapes ran vectorized`);
      assert.ok(rejected <= SHAPES_PER_SEED / 5, `${rejected} shapes failed on both paths`);
    } finally {
      setReferenceExecution(false);
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
