/**
 * Top-N with a DOUBLE first key (issue #16): the `topNCandidates` kernel tests rows against the
 * threshold, in place for a table column and on a copy for a computed key, and a worker's
 * earlier morsels give its later ones a floor; on the workers, rows are tested against the
 * threshold before the WHERE conditions and before any column is gathered. Every answer is compared with the reference (a
 * full stable sort) on columns holding NULL, +Infinity and -Infinity (all NULL in a DOUBLE
 * column: first ascending, last descending) and long runs of ties, on the main heap and on two
 * workers cut into many small morsels.
 */
import assert from "node:assert/strict";
import { adminSession } from "../../../engine/mod.ts";
import { explain, rows } from "../_result_rows.ts";
import { minuteTs, reference, seededRandom, withTopNEngine } from "./_top_n_setup.ts";

const QUERIES = [
  "SELECT ts, d, e FROM t ORDER BY d DESC, ts DESC LIMIT 20",
  "SELECT ts, d FROM t ORDER BY d LIMIT 30",
  "SELECT ts, d, e FROM t ORDER BY d DESC LIMIT 300",
  "SELECT ts, d FROM t ORDER BY d, ts DESC LIMIT 7",
  "SELECT ts, d, e FROM t ORDER BY d * e DESC, ts DESC LIMIT 20",
  "SELECT ts, d, e FROM t ORDER BY d - e LIMIT 25",
  "SELECT ts, d, e FROM t WHERE q > 3 ORDER BY d * e DESC, ts DESC LIMIT 15",
  "SELECT ts, d FROM t WHERE q = 1 ORDER BY d DESC LIMIT 5000",
  // Conditions tested after the threshold (filter kernels on the few rows beating it).
  "SELECT ts, s, d FROM t WHERE s = 'b' AND q < 6 ORDER BY d DESC, ts LIMIT 12",
  "SELECT ts, s, d, e FROM t WHERE s IN ('a', 'c') ORDER BY d * e DESC LIMIT 9",
  "SELECT ts, s, d, e FROM t WHERE s IS NULL AND d > -3 ORDER BY d - 2 LIMIT 11",
];

/** DOUBLEs with NULLs, infinities and few distinct values (ties), in day partitions. */
function values(n: number): string {
  const rnd = seededRandom(11);
  const num = () => {
    const u = rnd();
    if (u < 0.05) return "NULL";
    if (u < 0.07) return "'Infinity'::double";
    if (u < 0.09) return "'-Infinity'::double";
    return String(Math.floor(rnd() * 40) / 4 - 5);
  };
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    const ts = minuteTs(r);
    const s = ["'a'", "'b'", "'c'", "NULL"][Math.floor(rnd() * 4)];
    out.push(`('${ts}', ${num()}, ${num()}, ${Math.floor(rnd() * 8)}, ${s})`);
  }
  return out.join(", ");
}

for (const workers of [0, 2]) {
  Deno.test(`top-N through the threshold kernel equals the full sort (${workers} workers)`, async () => {
    await withTopNEngine({ prefix: "qdb_topn_kernel_", workers, morselRows: 500 }, async (engine) => {
      await engine.execute(
        "CREATE TABLE t (ts TIMESTAMP, d DOUBLE, e DOUBLE, q INT, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY",
        adminSession(),
      );
      await engine.execute(`INSERT INTO t VALUES ${values(8000)}`, adminSession());
      for (const sql of QUERIES) {
        if (workers) assert.match(await explain(engine, sql), /Top N \[parallel 2\]/, sql);
        const want = await reference(engine, sql);
        assert.deepEqual(await rows(engine, sql), want, sql);
      }
      // The shapes reach what they claim: DOUBLE NULLs (infinities included) first descending,
      // last ascending (QuestDB's order for NaN).
      const asc = await rows(engine, QUERIES[1]);
      assert.ok(asc.every((r) => r[1] !== null), "NULLs last ascending");
      const desc = await rows(engine, QUERIES[2]);
      assert.ok(desc[0][1] === null, "NULLs first descending");
    });
  });
}
