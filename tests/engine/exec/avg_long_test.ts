/**
 * avg() of 64-bit integers is the mean of the values even when their sum passes 2^63, on every
 * operator that answers it (the WASM kernels sum LONGs in 64 bits, so avg over LONG is planned
 * elsewhere: a wrapped sum divided by the count was returned before), while sum() wraps as
 * QuestDB's does. Unkeyed, keyed by a symbol, SAMPLE BY unkeyed and keyed, and an expression.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { keyedFastStats } from "../../../engine/exec/sample_by_keyed_fast.ts";
import { explain, rows } from "../_result_rows.ts";

Deno.test("avg of LONG values whose sum overflows is their mean; sum wraps", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_avglong_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    const values = [4611686018427387904n, 4611686018427387904n, 5n, -9007199254740993n, 4611686018427387904n];
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, l LONG, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const literals = values.map((v, i) => `('2024-01-01T0${i}:00:00Z', ${v}, 'k')`);
    await engine.execute(
      `INSERT INTO t VALUES ${literals.join(", ")}, ('2024-01-01T09:00:00Z', NULL, 'k')`,
      adminSession(),
    );
    const exactSum = values.reduce((a, b) => a + b, 0n);
    const mean = Number(exactSum) / values.length;
    const tripled = values.map((v) => BigInt.asIntN(64, v * 3n));
    const tripledMean = Number(tripled.reduce((a, b) => a + b, 0n)) / values.length;
    assert.deepEqual(await rows(engine, "SELECT avg(l), sum(l), avg(l * 3) FROM t"), [[
      mean,
      BigInt.asIntN(64, exactSum),
      tripledMean,
    ]]);
    // On the WASM kernels (and partition statistics) from exact sums (exact_long_sum.ts).
    assert.match(await explain(engine, "SELECT avg(l), sum(l), avg(l * 3) FROM t"), /wasm kernels/);
    assert.deepEqual(await rows(engine, "SELECT s, avg(l) FROM t GROUP BY s"), [["k", mean]]);
    assert.deepEqual((await rows(engine, "SELECT ts, avg(l) FROM t SAMPLE BY 1d")).map((r) => r[1]), [mean]);
    // Keyed SAMPLE BY runs avg(LONG) on its WASM path from the wrapped kernel sums: here the
    // values are too far apart to recover the sum from its range, so the group is summed again.
    const before = keyedFastStats.partitions;
    assert.deepEqual((await rows(engine, "SELECT s, avg(l) FROM t SAMPLE BY 1d")).map((r) => r[1]), [mean]);
    assert.ok(keyedFastStats.partitions > before, "keyed SAMPLE BY of avg(l) on the WASM path");
    // Close values whose sum still wraps: recovered from [n * min, n * max].
    await engine.execute(
      "CREATE TABLE u (ts TIMESTAMP, l LONG, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "INSERT INTO u VALUES ('2024-01-01T00:00:00Z', 4000000000000000000, 'a'), " +
        "('2024-01-01T01:00:00Z', 4000000000000000007, 'a'), ('2024-01-01T02:00:00Z', 4000000000000000002, 'a'), " +
        "('2024-01-01T03:00:00Z', -5, 'b'), ('2024-01-01T04:00:00Z', NULL, 'b')",
      adminSession(),
    );
    const closeMean = Number(12000000000000000009n) / 3;
    const sampled = await rows(engine, "SELECT s, avg(l) FROM u SAMPLE BY 1d");
    assert.deepEqual(sampled, [["a", closeMean], ["b", -5]]);
    // The same recovery on the table-scan kernels: unkeyed (partition statistics too), keyed,
    // of an expression; sum() still wraps.
    const closeSum = 12000000000000000004n;
    // Unkeyed SAMPLE BY recovers the exact sums too (a bucket's rows summed again when their
    // range is too wide, as in t); sum() beside avg() of the same column still wraps.
    assert.deepEqual(await rows(engine, "SELECT ts, avg(l), sum(l), count(l) FROM u SAMPLE BY 1d"), [[
      1704067200000000n,
      Number(closeSum) / 4,
      BigInt.asIntN(64, closeSum),
      4n,
    ]]);
    assert.deepEqual(await rows(engine, "SELECT ts, avg(l), sum(l) FROM t SAMPLE BY 1d"), [[
      1704067200000000n,
      mean,
      BigInt.asIntN(64, exactSum),
    ]]);
    assert.deepEqual(
      (await rows(engine, "SELECT ts, avg(l) FROM u SAMPLE BY 2h FILL(NULL)")).map((r) => r[1]),
      [Number(8000000000000000007n) / 2, Number(3999999999999999997n) / 2, null],
    );
    assert.deepEqual(await rows(engine, "SELECT avg(l), sum(l) FROM u"), [[
      Number(closeSum) / 4,
      BigInt.asIntN(64, closeSum),
    ]]);
    assert.deepEqual(await rows(engine, "SELECT avg(l) FROM u WHERE s = 'a'"), [[closeMean]]);
    assert.deepEqual(await rows(engine, "SELECT avg(l + 0) FROM u WHERE s = 'a'"), [[closeMean]]);
    const keyed = await rows(engine, "SELECT s, avg(l) FROM u GROUP BY s ORDER BY s");
    assert.deepEqual(keyed, [["a", closeMean], ["b", -5]]);
    assert.match(await explain(engine, "SELECT s, avg(l) FROM u GROUP BY s"), /wasm kernels/);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
