/**
 * Argument helpers shared by the rnd_* generators (random.ts, random_text.ts): constant
 * integer arguments read at bind, and the `nullRate` draw of spec/sql.md §16.2.
 */
import { isIntegral } from "../base/types.ts";
import { noMatch, toBigInt } from "./_util.ts";
import type { BoundArg, RandomSource } from "./registry_types.ts";

/** Whether this draw is NULL under `rate` (§16.2). */
export function drawNull(r: RandomSource, rate: number): boolean {
  return rate > 0 && r.nextInt(rate) === 0;
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
