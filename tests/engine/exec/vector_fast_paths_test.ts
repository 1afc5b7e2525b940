/**
 * The direct-index and monomorphic fast paths of the vector operators against their general
 * forms: KeyIds' small-int table (INT and LONG keys), IntPairHash's small-pair square, SYMBOL
 * codes without a dictionary, typed gathers, and the batch compiler's integer remainder and
 * int32 LONG store, top-N's DOUBLE threshold loop. Each mixes values the fast path takes with
 * values it must hand on.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { type Batch, INT_NULL, LONG_NULL, readValue } from "../../../engine/base/values.ts";
import { gather } from "../../../engine/exec/batch_util.ts";
import { compileBatchExpr } from "../../../engine/exec/vector/batch_expr.ts";
import { IntPairHash } from "../../../engine/exec/vector/int_hash.ts";
import { KeyIds } from "../../../engine/exec/vector/key_ids.ts";
import type { BoundExpr } from "../../../engine/plan/bound.ts";
import type { ScalarBinding } from "../../../engine/functions/registry_types.ts";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { rows } from "../_result_rows.ts";

let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

/** Ids in first-appearance order of the values' keys: what KeyIds must answer. */
function expectedIds(keys: string[]): { ids: number[]; firsts: string[] } {
  const seen = new Map<string, number>();
  const ids = keys.map((k) => {
    if (!seen.has(k)) seen.set(k, seen.size);
    return seen.get(k)!;
  });
  return { ids, firsts: [...seen.keys()] };
}

Deno.test("KeyIds: small INT and LONG keys by direct index agree with first-appearance ids", () => {
  for (const tag of ["INT", "LONG"] as const) {
    const ids = new KeyIds();
    const all: string[] = [];
    const got: number[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const n = 500;
      const vals = Array.from({ length: n }, () => {
        const r = rnd();
        if (r < 0.05) return null;
        if (r < 0.15) return Math.floor(rnd() * 1e9) - 5e8; // beyond the table, negative too
        if (r < 0.2) return 4095 + Math.floor(rnd() * 3); // at the table's edge
        return Math.floor(rnd() * 30);
      });
      const data = tag === "INT"
        ? new Int32Array(vals.map((v) => v ?? INT_NULL))
        : new BigInt64Array(vals.map((v) => v === null ? LONG_NULL : BigInt(v)));
      const v = { type: tag === "INT" ? T.INT : T.LONG, data };
      const out = new Int32Array(n);
      ids.map(v, n, out);
      got.push(...out);
      all.push(...vals.map(String));
      for (let i = 0; i < n; i++) {
        const back = readValue(v, i);
        assert.equal(ids.values[out[i]], back, `${tag} value of id ${out[i]}`);
      }
    }
    const want = expectedIds(all);
    assert.deepEqual(got, want.ids, tag);
    assert.equal(ids.size, want.firsts.length);
  }
});

Deno.test("KeyIds: SYMBOL codes without a dictionary group by code, NULL apart", () => {
  const ids = new KeyIds();
  const codes = new Int32Array([3, -1, 0, 3, 700, -1, 0, 2]);
  const out = new Int32Array(codes.length);
  ids.map({ type: T.SYMBOL, data: codes }, codes.length, out);
  assert.deepEqual([...out], [0, 1, 2, 0, 3, 1, 2, 4]);
  assert.deepEqual(ids.values, [3, null, 0, 700, 2]);
});

Deno.test("IntPairHash: the small-pair square and the hash hand out the same ids", () => {
  const h = new IntPairHash(4);
  const ref = new Map<string, number>();
  for (let batch = 0; batch < 4; batch++) {
    const n = 2000;
    const a = new Int32Array(n), b = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const big = rnd() < 0.2;
      a[i] = big ? Math.floor(rnd() * 2e9) - 1e9 : Math.floor(rnd() * 40);
      b[i] = rnd() < 0.1 ? 255 + Math.floor(rnd() * 3) : Math.floor(rnd() * 20);
    }
    const out = new Int32Array(n);
    h.mapBatch(a, b, n, out);
    for (let i = 0; i < n; i++) {
      const k = `${a[i]},${b[i]}`;
      if (!ref.has(k)) ref.set(k, ref.size);
      assert.equal(out[i], ref.get(k), k);
      assert.equal(h.idOf(a[i], b[i]), out[i]);
    }
  }
  assert.equal(h.size, ref.size);
});

Deno.test("IntPairHash: the widened rectangle, the hash and idOf agree on ids", () => {
  // Ranges grow batch by batch (the rectangle widens and holds new pairs alone, while pairs
  // hashed before it widened stay in the hash); outliers and negatives stay in the hash; idOf
  // is asked for new pairs in between, inside and outside the rectangle.
  const h = new IntPairHash(4);
  const ref = new Map<string, number>();
  const check = (x: number, y: number, id: number) => {
    const k = `${x},${y}`;
    if (!ref.has(k)) ref.set(k, ref.size);
    assert.equal(id, ref.get(k), k);
  };
  for (let batch = 0; batch < 12; batch++) {
    const n = 4000;
    const xs = 100 * (batch + 1), ys = 8 << batch;
    const a = new Int32Array(n), b = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      a[i] = r < 0.05 ? -1 - Math.floor(rnd() * 5) : r < 0.08 ? 3_000_000 + batch : Math.floor(rnd() * xs);
      b[i] = Math.floor(rnd() * Math.min(ys, 5000));
    }
    const out = new Int32Array(n);
    h.mapBatch(a, b, n, out);
    for (let i = 0; i < n; i++) check(a[i], b[i], out[i]);
    for (let j = 0; j < 50; j++) {
      const x = Math.floor(rnd() * (xs + 200)), y = Math.floor(rnd() * 300);
      check(x, y, h.idOf(x, y));
    }
    for (let i = 0; i < n; i += 7) assert.equal(h.idOf(a[i], b[i]), out[i]);
  }
  assert.equal(h.size, ref.size);
});

Deno.test("IntPairHash: a long narrow range of pairs gets a rectangle of its own shape", () => {
  // 10,000 x 100 ids (GROUP BY qty, symbol): 16384 x 128 fits the largest rectangle where
  // keeping the first square's 256 columns (16384 x 256) did not, and every pair was hashed.
  for (const [xs, ys] of [[10_000, 100], [100, 10_000]]) {
    const h = new IntPairHash();
    const ref = new Map<string, number>();
    const n = 65536;
    // xorshift32: the LCG above repeats pairs of consecutive draws too often here.
    let x32 = 2463534242;
    const draw = () => {
      x32 ^= x32 << 13;
      x32 ^= x32 >>> 17;
      x32 ^= x32 << 5;
      return (x32 >>> 0) / 4294967296;
    };
    const a = new Int32Array(n), b = new Int32Array(n), out = new Int32Array(n);
    // Four batches (~230K pairs): hashed, they would take a table of 512K slots (6 MB), less
    // than the rectangle's 8 MB.
    for (let batch = 0; batch < 4; batch++) {
      for (let i = 0; i < n; i++) {
        a[i] = Math.floor(draw() * xs);
        b[i] = Math.floor(draw() * ys);
      }
      h.mapBatch(a, b, n, out);
      for (let i = 0; i < n; i++) {
        const k = `${a[i]},${b[i]}`;
        if (!ref.has(k)) ref.set(k, ref.size);
        assert.equal(out[i], ref.get(k), k);
      }
    }
    assert.equal(h.size, ref.size);
    // The rectangle (8 MB) holds the pairs; the hash keeps only those seen before it widened.
    assert.ok(h.bytes >= 16384 * 128 * 4, `${xs} x ${ys}: ${h.bytes} bytes, no rectangle`);
    assert.ok(h.bytes < 16384 * 128 * 4 + ref.size * 12, `${xs} x ${ys}: ${h.bytes} bytes, pairs hashed`);
  }
});

Deno.test("KeyIds: INT values up to 65535 by the widened direct table keep their ids", () => {
  const ids = new KeyIds();
  const ref = new Map<number | null, number>();
  for (let batch = 0; batch < 6; batch++) {
    const n = 3000;
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      data[i] = r < 0.05
        ? INT_NULL
        : r < 0.1
        ? 70000 + Math.floor(rnd() * 10)
        : Math.floor(rnd() * (2000 << batch));
    }
    const out = new Int32Array(n);
    ids.map({ type: T.INT, data }, n, out);
    for (let i = 0; i < n; i++) {
      const v = data[i] === INT_NULL ? null : data[i];
      if (!ref.has(v)) ref.set(v, ref.size);
      assert.equal(out[i], ref.get(v), String(v));
      assert.equal(ids.values[out[i]], v);
    }
  }
  assert.equal(ids.size, ref.size);
});

Deno.test("gather copies every layout, 64-bit integers exactly", () => {
  const b: Batch = {
    rowCount: 4,
    columns: [
      { type: T.LONG, data: new BigInt64Array([LONG_NULL, 2n ** 62n + 5n, -3n, 7n]) },
      { type: T.DOUBLE, data: new Float64Array([1.5, NaN, -0, 4]) },
      { type: T.INT, data: new Int32Array([1, INT_NULL, 3, 4]) },
      { type: T.SHORT, data: new Int16Array([1, -2, 3, 4]) },
      { type: T.STRING, data: ["a", null, "c", "d"] },
    ],
  };
  const g = gather(b, new Int32Array([3, 1, 0, 1]), 3);
  assert.equal(g.rowCount, 3);
  assert.deepEqual([...g.columns[0].data as BigInt64Array], [7n, 2n ** 62n + 5n, LONG_NULL]);
  assert.deepEqual([...g.columns[1].data as Float64Array], [4, NaN, 1.5]);
  assert.deepEqual([...g.columns[2].data as Int32Array], [4, INT_NULL, 1]);
  assert.deepEqual([...g.columns[3].data as Int16Array], [4, -2, 1]);
  assert.deepEqual(g.columns[4].data, ["d", null, "a"]);
});

Deno.test("LONG % takes the integer remainder within int32 and the exact one beyond", () => {
  const binding = {} as ScalarBinding;
  const vals = [
    0n,
    7n,
    -7n,
    -13n,
    13n,
    2147483647n,
    -2147483648n,
    2147483648n,
    -(2n ** 40n) - 3n,
    2n ** 50n + 1n,
  ];
  const b: Batch = {
    rowCount: vals.length + 1,
    columns: [{ type: T.LONG, data: new BigInt64Array([...vals, LONG_NULL]) }],
  };
  for (const m of [7n, -5n, 3000000000n]) {
    const e: BoundExpr = {
      kind: "call",
      name: "%",
      type: T.LONG,
      binding,
      args: [{ kind: "column", index: 0, type: T.LONG }, { kind: "const", type: T.LONG, value: m }],
    };
    const out = new BigInt64Array(b.rowCount);
    assert.equal(compileBatchExpr(e, "value")!(b, new Int32Array(out.buffer)), b.rowCount);
    // BigInt % truncates toward zero like the row path's LONG remainder.
    assert.deepEqual([...out], [...vals.map((v) => v % m), LONG_NULL], `% ${m}`);
  }
});

Deno.test("top-N with a DOUBLE first key (threshold loop) equals the full sort, NULLs and ties", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_topn_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, d DOUBLE, k INT) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    // Four days of 20K rows: later batches go through the threshold loop; values repeat (ties)
    // and one in ten is NULL.
    for (let day = 1; day <= 4; day++) {
      const rowsSql: string[] = [];
      for (let i = 0; i < 20_000; i++) {
        const d = rnd() < 0.1 ? "NULL" : String(Math.floor(rnd() * 5000) / 10 - 250);
        const ts = new Date(Date.UTC(2024, 0, day) + i).toISOString();
        rowsSql.push(`('${ts}', ${d}, ${i})`);
      }
      for (let at = 0; at < rowsSql.length; at += 2000) {
        await engine.execute(
          `INSERT INTO t VALUES ${rowsSql.slice(at, at + 2000).join(", ")}`,
          adminSession(),
        );
      }
    }
    for (
      const sql of [
        "SELECT ts, d, k FROM t ORDER BY d DESC, ts DESC LIMIT 20",
        "SELECT ts, d, k FROM t ORDER BY d LIMIT 20",
        "SELECT ts, d, k FROM t ORDER BY d DESC LIMIT 200",
        "SELECT ts, d, k FROM t ORDER BY d, k DESC LIMIT 7",
      ]
    ) {
      const plan = (await rows(engine, `EXPLAIN ${sql}`)).map((r) => r[0]).join("\n");
      assert.match(plan, /Top N/, sql);
      const got = await rows(engine, sql);
      setReferenceExecution(true);
      let want;
      try {
        want = await rows(engine, sql);
      } finally {
        setReferenceExecution(false);
      }
      assert.deepEqual(got, want, sql);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
