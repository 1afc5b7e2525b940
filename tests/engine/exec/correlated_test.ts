/**
 * Correlated subqueries (correlated.ts, correlated_prefetch.ts, decorrelate.ts): the
 * decorrelated single run must answer exactly as the run per outer value. `OR false` keeps a
 * correlation equality from being recognised, so each pair below takes both paths on the
 * same random data, NULL keys and keys without inner rows included.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test("decorrelated and per-value correlated subqueries agree", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_correlated_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    const s = adminSession();
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence(0, 60000000) ts, rnd_int(0, 60, 5) k, rnd_symbol('a','b','c','d',NULL) s, " +
        "rnd_double() x FROM long_sequence(1500)) TIMESTAMP(ts) PARTITION BY HOUR",
      s,
    );
    await engine.execute(
      "CREATE TABLE u AS (SELECT rnd_long(0, 40, 5) k, rnd_symbol('a','b','c',NULL) s, rnd_double(4) v FROM long_sequence(300))",
      s,
    );
    await engine.execute("CREATE TABLE w AS (SELECT x k, x * 1.5 v FROM long_sequence(30))", s);
    const pairs: [string, string][] = [];
    const both = (sql: string, eq: string) =>
      pairs.push([sql.replaceAll("$EQ", eq), sql.replaceAll("$EQ", `(${eq} OR false)`)]);
    both("SELECT ts, k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE $EQ AND u.v > 0.3)", "u.k = t.k");
    both("SELECT ts, k, s FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE $EQ)", "u.s = t.s");
    both("SELECT ts, k FROM t WHERE EXISTS (SELECT v FROM u WHERE $EQ ORDER BY v LIMIT 1)", "u.k = t.k");
    both("SELECT ts FROM t WHERE EXISTS (SELECT 1 FROM u WHERE $EQ AND u.s = t.s)", "u.k = t.k");
    both(
      "SELECT ts, k FROM t WHERE x IN (SELECT v FROM u WHERE $EQ) OR k IN (SELECT k + 1 FROM u WHERE $EQ)",
      "u.k = t.k",
    );
    both("SELECT ts, k FROM t WHERE k NOT IN (SELECT k FROM u WHERE $EQ)", "u.s = t.s");
    both(
      "SELECT ts, (SELECT max(v) FROM u WHERE $EQ), (SELECT count() FROM u WHERE $EQ) FROM t",
      "u.k = t.k",
    );
    both(
      "SELECT ts, (SELECT sum(v) * 2 FROM u WHERE $EQ AND v < 0.8) FROM t WHERE ts IN '1970-01-01T05'",
      "u.k = t.k",
    );
    both("SELECT ts, (SELECT v FROM w WHERE $EQ) FROM t", "w.k = t.k");
    both(
      "SELECT s, count() FROM t WHERE EXISTS (SELECT 1 FROM u WHERE $EQ) GROUP BY s ORDER BY s",
      "u.k = t.k",
    );
    for (const [fast, slow] of pairs) {
      const a = await rows(engine, fast);
      const b = await rows(engine, slow);
      assert.ok(a.length > 0 || b.length === 0, fast);
      assert.deepEqual(a, b, fast);
    }
    // Several inner rows for one key: an error only where the value is needed.
    await assert.rejects(
      rows(engine, "SELECT (SELECT v FROM u WHERE u.k = t.k) FROM t"),
      /more than one row returned/,
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
