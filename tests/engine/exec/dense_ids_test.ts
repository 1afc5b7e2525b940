/**
 * GROUP BY several keys of small domains on this heap's hash aggregation through one direct
 * table of group ids (engine/exec/vector/dense_ids.ts), against the row-at-a-time reference:
 * SYMBOL columns, date parts, remainders of INT and LONG, BOOLEAN, BYTE and SHORT keys, NULL
 * keys of each kind, filters and intervals, an empty table, unordered results (first-appearance
 * order), and a batch refused mid-stream (the groups so far are replayed into the general path,
 * which goes on with the same ids). EXPLAIN shows
 * `dense keys` on this heap's hash aggregation exactly when the keys have small domains.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { denseIdsTesting } from "../../../engine/exec/vector/dense_ids.ts";
import { bothWays } from "../_result_rows.ts";

const DENSE = [
  "SELECT s, hour(ts) AS h, count(*), sum(l), avg(d) FROM t GROUP BY s, hour(ts) ORDER BY s, h",
  "SELECT l % 7 AS m, s, day_of_week(ts) AS w, min(d), max(l), count(*) FROM t GROUP BY l % 7, s, day_of_week(ts) ORDER BY m, s, w",
  "SELECT i % 5 AS m, b, count(*) FROM t WHERE d > 10 GROUP BY i % 5, b ORDER BY m, b",
  "SELECT y, sh, s2, count(*), sum(d) FROM t GROUP BY y, sh, s2 ORDER BY y, sh, s2",
  "SELECT s, s2, avg(l) FROM t WHERE ts IN '2024-01-02' GROUP BY s, s2 ORDER BY s, s2",
  "SELECT b, s, count(*) FILTER (WHERE l > 0), count(*) FROM t GROUP BY b, s ORDER BY b, s",
];

function rows(day: number, count: number, seed: number, syms: string[]): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const ts = `'2024-01-0${day}T${String(Math.floor(n / 60)).padStart(2, "0")}:${
      String(n % 60).padStart(2, "0")
    }:00'`;
    const nul = (v: string) => (rnd() < 0.1 ? "NULL" : v);
    out.push(
      `(${ts}, ${pick([...syms, "NULL"])}, ${pick(["'p'", "'q'", "NULL"])}, ${
        nul(String(Math.floor(rnd() * 2000) - 1000))
      }, ` +
        `${nul(String(Math.floor(rnd() * 200) - 100))}, ${nul(String(rnd() * 100))}, ${rnd() < 0.5}, ` +
        `${Math.floor(rnd() * 256) - 128}, ${Math.floor(rnd() * 20) - 10})`,
    );
  }
  return out.join(", ");
}

Deno.test("GROUP BY several small-domain keys through one direct table equals the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_dense_ids_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024, parallelWorkers: 0 });
  const exec = (sql: string) => engine.execute(sql, adminSession());
  const agree = async (sql: string, dense: boolean) => {
    const { got, want, plan } = await bothWays(engine, sql);
    assert.equal(/dense keys/.test(plan), dense, `${sql}\n${plan}`);
    assert.deepEqual(
      got.map((r) => r.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v))),
      want.map((r) => r.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v))),
      sql,
    );
  };
  try {
    const ddl = "(ts TIMESTAMP, s SYMBOL, s2 SYMBOL, l LONG, i INT, d DOUBLE, b BOOLEAN, y BYTE, sh SHORT)";
    await exec(`CREATE TABLE t ${ddl} TIMESTAMP(ts) PARTITION BY DAY`);
    await exec(`CREATE TABLE u ${ddl} TIMESTAMP(ts) PARTITION BY DAY`);
    for (const sql of DENSE) await agree(sql, true);
    for (let day = 1; day <= 3; day++) {
      await exec(`INSERT INTO t VALUES ${rows(day, 1400, day, ["'a'", "'b'", "'c'"])}`);
    }
    // u's dictionary holds other texts first: its codes mean other symbols than t's.
    await exec(`INSERT INTO u VALUES ${rows(4, 1400, 9, ["'z'", "'c'", "'a'", "'x'"])}`);
    for (const sql of DENSE) await agree(sql, true);
    // Not small domains: a LONG column key, a DOUBLE key.
    await agree("SELECT s, l, count(*) FROM t GROUP BY s, l ORDER BY s, l", false);
    await agree("SELECT s, d, count(*) FROM t WHERE l > 900 GROUP BY s, d ORDER BY s, d", false);
    // A UNION ALL types its SYMBOL columns as text: no small domain.
    await agree(
      "SELECT s, hour(ts) AS h, count(*), sum(l) FROM (SELECT * FROM t UNION ALL SELECT * FROM u) GROUP BY s, hour(ts) ORDER BY s, h",
      false,
    );
    // A batch refused after the first (each day's partition is a batch): the groups so far are
    // replayed into the general path, which goes on with the same ids (unordered queries too:
    // first-appearance order on both paths).
    denseIdsTesting.refuseAfter = 1;
    try {
      const replays = denseIdsTesting.replays;
      for (const sql of [...DENSE, "SELECT s, b, count(*), sum(d) FROM t GROUP BY s, b"]) {
        await agree(sql, true);
      }
      // Every query but the one-day interval has batches of several partitions.
      assert.ok(
        denseIdsTesting.replays >= replays + DENSE.length - 1,
        `replays: ${denseIdsTesting.replays - replays}`,
      );
    } finally {
      denseIdsTesting.refuseAfter = Infinity;
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
