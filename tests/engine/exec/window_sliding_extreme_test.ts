/**
 * Sliding min/max of DOUBLE over ROWS frames (engine/exec/window_functions.ts slidingExtreme, a
 * monotonic deque) against a brute-force computation of every frame in the test: NULLs, ties,
 * -0 next to 0, frames that trail, lead and straddle the current row, and short partitions.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test("sliding min/max over ROWS frames equal every frame computed from scratch", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_win_extreme_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const r = rnd();
      const d = r < 0.15 ? "NULL" : r < 0.2 ? "-0.0" : r < 0.25 ? "0.0" : String(Math.floor(rnd() * 40) - 20);
      const s = rnd() < 0.02 ? "'lone'" : `'k${Math.floor(rnd() * 4)}'`;
      values.push(`('${new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()}', ${s}, ${d})`);
    }
    await engine.execute(`INSERT INTO t VALUES ${values.join(", ")}`, adminSession());
    const base = await rows(engine, "SELECT s, d FROM t ORDER BY ts");
    const frames: [string, number, number][] = [
      ["ROWS BETWEEN 9 PRECEDING AND CURRENT ROW", -9, 0],
      ["ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING", -3, 2],
      ["ROWS BETWEEN 4 PRECEDING AND 2 PRECEDING", -4, -2],
      ["ROWS BETWEEN CURRENT ROW AND 5 FOLLOWING", 0, 5],
    ];
    for (const [frame, from, to] of frames) {
      for (const fn of ["max", "min"]) {
        const got = await rows(
          engine,
          `SELECT ${fn}(d) OVER (PARTITION BY s ORDER BY ts ${frame}) FROM t ORDER BY ts`,
        );
        // Positions of each partition's rows, in time order.
        const bySym = new Map<unknown, number[]>();
        base.forEach(([s], i) => bySym.set(s, [...(bySym.get(s) ?? []), i]));
        const want: unknown[] = new Array(base.length);
        for (const idx of bySym.values()) {
          idx.forEach((row, k) => {
            let best: number | null = null;
            for (let j = Math.max(0, k + from); j <= Math.min(idx.length - 1, k + to); j++) {
              const v = base[idx[j]][1] as number | null;
              if (v !== null && (best === null || (fn === "max" ? v > best : v < best))) best = v;
            }
            want[row] = best;
          });
        }
        got.forEach(([v], i) =>
          assert.ok(Object.is(v, want[i]), `${fn} ${frame} row ${i}: ${v} vs ${want[i]}`)
        );
      }
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
