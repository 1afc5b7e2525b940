/**
 * avg(value, kind, param [, volume]) OVER (...): the EMA and VWEMA of
 * window-functions/reference.md (engine/exec/window_ema.ts), checked against the formulas
 * computed here: NULL values keep the previous average, partitions start afresh, zero
 * volumes are skipped, and the argument checks.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(f: (e: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_win_ema_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, x DOUBLE, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      `INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 'a', 1, 2), ('2024-01-01T00:01:00Z', 'b', 10, 1),
        ('2024-01-01T00:02:00Z', 'a', NULL, 1), ('2024-01-01T00:04:00Z', 'a', 3, 0),
        ('2024-01-01T00:05:00Z', 'a', 5, 1), ('2024-01-01T00:06:00Z', 'b', 20, 3)`,
      adminSession(),
    );
    await f(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const close = (got: unknown[][], want: (number | null)[]) =>
  assert.deepEqual(
    got.map((r) => (r[0] === null ? null : Math.round((r[0] as number) * 1e9) / 1e9)),
    want.map((w) => (w === null ? null : Math.round(w * 1e9) / 1e9)),
  );

Deno.test("EMA by alpha and by period; NULL keeps the average; partitions start afresh", async () => {
  await withEngine(async (e) => {
    const alpha = await rows(
      e,
      "SELECT avg(x, 'alpha', 0.5) OVER (PARTITION BY s ORDER BY ts) FROM t ORDER BY ts",
    );
    // a: 1, (NULL) 1, 0.5·3 + 0.5·1 = 2, 0.5·5 + 0.5·2 = 3.5; b: 10, 0.5·20 + 0.5·10 = 15.
    close(alpha, [1, 10, 1, 2, 3.5, 15]);
    const period = await rows(
      e,
      "SELECT avg(x, 'period', 3) OVER (PARTITION BY s ORDER BY ts) FROM t ORDER BY ts",
    );
    close(period, [1, 10, 1, 2, 3.5, 15]); // α = 2 / (3 + 1)
  });
});

Deno.test("time-weighted EMA: α = 1 − exp(−Δt / τ) since the previous row, a NULL one too", async () => {
  await withEngine(async (e) => {
    const got = await rows(
      e,
      "SELECT avg(x, 'minute', 2) OVER (PARTITION BY s ORDER BY ts) FROM t ORDER BY ts",
    );
    // a's NULL row at 00:02 moves the clock: 00:04 is 2 minutes on (EmaWindowFunctionTest).
    const a1 = 1 - Math.exp(-2 / 2), a2 = 1 - Math.exp(-1 / 2), b = 1 - Math.exp(-5 / 2);
    const a3 = a1 * 3 + (1 - a1) * 1;
    close(got, [1, 10, 1, a3, a2 * 5 + (1 - a2) * a3, b * 20 + (1 - b) * 10]);
  });
});

Deno.test("VWEMA skips zero volumes; bad kinds and parameters are errors", async () => {
  await withEngine(async (e) => {
    const got = await rows(
      e,
      "SELECT avg(x, 'alpha', 0.5, v) OVER (PARTITION BY s ORDER BY ts) FROM t ORDER BY ts",
    );
    // a: num 2, den 2 → 1; x = 3 with v = 0 skipped; then num 0.5·5 + 0.5·2 = 3.5, den 0.5 + 1 = 1.5.
    close(got, [1, 10, 1, 1, 3.5 / 1.5, (0.5 * 60 + 0.5 * 10) / (0.5 * 3 + 0.5 * 1)]);
    for (const bad of ["'beta', 0.5", "'alpha', 1.5", "'period', 0"]) {
      await assert.rejects(() => rows(e, `SELECT avg(x, ${bad}) OVER (ORDER BY ts) FROM t`));
    }
    await assert.rejects(() => rows(e, "SELECT avg(x, 'minute', 1) OVER () FROM t"));
  });
});
