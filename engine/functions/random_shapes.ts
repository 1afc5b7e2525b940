/**
 * Random generators of compound and weighted values (spec/sql.md §16.2), as QuestDB's factories
 * of the same names behave at bind time (argument forms, checks, messages, positions):
 *
 * - `rnd_double_array(nDims [, nanRate [, maxDimLen]])`: DOUBLE[] of nDims dimensions, each
 *   1..maxDimLen (16) long; `rnd_double_array(nDims, nanRate, 0, len1, …, lenN)` fixed lengths.
 *   nDims <= 0 is a NULL constant (RndDoubleArrayFunctionFactory).
 * - `rnd_decimal(precision, scale, nullRate)`: a non-negative DECIMAL(precision, scale).
 * - `rnd_long256(n)`: one of n random LONG256 values drawn when the query starts.
 * - `rnd_interval()`: an INTERVAL starting before 2033-05-18 and at most ~6 years long.
 * - `rnd_symbol_weighted(s1, w1, …)`: SYMBOL with relative weights.
 * - `rnd_symbol_zipf(s1, …, alpha)` / `rnd_symbol_zipf(n, alpha)`: SYMBOL with Zipf weights,
 *   the count form naming its symbols `sym0`, `sym1`, … (RndSymbolZipfNFunctionFactory).
 *
 * Values come from `ctx.random`, so nothing here is folded into a constant.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, decimalType, isIntegral, isNumeric, T } from "../base/types.ts";
import { DoubleArray, type Value } from "../base/values.ts";
import { ARRAY_ELEMENTS_MAX } from "./array_ops.ts";
import { isText, noMatch, scalar, toBigInt, toDouble } from "./_util.ts";
import { drawLongIn, drawNaN } from "./_random_args.ts";
import type { BoundArg, RandomSource, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Default longest dimension of rnd_double_array (QuestDB's MAX_DIM_LEN). */
const MAX_DIM_LEN = 16;
/** DECIMAL's widest precision. */
const DECIMAL_PRECISION_MAX = 76;
/** rnd_interval bounds in micros (QuestDB's RndIntervalFunctionFactory). */
const INTERVAL_LO_BOUNDARY = 1_999_999_000_000_000n;
const INTERVAL_MAX_RANGE = 199_999_000_000_000n;

function random(returns: ScalarBinding["returns"], f: (r: RandomSource) => Value): ScalarBinding {
  return { returns, deterministic: false, eval: (_args, ctx) => f(ctx.random) };
}

/** A constant integer argument, or undefined when the argument is not one. */
function constInt(a: BoundArg): number | undefined {
  if (!a.constant || !isIntegral(a.type) || a.value === null || a.value === undefined) return undefined;
  return Number(toBigInt(a.value));
}

function bindDoubleArray(args: BoundArg[]): ScalarBinding | string {
  const ints = args.map(constInt);
  if (args.length === 0 || ints.some((v) => v === undefined)) return noMatch("rnd_double_array", args);
  const [dims, nanRate = 0, maxLen = MAX_DIM_LEN] = ints as number[];
  if (dims <= 0) return { returns: T.NULL, eval: () => null };
  if (nanRate < 0) throw new SqlError(`invalid NaN rate [nanRate=${nanRate}]`, args[1].pos);
  if (args.length === 3 && maxLen <= 0) {
    throw new SqlError(`maxDimLen must be positive int [maxDimLen=${maxLen}]`, args[2].pos);
  }
  let fixed: number[] | undefined;
  if (args.length > 3) {
    if (args.length < dims + 3) {
      throw new SqlError(
        `not enough values for dim length [dimensionCount=${dims}, dimLengths=${args.length - 3}]`,
        args[args.length - 1].pos,
      );
    }
    if (args.length > dims + 3) {
      throw new SqlError(
        `too many values for dim length [dimensionCount=${dims}, dimLengths=${args.length - 3}]`,
        args[dims + 3].pos,
      );
    }
    fixed = (ints as number[]).slice(3);
    const bad = fixed.findIndex((n) => n < 0);
    if (bad >= 0) throw new SqlError(`invalid dim length [dimLength=${fixed[bad]}]`, args[bad + 3].pos);
    if (fixed.reduce((a, b) => a * b, 1) > ARRAY_ELEMENTS_MAX) {
      throw new SqlError(`array element count exceeds max [max=${ARRAY_ELEMENTS_MAX}]`, args[3].pos);
    }
  }
  return random(arrayType(dims), (r) => {
    const shape = fixed ?? Array.from({ length: dims }, () => 1 + r.nextInt(maxLen));
    const data = new Float64Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = drawNaN(r, nanRate) ? NaN : r.nextDouble();
    return new DoubleArray(shape, data);
  });
}

function bindDecimal(args: BoundArg[]): ScalarBinding | string {
  const ints = args.map(constInt);
  if (args.length !== 3 || ints.some((v) => v === undefined)) return noMatch("rnd_decimal", args);
  const [precision, scale, nullRate] = ints as number[];
  if (nullRate < 0) throw new SqlError("invalid NULL rate", args[2].pos);
  if (!(scale >= 0 && precision > 0 && precision >= scale && precision <= DECIMAL_PRECISION_MAX)) {
    return `invalid precision and scale: ${precision}, ${scale}`;
  }
  return random(
    decimalType(precision, scale),
    (r) => (drawNaN(r, nullRate) ? null : drawDecimal(r, precision)),
  );
}

/** Numbers.getMaxValue: the largest number of `digits` digits, Long.MAX_VALUE from 19 on. */
function maxOfDigits(digits: number): bigint {
  return digits >= 19 ? (1n << 63n) - 1n : 10n ** BigInt(digits) - 1n;
}

/**
 * An unscaled rnd_decimal value as RndDecimalFunctionFactory draws it for the storage its
 * precision takes (QuestDB's DECIMAL8/16/32/64/128/256 at 2/4/9/18/38/76 digits), so seeded rows
 * match: up to 18 digits one `nextPositive % (10^p - 1)`; wider, the high word bounded that way
 * and the lower 64-bit words raw draws.
 */
function drawDecimal(r: RandomSource, precision: number): bigint {
  const below = (range: bigint) => drawLongIn(r, 0n, range - 1n);
  if (precision <= 9) return BigInt(r.nextInt(Number(maxOfDigits(precision))));
  if (precision <= 18) return below(maxOfDigits(precision));
  const word = () => BigInt.asUintN(64, r.nextLong());
  if (precision <= 38) {
    const high = below(maxOfDigits(Math.max(precision - 20, 1)));
    return (high << 64n) | word();
  }
  // Up to 58 digits QuestDB's top word has range 0 (its `% 0` would throw): the draw is taken, 0 kept.
  const topDigits = Math.max(precision - 58, 0);
  let top = 0n;
  if (topDigits > 0) top = below(maxOfDigits(topDigits));
  else r.nextLong();
  const second = below(maxOfDigits(Math.max(precision - 39, 1)));
  return (top << 192n) | (second << 128n) | (word() << 64n) | word();
}

/** 256 random bits, unsigned; the first draw is the low 64 bits, as QuestDB's long0. */
function long256(r: RandomSource): bigint {
  let v = 0n;
  for (let i = 0n; i < 4n; i++) v |= BigInt.asUintN(64, r.nextLong()) << (64n * i);
  return v;
}

/** rnd_long256() a fresh value per row; rnd_long256(n) one of n values drawn once. */
function bindLong256(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 0) return random(T.LONG256, long256);
  const n = args.length === 1 ? constInt(args[0]) : undefined;
  if (n === undefined || n < 1) return noMatch("rnd_long256", args);
  // The pool is drawn in init, before any row's draws, as QuestDB's RndLong256NFunctionFactory
  // (CountLong256GroupByFunctionFactoryTest#testGroupKeyed: its rows interleave with rnd_symbol).
  let pool: bigint[] | undefined;
  const drawPool = (r: RandomSource) => Array.from({ length: n }, () => long256(r));
  return {
    ...random(T.LONG256, (r) => {
      pool ??= drawPool(r);
      return pool[r.nextInt(n)];
    }),
    init: ({ random: r }) => void (pool = drawPool(r)),
  };
}

function bindInterval(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 0) return noMatch("rnd_interval", args);
  return random(T.INTERVAL, (r) => {
    // Rnd.nextLong(bound): nextPositiveLong() % bound (CastTest#testIntervalToStr).
    const lo = drawLongIn(r, 0n, INTERVAL_LO_BOUNDARY - 1n);
    return { lo, hi: lo + drawLongIn(r, 0n, INTERVAL_MAX_RANGE - 1n) };
  });
}

/** A constant text argument of a symbol list (QuestDB: "constant expected" / "STRING constant expected"). */
function symbolText(a: BoundArg): string {
  if (!a.constant) throw new SqlError("constant expected", a.pos);
  if (!isText(a.type) || a.value === null || a.value === undefined) {
    throw new SqlError("STRING constant expected", a.pos);
  }
  return a.value as string;
}

/** A constant number argument, or an error with `message` at it. */
function constNumber(a: BoundArg, message: string): number {
  if (!a.constant || !isNumeric(a.type)) throw new SqlError(message, a.pos);
  return toDouble(a.value ?? null) ?? NaN;
}

/** Picks an index by cumulative probabilities (weights normalised to 1). */
function picker(symbols: string[], weights: number[]): ScalarBinding {
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  const cumulative = weights.map((w) => (acc += w / total));
  return random(T.SYMBOL, (r) => {
    const u = r.nextDouble();
    const i = cumulative.findIndex((c) => u <= c);
    return symbols[i < 0 ? symbols.length - 1 : i];
  });
}

function bindWeighted(args: BoundArg[]): ScalarBinding | string {
  if (args.length < 2) return "expected at least one symbol-weight pair";
  if (args.length % 2 !== 0) return "expected even number of arguments (symbol-weight pairs)";
  const symbols: string[] = [], weights: number[] = [];
  for (let i = 0; i < args.length; i += 2) {
    symbols.push(symbolText(args[i]));
    const w = constNumber(args[i + 1], "constant weight expected");
    if (!(w >= 0)) throw new SqlError("weight must be non-negative", args[i + 1].pos);
    weights.push(w);
  }
  if (weights.every((w) => w === 0)) return "total weight must be positive";
  return picker(symbols, weights);
}

const zipfWeights = (n: number, alpha: number) =>
  Array.from({ length: n }, (_, i) => 1 / Math.pow(i + 1, alpha));

function bindZipf(args: BoundArg[]): ScalarBinding | string {
  if (args.length < 2) return "expected at least 2 arguments: symbol list and alpha parameter";
  const alphaArg = args[args.length - 1];
  if (args.length === 2 && isIntegral(args[0].type)) {
    const n = constInt(args[0]);
    if (n === undefined) throw new SqlError("constant symbol count expected", args[0].pos);
    if (n <= 0) throw new SqlError("symbol count must be positive", args[0].pos);
    const alpha = constNumber(alphaArg, "constant alpha expected");
    if (!(alpha > 0)) throw new SqlError("alpha must be positive", alphaArg.pos);
    return picker(Array.from({ length: n }, (_, i) => `sym${i}`), zipfWeights(n, alpha));
  }
  const symbols = args.slice(0, -1).map(symbolText);
  const alpha = constNumber(alphaArg, "constant alpha expected");
  if (!(alpha > 0)) throw new SqlError("alpha must be positive", alphaArg.pos);
  return picker(symbols, zipfWeights(symbols.length, alpha));
}

export const RANDOM_SHAPE_FUNCTIONS: ScalarFunction[] = [
  scalar("rnd_double_array", bindDoubleArray),
  scalar("rnd_decimal", bindDecimal),
  scalar("rnd_long256", bindLong256),
  scalar("rnd_interval", bindInterval),
  scalar("rnd_symbol_weighted", bindWeighted),
  scalar("rnd_symbol_zipf", bindZipf),
];
