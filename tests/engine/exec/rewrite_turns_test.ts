/**
 * Issue #17: rewrites of a partition give other statements turns (engine/storage/
 * column_rewrite.ts): an out-of-order INSERT merged into a 3M-row partition, UPDATE, DELETE
 * and ALTER COLUMN TYPE. While each runs, `SELECT 1` is due on another session every 10 ms,
 * timed from when it is due: most must answer at once, and the main thread's CPU between two
 * answers (what the event loop ran in that gap) must stay under 80 ms, one gap allowed up to
 * 160 ms (a garbage collection or a burst on the shared CI machine). Before, these
 * rewrites held the loop 190-370 ms of CPU in one piece (0.5-1.8 s between answers); now
 * 20-45 ms. The worst wall-time gap is printed, not asserted: on the shared test machine (load
 * 10-15 on 2 cores) it reached 365 ms with 12 ms of CPU in it, the process waiting for a core.
 * Also: a write to the same table waits for the rewrite (it lands after it), while a read of
 * another table does not wait.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { probed } from "../_select1_probe.ts";

const N = 3_000_000;

async function responsive(engine: Engine, name: string, sql: string): Promise<void> {
  const p = await probed(engine, sql);
  const wall = [...p.latencies].sort((a, b) => a - b);
  // The main thread's CPU where /proc shows it (GC helper threads are not in it).
  const gaps = [...(p.mainCpuMs.length ? p.mainCpuMs : p.cpuMs)].sort((a, b) => b - a);
  const shown = `${name}: ${wall.length} answered in ${Math.round(p.took)} ms, median ${
    wall[wall.length >> 1].toFixed(1)
  }, max ${wall.at(-1)!.toFixed(1)} ms; worst CPU between answers ${
    gaps.slice(0, 3).map((g) => g.toFixed(1))
  } ms`;
  console.log(shown);
  assert.ok(wall.length >= 5 && wall[wall.length >> 1] < 100, shown);
  assert.ok((gaps[1] ?? 0) < 80, shown);
  assert.ok(gaps[0] < 160, shown);
}

Deno.test({
  name: "partition rewrites of 3M rows give SELECT 1 turns; writes to the table wait, other reads do not",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_rewrite_turns_" });
    // On the main heap: nothing of this may go to worker heaps.
    const engine = await Engine.open({ root, cacheBytes: 256 * 1024 * 1024, parallelWorkers: 0 });
    try {
      // One DAY partition of 3M rows: fixed, SYMBOL and STRING columns.
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 10_000L) ts, rnd_symbol('a','b','c') s, " +
          `cast(x AS STRING) str, rnd_double() d, x FROM long_sequence(${N})) TIMESTAMP(ts) PARTITION BY DAY`,
      );
      await rows(engine, "CREATE TABLE other AS (SELECT x FROM long_sequence(10))");

      // Before every existing row but the first: the whole partition is merged.
      await responsive(
        engine,
        "out-of-order merge",
        "INSERT INTO t VALUES ('2024-01-01T00:00:00.000005', 'a', 'o3', 1.5, -1)",
      );
      assert.deepEqual(await rows(engine, "SELECT count(*), min(x) FROM t"), [[BigInt(N + 1), -1n]]);

      await responsive(engine, "update", "UPDATE t SET str = 'u' WHERE x % 3 = 0");
      assert.deepEqual(await rows(engine, "SELECT count(*) FROM t WHERE str = 'u'"), [[BigInt(N / 3)]]);

      // While DELETE rewrites t: an INSERT into t waits for it (its row, which the DELETE's
      // WHERE would match, stays), a read of another table answers before it ends.
      const order: string[] = [];
      const del = responsive(engine, "delete", "DELETE FROM t WHERE x % 2 = 0").then(() =>
        order.push("delete")
      );
      await new Promise((r) => setTimeout(r, 30));
      const insert = rows(engine, "INSERT INTO t VALUES ('2024-01-01T01:00:00', 'b', 'late', 2.5, -2)")
        .then(() => order.push("insert"));
      const read = rows(engine, "SELECT count(*) FROM other").then((r) => {
        order.push("read");
        return r;
      });
      assert.deepEqual(await read, [[10n]]);
      await Promise.all([del, insert]);
      assert.deepEqual(order, ["read", "delete", "insert"]);
      assert.deepEqual(await rows(engine, "SELECT count(*) FROM t WHERE x % 2 = 0"), [[1n]]);
      assert.deepEqual(await rows(engine, "SELECT count(*) FROM t"), [[BigInt(N / 2 + 2)]]);

      await responsive(engine, "alter column type", "ALTER TABLE t ALTER COLUMN x TYPE DOUBLE");
      assert.deepEqual(await rows(engine, "SELECT count(*), min(x) FROM t"), [[BigInt(N / 2 + 2), -2]]);
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
