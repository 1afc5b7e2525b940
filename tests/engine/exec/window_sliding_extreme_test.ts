/**
 * Sliding min/max of DOUBLE over ROWS frames (engine/exec/window_functions.ts slidingExtreme, a
 * monotonic deque) against a brute-force computation of every frame in the test: NULLs, ties,
 * -0 next to 0, frames that trail, lead and straddle the current row, and short partitions.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { frameWindowStats } from "../../../engine/exec/window_frames.ts";

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

Deno.test("sliding min/max of LONG and INT slide on typed arrays, exactly, with NULLs and values past 2^53", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_win_extreme_int_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, l LONG, i INT) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values: string[] = [];
    for (let r = 0; r < 2000; r++) {
      const l = rnd() < 0.15 ? "NULL" : String(Math.floor(rnd() * 2e12) - 1e12);
      const i = rnd() < 0.15 ? "NULL" : String(Math.floor(rnd() * 4e9) - 2e9 + 1);
      values.push(
        `('${new Date(Date.UTC(2024, 0, 1) + r * 60_000).toISOString()}', 'k${r % 3}', ${l}, ${i})`,
      );
    }
    await engine.execute(`INSERT INTO t VALUES ${values.join(", ")}`, adminSession());
    const brute = async (fn: string, col: string, from: number, to: number) => {
      const base = await rows(engine, `SELECT s, ${col} FROM t ORDER BY ts`);
      const bySym = new Map<unknown, number[]>();
      base.forEach(([s], r) => bySym.set(s, [...(bySym.get(s) ?? []), r]));
      const want: unknown[] = new Array(base.length);
      for (const idx of bySym.values()) {
        idx.forEach((row, k) => {
          let best: bigint | number | null = null;
          for (let j = Math.max(0, k + from); j <= Math.min(idx.length - 1, k + to); j++) {
            const v = base[idx[j]][1] as bigint | number | null;
            if (v !== null && (best === null || (fn === "max" ? v > best : v < best))) best = v;
          }
          want[row] = best;
        });
      }
      return want.map((v) => [v]);
    };
    const check = async (vectorized: boolean) => {
      for (const col of ["l", "i"]) {
        for (const fn of ["max", "min"]) {
          for (
            const [frame, from, to] of [["10 PRECEDING AND CURRENT ROW", -10, 0], [
              "2 PRECEDING AND 3 FOLLOWING",
              -2,
              3,
            ]] as const
          ) {
            const sql =
              `SELECT ${fn}(${col}) OVER (PARTITION BY s ORDER BY ts ROWS BETWEEN ${frame}) FROM t ORDER BY ts`;
            const plan = (await rows(engine, `EXPLAIN ${sql}`)).flat().join("\n");
            assert.match(plan, /Window \[vectorized\]/, plan);
            const runs = frameWindowStats.runs;
            assert.deepEqual(await rows(engine, sql), await brute(fn, col, from, to), sql);
            // Past 2^53 the doubles would round: the row path answers (exactly) instead.
            assert.equal(frameWindowStats.runs > runs, vectorized || col === "i", sql);
          }
        }
      }
    };
    await check(true);
    await engine.execute(
      "INSERT INTO t VALUES ('2024-01-05', 'k1', 9007199254740993, 7), ('2024-01-05T00:01', 'k1', 9007199254740992, 8)",
      adminSession(),
    );
    await check(false);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
