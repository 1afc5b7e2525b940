/**
 * The columnar ASOF/LT JOIN (asof_join_columnar.ts: the asof_merge kernel, SYMBOL slot tables,
 * right columns buffered in WASM memory and gathered by a kernel) against a brute-force answer
 * computed here from the same rows: many batches on both sides, several partitions, NULL keys,
 * keys on one side only, equal timestamps, and right columns of several types.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test("ASOF and LT JOIN over many batches agree with a brute-force merge", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_asof_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    // Timestamps on a coarse grid (steps of 0-2 s) so that the sides often tie.
    await engine.execute(
      `CREATE TABLE l AS (SELECT timestamp_sequence('2024-01-01', rnd_long(0, 2, 0) * 1_000_000L) ts, ` +
        `rnd_symbol('a','b','c','d','e',null) s, rnd_double() px FROM long_sequence(150000)) TIMESTAMP(ts) PARTITION BY HOUR`,
      adminSession(),
    );
    await engine.execute(
      `CREATE TABLE r AS (SELECT timestamp_sequence('2024-01-01', rnd_long(0, 3, 0) * 1_000_000L) ts, ` +
        `rnd_symbol('b','c','d','e','f',null) s, rnd_double(5) bid, rnd_long(0, 1000, 5) n, rnd_int(0, 100, 5) i, ` +
        `rnd_float(5) f, rnd_boolean() ok, rnd_symbol('x','y',null) side FROM long_sequence(110000)) TIMESTAMP(ts) PARTITION BY HOUR`,
      adminSession(),
    );
    const left = await rows(engine, "SELECT ts, s FROM l");
    const right = await rows(engine, "SELECT ts, s, bid, n, i, f, ok, side FROM r");
    assert.ok(left.length === 150_000 && right.length === 110_000);
    for (const [join, strict] of [["ASOF", false], ["LT", true]] as const) {
      const got = await rows(
        engine,
        `SELECT t.ts, t.s, q.ts, q.bid, q.n, q.i, q.f, q.ok, q.side FROM l t ${join} JOIN r q ON (s)`,
      );
      assert.equal(got.length, left.length, `${join}: one row per left row`);
      // Brute force: per key, the last right row at or before (LT: before) each left row.
      const last = new Map<unknown, unknown[]>();
      let r = 0, matched = 0;
      for (let i = 0; i < left.length; i++) {
        const [ts, s] = left[i] as [bigint, unknown];
        while (r < right.length && (strict ? (right[r][0] as bigint) < ts : (right[r][0] as bigint) <= ts)) {
          last.set(right[r][1], right[r]);
          r++;
        }
        const m = last.get(s);
        const want = m
          ? [m[0], m[2], m[3], m[4], m[5], m[6], m[7]]
          : [null, null, null, null, null, false, null];
        if (m) matched++;
        assert.deepEqual(got[i].slice(2), want, `${join} row ${i} (${ts} ${s})`);
      }
      assert.ok(matched > 100_000, `${join}: ${matched} matched`);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
