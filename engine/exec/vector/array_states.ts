/**
 * array_agg and the element-wise array aggregates asum / amin / amax / aavg
 * (functions/aggregate_collect.ts) over batches for the hash aggregation: each group's list or
 * running elements, fed in one loop over the argument vector instead of an argument array and
 * an accumulator call per row. The same order, NULL rules and arithmetic as the accumulators:
 *
 * - array_agg(number): the group's values as doubles in input order, NULL as NaN;
 * - array_agg(DOUBLE[]): the group's arrays' elements concatenated, NULL arrays skipped;
 * - asum/amin/amax/aavg(DOUBLE[]): element by element, NULL and empty arrays and NULL elements
 *   skipped, as long as the longest array;
 * - array_elem_min/max/sum/avg(array) (functions/aggregate_array_elem.ts): the group's arrays,
 *   combined at the end by the accumulator's own elementWiseOf.
 */
import { DoubleArray } from "../../base/double_array.ts";
import type { ColumnType } from "../../base/types.ts";
import type { Value, Vector } from "../../base/values.ts";
import { toDoubles } from "./stat_states.ts";
import { ELEMENT_WISE, elementWiseOf } from "../../functions/array_build.ts";

export type ArrayFn = "array_agg" | "asum" | "amin" | "amax" | "aavg" | "array_elem";

/** The batch form of `name` over an argument of type `t`, or undefined. */
export function arrayFnOf(name: string, t: ColumnType | undefined, distinct: boolean): ArrayFn | undefined {
  if (distinct || !t) return undefined;
  if (name === "array_agg") {
    const numeric = ["DOUBLE", "FLOAT", "INT", "SHORT", "BYTE", "LONG"].includes(t.tag);
    return numeric || (t.tag === "ARRAY" && t.dims === 1) ? name : undefined;
  }
  if (name in ELEMENT_WISE) return t.tag === "ARRAY" ? "array_elem" : undefined;
  if (name === "asum" || name === "amin" || name === "amax" || name === "aavg") {
    return t.tag === "ARRAY" && t.dims === 1 ? name : undefined;
  }
  return undefined;
}

export class ArrayAgg {
  /** array_agg: the values; a*: the running elements. */
  #lists: (number[] | undefined)[] = [];
  /** a*: each element's count of non-NULL values. */
  #counts: (number[] | undefined)[] = [];
  #x = new Float64Array(0);
  /** Values held over all groups, for the memory budget. */
  #held = 0;
  static readonly GROUP_BYTES = 32;

  /** array_elem_*: each group's arrays in input order. */
  #arrays: (DoubleArray[] | undefined)[] = [];

  /** `name`: the call's name (array_elem_*: which element-wise fold). */
  constructor(readonly fn: ArrayFn, readonly name = fn as string) {}

  get extraBytes(): number {
    return this.#held * 8;
  }

  reserve(groups: number): void {
    while (this.#lists.length < groups) {
      this.#lists.push(undefined);
      this.#counts.push(undefined);
    }
  }

  /** Adds rows [0, rows) of `arg` to their groups (`gids`), skipping `mask` zeros. */
  add(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const lists = this.#lists;
    if (arg.type.tag !== "ARRAY") {
      if (this.#x.length < rows) this.#x = new Float64Array(rows);
      const x = toDoubles(arg, rows, this.#x);
      let added = 0;
      for (let i = 0; i < rows; i++) {
        if (mask && !mask[i]) continue;
        (lists[gids[i]] ??= []).push(x[i]);
        added++;
      }
      this.#held += added;
      return;
    }
    const values = arg.data as Value[];
    const op = this.fn;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const v = values[i];
      if (!(v instanceof DoubleArray)) continue;
      const data = v.data, g = gids[i];
      if (op === "array_elem") {
        (this.#arrays[g] ??= []).push(v);
        this.#held += data.length;
        continue;
      }
      if (op === "array_agg") {
        const list = lists[g] ??= [];
        for (let j = 0; j < data.length; j++) list.push(data[j]);
        this.#held += data.length;
        continue;
      }
      // Empty arrays are skipped like NULL ones (the accumulator's `any`).
      if (data.length === 0) continue;
      const acc = lists[g] ??= [], counts = this.#counts[g] ??= [];
      for (let j = 0; j < data.length; j++) {
        const x = data[j];
        if (counts.length <= j) {
          counts.push(0);
          acc.push(NaN);
          this.#held += 2;
        }
        if (Number.isNaN(x)) continue;
        if (counts[j] === 0) acc[j] = x;
        else if (op === "asum" || op === "aavg") acc[j] += x;
        else if (op === "amin" ? x < acc[j] : x > acc[j]) acc[j] = x;
        counts[j]++;
      }
    }
  }

  result(g: number): Value {
    if (this.fn === "array_elem") {
      const f = ELEMENT_WISE[this.name];
      return elementWiseOf(this.#arrays[g] ?? [], f.combine, f.result);
    }
    const list = this.#lists[g];
    if (!list || list.length === 0) return null;
    if (this.fn !== "aavg") return DoubleArray.of1(list);
    const counts = this.#counts[g]!;
    return DoubleArray.of1(list.map((x, i) => counts[i] ? x / counts[i] : NaN));
  }
}
