/**
 * A filter leaves the columns only its predicate reads ungathered (plan/prune_columns.ts marks
 * them `unread`, exec/filter.ts keeps the input's vectors there). The answers of operators above
 * such filters (aggregates, joins, sorts, DISTINCT, windows) must be those computed here from
 * all rows, which the row reference cannot check since it runs the same plan.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows as rawRows } from "../_result_rows.ts";

/** Cells with integers as numbers: LONG cells read as bigint or number depending on the operator. */
async function rows(engine: Engine, sql: string): Promise<unknown[][]> {
  return (await rawRows(engine, sql)).map((r) => r.map((v) => typeof v === "bigint" ? Number(v) : v));
}

Deno.test("operators above a filter that leaves predicate-only columns ungathered answer as all rows say", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_unread_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, a LONG, b DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const data: { ts: number; s: string; a: number; b: number | null }[] = [];
    for (let i = 0; i < 3000; i++) {
      data.push({
        ts: i * 60_000_000,
        s: `k${i % 7}`,
        a: (i * 37) % 101,
        b: i % 11 === 0 ? null : ((i * 13) % 17) - 8,
      });
    }
    for (let at = 0; at < data.length; at += 500) {
      const values = data.slice(at, at + 500).map((r) => `(${r.ts}, '${r.s}', ${r.a}, ${r.b ?? "NULL"})`);
      await engine.execute(`INSERT INTO t VALUES ${values.join(", ")}`, adminSession());
    }
    const pass = data.filter((r) => r.b !== null && r.b * 2 > 3);
    const plan = (await rows(engine, "EXPLAIN SELECT sum(a) FROM t WHERE b * 2 > 3")).join("\n");
    assert.match(plan, /Filter/);

    assert.deepEqual(await rows(engine, "SELECT count(*) FROM t WHERE b * 2 > 3"), [[Number(pass.length)]]);
    const sum = pass.reduce((x, r) => x + r.a, 0);
    assert.deepEqual(await rows(engine, "SELECT sum(a) FROM t WHERE b * 2 > 3"), [[Number(sum)]]);

    const bySym = new Map<string, number>();
    for (const r of pass) bySym.set(r.s, (bySym.get(r.s) ?? 0) + r.a);
    const keyed = [...bySym].sort(([x], [y]) => x < y ? -1 : 1).map(([s, v]) => [s, Number(v)]);
    assert.deepEqual(await rows(engine, "SELECT s, sum(a) FROM t WHERE b * 2 > 3 ORDER BY s"), keyed);

    const top = pass.map((r) => r.a).sort((x, y) => y - x).slice(0, 5).map((a) => [Number(a)]);
    assert.deepEqual(await rows(engine, "SELECT a FROM t WHERE b * 2 > 3 ORDER BY a DESC LIMIT 5"), top);

    const distinct = [...new Set(pass.map((r) => r.s))].sort().map((s) => [s]);
    assert.deepEqual(await rows(engine, "SELECT DISTINCT s FROM t WHERE b * 2 > 3 ORDER BY s"), distinct);

    const joined = await rows(
      engine,
      "SELECT count(*), sum(x.a) FROM (SELECT s, a FROM t WHERE b * 2 > 3) x JOIN (SELECT s FROM t WHERE ts < 7 * 60000000) y ON x.s = y.s",
    );
    assert.deepEqual(joined, [[Number(pass.length), Number(sum)]]);

    const firstRows = [1, 2, 3, 4].map((k) => [pass.slice(0, k).reduce((x, q) => x + q.a, 0)]);
    assert.deepEqual(
      await rows(engine, "SELECT sum(a) OVER (ORDER BY ts) FROM t WHERE b * 2 > 3 LIMIT 4"),
      firstRows,
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
