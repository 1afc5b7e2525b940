/**
 * Random value generators of spec/sql.md §16.2 for numbers, times and identifiers: rnd_boolean,
 * rnd_byte, rnd_short, rnd_int, rnd_long, rnd_double, rnd_float, rnd_char, rnd_date,
 * rnd_timestamp(_ns), rnd_uuid4, rnd_ipv4, rnd_bin, rnd_geohash. The text generators (rnd_str,
 * rnd_varchar, rnd_symbol) are in random_text.ts; arrays, decimals, LONG256, intervals and the
 * weighted symbols in random_shapes.ts.
 *
 * Each evaluation draws from `ctx.random`, so every binding is non-deterministic and never
 * folded into a constant. Range arguments must be constants, read once at bind. A `nullRate`
 * of 0 never yields NULL, 1 always does, N > 1 about one value in N.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, geohashType, isIntegral, T } from "../base/types.ts";
import { int32, type Value } from "../base/values.ts";
import { maskOf, parseSubnet } from "./_ipv4.ts";
import { makeGeohash } from "./geohash_make.ts";
import { isText, noMatch, scalar, toBigInt } from "./_util.ts";
import type { BoundArg, EvalContext, RandomSource, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { constInts, drawLongIn, drawNaN, nextPositiveInt } from "./_random_args.ts";
import { randomBigIntInRange } from "./random_source.ts";
import { RANDOM_SHAPE_FUNCTIONS } from "./random_shapes.ts";
import { RANDOM_TEXT_FUNCTIONS } from "./random_text.ts";
import { parseTimestamp } from "./timestamp_parse.ts";

export { createRandom } from "./random_source.ts";

function random(returns: ColumnType, eval_: (ctx: EvalContext) => Value): ScalarBinding {
  return { returns, deterministic: false, eval: (_args, ctx) => eval_(ctx) };
}

/** rnd_byte / rnd_short / rnd_int / rnd_long: `()` full range or `(min, max[, nullRate])` inclusive. */
function bindIntegral(name: string, type: ColumnType, lo: bigint, hi: bigint, nullable: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    const ints = constInts(name, args);
    if (typeof ints === "string") return ints;
    if (!(ints.length === 0 || ints.length === 2 || (nullable && ints.length === 3))) {
      return noMatch(name, args);
    }
    // Without arguments the draw is QuestDB's (Rnd.nextInt / nextLong / nextShort): the low bits
    // of one nextLong, so seeded long_sequence rows agree with QuestDB.
    if (ints.length === 0 && type.tag !== "BYTE") {
      const bits = type.tag === "LONG" ? 64 : type.tag === "INT" ? 32 : 16;
      return random(type, ({ random: r }) => {
        const v = BigInt.asIntN(bits, r.nextLong());
        return bits === 64 ? (v === -(1n << 63n) ? null : v) : bits === 32 ? int32(Number(v)) : Number(v);
      });
    }
    const [min, max, rate] = ints.length === 0 ? [lo, hi, 0n] : [ints[0], ints[1], ints[2] ?? 0n];
    if (min > max) return `invalid range [min=${min}, max=${max}]`;
    const nullRate = Number(rate);
    const asBigInt = type.tag === "LONG";
    // With a rate argument QuestDB draws the NULL check first, even at rate 0.
    const rated = nullable && ints.length === 3;
    // rnd_short / rnd_byte(lo, hi): QuestDB's `lo + |nextShort() % range|` (RndShortCCFunctionFactory,
    // RndByteCCFunctionFactory).
    if (type.tag === "SHORT" || type.tag === "BYTE") {
      const [low, range] = [Number(min), Number(max - min + 1n)];
      return random(type, ({ random: r }) => low + Math.abs(Number(BigInt.asIntN(16, r.nextLong())) % range));
    }
    return random(type, ({ random: r }) => {
      if (rated && drawNaN(r, nullRate)) return null;
      const v = asBigInt ? drawLongIn(r, min, max) : randomBigIntInRange(r, { lo: min, hi: max });
      return asBigInt ? (v === -(1n << 63n) ? null : v) : type.tag === "INT" ? int32(Number(v)) : Number(v);
    });
  };
}

/** rnd_double / rnd_float: uniform in [0, 1), optionally NULL with `nullRate`. */
function bindFraction(name: string, type: ColumnType) {
  return (args: BoundArg[]): ScalarBinding | string => {
    const ints = constInts(name, args);
    if (typeof ints === "string") return ints;
    if (ints.length > 1) return noMatch(name, args);
    const rate = Number(ints[0] ?? 0n);
    const rated = ints.length === 1;
    const float = type.tag === "FLOAT";
    return random(type, ({ random: r }) => {
      if (rated && drawNaN(r, rate)) return null;
      // QuestDB's Rnd.nextFloat: 24 of the upper 48 bits of one nextLong.
      return float ? Number(BigInt.asUintN(48, r.nextLong()) >> 24n) * 2 ** -24 : r.nextDouble();
    });
  };
}

const TICKS_PER_SECOND: Record<string, bigint> = { ms: 1_000n, us: 1_000_000n, ns: 1_000_000_000n };
const UNIT_OF: Record<string, string> = { DATE: "ms", TIMESTAMP: "us", TIMESTAMP_NS: "ns" };

/** A time bound in ticks of `unit`: a time value, an integer taken as ticks, or ISO text (§3.5). */
function timeBound(a: BoundArg, unit: "ms" | "us" | "ns"): bigint | undefined {
  const v = a.value ?? null;
  if (!a.constant || v === null) return undefined;
  const from = UNIT_OF[a.type.tag];
  if (from) {
    const [src, dst] = [TICKS_PER_SECOND[from], TICKS_PER_SECOND[unit]];
    return src >= dst ? (v as bigint) / (src / dst) : (v as bigint) * (dst / src);
  }
  if (isIntegral(a.type)) return toBigInt(v)!;
  if (isText(a.type)) return parseTimestamp(v as string, unit);
  return undefined;
}

/** rnd_date / rnd_timestamp / rnd_timestamp_ns(start, end, nullRate): uniform inclusive. */
function bindTime(name: string, type: ColumnType, unit: "ms" | "us" | "ns", defaultHi: bigint) {
  return (args: BoundArg[]): ScalarBinding | string => {
    let lo = 0n, hi = defaultHi, rate = 0;
    if (args.length === 3) {
      const a = timeBound(args[0], unit), b = timeBound(args[1], unit);
      const r = args[2].constant && isIntegral(args[2].type) ? toBigInt(args[2].value ?? null) : null;
      if (a === undefined || b === undefined || r === null) return noMatch(name, args);
      [lo, hi, rate] = [a, b, Number(r)];
    } else if (args.length !== 0) {
      return noMatch(name, args);
    }
    if (lo > hi) return `invalid range [start=${lo}, end=${hi}]`;
    const rated = args.length === 3;
    return random(type, ({ random: r }) => (rated && drawNaN(r, rate) ? null : drawLongIn(r, lo, hi)));
  };
}

function hex(r: RandomSource, digits: number): string {
  let s = "";
  while (s.length < digits) s += BigInt.asUintN(64, r.nextLong()).toString(16).padStart(16, "0");
  return s.slice(0, digits);
}

/**
 * A version-4 UUID: random bits with the version nibble 4 and the RFC 4122 variant. The first
 * draw is the low half and the second the high half, as QuestDB's rnd_uuid4
 * (UuidTest#testRndUuid: the seeded first value is 0010cde8-12ce-40ee-8010-a928bb8b9650).
 */
function randomUuid(r: RandomSource): string {
  return uuidOf(hex(r, 16), r);
}

/** The UUID text of low half `lo` (16 hex digits) and a high half drawn next. */
function uuidOf(lo: string, r: RandomSource): string {
  const h = (hex(r, 16) + lo).split("");
  h[12] = "4";
  h[16] = "89ab"[parseInt(h[16], 16) & 3];
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * rnd_uuid4() or rnd_uuid4(nullRate): with a rate n the low half is drawn first and a NULL when
 * it is positive with remainder 1 modulo n + 1, the high half then not drawn, as QuestDB's
 * RndUuidCCFunctionFactory (InUUIDTest: `rnd_uuid4(1)` is NULL in about a quarter of rows).
 */
function bindUuid(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 0) return random(T.UUID, ({ random: r }) => randomUuid(r));
  const n = args.length === 1 && args[0].constant && isIntegral(args[0].type)
    ? toBigInt(args[0].value ?? null)
    : null;
  if (n === null) return noMatch("rnd_uuid4", args);
  const rate = n + 1n;
  return random(T.UUID, ({ random: r }) => {
    const lo = r.nextLong();
    if (rate !== 0n && lo % rate === 1n) return null;
    return uuidOf(BigInt.asUintN(64, lo).toString(16).padStart(16, "0"), r);
  });
}

/** rnd_ipv4() or rnd_ipv4(subnet, nullRate): an address, inside the subnet when given. */
function bindIPv4(args: BoundArg[]): ScalarBinding | string {
  let net = 0, bits = 0, rate = 0;
  if (args.length === 2) {
    const text = args[0].constant && isText(args[0].type) ? (args[0].value ?? "") as string : undefined;
    const s = text === undefined ? undefined : parseSubnet(text);
    const r = args[1].constant && isIntegral(args[1].type) ? toBigInt(args[1].value ?? null) : null;
    // QuestDB IPv4Test#testRandomIPv4Error: a bad subnet is "invalid argument" at the text.
    if (text !== undefined && !s) throw new SqlError(`invalid argument: ${text}`, args[0].pos);
    if (!s || r === null) return noMatch("rnd_ipv4", args);
    [net, bits, rate] = [s.net, s.bits, Number(r)];
  } else if (args.length !== 0) {
    return noMatch("rnd_ipv4", args);
  }
  // QuestDB's RndIPv4FunctionFactory draws `nextInt()`; RndIPv4CCFunctionFactory draws the NULL
  // check `nextInt() % (nullRate + 1) == 1` first, then `lo + nextPositiveInt() % range` in int
  // arithmetic. Address 0 is IPv4's NULL.
  if (args.length === 0) {
    return random(T.IPV4, ({ random: r }) => Number(BigInt.asUintN(32, r.nextLong())) || null);
  }
  const lo = (net & maskOf(bits)) >>> 0;
  const range = 2 ** (32 - bits);
  return random(T.IPV4, ({ random: r }) => {
    if (drawNaN(r, rate)) return null;
    const positive = nextPositiveInt(r);
    const v = (lo + (range > 2147483647 ? positive : positive % range)) >>> 0;
    return v === 0 ? null : v;
  });
}

/** rnd_bin() or rnd_bin(minLen, maxLen, nullRate): random bytes. */
function bindBin(args: BoundArg[]): ScalarBinding | string {
  const ints = constInts("rnd_bin", args);
  if (typeof ints === "string") return ints;
  if (ints.length !== 0 && ints.length !== 3) return noMatch("rnd_bin", args);
  const [lo, hi, rate] = ints.length === 0 ? [32, 32, 0] : ints.map(Number);
  // QuestDB's RndBinCCCFunctionFactory checks in this order, each at its argument
  // (RndBinCCCFunctionFactoryTest#testNegativeNullRate, #testInvalidRange, #testBadMinimum).
  if (rate < 0) throw new SqlError("invalid null rate", args[2].pos);
  if (lo > hi) return `invalid range [min=${lo}, max=${hi}]`;
  if (ints.length === 3 && lo < 1) throw new SqlError("minimum has to be grater than 0", args[0].pos);
  // QuestDB's RndBinCCCFunctionFactory: NULL when `nextPositiveInt() % (nullRate + 1) == 1`, the
  // length `lo + nextPositiveLong() % range` (no draw when lo == hi), each byte `(byte) nextLong()`.
  const rated = ints.length === 3;
  return random(T.BINARY, ({ random: r }) => {
    if (rated && r.nextInt(rate + 1) === 1) return null;
    const out = new Uint8Array(lo === hi ? lo : Number(drawLongIn(r, BigInt(lo), BigInt(hi))));
    for (let i = 0; i < out.length; i++) out[i] = Number(BigInt.asUintN(8, r.nextLong()));
    return out;
  });
}

/** rnd_geohash(bits): a random geohash of the given precision (1..60 bits). */
function bindGeohash(args: BoundArg[]): ScalarBinding | string {
  const ints = constInts("rnd_geohash", args);
  if (typeof ints === "string") return ints;
  const bits = Number(ints[0]);
  if (ints.length !== 1) return noMatch("rnd_geohash", args);
  // GeoHashQueryTest#testInvalidGeoHashRnd: the precision is checked once the function matches.
  if (bits < 1 || bits > 60) throw new SqlError("precision must be in [1..60] range", args[0].pos);
  // QuestDB's Rnd.nextGeoHash: a random latitude, then longitude, encoded at the precision.
  return random(geohashType(bits), ({ random: r }) => {
    const lat = r.nextDouble() * 180.0 - 90.0;
    return makeGeohash(r.nextDouble() * 360.0 - 180.0, lat, bits);
  });
}

const noArgs = (name: string, returns: ColumnType, f: (r: RandomSource) => Value) =>
  scalar(
    name,
    (args) => (args.length === 0 ? random(returns, ({ random: r }) => f(r)) : noMatch(name, args)),
  );

/** Every rnd_* function, including the text generators of random_text.ts. */
export const RANDOM_FUNCTIONS: ScalarFunction[] = [
  noArgs("rnd_boolean", T.BOOLEAN, (r) => r.nextLong() < 0n), // Rnd.nextBoolean: the top bit
  // rnd_byte() is 20 to 127, as RndByteFunctionFactory draws it.
  scalar("rnd_byte", bindIntegral("rnd_byte", T.BYTE, 20n, 127n, false)),
  scalar("rnd_short", bindIntegral("rnd_short", T.SHORT, -32768n, 32767n, false)),
  scalar("rnd_int", bindIntegral("rnd_int", T.INT, -2147483648n, 2147483647n, true)),
  scalar("rnd_long", bindIntegral("rnd_long", T.LONG, -(1n << 63n), (1n << 63n) - 1n, true)),
  scalar("rnd_double", bindFraction("rnd_double", T.DOUBLE)),
  scalar("rnd_float", bindFraction("rnd_float", T.FLOAT)),
  // QuestDB's Rnd.nextChar: 'B' to 'Z' (nextPositiveInt() % 25 + 'B').
  noArgs("rnd_char", T.CHAR, (r) => String.fromCharCode(66 + r.nextInt(25))),
  // rnd_date() is QuestDB's first 10,000,000 ms of 1970 (RndDateFunctionFactory); QuestDB has no
  // rnd_timestamp() without arguments: ours spans 1970 up to 2100.
  scalar("rnd_date", bindTime("rnd_date", T.DATE, "ms", 9_999_999n)),
  scalar("rnd_timestamp", bindTime("rnd_timestamp", T.TIMESTAMP, "us", 4_102_444_800_000_000n)),
  scalar("rnd_timestamp_ns", bindTime("rnd_timestamp_ns", T.TIMESTAMP_NS, "ns", 4_102_444_800_000_000_000n)),
  scalar("rnd_uuid4", bindUuid),
  scalar("rnd_ipv4", bindIPv4),
  scalar("rnd_bin", bindBin),
  scalar("rnd_geohash", bindGeohash),
  ...RANDOM_TEXT_FUNCTIONS,
  ...RANDOM_SHAPE_FUNCTIONS,
];
