/**
 * The per-statement memory budget (issue 9 "Limits", `query.memory.limit`): materialising
 * operators charge what they hold; a statement over the budget fails with a clear error and
 * the engine carries on, while the same statement runs under a larger budget.
 */
import assert from "node:assert/strict";
import { Engine, SqlError } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(queryMemoryBytes: number, fn: (e: Engine) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_qmem_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024, queryMemoryBytes });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const HEAVY = [
  // LIMIT -1 (the last row) needs the whole sort; `LIMIT 1` is a top-N holding one row.
  ["sort", "SELECT x FROM long_sequence(200000) ORDER BY x DESC LIMIT -1"],
  [
    "hash aggregation",
    "SELECT x % 100000 k, count() FROM long_sequence(200000) GROUP BY k ORDER BY k LIMIT 1",
  ],
  [
    "join build side",
    "SELECT count() FROM long_sequence(10) a JOIN (SELECT x FROM long_sequence(200000)) b ON a.x = b.x",
  ],
  ["window", "SELECT x, sum(x) OVER (ORDER BY x) FROM long_sequence(200000) LIMIT 1"],
];

Deno.test("a statement over query.memory.limit fails clearly and the engine carries on", async () => {
  await withEngine(2 * 1024 * 1024, async (engine) => {
    for (const [what, sql] of HEAVY) {
      await assert.rejects(rows(engine, sql), (e: unknown) => {
        assert.ok(e instanceof SqlError, `${what}: ${e}`);
        assert.equal(e.kind, "limit");
        assert.match(e.message, /query memory limit exceeded.*\[query.memory.limit=2097152\]/);
        return true;
      }, what);
    }
    // Small statements still run within the same budget, on the same engine.
    assert.deepEqual(await rows(engine, "SELECT x FROM long_sequence(100) ORDER BY x DESC LIMIT 1"), [[
      100n,
    ]]);
    // A top-N keeps n rows, never the input: the sort that failed above fits with LIMIT 1.
    assert.deepEqual(await rows(engine, "SELECT x FROM long_sequence(200000) ORDER BY x DESC LIMIT 1"), [[
      200000n,
    ]]);
  });
});

Deno.test("the same statements run under a budget that fits them", async () => {
  await withEngine(512 * 1024 * 1024, async (engine) => {
    assert.deepEqual(await rows(engine, HEAVY[0][1]), [[1n]]);
    assert.deepEqual(await rows(engine, HEAVY[1][1]), [[0n, 2n]]);
    assert.deepEqual(await rows(engine, HEAVY[2][1]), [[10n]]);
    assert.equal((await rows(engine, HEAVY[3][1])).length, 1);
  });
});
