/**
 * A table larger than the column cache streams through it (issue #16 "Memory"): with a 4 MiB
 * cache budget, a ~28 MB table is scanned, aggregated (hash, WASM kernels, SAMPLE BY) and
 * exported over /exp with the right answers, the cache's resident bytes never pass its budget,
 * and a scan holds at most about one partition of column copies in the heap at a time
 * (before, every partition past the budget stayed copied until the statement ended).
 */
import assert from "node:assert/strict";
import { adminSession, Engine, T } from "../../../engine/mod.ts";
import { storageOf } from "../../../engine/engine.ts";
import type { ExecContext } from "../../../engine/exec/exec_context.ts";
import type { PlanNode } from "../../../engine/plan/plan_node.ts";
import { runScan } from "../../../engine/exec/scan.ts";
import type { Snapshot } from "../../../engine/storage/snapshot.ts";
import { Config } from "../../../server/config.ts";
import { createApp } from "../../../server/http/app.ts";
import { rows } from "../_result_rows.ts";

const ROWS = 1_000_000;
const CACHE = 4 * 1024 * 1024;
/** 0.1 s apart, by HOUR: 28 partitions of 36,000 rows, about 1 MB of columns each. */
const PART_ROWS = 36_000;
const SUM_X = BigInt(ROWS) * BigInt(ROWS + 1) / 2n;

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_cache_stream_" });
  const engine = await Engine.open({ root, cacheBytes: CACHE, parallelWorkers: 0 });
  try {
    await engine.execute(
      `CREATE TABLE t AS (SELECT x, cast(x % 10 AS SYMBOL) s, x * 0.5 v, timestamp_sequence(0, 100000) ts
       FROM long_sequence(${ROWS})) TIMESTAMP(ts) PARTITION BY HOUR`,
      adminSession(),
    );
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

function assertWithinBudget(engine: Engine, what: string): void {
  const s = engine.resourceStats();
  assert.equal(s.cacheBudgetBytes, CACHE);
  assert.ok(s.cacheUsedBytes <= s.cacheBudgetBytes, `${what}: cache holds ${s.cacheUsedBytes} > ${CACHE}`);
}

Deno.test("a scan of a table larger than the cache keeps about one partition of copies", async () => {
  await withTable(async (engine) => {
    const ctx = { storage: storageOf(engine), snapshots: [] } as unknown as ExecContext;
    const scan = {
      kind: "scan",
      table: "t",
      columnIndexes: [0, 2, 3],
      reverse: false,
      columns: [
        { name: "x", type: T.LONG },
        { name: "v", type: T.DOUBLE },
        { name: "ts", type: T.TIMESTAMP },
      ],
    } as unknown as Extract<PlanNode, { kind: "scan" }>;
    let count = 0, sumX = 0n, maxCopies = 0;
    for await (const b of runScan(scan, ctx)) {
      const x = b.columns[0].data as BigInt64Array;
      for (let i = 0; i < b.rowCount; i++) sumX += x[i];
      count += b.rowCount;
      maxCopies = Math.max(maxCopies, (ctx.snapshots[0] as Snapshot).copyBytes);
      assertWithinBudget(engine, "scan");
    }
    for (const s of ctx.snapshots) s.release();
    assert.equal(count, ROWS);
    assert.equal(sumX, SUM_X);
    // The cache could not take most partitions: they were read into heap copies...
    assert.ok(maxCopies > 0, "partitions past the budget are copied");
    // ...one partition at a time (24 bytes a row here), not the ~20 MB that did not fit.
    assert.ok(maxCopies <= 2 * PART_ROWS * 24, `held ${maxCopies} bytes of copies`);
  });
});

Deno.test("aggregates and /exp answer right through a cache smaller than the table", async () => {
  await withTable(async (engine) => {
    const cases: [string, unknown[][]][] = [
      ["SELECT count(), sum(x), sum(v) FROM t", [[BigInt(ROWS), SUM_X, Number(SUM_X) / 2]]],
      // The WASM kernels keyed by SYMBOL, and the vectorized hash over a LONG key.
      ["SELECT s, count(), sum(x) FROM t WHERE s = '3'", [["3", 100_000n, 49_999_800_000n]]],
      ["SELECT count() FROM (SELECT x % 7 k, sum(v) FROM t GROUP BY k)", [[7n]]],
      ["SELECT max(c) FROM (SELECT x % 100000 k, count() c FROM t GROUP BY k)", [[10n]]],
      ["SELECT count(), sum(c) FROM (SELECT ts, count() c FROM t SAMPLE BY 1h)", [[28n, BigInt(ROWS)]]],
      ["SELECT count(), sum(c) FROM (SELECT ts, s, count() c FROM t SAMPLE BY 1h)", [[280n, BigInt(ROWS)]]],
      ["SELECT x FROM t ORDER BY v DESC LIMIT 2", [[1_000_000n], [999_999n]]],
    ];
    for (const [sql, want] of cases) {
      assert.deepEqual(await rows(engine, sql), want, sql);
      assertWithinBudget(engine, sql);
    }
    const app = createApp(engine, new Config({}, {}));
    const r = await app.request(`/exp?query=${encodeURIComponent("SELECT x, s FROM t")}`);
    assert.equal(r.status, 200);
    let lines = 0, sum = 0n, tail = "";
    const decoder = new TextDecoder();
    for await (const chunk of r.body!) {
      const text = tail + decoder.decode(chunk, { stream: true });
      const parts = text.split("\n");
      tail = parts.pop()!;
      for (const line of parts) {
        if (lines++ === 0) continue; // the header
        sum += BigInt(line.slice(0, line.indexOf(",")));
      }
      assertWithinBudget(engine, "/exp");
    }
    assert.equal(tail, "");
    assert.equal(lines, ROWS + 1);
    assert.equal(sum, SUM_X);
  });
});
