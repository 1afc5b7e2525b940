/**
 * `query.memory.limit` per operator family (issue #16 "Memory"): every operator that holds
 * rows, keys or groups charges them to the statement's budget, so a table too big for a small
 * budget fails with the limit error (not a crash, not an out-of-memory), the same statement
 * answers right under the default budget, and operators that stream run under any budget.
 * The table has 200,000 rows: every case below holds far more than 2 MB of keys or rows.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, SqlError } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

const ROWS = 200_000;
const SMALL = 2 * 1024 * 1024;

/** [family, statement, its answer under the default budget (first row, or a row count)]. */
type Case = [string, string, unknown[] | { count: number }];

const CASES: Case[] = [
  ["hash aggregation", "SELECT count() FROM (SELECT x, count() c FROM t GROUP BY x)", [BigInt(ROWS)]],
  ["hash aggregation, two keys", "SELECT count() FROM (SELECT x, k, sum(v) FROM t GROUP BY x, k)", [
    BigInt(ROWS),
  ]],
  ["count_distinct", "SELECT count_distinct(x) FROM t", [BigInt(ROWS)]],
  ["DISTINCT", "SELECT count() FROM (SELECT DISTINCT x FROM t)", [BigInt(ROWS)]],
  ["radix sort", "SELECT x FROM t ORDER BY k DESC, x LIMIT -1", [BigInt(ROWS)]],
  ["top-N with a large n", "SELECT x FROM t ORDER BY x DESC LIMIT 100000", { count: 100_000 }],
  ["hash join", "SELECT count() FROM t a JOIN t b ON a.x = b.x", [BigInt(ROWS)]],
  ["ASOF JOIN", "SELECT count(b.v) FROM t a ASOF JOIN t b ON (x)", [BigInt(ROWS)]],
  ["LT JOIN", "SELECT count(b.v) FROM t a LT JOIN t b ON (x)", [0n]],
  // A self splice pairs each row with itself (equal timestamp and key), as QuestDB's does.
  ["SPLICE JOIN", "SELECT count() FROM t a SPLICE JOIN t b ON (x)", [BigInt(ROWS)]],
  [
    "window function",
    "SELECT max(s) FROM (SELECT sum(x) OVER (PARTITION BY k ORDER BY ts) s FROM t)",
    [20_100_000],
  ],
  [
    "SAMPLE BY keyed with FILL",
    "SELECT count() FROM (SELECT ts, k, count() c FROM t SAMPLE BY 1h FILL(0))",
    // 56 hourly buckets, every one of the 1,000 keys in each.
    [56_000n],
  ],
  [
    "SAMPLE BY FILL over a FROM/TO range",
    "SELECT count() FROM (SELECT ts, count() c FROM t SAMPLE BY 1s FROM '1970-01-01' TO '1970-01-10' FILL(NULL))",
    [9n * 86_400n],
  ],
  ["SAMPLE BY keyed", "SELECT count() FROM (SELECT ts, x, count() c FROM t SAMPLE BY 1d)", [BigInt(ROWS)]],
  ["LATEST ON", "SELECT count() FROM (SELECT * FROM t LATEST ON ts PARTITION BY x)", [BigInt(ROWS)]],
  ["UNION", "SELECT count() FROM (SELECT x FROM t UNION SELECT x + 100000 FROM t)", [300_000n]],
  ["EXCEPT", "SELECT count() FROM (SELECT x FROM t EXCEPT SELECT x + 100000 FROM t)", [100_000n]],
  ["INTERSECT", "SELECT count() FROM (SELECT x FROM t INTERSECT SELECT x + 100000 FROM t)", [100_000n]],
  ["IN (subquery)", "SELECT count() FROM t WHERE x IN (SELECT x * 2 FROM t)", [100_000n]],
  [
    "read_parquet under a GROUP BY",
    "SELECT count() FROM (SELECT x, count() FROM read_parquet('t.parquet') GROUP BY x)",
    [
      BigInt(ROWS),
    ],
  ],
];

/** Statements that stream: they hold a batch at a time and run under the small budget. */
const STREAMING: Case[] = [
  ["scan", "SELECT * FROM t", { count: ROWS }],
  ["filter and projection", "SELECT x * 2, v FROM t WHERE k < 500", { count: ROWS / 2 }],
  ["UNION ALL", "SELECT x FROM t UNION ALL SELECT x FROM t", { count: 2 * ROWS }],
  ["top-N with a small n", "SELECT x FROM t ORDER BY v DESC, x LIMIT 5", { count: 5 }],
  ["unkeyed aggregate", "SELECT count(), sum(x), max(v) FROM t", { count: 1 }],
  ["read_parquet", "SELECT x, v FROM read_parquet('t.parquet')", { count: ROWS }],
];

let root = "";

async function table(): Promise<string> {
  if (root) return root;
  root = await Deno.makeTempDir({ prefix: "qdb_qmem_ops_" });
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 0,
    copyExportRoot: `${root}/import`,
  });
  try {
    await engine.execute(
      `CREATE TABLE t AS (SELECT x, x % 1000 k, rnd_double() v, timestamp_sequence(0, 1000000) ts
       FROM long_sequence(${ROWS})) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    // The same rows as a Parquet file for read_parquet (written as <dest>.parquet).
    await engine.execute("COPY (SELECT * FROM t) TO 't' WITH FORMAT PARQUET", adminSession());
  } finally {
    await engine.close();
  }
  return root;
}

async function withEngine(
  options: { queryMemoryBytes?: number; parallel?: boolean },
  fn: (e: Engine) => Promise<void>,
): Promise<void> {
  const engine = await Engine.open({
    root: await table(),
    copyRoot: `${root}/import`,
    cacheBytes: 64 * 1024 * 1024,
    queryMemoryBytes: options.queryMemoryBytes,
    parallelWorkers: options.parallel ? 2 : 0,
    parallelValuesMin: options.parallel ? 1 : undefined,
  });
  try {
    await fn(engine);
  } finally {
    await engine.close();
  }
}

async function assertLimit(engine: Engine, what: string, sql: string): Promise<void> {
  await assert.rejects(rows(engine, sql), (e: unknown) => {
    assert.ok(e instanceof SqlError, `${what}: not a SqlError: ${e}`);
    assert.equal(e.kind, "limit", `${what}: ${e.message}`);
    assert.match(
      e.message,
      new RegExp(`query memory limit exceeded.*\\[query.memory.limit=${SMALL}\\]`),
      what,
    );
    return true;
  }, what);
}

async function assertAnswer(engine: Engine, [what, sql, want]: Case): Promise<void> {
  const got = await rows(engine, sql);
  if ("count" in want) assert.equal(got.length, want.count, what);
  else assert.deepEqual(got[0], want, what);
}

for (const parallel of [false, true]) {
  const where = parallel ? "worker heaps" : "one heap";
  Deno.test(`${where}: every materializing operator fails with the limit error over a small budget`, async () => {
    await withEngine({ queryMemoryBytes: SMALL, parallel }, async (engine) => {
      for (const [what, sql] of CASES) await assertLimit(engine, what, sql);
      // The engine carries on, and statements that stream are not limited by the budget.
      for (const c of STREAMING) await assertAnswer(engine, c);
    });
  });
}

Deno.test("the same statements answer right under the default budget", async () => {
  await withEngine({}, async (engine) => {
    for (const c of [...CASES, ...STREAMING]) await assertAnswer(engine, c);
  });
});

Deno.test({
  name: "query memory operators: cleanup",
  fn: async () => {
    if (root) await Deno.remove(root, { recursive: true });
  },
});
