/**
 * Expressions of two or three SYMBOL columns evaluated once per tuple of dictionary codes
 * (engine/exec/vector/symbol_tuple.ts) against the row-at-a-time reference (`bothWays`): text
 * projections, GROUP BY keys over them, and filters, with NULL symbols, empty texts, an empty
 * table, and dictionaries with more tuples than one table covers (those batches go by row).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";
import { rng } from "../../fuzz/prng.ts";

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_symtuple_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    const ddl =
      "(ts TIMESTAMP, s SYMBOL, s2 SYMBOL, s3 SYMBOL, big SYMBOL, big2 SYMBOL, i INT) TIMESTAMP(ts)";
    await engine.execute(`CREATE TABLE t ${ddl} PARTITION BY DAY`, adminSession());
    await engine.execute(`CREATE TABLE e ${ddl}`, adminSession());
    const r = rng(77);
    const rows: string[] = [];
    const sym = (xs: string[]) => r.chance(0.15) ? "NULL" : `'${r.pick(xs)}'`;
    for (let n = 0; n < 1600; n++) {
      const ts = `'2024-01-0${1 + (n % 4)}T${String(n % 24).padStart(2, "0")}:00:00.${n}Z'`;
      rows.push(
        `(${ts}, ${sym(["a", "", "BTC-USD", "ü", "ab"])}, ${sym(["b", "", "a", "buy"])}, ${
          sym(["x", "-", "yz"])
        }, ${sym(Array.from({ length: 300 }, (_, k) => `b${k}`))}, ${
          sym(Array.from({ length: 300 }, (_, k) => `c${k}`))
        }, ${r.chance(0.1) ? "NULL" : r.int(100)})`,
      );
    }
    for (let at = 0; at < rows.length; at += 400) {
      await engine.execute(`INSERT INTO t VALUES ${rows.slice(at, at + 400).join(", ")}`, adminSession());
    }
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("text and numeric expressions of several SYMBOL columns agree with the row path", () =>
  withTable(async (engine) => {
    for (
      const x of [
        "concat(s, '-', s2)",
        "s || s2",
        "s || '/' || s2 || s3",
        "concat(s, s2, s3)",
        "upper(s || s2)",
        "left(concat(s, s2), 3)",
        "coalesce(s, s2)",
        "CASE WHEN s = 'a' THEN s2 ELSE s3 END",
        "replace(s, 'a', s2)",
        "concat(big, big2)",
        "concat(s, big)",
        // Numbers of the tuples' texts.
        "length(concat(s, s2))",
        "length(s || s2 || s3) * 2 + i",
        "strpos(concat(s, s2), 'a')",
        "cast(length(concat(s, s2)) AS SHORT)",
        "length(concat(big, big2))",
      ]
    ) {
      for (
        const sql of [
          `SELECT ${x} FROM t`,
          `SELECT ${x} k, count(*), sum(i) FROM t GROUP BY k ORDER BY k`,
          `SELECT ${x} FROM e`,
        ]
      ) {
        const { got, want, plan } = await bothWays(engine, sql);
        assert.equal(resultKey(got), resultKey(want), sql);
        if (sql.endsWith("FROM t")) {
          assert.equal(got.length, 1600, sql);
          assert.match(plan, /\[batch loops\]/, `${sql}\n${plan}`);
        }
      }
    }
  }));

Deno.test("filters over several SYMBOL columns agree with the row path", () =>
  withTable(async (engine) => {
    for (
      const w of [
        "concat(s, s2) = 'ab'",
        "s || '-' || s2 = 'BTC-USD-buy'",
        "s || s2 LIKE '%a%'",
        "concat(s, s2, s3) ILIKE '%Ü%'",
        "s2 IN (s, 'x')",
        "length(concat(s, s2)) > 3",
        "concat(s, s2) = '' OR i > 90",
        "NOT (s || s2 = 'a')",
        "concat(s, s2) IS NULL",
        "concat(big, big2) = 'b1c2'",
      ]
    ) {
      for (const sql of [`SELECT count(*), sum(i) FROM t WHERE ${w}`, `SELECT count(*) FROM e WHERE ${w}`]) {
        const { got, want, plan } = await bothWays(engine, sql);
        assert.equal(resultKey(got), resultKey(want), sql);
        if (sql.includes("FROM t")) assert.match(plan, /Filter \[batch loop\]/, `${sql}\n${plan}`);
      }
    }
  }));
