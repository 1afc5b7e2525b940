/**
 * INSERT's numeric narrowing (issue #19): QuestDB's row copier stores a LONG, INT, SHORT, FLOAT
 * or DOUBLE into a narrower integer column when the value fits, where
 * UPDATE and §3.4's assignment rules refuse the type pair (`inconvertible types`). Fractions
 * are truncated toward zero, NULL (NaN) stays NULL, and a value out of range fails the
 * statement with `inconvertible value: v [FROM -> TO]` (SqlUtil.implicitCast* in QuestDB).
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { inconvertibleValue } from "../functions/cast.ts";

const RANK: Record<string, number> = { BYTE: 1, SHORT: 2, INT: 3, LONG: 4, FLOAT: 5, DOUBLE: 6 };
const RANGE: Record<string, [number, number]> = {
  BYTE: [-128, 127],
  SHORT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
};
const LONG_MIN = -(2n ** 63n);

/** True when INSERT narrows `from` into the integer type `to` (assignment refuses the pair). */
export function narrowsOnInsert(from: ColumnType, to: ColumnType): boolean {
  const f = RANK[from.tag], t = RANK[to.tag];
  return f !== undefined && t !== undefined && t <= RANK.LONG && f > t;
}

export function narrowForInsert(v: Value, from: ColumnType, to: ColumnType, pos: number): Value {
  if (v === null || (typeof v === "number" && Number.isNaN(v))) return null;
  if (to.tag === "LONG") {
    // Only FLOAT and DOUBLE reach here: LONG into LONG is not a narrowing.
    const n = v as number;
    if (!(n > -9223372036854775808 && n < 9223372036854775808)) throw inconvertibleValue(v, from, to, pos);
    const r = BigInt(Math.trunc(n));
    return r === LONG_MIN ? null : r;
  }
  const [lo, hi] = RANGE[to.tag];
  const n = typeof v === "bigint" ? v : Math.trunc(v as number);
  if (typeof n === "bigint" ? n < BigInt(lo) || n > BigInt(hi) : !(n >= lo && n <= hi)) {
    throw inconvertibleValue(v, from, to, pos);
  }
  return Number(n);
}
