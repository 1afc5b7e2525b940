/**
 * The radix permutation sort (engine/exec/vector/radix_sort.ts) against the row sort
 * (`setReferenceExecution`): every key type it takes, the NULL rules (first ascending, last
 * descending; NaN/Infinity as NULL; -0.0 tied with 0.0), LONGs past 2^53, symbols from two
 * dictionaries (UNION ALL), ties kept in input order, and input of several batches.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rng } from "../../fuzz/prng.ts";
import { bothWays, resultKey } from "../_result_rows.ts";

async function both(engine: Engine, sql: string): Promise<unknown[][]> {
  const { got, want, plan } = await bothWays(engine, sql);
  assert.match(plan, /Sort \[radix permutation\]/, `${sql}\n${plan}`);
  assert.equal(resultKey(got), resultKey(want), sql);
  return got;
}

Deno.test("radix sort orders like the row sort, every key type and NULL", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_radix_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const x = (sql: string) => engine.execute(sql, adminSession());
    const ddl = "ts TIMESTAMP, s SYMBOL, i INT, l LONG, d DOUBLE, f FLOAT, sh SHORT, b BYTE, bo BOOLEAN, " +
      "str STRING, v VARCHAR, c CHAR, ip IPV4, dt DATE";
    await x(`CREATE TABLE t (${ddl}) TIMESTAMP(ts) PARTITION BY DAY`);
    await x(`CREATE TABLE u (${ddl}) TIMESTAMP(ts) PARTITION BY DAY`);
    const r = rng(4242);
    const lit = (n: number, table: string) => {
      const nul = () => r.chance(0.15);
      return `('2024-01-0${1 + (n % 3)}T00:00:00.${n}Z', ${nul() ? "NULL" : `'${table}${r.int(9)}'`}, ${
        nul() ? "NULL" : r.pick(["2147483647", "-2147483647", String(r.int(40) - 20)])
      }, ${
        nul() ? "NULL" : r.pick([
          "9007199254740993",
          "9007199254740992",
          "-9007199254740993",
          "9223372036854775807",
          "-9223372036854775807",
          String(r.int(40) - 20),
        ])
      }, ${
        nul()
          ? "NULL"
          : r.pick(["0.0", "-0.0", "1e308", "-1e308", "5e-324", "-5e-324", (r.next() * 10 - 5).toFixed(2)])
      }, ${nul() ? "NULL" : (r.next() * 4 - 2).toFixed(1)}, ${r.int(200) - 100}, ${r.int(200) - 100}, ${
        r.pick(["true", "false"])
      }, ${nul() ? "NULL" : r.pick(["''", "'a'", "'ab'", "'B'", "'é'", "'\u{1F600}'", `'x${r.int(20)}'`])}, ${
        nul() ? "NULL" : `'v${r.int(30)}'`
      }, ${nul() ? "NULL" : `'${"azAZ09"[r.int(6)]}'`}, ${
        nul() ? "NULL" : r.pick(["'1.2.3.4'", "'255.0.0.1'", "'10.0.0.2'", "'128.0.0.0'"])
      }, ${nul() ? "NULL" : r.pick(["'2024-01-01'", "'1969-12-31'", "'2100-06-01'"])})`;
    };
    // t: more rows than the comparison path takes (radix passes); u: fewer (code comparisons).
    for (const [table, count] of [["t", 2500], ["u", 600]] as const) {
      const vals = Array.from({ length: count }, (_, n) => lit(n, table));
      for (let at = 0; at < count; at += 500) {
        await x(`INSERT INTO ${table} VALUES ${vals.slice(at, at + 500).join(", ")}`);
      }
    }
    for (const table of ["t", "u"]) {
      for (const k of ["i", "l", "d", "f", "sh", "b", "bo", "str", "v", "c", "ip", "dt", "s", "ts + 1"]) {
        for (const dir of ["", " DESC"]) {
          // `ts` is a tie breaker the output shows: ties must keep input order.
          await both(engine, `SELECT ${k}, ts FROM ${table} ORDER BY ${k}${dir}`);
        }
      }
    }
    const multi = await both(engine, "SELECT s, bo, i, d, ts FROM t ORDER BY s DESC, bo, i DESC, d");
    assert.equal(multi.length, 2500);
    assert.equal(multi.at(-1)![0], null, "NULL symbols last when descending");
    // NaN / Infinity from expressions read as NULL and sort with NULLs; -0.0 ties with 0.0.
    await both(engine, "SELECT d / 0 q, d, ts FROM t ORDER BY d / 0, ts");
    await both(engine, "SELECT -d q, ts FROM t ORDER BY q DESC");
    // Two tables: two symbol dictionaries in one sort, and expression strings.
    await both(
      engine,
      "SELECT s, ts FROM (SELECT s, ts FROM t UNION ALL SELECT s, ts FROM u) ORDER BY s, ts DESC",
    );
    await both(engine, "SELECT concat(str, v) cv, i FROM t ORDER BY cv DESC, i");
    await both(engine, "SELECT * FROM t WHERE 1 = 0 ORDER BY d");
    await both(engine, "SELECT s, bo, i, d, ts FROM u ORDER BY s DESC, bo, i DESC, d");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("radix sort over several batches keeps input order in ties", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_radix_big_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    // 200k rows: more than three batches of 65536.
    const sql = "SELECT x, x % 7 m, rnd_double() r FROM long_sequence(200000)";
    await engine.execute(`CREATE TABLE big AS (${sql})`, adminSession());
    const got = await both(engine, "SELECT m, x FROM big ORDER BY m DESC");
    assert.equal(got.length, 200000);
    for (let i = 1; i < got.length; i++) {
      const [pm, px] = got[i - 1] as [bigint, bigint], [m, x] = got[i] as [bigint, bigint];
      assert.ok(
        pm > m || (pm === m && px < x),
        `row ${i}: ${resultKey(got[i - 1])} then ${resultKey(got[i])}`,
      );
    }
    await both(engine, "SELECT r, x FROM big ORDER BY r");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
