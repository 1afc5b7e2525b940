/**
 * The workers read exactly the main thread's snapshot: not the rows, partition versions or
 * columns committed after it, however the table changes while they run; and after a folder is
 * deleted and its name reused (TRUNCATE, DROP PARTITION), no worker serves its old bytes from
 * its cache.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/mod.ts";
import { storageOf } from "../../../engine/engine.ts";
import type { ExecContext } from "../../../engine/exec/exec_context.ts";
import { accumulatePartitions, type HeapScan } from "../../../engine/exec/fast_aggregate.ts";
import { assertSame, parallelEngine, rows, run } from "./_parallel_util.ts";

const TABLE = "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, " +
  "rnd_symbol('a','b','c',null) s, rnd_double(3) d, 1L AS one FROM long_sequence(40000)) TIMESTAMP(ts) PARTITION BY DAY";

Deno.test("a parallel job reads its snapshot, not the commits after it", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  try {
    await run(engine, TABLE);
    const table = storageOf(engine).table("t")!;
    const snap = table.snapshot();
    try {
      const col = (name: string) => snap.meta.columns.findIndex((c) => c.name === name);
      const job: HeapScan = {
        columnIndexes: [col("d"), col("one")],
        tags: ["DOUBLE", "LONG"],
        preds: [],
        keySets: [],
        keyCount: 0,
        aggs: [
          { fn: "count", col: -1, returns: T.LONG },
          { fn: "sum", col: 0, kind: "f64", returns: T.DOUBLE },
          { fn: "sum", col: 1, kind: "i64", returns: T.LONG },
        ],
      };
      const before = snap.rowCount;
      // Appends to the last partition and new partitions, a copy-on-write UPDATE of old ones,
      // a DELETE and a new column, all committed after the snapshot.
      await run(
        engine,
        "INSERT INTO t SELECT timestamp_sequence('2024-03-07', 1_000_000L), 'z', 1.5, 1L FROM long_sequence(30000)",
      );
      await run(engine, "UPDATE t SET d = 100, one = 5 WHERE ts < '2024-03-04'");
      await run(engine, "DELETE FROM t WHERE ts IN '2024-03-05'");
      await run(engine, "ALTER TABLE t ADD COLUMN x INT");
      const ctx = { snapshots: [] } as unknown as ExecContext;
      const par = await engine.parallel.aggregate(job, snap, ctx);
      assert.ok(par, "the pool took the job");
      const one = await accumulatePartitions(job, { snap, partitions: snap.partitions.map((_, i) => i) });
      assert.equal(par.rowsPerGroup[0], before);
      assert.equal(one.rowsPerGroup[0], before);
      assert.equal(par.groups[0][2].sum, BigInt(before), "sum(one) counts the snapshot's rows");
      assert.equal(par.groups[0][1].count, one.groups[0][1].count);
      assertSame([[par.groups[0][1].sum]], [[one.groups[0][1].sum]], "sum(d)");
      assert.equal(par.groups[0][1].min, one.groups[0][1].min);
      assert.equal(par.groups[0][1].max, one.groups[0][1].max);
    } finally {
      snap.release();
    }
    // A new query sees the new state.
    const [[n, ones]] = await rows(engine, "SELECT count(*), sum(one) FROM t WHERE d > -1");
    const [[m, fives]] = await rows(
      engine,
      "SELECT count(*) FILTER (WHERE true), sum(one) FILTER (WHERE true) FROM t WHERE d > -1",
    );
    assert.deepEqual([n, ones], [m, fives]);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("parallel queries during concurrent inserts each see one committed state", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  try {
    await run(engine, TABLE);
    const committed = new Set<bigint>([40000n]);
    let total = 40000n;
    const jobs = engine.parallel.jobs;
    for (let round = 0; round < 12; round++) {
      const day = String(10 + round).padStart(2, "0");
      const insert = (async () => {
        await run(
          engine,
          `INSERT INTO t SELECT timestamp_sequence('2024-03-${day}', 3_000_000L), 'b', 2.0, 1L FROM long_sequence(7000)`,
        );
        total += 7000n;
        committed.add(total);
      })();
      // Two through a filter that keeps every row (the workers scan them), one unfiltered
      // (partition statistics on the main heap, a partition receiving rows among them).
      const queries = ["WHERE one != 12345", "WHERE one != 12345", ""].map((where) =>
        rows(engine, `SELECT count(*), sum(one), count(d) FROM t ${where}`)
      );
      const [results] = await Promise.all([Promise.all(queries), insert]);
      for (const [[n, ones]] of results) {
        assert.equal(n, ones, "count(*) = sum(one): no torn read");
        assert.ok(committed.has(n as bigint), `${n} rows is a committed state`);
      }
    }
    assert.ok(engine.parallel.jobs >= jobs + 24, "every filtered query went to the workers");
    assert.deepEqual((await rows(engine, "SELECT count(*), sum(one) FROM t"))[0], [total, total]);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("workers forget the folders the main heap forgets (TRUNCATE, DROP PARTITION)", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  const check = async (what: string) => {
    const fast = "SELECT s, count(*), sum(d), min(d), max(d) FROM t GROUP BY s ORDER BY s";
    const slow =
      "SELECT s, count(*) FILTER (WHERE true), sum(d) FILTER (WHERE true), min(d) FILTER (WHERE true), " +
      "max(d) FILTER (WHERE true) FROM t GROUP BY s ORDER BY s";
    const jobs = engine.parallel.jobs;
    const a = await rows(engine, fast);
    assert.equal(engine.parallel.jobs, jobs + 1, `${what}: parallel`);
    assertSame(a, await rows(engine, slow), what);
  };
  try {
    await run(engine, TABLE);
    await check("first load");
    await run(engine, "TRUNCATE TABLE t");
    await run(
      engine,
      TABLE.replace("CREATE TABLE t AS (", "INSERT INTO t ").replace(/\) TIMESTAMP.*$/, "").replace(
        "rnd_double(3)",
        "rnd_double(0) * 1000",
      ),
    );
    await check("after TRUNCATE and the same partitions again");
    await run(engine, "ALTER TABLE t DROP PARTITION LIST '2024-03-02', '2024-03-03'");
    await run(
      engine,
      "INSERT INTO t SELECT timestamp_sequence('2024-03-02', 20_000_000L), 'q', -7.0, 1L FROM long_sequence(8000)",
    );
    await check("after DROP PARTITION and the same partitions again");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
