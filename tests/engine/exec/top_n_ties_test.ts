/**
 * Top-N whose first key ties often (issue #16: `ORDER BY side, price DESC LIMIT 20` made every
 * row of the best side a candidate): a row tying the worst kept row's first key is tested
 * against that row by every key, exactly. Compared with the reference (a full stable sort) on
 * first keys of few values (SYMBOL, LONG and INT with NULLs, STRING, BOOLEAN), LONGs past 2^53
 * that differ by one (the same double: the rank ties, the values do not), later keys with
 * NULLs and ties, ASC and DESC, on the main heap and on two workers cut into small morsels;
 * and on an empty table.
 */
import assert from "node:assert/strict";
import { adminSession } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { minuteTs, reference, seededRandom, withTopNEngine } from "./_top_n_setup.ts";

const QUERIES = [
  "SELECT ts, s, d FROM t ORDER BY s, d DESC LIMIT 20",
  "SELECT ts, s, d FROM t ORDER BY s DESC, d, ts DESC LIMIT 33",
  "SELECT ts, l, d, i FROM t ORDER BY l DESC, d DESC LIMIT 20",
  "SELECT ts, l, i FROM t ORDER BY l, i DESC, ts LIMIT 25",
  "SELECT ts, i, d FROM t ORDER BY i DESC, d, ts LIMIT 40",
  "SELECT ts, big, d FROM t ORDER BY big DESC, d DESC LIMIT 15",
  "SELECT ts, big, d FROM t ORDER BY big, d, ts DESC LIMIT 15",
  "SELECT ts, str, d FROM t ORDER BY str, d DESC LIMIT 12",
  "SELECT ts, b, l FROM t ORDER BY b DESC, l DESC, ts LIMIT 10",
  "SELECT ts, d, l FROM t WHERE i > 1 ORDER BY d DESC, l LIMIT 18",
  "SELECT ts, l, d FROM t ORDER BY l DESC, d DESC LIMIT 500",
];

/** Few distinct values per column, NULLs in each, LONGs around 2^60 one apart. */
function values(n: number): string {
  const rnd = seededRandom(17);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    const ts = minuteTs(r);
    const d = rnd() < 0.05 ? "NULL" : String(Math.floor(rnd() * 12) / 2);
    const l = rnd() < 0.05 ? "NULL" : String(Math.floor(rnd() * 5));
    const i = rnd() < 0.05 ? "NULL" : String(Math.floor(rnd() * 4));
    const big = rnd() < 0.05 ? "NULL" : `${1152921504606846976n + BigInt(Math.floor(rnd() * 3))}`;
    const s = pick(["'buy'", "'sell'", "NULL"]);
    const str = pick(["'x'", "'yy'", "NULL"]);
    const b = pick(["true", "false"]);
    out.push(`('${ts}', ${s}, ${d}, ${l}, ${i}, ${big}, ${str}, ${b})`);
  }
  return out.join(", ");
}

for (const workers of [0, 2]) {
  Deno.test(`top-N with a tying first key equals the full sort (${workers} workers)`, async () => {
    await withTopNEngine({ prefix: "qdb_topn_ties_", workers, morselRows: 700 }, async (engine) => {
      await engine.execute(
        "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, d DOUBLE, l LONG, i INT, big LONG, str STRING, b BOOLEAN) " +
          "TIMESTAMP(ts) PARTITION BY DAY",
        adminSession(),
      );
      for (const sql of QUERIES) assert.deepEqual(await rows(engine, sql), [], `${sql} (empty)`);
      await engine.execute(`INSERT INTO t VALUES ${values(6000)}`, adminSession());
      for (const sql of QUERIES) {
        const want = await reference(engine, sql);
        assert.ok(want.length > 0, sql);
        assert.deepEqual(await rows(engine, sql), want, sql);
      }
      // The data reaches what it claims: the best first key ties past the limit.
      const top = await rows(engine, QUERIES[2]);
      assert.ok(top.every((r) => r[1] === top[0][1]), "first key ties over the whole answer");
      const big = await rows(engine, QUERIES[5]);
      assert.equal(big[0][1], 1152921504606846978n, "the largest of LONGs one double apart first");
    });
  });
}
