/**
 * UPDATE and DELETE read only the columns their WHERE and SET expressions reference
 * (engine/exec/dml_columns.ts), the others as empty placeholders: results must be as if every
 * column had been read, with WHERE and SET over different columns, STRING and SYMBOL columns,
 * subqueries in SET and WHERE, and columns never read rewritten unchanged.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test("UPDATE and DELETE over referenced columns only give the full-read answers", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_dml_cols_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  const run = (sql: string) => engine.execute(sql, adminSession());
  try {
    await run(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 600_000_000L) ts, rnd_symbol('a','b','c') s, " +
        "cast(x AS STRING) str, x, x * 1.5 d, rnd_varchar(2, 5, 1) v FROM long_sequence(1000)) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
    );
    const before = await rows(engine, "SELECT ts, s, str, x, d, v FROM t ORDER BY ts");
    await run("UPDATE t SET d = x + 0.25 WHERE str LIKE '1%'");
    await run("UPDATE t SET str = s || '-' || x WHERE x % 7 = 0 AND s = 'b'");
    await run("CREATE TABLE m (s SYMBOL, k LONG)");
    await run("INSERT INTO m VALUES ('a', 1), ('b', 2), ('c', 3)");
    await run(
      "UPDATE t SET x = x * 10 + 3 WHERE x < 50 AND s IN (SELECT s FROM m WHERE k > 1)",
    );
    await run("DELETE FROM t WHERE s = 'c' AND d > 700");
    const want = before
      .map(([ts, s, str, x, d, v]) => {
        let [nstr, nx, nd] = [str as string, x as bigint, d as number];
        if (nstr.startsWith("1")) nd = Number(nx) + 0.25;
        if (nx % 7n === 0n && s === "b") nstr = `${s}-${nx}`;
        if (nx < 50n && s !== "a") nx = nx * 10n + 3n;
        return [ts, s, nstr, nx, nd, v];
      })
      .filter(([, s, , , d]) => !(s === "c" && (d as number) > 700));
    assert.deepEqual(await rows(engine, "SELECT ts, s, str, x, d, v FROM t ORDER BY ts"), want);
    assert.ok(want.length < before.length && want.length > 500);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
