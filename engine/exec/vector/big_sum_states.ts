/**
 * sum / avg of DECIMAL and sum of LONG256 (functions/aggregate_basic.ts decimalSum, decimalAvg,
 * long256Sum) over batches for the hash aggregation: each group's exact bigint sum and its
 * count, updated in one loop over the vector's scalar values (these types' vectors hold their
 * bigints), instead of an argument array and an accumulator call per row. Sums add in row
 * order and bigints are exact, so the answers are the accumulators'. Values within 32 bits
 * (most DECIMAL(18, s) columns' unscaled values) add into a double per group, exact while it
 * stays below 2^53 (flushed into the bigint every 2^21 rows): a bigint addition a row allocated
 * a bigint a row, and the collector's work was a quarter of the statement.
 */
import type { ColumnType } from "../../base/types.ts";
import { readValue, type Value, type Vector } from "../../base/values.ts";
import {
  DECIMAL_AVG_OVERFLOW,
  DECIMAL_SUM_LIMIT,
  DECIMAL_SUM_OVERFLOW,
  decimalAvgOf,
  decimalAvgOverflows,
} from "../../functions/aggregate_basic.ts";
import { SqlError } from "../../base/errors.ts";

const FLUSH_ROWS = 1 << 21;

export type BigSumFn = "decimal_sum" | "decimal_avg" | "long256_sum";

/** The batch form of `name` over an argument of type `t`, or undefined. */
export function bigSumFnOf(name: string, t: ColumnType | undefined, distinct: boolean): BigSumFn | undefined {
  if (distinct || !t) return undefined;
  if (t.tag === "DECIMAL") return name === "sum" ? "decimal_sum" : name === "avg" ? "decimal_avg" : undefined;
  return t.tag === "LONG256" && name === "sum" ? "long256_sum" : undefined;
}

export class BigSumAgg {
  #sums: bigint[] = [];
  #counts = new Float64Array(0);
  /** The part of each group's sum made of 32-bit values, exact below 2^53. */
  #small = new Float64Array(0);
  #rowsSinceFlush = 0;
  /** A group's sum and count slots, and a bigint of about 64 bits. */
  static readonly GROUP_BYTES = 40;

  /** `pos`: the call's offset, where a DECIMAL sum leaving 76 digits (an avg, 256 bits) fails. */
  constructor(readonly fn: BigSumFn, readonly pos = -1) {}

  reserve(groups: number): void {
    if (this.#counts.length >= groups) return;
    const size = Math.max(groups, this.#counts.length * 2, 16);
    const counts = new Float64Array(size), small = new Float64Array(size);
    counts.set(this.#counts);
    small.set(this.#small);
    this.#counts = counts;
    this.#small = small;
    while (this.#sums.length < size) this.#sums.push(0n);
  }

  /** Adds rows [0, rows) of `arg` to their groups (`gids`), skipping `mask` zeros and NULLs. */
  add(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const sums = this.#sums, counts = this.#counts, small = this.#small;
    const values = Array.isArray(arg.data) ? arg.data as Value[] : undefined;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const v = values ? values[i] : readValue(arg, i);
      if (v === null || v === undefined) continue;
      const g = gids[i];
      const x = Number(v);
      if (x >= -2147483648 && x <= 2147483647) small[g] += x;
      else sums[g] += v as bigint;
      counts[g]++;
    }
    this.#rowsSinceFlush += rows;
    if (this.#rowsSinceFlush >= FLUSH_ROWS) this.#flush();
  }

  /** Moves the double parts into the bigints (2^21 rows of < 2^31 each stay below 2^53). */
  #flush(): void {
    this.#rowsSinceFlush = 0;
    const small = this.#small, sums = this.#sums;
    for (let g = 0; g < small.length; g++) {
      if (small[g] === 0) continue;
      sums[g] += BigInt(small[g]);
      small[g] = 0;
    }
  }

  result(g: number): Value {
    const n = this.#counts[g];
    if (!(n > 0)) return null;
    const sum = this.#sums[g] + BigInt(this.#small[g]);
    if (this.fn === "decimal_avg") {
      // Checked on the group's whole sum, where the row accumulator checks each running sum.
      if (decimalAvgOverflows(sum)) throw new SqlError(DECIMAL_AVG_OVERFLOW, this.pos);
      return decimalAvgOf(sum, BigInt(n));
    }
    if (this.fn === "decimal_sum" && (sum >= DECIMAL_SUM_LIMIT || sum <= -DECIMAL_SUM_LIMIT)) {
      throw new SqlError(DECIMAL_SUM_OVERFLOW, this.pos);
    }
    return this.fn === "long256_sum" ? BigInt.asUintN(256, sum) : sum;
  }
}
