import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { RANDOM_FUNCTIONS } from "../../../engine/functions/random.ts";
import { createRandom, randomBigIntInRange } from "../../../engine/functions/random_source.ts";
import type { BoundArg, ScalarBinding } from "../../../engine/functions/registry_types.ts";
import { SqlError } from "../../../engine/base/errors.ts";
import type { DoubleArray, Interval } from "../../../engine/base/values.ts";
import { bind, bindError, c, col, find, lit, testContext } from "./_helpers.ts";

const fn = (name: string) => find(RANDOM_FUNCTIONS, name);

function draws(b: ScalarBinding, n = 200) {
  const ctx = testContext();
  return Array.from({ length: n }, () => b.eval([], ctx));
}

Deno.test("createRandom is reproducible with seeds and uniform enough", () => {
  const a = createRandom(7n, 9n), b = createRandom(7n, 9n);
  const xs = Array.from({ length: 5 }, () => a.nextLong());
  assert.deepEqual(xs, Array.from({ length: 5 }, () => b.nextLong()));
  b.reseed(7n, 9n);
  assert.equal(b.nextLong(), xs[0]);
  const r = createRandom(1n, 2n);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const d = r.nextDouble();
    assert.ok(d >= 0 && d < 1);
    sum += d;
  }
  assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02);
  assert.ok(randomBigIntInRange(r, { lo: -5n, hi: 5n }) <= 5n);
});

Deno.test("random functions are never folded as constants", () => {
  for (const f of RANDOM_FUNCTIONS) {
    const b = f.bind([]);
    if (typeof b !== "string") assert.equal(b.deterministic, false, f.name);
  }
});

Deno.test("rnd_int and rnd_long stay in their inclusive range and honour nullRate", () => {
  const ints = draws(bind(fn("rnd_int"), [lit(1), lit(3), lit(0)]));
  assert.ok(ints.every((v) => v === 1 || v === 2 || v === 3));
  assert.equal(new Set(ints).size, 3);
  // QuestDB's NULL draw is `nextInt() % (rate + 1) == 1`: rate 1 is NULL for a positive odd draw.
  const rated = draws(bind(fn("rnd_int"), [lit(1), lit(3), lit(1)]), 400);
  assert.ok(rated.some((v) => v === null) && rated.some((v) => v !== null));
  const some = draws(bind(fn("rnd_long"), [lit(0), lit(10), lit(2)]), 400);
  assert.ok(some.some((v) => v === null) && some.some((v) => typeof v === "bigint"));
  assert.match(bindError(fn("rnd_int"), [lit(5), lit(1), lit(0)]), /invalid range/);
  assert.match(bindError(fn("rnd_int"), [col(T.INT), lit(1), lit(0)]), /no matching function/);
});

Deno.test("rnd_byte, rnd_short, rnd_boolean, rnd_char, rnd_double and rnd_float", () => {
  // rnd_byte() is QuestDB's 20..127 (RndByteFunctionFactory).
  const bytes = draws(bind(fn("rnd_byte"), []), 2000) as number[];
  assert.ok(bytes.every((v) => v >= 20 && v <= 127));
  assert.equal(Math.min(...bytes), 20);
  assert.equal(Math.max(...bytes), 127);
  assert.ok(draws(bind(fn("rnd_short"), [lit(5), lit(6)])).every((v) => v === 5 || v === 6));
  assert.equal(new Set(draws(bind(fn("rnd_boolean"), []))).size, 2);
  assert.ok(draws(bind(fn("rnd_char"), [])).every((v) => /^[A-Z]$/.test(v as string)));
  assert.ok(draws(bind(fn("rnd_double"), [])).every((v) => (v as number) >= 0 && (v as number) < 1));
  assert.ok(draws(bind(fn("rnd_float"), [])).every((v) => Math.fround(v as number) === v));
});

Deno.test("rnd_str has list, per-row and pool forms", () => {
  assert.ok(draws(bind(fn("rnd_str"), [lit("a"), lit("b")])).every((v) => v === "a" || v === "b"));
  const perRow = draws(bind(fn("rnd_str"), [lit(2), lit(4), lit(0)]));
  assert.ok(perRow.every((v) => /^[A-Z]{2,4}$/.test(v as string)));
  const pooled = draws(bind(fn("rnd_str"), [lit(3), lit(5), lit(5), lit(0)]));
  assert.ok(new Set(pooled).size <= 3);
  assert.equal(bind(fn("rnd_varchar"), [lit(1), lit(8), lit(0)]).returns.tag, "VARCHAR");
  // No arguments: 3 to 10 letters, never NULL (QuestDB's rnd_str(), as SwitchFunctionFactoryTest's
  // tables are built).
  assert.ok(draws(bind(fn("rnd_str"), [])).every((v) => /^[A-Z]{3,10}$/.test(v as string)));
});

Deno.test("rnd_symbol returns SYMBOL from a list or a pool", () => {
  const b = bind(fn("rnd_symbol"), [lit("x"), lit("y"), lit("z")]);
  assert.equal(b.returns.tag, "SYMBOL");
  assert.ok(draws(b).every((v) => ["x", "y", "z"].includes(v as string)));
  assert.ok(new Set(draws(bind(fn("rnd_symbol"), [lit(4), lit(2), lit(3), lit(0)]))).size <= 4);
  assert.match(bindError(fn("rnd_symbol"), [lit(2), lit(3), lit(0)]), /no matching function/);
});

Deno.test("rnd_date and rnd_timestamp draw inside the bounds", () => {
  const lo = 1_704_067_200_000_000n, hi = lo + 1_000_000n;
  const ts = draws(bind(fn("rnd_timestamp"), [c(T.TIMESTAMP, lo), c(T.TIMESTAMP, hi), lit(0)]));
  assert.ok(ts.every((v) => (v as bigint) >= lo && (v as bigint) <= hi));
  const dates = draws(bind(fn("rnd_date"), [lit("2024-01-01"), lit("2024-01-02"), lit(0)]));
  assert.ok(dates.every((v) => (v as bigint) >= 1_704_067_200_000n && (v as bigint) <= 1_704_153_600_000n));
  // rnd_date() is QuestDB's first 10,000,000 ms of 1970, never NULL (RndDateFunctionFactory).
  assert.ok(draws(bind(fn("rnd_date"), [])).every((v) => (v as bigint) >= 0n && (v as bigint) < 10_000_000n));
});

Deno.test("rnd_varchar draws valid UTF-8 of 1 to 4 bytes a character, in its length bounds", () => {
  const texts = draws(bind(fn("rnd_varchar"), [lit(1), lit(6), lit(0)]), 3000) as string[];
  const bytes = new Set<number>();
  for (const t of texts) {
    const chars = [...t];
    assert.ok(chars.length >= 1 && chars.length <= 6, t);
    // A lone surrogate or invalid byte would have decoded as U+FFFD.
    assert.ok(!t.includes("\uFFFD"), t);
    for (const ch of chars) bytes.add(new TextEncoder().encode(ch).length);
  }
  assert.deepEqual([...bytes].sort(), [1, 2, 3, 4]);
  // lo == hi: exactly that many characters; NULLs at rate 1 in 2 (nextInt() % 2 == 1: a quarter).
  const fixed = draws(bind(fn("rnd_varchar"), [lit(3), lit(3), lit(1)]), 2000);
  assert.ok(fixed.every((v) => v === null || [...(v as string)].length === 3));
  const nulls = fixed.filter((v) => v === null).length;
  assert.ok(nulls > 300 && nulls < 700, String(nulls));
  assert.equal(bindError(fn("rnd_varchar"), [lit(5), lit(3), lit(0)]), "invalid range");
  assert.throws(() => bind(fn("rnd_varchar"), [lit(1), lit(3), lit(-1)]), /null rate must be positive/);
});

Deno.test("rnd_uuid4, rnd_ipv4, rnd_bin, rnd_long256 and rnd_geohash", () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.ok(draws(bind(fn("rnd_uuid4"), [])).every((v) => uuid.test(v as string)));
  const ips = draws(bind(fn("rnd_ipv4"), [lit("10.1.0.0/16"), lit(0)]));
  assert.ok(ips.every((v) => ((v as number) >>> 16) === 0x0a01));
  const bins = draws(bind(fn("rnd_bin"), [lit(2), lit(4), lit(0)]));
  assert.ok(bins.every((v) => (v as Uint8Array).length >= 2 && (v as Uint8Array).length <= 4));
  assert.ok(
    draws(bind(fn("rnd_long256"), [])).every((v) => (v as bigint) >= 0n && (v as bigint) < 1n << 256n),
  );
  assert.ok(draws(bind(fn("rnd_geohash"), [lit(10)])).every((v) => (v as bigint) < 1024n));
});

Deno.test("rnd_double_array: random and fixed shapes, NaN rate, QuestDB's argument errors", () => {
  const random = draws(bind(fn("rnd_double_array"), [lit(2), lit(0), lit(3)])) as DoubleArray[];
  assert.ok(random.every((a) => a.dims === 2 && a.shape.every((n) => n >= 1 && n <= 3)));
  assert.ok(random.every((a) => a.data.every((x) => x >= 0 && x < 1)));
  const fixed = bind(fn("rnd_double_array"), [lit(2), lit(1), lit(0), lit(2), lit(5)]);
  assert.equal(fixed.returns.tag, "ARRAY");
  const all = draws(fixed, 20) as DoubleArray[];
  assert.ok(all.every((a) => a.shape.join() === "2,5"));
  const cells = all.flatMap((a) => [...a.data]);
  assert.ok(cells.some(Number.isNaN) && cells.some((x) => !Number.isNaN(x)), "nanRate 1: some elements NaN");
  assert.equal(bind(fn("rnd_double_array"), [lit(0)]).eval([], testContext()), null);
  const err = (args: BoundArg[]) => assert.throws(() => fn("rnd_double_array").bind(args), SqlError);
  err([lit(2), lit(-1)]);
  err([lit(2), lit(1), lit(0)]);
  err([lit(2), lit(1), lit(0), lit(2)]);
  err([lit(2), lit(1), lit(0), lit(2), lit(3), lit(4)]);
});

Deno.test("rnd_decimal, rnd_long256(n), rnd_interval", () => {
  const d = bind(fn("rnd_decimal"), [lit(8), lit(2), lit(0)]);
  assert.deepEqual([d.returns.tag, d.returns.precision, d.returns.scale], ["DECIMAL", 8, 2]);
  assert.ok(draws(d).every((v) => (v as bigint) >= 0n && (v as bigint) < 100_000_000n));
  // nullRate 1: `nextInt() % 2 == 1`, about a quarter NULL (RndDecimalFunctionFactory).
  const nulls =
    draws(bind(fn("rnd_decimal"), [lit(8), lit(2), lit(1)]), 2000).filter((v) => v === null).length;
  assert.ok(nulls > 300 && nulls < 700, String(nulls));
  // Each storage width draws its own way; all stay inside the precision here.
  for (const p of [2, 4, 9, 18, 38, 60, 76]) {
    const max = 10n ** BigInt(p);
    assert.ok(
      draws(bind(fn("rnd_decimal"), [lit(p), lit(0), lit(0)])).every((v) => (v as bigint) < max),
      String(p),
    );
  }
  assert.match(bindError(fn("rnd_decimal"), [lit(8), lit(9), lit(0)]), /invalid precision and scale: 8, 9/);
  assert.throws(() => fn("rnd_decimal").bind([lit(8), lit(2), lit(-1)]), /invalid NULL rate/);
  assert.equal(new Set(draws(bind(fn("rnd_long256"), [lit(3)]), 300)).size, 3);
  const iv = draws(bind(fn("rnd_interval"), [])) as Interval[];
  assert.ok(iv.every((x) => x.lo >= 0n && x.lo < 1_999_999_000_000_000n && x.hi >= x.lo));
});

Deno.test("rnd_symbol_weighted and rnd_symbol_zipf", () => {
  const w = draws(
    bind(fn("rnd_symbol_weighted"), [lit("a"), lit(1), lit("b"), lit(0), lit("c"), lit(3)]),
    400,
  );
  assert.ok(w.every((v) => v === "a" || v === "c"), "a weight of 0 is never drawn");
  assert.ok(w.filter((v) => v === "c").length > w.filter((v) => v === "a").length);
  assert.match(
    bindError(fn("rnd_symbol_weighted"), [lit("a"), lit(1), lit("b")]),
    /even number of arguments/,
  );
  assert.throws(() => fn("rnd_symbol_weighted").bind([lit("a"), lit(-1)]), /weight must be non-negative/);
  const z = bind(fn("rnd_symbol_zipf"), [lit("x"), lit("y"), lit(2.0)]);
  assert.equal(z.returns.tag, "SYMBOL");
  const zs = draws(z, 400);
  assert.ok(zs.filter((v) => v === "x").length > zs.filter((v) => v === "y").length);
  assert.ok(
    draws(bind(fn("rnd_symbol_zipf"), [lit(3), lit(1.5)])).every((v) => /^sym[0-2]$/.test(v as string)),
  );
  assert.throws(() => fn("rnd_symbol_zipf").bind([lit(0), lit(1.5)]), /symbol count must be positive/);
  assert.throws(() => fn("rnd_symbol_zipf").bind([lit("x"), lit(0.0)]), /alpha must be positive/);
});

Deno.test("createRandom is QuestDB's Rnd: seeded draws agree with QuestDB", () => {
  // row-generator.md: SELECT rnd_double() FROM long_sequence(2, 128349234, 4327897).
  const r = createRandom(128349234n, 4327897n);
  assert.equal(r.nextDouble(), 0.8251337821991485);
  assert.equal(r.nextDouble(), 0.2714941145110299);
  // Java's arithmetic shifts: a state with the sign bit set stays on QuestDB's sequence.
  const n = createRandom(-1n, -2n);
  assert.deepEqual([n.nextLong(), n.nextLong()], [8388543n, 16777217n]);
});

Deno.test("rnd_uuid4 draws the low half first, as QuestDB (UuidTest#testRndUuid)", () => {
  // QuestDB's test Rnd starts at reset() = (0xdeadbeef, 0xdee4c0ed), Java ints sign-extended.
  const ctx = { ...testContext(), random: createRandom(-559038737n, -555433747n) };
  const f = bind(fn("rnd_uuid4"), []);
  assert.equal(f.eval([], ctx), "0010cde8-12ce-40ee-8010-a928bb8b9650");
  assert.equal(f.eval([], ctx), "9f9b2131-d49f-4d1d-ab81-39815c50d341");
});
