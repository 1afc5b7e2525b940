/**
 * The columnar ungrouped aggregate (columnar_aggregate.ts, vector_expr.ts) against the row
 * path on the same data: a trivially true FILTER keeps a query on the row path, so each pair
 * below must answer identically, NULLs, infinities and division by zero included.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test("columnar and row-path aggregates agree on derived inputs", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_colagg_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence(0, 1000000) ts, rnd_double(3) a, rnd_double(3) * 1e308 b, " +
        "rnd_int(-5, 5, 3) i, rnd_long(-5, 5, 3) l, rnd_float(3) f FROM long_sequence(20000)) TIMESTAMP(ts)",
      adminSession(),
    );
    const exprs = [
      "a",
      "b",
      "a + b",
      "a - b * 3",
      "a / (i - i)",
      "(a + b) / 2",
      "a * 1e308 * 10",
      "i",
      "l",
      "f",
      "i + l",
      "a / 0",
    ];
    for (const x of exprs) {
      const fast =
        `SELECT count(*), count(${x}), sum(${x}), avg(${x}), min(${x}), max(${x}) FROM (SELECT * FROM t WHERE ts > 5)`;
      const slow =
        `SELECT count(*) FILTER (WHERE true), count(${x}) FILTER (WHERE true), sum(${x}) FILTER (WHERE true), ` +
        `avg(${x}) FILTER (WHERE true), min(${x}) FILTER (WHERE true), max(${x}) FILTER (WHERE true) FROM (SELECT * FROM t WHERE ts > 5)`;
      assert.deepEqual(await rows(engine, fast), await rows(engine, slow), x);
    }
    // Over a SAMPLE BY result, as benchmark t5 does.
    const inner = "SELECT ts, first(a) o, max(a) h, min(a) lo, last(a) c, sum(b) v FROM t SAMPLE BY 1m";
    assert.deepEqual(
      await rows(engine, `SELECT count(*), sum(o), sum(h), sum(lo), sum(c), sum(v) FROM (${inner})`),
      await rows(
        engine,
        `SELECT count(*) FILTER (WHERE true), sum(o) FILTER (WHERE true), sum(h) FILTER (WHERE true), sum(lo) FILTER (WHERE true), sum(c) FILTER (WHERE true), sum(v) FILTER (WHERE true) FROM (${inner})`,
      ),
    );
    // No input rows: count 0, the rest NULL.
    assert.deepEqual(
      await rows(engine, "SELECT count(*), sum(a), min(a) FROM (SELECT * FROM t WHERE ts < 0)"),
      [[0n, null, null]],
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
