/**
 * Argument helpers shared by the rnd_* generators (random.ts, random_text.ts): constant
 * integer arguments read at bind, and the `nullRate` draw of spec/sql.md §16.2.
 */
import { isIntegral } from "../base/types.ts";
import { noMatch, toBigInt } from "./_util.ts";
import type { BoundArg, RandomSource } from "./registry_types.ts";

/** QuestDB's `Rnd.nextInt()`: the low 32 bits of a draw, signed. */
export function nextInt32(r: RandomSource): number {
  return Number(BigInt.asIntN(32, r.nextLong()));
}

/** QuestDB's `Rnd.nextPositiveInt()`: |nextInt()|, Integer.MIN_VALUE becoming MAX_VALUE. */
export function nextPositiveInt(r: RandomSource): number {
  const n = nextInt32(r);
  return n > 0 ? n : n === -2147483648 ? 2147483647 : -n;
}

/** Whether this draw is NULL under `rate` (§16.2). */
export function drawNull(r: RandomSource, rate: number): boolean {
  return rate > 0 && r.nextInt(rate) === 0;
}

/**
 * Whether this draw is NULL under a numeric generator's `nanRate` (rnd_int, rnd_long,
 * rnd_double, rnd_float, rnd_date, rnd_timestamp and rnd_double_array with a rate argument):
 * QuestDB's `rnd.nextInt() % (nanRate + 1) == 1` (RndIntCCFunctionFactory), which draws even
 * when the rate is 0, so seeded rows match QuestDB's.
 */
export function drawNaN(r: RandomSource, rate: number): boolean {
  return nextInt32(r) % (rate + 1) === 1;
}

/** QuestDB's `lo + rnd.nextPositiveLong() % range` (RndLongCCFunctionFactory, rnd_timestamp). */
export function drawLongIn(r: RandomSource, lo: bigint, hi: bigint): bigint {
  const v = r.nextLong();
  // nextPositiveLong: Long.MIN_VALUE becomes MAX_VALUE.
  const positive = v >= 0n ? v : v === -(1n << 63n) ? (1n << 63n) - 1n : -v;
  return lo + positive % (hi - lo + 1n);
}

/** Reads constant integer arguments; a string when one is missing or not constant. */
export function constInts(name: string, args: BoundArg[]): bigint[] | string {
  const out: bigint[] = [];
  for (const a of args) {
    if (!isIntegral(a.type) || !a.constant || a.value === null) return noMatch(name, args);
    out.push(toBigInt(a.value!)!);
  }
  return out;
}
