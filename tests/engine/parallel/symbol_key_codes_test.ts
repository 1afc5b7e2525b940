/**
 * The hash aggregation's SYMBOL keys leave as the table's dictionary codes with the dictionary,
 * as a scan gives them (key_ids.ts symbolCodes, DenseIds.keyVector), not as a string per group:
 * one key on the general path, two dense keys, a SYMBOL beside a LONG key, and the merge of the
 * workers' partials. Operators above (a join, a sort, a GROUP BY over the result) read the
 * codes; every answer equals the row-at-a-time reference's, a GROUP BY over a UNION of two
 * tables' keys (two dictionaries) included.
 */
import assert from "node:assert/strict";
import { adminSession, type Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { assertSame, explain, parallelEngine, rows, run, singleEngine } from "./_parallel_util.ts";

const GROUPINGS: [string, RegExp][] = [
  // sum of a product: the hash path, not the keyed WASM fold.
  ["SELECT s, sum(a * b), count(*) FROM t GROUP BY s", /vectorized hash/],
  ["SELECT s, side, count(*), avg(a) FROM t GROUP BY s, side", /dense keys/],
  ["SELECT s, k, count(*) FROM t GROUP BY s, k", /vectorized hash/],
];

const ABOVE = [
  "SELECT g.s, g.n, u.c FROM (SELECT s, count(*) n FROM t GROUP BY s, side) g JOIN u ON g.s = u.s ORDER BY g.s, g.n",
  "SELECT s, sum(n) FROM (SELECT s, k, count(*) n FROM t GROUP BY s, k) GROUP BY s ORDER BY s",
  "SELECT s, count(*) FROM (SELECT s FROM t UNION ALL SELECT s FROM u) GROUP BY s ORDER BY s",
];

async function setUp(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 7000000L) ts, rnd_symbol('p','q','r','s',NULL) s, " +
      "rnd_symbol('buy','sell') side, x % 13 k, rnd_double() a, rnd_double() b FROM long_sequence(20000)) " +
      "TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(
    engine,
    "CREATE TABLE u AS (SELECT timestamp_sequence('2024-01-01', 60000000L) ts, rnd_symbol('s','r','z',NULL) s, " +
      "x c FROM long_sequence(40)) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

/** The first batch's key columns: [data is an Int32Array, has a dictionary]. */
async function keyForm(engine: Engine, sql: string, keys: number): Promise<[boolean, boolean][]> {
  const out = await engine.execute(sql, adminSession());
  assert.equal(out.kind, "rows");
  if (out.kind !== "rows") return [];
  for await (const b of out.batches) {
    return b.columns.slice(0, keys).filter((c) => c.type.tag === "SYMBOL").map((c) => [
      c.data instanceof Int32Array,
      c.dict !== undefined,
    ]);
  }
  return [];
}

Deno.test("hash aggregation keys SYMBOL results as dictionary codes on one heap and across workers", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_symkeys_" });
  try {
    const answers: unknown[][][][] = [];
    for (const open of [singleEngine, parallelEngine]) {
      const engine = await open(root);
      try {
        if (open === singleEngine) await setUp(engine);
        for (const [sql, op] of GROUPINGS) {
          const plan = await explain(engine, sql);
          assert.match(plan, op, `${sql}\n${plan}`);
          if (open === parallelEngine) assert.match(plan, /parallel 2/, `${sql}\n${plan}`);
          const keys = sql.includes("s, side") || sql.includes("s, k") ? 2 : 1;
          for (const form of await keyForm(engine, sql, keys)) assert.deepEqual(form, [true, true], sql);
        }
        const got: unknown[][][] = [];
        for (const sql of [...GROUPINGS.map(([q]) => `${q} ORDER BY 1, 2`), ...ABOVE]) {
          got.push(await rows(engine, sql));
        }
        answers.push(got);
      } finally {
        await engine.close();
      }
    }
    const reference = await singleEngine(root);
    try {
      setReferenceExecution(true);
      const sqls = [...GROUPINGS.map(([q]) => `${q} ORDER BY 1, 2`), ...ABOVE];
      for (let q = 0; q < sqls.length; q++) {
        const want = await rows(reference, sqls[q]);
        assert.ok(want.length >= 3, `${sqls[q]}: ${want.length} rows`);
        for (const got of answers) assertSame(got[q], want, sqls[q]);
      }
    } finally {
      setReferenceExecution(false);
      await reference.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
