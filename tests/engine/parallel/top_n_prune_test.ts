/**
 * Parallel top-N pruning by morsel bounds and late columns (engine/exec/vector/top_n_parallel.ts,
 * issue #16), against the row-at-a-time reference (bothWays): every query runs twice, the first
 * time measuring each morsel's first-key bounds and the second pruning by them, over a table
 * whose values climb partition by partition (so most morsels are pruned), with NULLs, ties,
 * DESC and ASC, filters, intervals, late SYMBOL and STRING columns, and after appends that
 * change the bounds of the active partition. EXPLAIN says what runs.
 */
import assert from "node:assert/strict";
import { topNCounters, topNTuning } from "../../../engine/exec/vector/top_n_parallel.ts";
import { bothWays } from "../_result_rows.ts";
import { parallelEngine, run } from "./_parallel_util.ts";
import { morselsForWorkers, morselWorkers } from "../../../engine/parallel/morsel_owner.ts";

/** [query, EXPLAIN must match, whether the second run prunes morsels]. */
const SHAPES: [string, RegExp, boolean][] = [
  [
    "SELECT ts, s, d, k FROM t ORDER BY d DESC, ts DESC LIMIT 20",
    /Top N \[parallel 2\] keys: d desc,ts desc keep: 20 pruned by morsel and block max late: s,k/,
    false,
  ],
  // A DOUBLE NULL ranks last ascending and first descending (QuestDB's order for NaN): every
  // morsel holds NULL d values, so d prunes ascending and not descending.
  ["SELECT ts, s, d FROM t ORDER BY d LIMIT 25", /pruned by morsel and block min late: ts,s/, true],
  ["SELECT s, i, ts FROM t ORDER BY i DESC LIMIT 30", /pruned by morsel and block max late: s,ts/, true],
  [
    "SELECT ts, s, i, k FROM t ORDER BY i, ts DESC LIMIT 15",
    /pruned by morsel and block min late: s,k/,
    false,
  ],
  ["SELECT ts, l, s FROM t ORDER BY l DESC LIMIT 33", /pruned by morsel and block max late: ts,s/, true],
  ["SELECT ts, s, f FROM t ORDER BY f DESC LIMIT 10", /pruned by morsel and block max late: ts,s/, false],
  // Filters only drop rows: whole-morsel bounds stay safe.
  [
    "SELECT ts, s, d FROM t WHERE side = 'sell' ORDER BY d DESC, ts LIMIT 12",
    /pruned by morsel and block max late: s/,
    false,
  ],
  [
    "SELECT ts, k, d FROM t WHERE d < 500 ORDER BY d DESC LIMIT 9",
    /pruned by morsel and block max late: ts,k/,
    false,
  ],
  [
    "SELECT ts, s, d FROM t WHERE ts IN '2024-03-03' ORDER BY d DESC LIMIT 7",
    /pruned by morsel and block max late: ts,s/,
    false,
  ],
  // A computed first key: no bounds; a computed output column is not late.
  ["SELECT ts, s, d * 2 x FROM t ORDER BY x DESC LIMIT 8", /keep: 8 late: ts,s$/m, false],
  [
    "SELECT ts, d, f + 1 g FROM t ORDER BY d LIMIT 6",
    /keep: 6 pruned by morsel and block min late: ts$/m,
    true,
  ],
  // A plain column a filter or a computed output reads anyway is not late.
  ["SELECT ts, s, d, d * 2 x FROM t ORDER BY x DESC LIMIT 8", /keep: 8 late: ts,s$/m, false],
  [
    "SELECT ts, s, i FROM t WHERE i > 3 ORDER BY d LIMIT 5",
    /keep: 5 pruned by morsel and block min late: ts,s$/m,
    true,
  ],
];

/** Eight DAY partitions; d and i climb with time, with NULLs and ties. */
async function makeTable(engine: Parameters<typeof run>[0]): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 36_000_000L) ts, " +
      "rnd_symbol('a','b','c',null) s, rnd_symbol('buy','sell') side, rnd_str('x','yy','zzz',null) k, " +
      "CASE WHEN x % 11 = 0 THEN NULL ELSE (x / 40) + rnd_int(0, 3, 0) END::DOUBLE d, rnd_float(4) f, " +
      "CASE WHEN x % 13 = 0 THEN NULL ELSE (x / 500)::INT END i, (x / 700) l " +
      "FROM long_sequence(19_000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

Deno.test("parallel top-N: morsels pruned by their bounds and late columns give the reference rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_topn_prune_" });
  const morselRows = topNTuning.morselRows;
  topNTuning.morselRows = 600;
  const engine = await parallelEngine(root);
  try {
    await makeTable(engine);
    for (const [sql, plan, prunes] of SHAPES) {
      const first = await bothWays(engine, sql);
      assert.match(first.plan, plan, `${sql}\n${first.plan}`);
      assert.deepEqual(first.got, first.want, `${sql} (measuring)`);
      assert.ok(first.got.length > 0, sql);
      const pruned = topNCounters.prunedMorsels, late = topNCounters.lateRows;
      const second = await bothWays(engine, sql);
      assert.deepEqual(second.got, second.want, `${sql} (pruning)`);
      if (prunes) assert.ok(topNCounters.prunedMorsels > pruned, `${sql}: no morsel pruned`);
      if (/late:/.test(plan.source)) assert.ok(topNCounters.lateRows > late, `${sql}: no late rows`);
    }
    // Appends into the last partition and a new one move the bounds: new keys, same answers
    // (ascending: a DOUBLE NULL ranks last there, so the lowest values lead).
    const sql = "SELECT ts, s, d, k FROM t ORDER BY d, ts DESC LIMIT 20";
    await bothWays(engine, sql);
    await run(engine, "INSERT INTO t (ts, s, d, k) VALUES ('2024-03-08T23:00:00', 'b', -1e9, 'new')");
    await run(engine, "INSERT INTO t (ts, s, d, k) VALUES ('2024-03-09T01:00:00', 'c', -1e9, 'newer')");
    const after = await bothWays(engine, sql);
    assert.deepEqual(after.got, after.want, `${sql} after appends`);
    assert.deepEqual(after.got.slice(0, 2).map((r) => r[3]), ["newer", "new"]);
    // An UPDATE rewrites the partition (a new version): its old bounds are not used.
    await run(engine, "UPDATE t SET d = -2e9 WHERE ts = '2024-03-01T00:00:36'");
    const updated = await bothWays(engine, sql);
    assert.deepEqual(updated.got, updated.want, `${sql} after UPDATE`);
    assert.equal(updated.got[0][2], -2e9);
    // Only NULL first keys kept (DOUBLE NULLs first descending): answers unchanged.
    const nulls = "SELECT ts, s, d FROM t ORDER BY d DESC LIMIT 5";
    await bothWays(engine, nulls);
    const n = await bothWays(engine, nulls);
    assert.deepEqual(n.got, n.want);
    assert.ok(n.got.every((r) => r[2] === null));
  } finally {
    topNTuning.morselRows = morselRows;
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("morsel owners: a partition's rows go to one worker when partitions are many and large", () => {
  const m = (...ps: [number, number, number][]) => ({ pieces: ps.map(([p, lo, hi]) => ({ p, lo, hi })) });
  // Eight partitions of 250 rows in morsels of 200 rows: cut at partition boundaries, each
  // piece on the worker of its partition.
  const rows = Array.from({ length: 10 }, (_, i) => i * 200);
  const pieces = (from: number, to: number) => {
    const out: [number, number, number][] = [];
    for (let p = Math.floor(from / 250); p * 250 < to; p++) {
      out.push([p, Math.max(from, p * 250) - p * 250, Math.min(to, p * 250 + 250) - p * 250]);
    }
    return out;
  };
  const morsels = rows.map((r) => m(...pieces(r, r + 200)));
  const cut = morselsForWorkers(morsels, 2);
  assert.ok(cut.every((x) => x.pieces.length === 1));
  assert.deepEqual(cut.flatMap((x) => x.pieces), morsels.flatMap((x) => x.pieces), "table order kept");
  const owners = morselWorkers(cut, 2);
  cut.forEach((x, i) => assert.equal(owners[i], x.pieces[0].p % 2));
  // Small partitions (many per morsel): unchanged, alternating.
  const small = [m([0, 0, 10], [1, 0, 10], [2, 0, 10]), m([3, 0, 10], [4, 0, 10]), m([5, 0, 10])];
  assert.equal(morselsForWorkers(small, 2), small);
  assert.deepEqual(morselWorkers(small, 2), [0, 1, 0]);
  // Three partitions for two workers: alternating, for parallelism.
  const few = [m([0, 0, 9]), m([0, 9, 18]), m([1, 0, 9]), m([2, 0, 9])];
  assert.equal(morselsForWorkers(few, 2), few);
  assert.deepEqual(morselWorkers(few, 2), [0, 1, 0, 1]);
});

Deno.test("parallel top-N: blocks of a morsel pruned by their bounds give the reference rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_topn_blocks_" });
  const { morselRows, blockRows } = topNTuning;
  topNTuning.morselRows = 600;
  topNTuning.blockRows = 64;
  const engine = await parallelEngine(root);
  try {
    // A saw tooth: every morsel holds values near the best (whole-morsel bounds prune little),
    // its blocks do not; ties at the top, NULLs, two partitions per day.
    await run(
      engine,
      "CREATE TABLE u AS (SELECT timestamp_sequence('2024-03-01', 18_000_000L) ts, " +
        "rnd_symbol('a','b',null) s, rnd_symbol('buy','sell') side, " +
        "CASE WHEN x % 17 = 0 THEN NULL ELSE (x % 577)::DOUBLE END d, " +
        "CASE WHEN x % 19 = 0 THEN NULL ELSE (x % 433)::INT END i, rnd_double() k, (x % 541)::DOUBLE e " +
        "FROM long_sequence(19_000)) TIMESTAMP(ts) PARTITION BY DAY",
    );
    // [query, whether its second run skips blocks]: a DOUBLE NULL ranks first descending, and
    // every block of d holds one (none is skipped descending); INT NULLs rank first ascending.
    const queries: [string, boolean][] = [
      ["SELECT ts, s, d, k FROM u ORDER BY d DESC, ts DESC LIMIT 20", false],
      ["SELECT ts, s, d, k FROM u ORDER BY d, ts LIMIT 45", true],
      ["SELECT ts, s, d FROM u ORDER BY d, ts DESC LIMIT 20", true],
      ["SELECT ts, s, e FROM u ORDER BY e, ts DESC LIMIT 20", true],
      ["SELECT ts, s, i, k FROM u ORDER BY i DESC, k LIMIT 30", true],
      ["SELECT ts, s, e, i FROM u ORDER BY e DESC, i LIMIT 50", true],
      ["SELECT ts, s, d FROM u WHERE side = 'buy' ORDER BY d, ts LIMIT 25", true],
      ["SELECT ts, s, d FROM u WHERE ts IN '2024-03-02' ORDER BY d, ts DESC LIMIT 10", true],
      // Nothing passes: empty answers.
      ["SELECT ts, s, d FROM u WHERE d > 1e12 ORDER BY d DESC LIMIT 10", false],
    ];
    const skipped = topNCounters.skippedBlocks;
    for (const [sql, skips] of queries) {
      const first = await bothWays(engine, sql);
      assert.deepEqual(first.got, first.want, `${sql} (measuring)`);
      assert.match(first.plan, /Top N \[parallel 2\]/, sql);
      const before = topNCounters.skippedBlocks;
      const second = await bothWays(engine, sql);
      assert.deepEqual(second.got, second.want, `${sql} (blocks)`);
      assert.equal(second.got.length > 0, !sql.includes("1e12"), sql);
      if (skips) assert.ok(topNCounters.skippedBlocks > before, `${sql}: no block skipped`);
    }
    assert.ok(topNCounters.skippedBlocks > skipped);
  } finally {
    Object.assign(topNTuning, { morselRows, blockRows });
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
