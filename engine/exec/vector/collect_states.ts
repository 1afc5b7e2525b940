/**
 * Aggregates of functions/aggregate_collect.ts over batches for the hash aggregation, instead
 * of an argument array and a closure call per row (~150-300 ns a row):
 *
 * - bool_and / bool_or: a byte per group;
 * - arg_min / arg_max(value, key) over a numeric or time key: the best key per group as a
 *   double (or a LONG's two words), the value read (readValue) only when the key improves;
 *   over a text, symbol, UUID, DECIMAL, ... key: the best key per group as its value;
 * - mode(x): (group, value id) pairs counted in one pair table (value ids from KeyIds), the
 *   best pair per group chosen in pair-creation order, which is each group's first-seen order
 *   as in the accumulator's Map, so ties go to the same value;
 * - approx_percentile / approx_median: the accumulator's DoubleHistogram for every group,
 *   its counts in typed arrays (histogram_states.ts), recorded from a double vector;
 * - min / max of text, symbols, IPv4, booleans, UUID, DECIMAL and LONG256: the best value per
 *   group, compared as the accumulator compares; string_agg / string_distinct_agg: each group's parts;
 * - bit_and / bit_or / bit_xor of integers: the fold in 32-bit words per group;
 * - isOrdered of numbers and times: a flag and the previous value per group;
 * - percentile_cont/disc, quantile_cont/disc of non-LONG numbers: each group's values, sorted
 *   at the end as the accumulator sorts them.
 *
 * Answers equal the accumulators' (the same comparisons, the same histograms). One intended
 * difference: mode over DOUBLE answers 0 where the group's most frequent value is 0 and it saw
 * -0.0 first (value ids fold -0.0 into 0; the values compare equal).
 */
import type { ColumnType } from "../../base/types.ts";
import {
  int32,
  int64,
  INT_NULL,
  LONG_NULL,
  nullValueOf,
  readValue,
  type Value,
  type Vector,
} from "../../base/values.ts";
import { HistogramStates } from "./histogram_states.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";
import { approxCountDistinct } from "../../functions/hyperloglog.ts";
import { toDoubles } from "./stat_states.ts";
import { READ_BACK_TAGS } from "./pick_states.ts";
import { textOf } from "../../functions/_util.ts";
import { discIndex, negativesLast } from "../../functions/aggregate_quantile.ts";

export type CollectFn =
  | "bool_and"
  | "bool_or"
  | "arg_min"
  | "arg_max"
  | "mode"
  | "approx_count_distinct"
  | "approx_percentile"
  | "approx_median"
  | "min"
  | "max"
  | "string_agg"
  | "string_distinct_agg"
  | "bit_and"
  | "bit_or"
  | "bit_xor"
  | "quantile_cont"
  | "quantile_disc"
  | "isordered";

/** Value types read back as the row evaluator gives them. */
const VALUE_TAGS = READ_BACK_TAGS;
/** Keys compared as numbers: doubles exactly, LONG-like keys by their two words. */
const KEY_TAGS = new Set([
  "DOUBLE",
  "FLOAT",
  "INT",
  "SHORT",
  "BYTE",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
]);
const NUMERIC = new Set(["DOUBLE", "FLOAT", "LONG", "INT", "SHORT", "BYTE"]);
/** min/max argument types without a native form, compared as the accumulator's `<` / `>` does. */
const EXTREME_TAGS = new Set([
  "CHAR",
  "STRING",
  "VARCHAR",
  "SYMBOL",
  "IPV4",
  "BOOLEAN",
  // Canonical lowercase strings, and bigints: ordered by < and > as compareValues orders them.
  "UUID",
  "DECIMAL",
  "LONG256",
]);

/**
 * The batch form of `name` over arguments of `types`, or undefined. Constant arguments
 * (percentile, precision) are the binding's; only the first argument is read here.
 */
export function collectFnOf(name: string, types: ColumnType[], distinct: boolean): CollectFn | undefined {
  if (distinct || types.length === 0) return undefined;
  const t = types[0].tag;
  switch (name) {
    case "bool_and":
    case "bool_or":
      return types.length === 1 && t === "BOOLEAN" ? name : undefined;
    case "arg_min":
    case "arg_max":
      // Values of any type are read back as they are; keys compare as numbers, or as the
      // accumulator's compareValues orders text, symbols, UUIDs, bigints (< and >).
      return types.length === 2 && t !== "CURSOR" &&
          (KEY_TAGS.has(types[1].tag) || EXTREME_TAGS.has(types[1].tag))
        ? name
        : undefined;
    case "mode":
      // Values of any type the binding takes: KeyIds tells them apart by valueKey, as the
      // accumulator's keyPart does for one column's values.
      return types.length === 1 && t !== "CURSOR" && t !== "BINARY" ? name : undefined;
    case "approx_percentile":
    case "approx_median":
      return NUMERIC.has(t) ? name : undefined;
    case "min":
    case "max":
      return types.length === 1 && EXTREME_TAGS.has(t) ? name : undefined;
    case "string_agg":
    case "string_distinct_agg":
      return types.length === 2 && VALUE_TAGS.has(t) ? name : undefined;
    case "bit_and":
    case "bit_or":
    case "bit_xor":
      return types.length === 1 && (t === "INT" || t === "SHORT" || t === "BYTE" || t === "LONG")
        ? name
        : undefined;
    case "isordered":
      return types.length === 1 && KEY_TAGS.has(t) ? name : undefined;
    // Exact quantiles (aggregate_quantile.ts).
    case "percentile_cont":
    case "quantile_cont":
      return types.length === 2 && NUMERIC.has(t) ? "quantile_cont" : undefined;
    case "percentile_disc":
    case "quantile_disc":
      return types.length === 2 && NUMERIC.has(t) ? "quantile_disc" : undefined;
  }
  return undefined;
}

/** One collect aggregate's states over all groups. */
export class CollectAgg {
  #seen = new Uint8Array(0);
  /** bool_*: the fold so far; arg_*: unused. */
  #flag = new Uint8Array(0);
  /** arg_*: the best key (a double, or a LONG's low word), its high word, the value. */
  #key = new Float64Array(0);
  #keyHi = new Int32Array(0);
  #values: Value[] = [];
  /** arg_* over keys compared as values (text, symbols, ...): the best key per group. */
  #bestKeys: Value[] = [];
  /** mode: value ids, (group, value id) pairs, each pair's count and group. */
  #ids?: KeyIds;
  #pairs?: IntPairHash;
  #pairCount = new Float64Array(0);
  #pairGroup = new Int32Array(0);
  #pairValue = new Int32Array(0);
  #vids = new Int32Array(0);
  #pairIds = new Int32Array(0);
  #best?: Int32Array;
  #distinct?: Value[][];
  /**
   * quantile_*: each group's non-NULL values in input order, as doubles; as bigints (the
   * accumulator's form for LONG) once a LONG past 2^53 comes (the doubles before were exact).
   */
  #lists: (number[] | undefined)[] = [];
  #bigLists?: (bigint[] | undefined)[];
  /** bit_*: the fold's low word (the high word of a LONG in #keyHi). */
  #bitsLo = new Int32Array(0);
  /** approx_*: the groups' histograms. */
  #hist?: HistogramStates;
  /** string_agg: each group's parts (and, distinct, the parts seen). */
  #parts: (string[] | undefined)[] = [];
  #partSets: (Set<string> | undefined)[] = [];
  #x = new Float64Array(0);
  readonly #empty: Value;
  static readonly GROUP_BYTES = 40;

  constructor(
    readonly fn: CollectFn,
    readonly returns: ColumnType,
    /**
     * approx_*: the percentile in [0, 1], the significant digits, whether x is an integer type;
     * string_agg: the delimiter.
     */
    readonly percentile: { p: number; digits: number; integers: boolean; nearestRank?: boolean } = {
      p: 0.5,
      digits: 1,
      integers: false,
    },
    readonly delimiter = ",",
  ) {
    this.#empty = nullValueOf(returns);
    if (fn === "mode" || fn === "approx_count_distinct") {
      this.#ids = new KeyIds();
      this.#pairs = new IntPairHash();
    }
  }

  reserve(groups: number): void {
    if (this.#seen.length >= groups) return;
    const size = Math.max(groups, this.#seen.length * 2, 16);
    const seen = new Uint8Array(size), flag = new Uint8Array(size);
    seen.set(this.#seen);
    flag.set(this.#flag);
    this.#seen = seen;
    this.#flag = flag;
    if (this.fn.startsWith("bit_") || this.fn === "isordered") {
      const hi = new Int32Array(size), lo = new Int32Array(size);
      hi.set(this.#keyHi);
      lo.set(this.#bitsLo);
      this.#keyHi = hi;
      this.#bitsLo = lo;
    }
    if (
      this.fn === "arg_min" || this.fn === "arg_max" || this.fn === "min" || this.fn === "max" ||
      this.fn === "isordered"
    ) {
      const key = new Float64Array(size), hi = new Int32Array(size);
      key.set(this.#key);
      hi.set(this.#keyHi);
      this.#key = key;
      this.#keyHi = hi;
      while (this.#values.length < size) this.#values.push(null);
      if (this.fn === "arg_min" || this.fn === "arg_max") {
        while (this.#bestKeys.length < size) this.#bestKeys.push(null);
      }
    }
  }

  /** Bytes held beyond GROUP_BYTES per group (mode's pairs and values). */
  get extraBytes(): number {
    return (this.#pairs ? this.#pairs.bytes + this.#ids!.bytes + 16 * this.#pairCount.length : 0) +
      this.#held + (this.#hist?.bytes ?? 0);
  }

  /** Bytes of collected values (quantile lists, string_agg parts): about 16 a value plus its text. */
  #held = 0;

  /** Adds rows [0, rows) of the argument vectors to their groups (`gids`), skipping `mask` zeros. */
  add(gids: Int32Array, rows: number, args: Vector[], mask: Uint8Array | undefined): void {
    switch (this.fn) {
      case "bool_and":
      case "bool_or":
        return this.#bool(gids, rows, args[0], mask, this.fn === "bool_and");
      case "arg_min":
      case "arg_max":
        return this.#arg(gids, rows, args[0], args[1], mask, this.fn === "arg_max");
      case "mode":
      case "approx_count_distinct":
        return this.#mode(gids, rows, args[0], mask);
      case "min":
      case "max":
        return this.#extreme(gids, rows, args[0], mask, this.fn === "max");
      case "string_agg":
      case "string_distinct_agg":
        return this.#stringAgg(gids, rows, args[0], mask, this.fn === "string_distinct_agg");
      case "bit_and":
      case "bit_or":
      case "bit_xor":
        return this.#bits(gids, rows, args[0], mask);
      case "quantile_cont":
      case "quantile_disc":
        return this.#collectValues(gids, rows, args[0], mask);
      case "isordered":
        return this.#ordered(gids, rows, args[0], mask);
      default:
        return this.#percentile(gids, rows, args[0], mask);
    }
  }

  #bool(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined, and: boolean): void {
    const seen = this.#seen, flag = this.#flag;
    // BOOLEAN vectors hold 0/1 bytes (a NULL from an expression is written as false).
    const d = arg.data as Int8Array;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const g = gids[i];
      const v = d[i] !== 0 ? 1 : 0;
      if (!seen[g]) {
        seen[g] = 1;
        flag[g] = v;
      } else if (and) flag[g] &= v;
      else flag[g] |= v;
    }
  }

  #arg(
    gids: Int32Array,
    rows: number,
    arg: Vector,
    key: Vector,
    mask: Uint8Array | undefined,
    max: boolean,
  ): void {
    const seen = this.#seen, best = this.#key, bestHi = this.#keyHi, values = this.#values;
    const kd = key.data;
    if (!KEY_TAGS.has(key.type.tag)) {
      const keys = this.#bestKeys;
      for (let i = 0; i < rows; i++) {
        if (mask && !mask[i]) continue;
        const k = readValue(key, i);
        if (k === null) continue;
        const g = gids[i];
        // Strict, so ties keep the first row (compareValues orders primitives by < and >).
        if (
          seen[g] && (max ? !((k as string) > (keys[g] as string)) : !((k as string) < (keys[g] as string)))
        ) {
          continue;
        }
        seen[g] = 1;
        keys[g] = k;
        values[g] = readValue(arg, i);
      }
      return;
    }
    if (kd instanceof BigInt64Array) {
      // LONG-like keys by words: hi signed, lo unsigned; LONG_NULL (hi INT_MIN, lo 0) skipped.
      const w = new Int32Array(kd.buffer, kd.byteOffset, 2 * rows);
      for (let i = 0; i < rows; i++) {
        if (mask && !mask[i]) continue;
        const h = w[2 * i + 1], l = w[2 * i] >>> 0;
        if (h === -2147483648 && l === 0) continue;
        const g = gids[i];
        const bh = bestHi[g], bl = best[g];
        const better = !seen[g] || (max ? h > bh || (h === bh && l > bl) : h < bh || (h === bh && l < bl));
        if (!better) continue;
        seen[g] = 1;
        bestHi[g] = h;
        best[g] = l;
        values[g] = readValue(arg, i);
      }
      return;
    }
    if (this.#x.length < rows) this.#x = new Float64Array(rows);
    const k = toDoubles(key, rows, this.#x);
    for (let i = 0; i < rows; i++) {
      const x = k[i];
      if (x !== x || (mask && !mask[i])) continue;
      const g = gids[i];
      // Ties keep the first row, as the accumulator's strict comparison does.
      if (seen[g] && (max ? !(x > best[g]) : !(x < best[g]))) continue;
      seen[g] = 1;
      best[g] = x;
      values[g] = readValue(arg, i);
    }
  }

  #mode(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const ids = this.#ids!, pairs = this.#pairs!;
    if (this.#vids.length < rows) {
      this.#vids = new Int32Array(rows);
      this.#pairIds = new Int32Array(rows);
    }
    const vids = this.#vids, pairIds = this.#pairIds;
    ids.map(arg, rows, vids);
    const values = ids.values;
    // Rows dropped (FILTER, NULL) get pair -1 by compacting the kept rows to the front.
    let m = 0;
    const g = this.#groupsScratch(rows);
    for (let i = 0; i < rows; i++) {
      if ((mask && !mask[i]) || values[vids[i]] === null) continue;
      g[m] = gids[i];
      vids[m++] = vids[i];
    }
    const before = pairs.size;
    pairs.mapBatch(g, vids, m, pairIds);
    const size = pairs.size;
    if (this.#pairCount.length < size) {
      const cap = Math.max(size, this.#pairCount.length * 2, 16);
      const count = new Float64Array(cap), group = new Int32Array(cap), value = new Int32Array(cap);
      count.set(this.#pairCount);
      group.set(this.#pairGroup);
      value.set(this.#pairValue);
      this.#pairCount = count;
      this.#pairGroup = group;
      this.#pairValue = value;
    }
    const count = this.#pairCount, group = this.#pairGroup, value = this.#pairValue;
    for (let i = 0; i < m; i++) {
      const p = pairIds[i];
      if (p >= before && count[p] === 0) {
        group[p] = g[i];
        value[p] = vids[i];
      }
      count[p]++;
    }
    this.#best = undefined;
  }

  #extreme(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined, max: boolean): void {
    const seen = this.#seen, values = this.#values;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const v = readValue(arg, i);
      if (v === null) continue;
      const g = gids[i];
      // Strict, so ties keep the first value (compareValues orders primitives by < and >).
      if (
        seen[g] && (max ? !((v as string) > (values[g] as string)) : !((v as string) < (values[g] as string)))
      ) {
        continue;
      }
      seen[g] = 1;
      values[g] = v;
    }
  }

  #stringAgg(
    gids: Int32Array,
    rows: number,
    arg: Vector,
    mask: Uint8Array | undefined,
    distinct: boolean,
  ): void {
    const parts = this.#parts, sets = this.#partSets, t = arg.type;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const s = textOf(readValue(arg, i), t);
      if (s === null) continue;
      const g = gids[i];
      if (distinct) {
        const set = sets[g] ??= new Set();
        if (set.has(s)) continue;
        set.add(s);
      }
      (parts[g] ??= []).push(s);
      this.#held += 16 + 2 * s.length;
    }
  }

  /**
   * The accumulator folds BigInt(x); a 32-bit fold of the sign-extended values has the same low
   * 32 bits (what its INT/SHORT/BYTE result keeps), and a LONG folds word by word.
   */
  #bits(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const seen = this.#seen, hi = this.#keyHi, lo = this.#bitsLo, fn = this.fn;
    const d = arg.data;
    const wide = d instanceof BigInt64Array;
    const w = wide
      ? new Int32Array(d.buffer, d.byteOffset, 2 * rows)
      : (d as Int32Array | Int16Array | Int8Array);
    const nullable = d instanceof Int32Array;
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      let h = 0, l: number;
      if (wide) {
        h = w[2 * i + 1];
        l = w[2 * i];
        if (h === -2147483648 && l === 0) continue;
      } else {
        l = w[i];
        if (nullable && l === INT_NULL) continue;
      }
      const g = gids[i];
      if (!seen[g]) {
        seen[g] = 1;
        hi[g] = h;
        lo[g] = l;
      } else if (fn === "bit_and") {
        hi[g] &= h;
        lo[g] &= l;
      } else if (fn === "bit_or") {
        hi[g] |= h;
        lo[g] |= l;
      } else {
        hi[g] ^= h;
        lo[g] ^= l;
      }
    }
  }

  /**
   * isOrdered (aggregate_collect.ts): a group turns unordered at a value below the one before
   * it, or at a NULL after a value; a NULL before is no bound. #flag: unordered; #key/#keyHi:
   * the previous value (a double, or a LONG's words); #bitsLo: 1 when it was NULL.
   */
  #ordered(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const seen = this.#seen,
      unordered = this.#flag,
      prev = this.#key,
      prevHi = this.#keyHi,
      prevNull = this.#bitsLo;
    const d = arg.data;
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, 2 * rows);
      for (let i = 0; i < rows; i++) {
        if (mask && !mask[i]) continue;
        const h = w[2 * i + 1], l = w[2 * i] >>> 0;
        const isNull = h === -2147483648 && l === 0;
        const g = gids[i];
        if (seen[g] && !prevNull[g] && (isNull || h < prevHi[g] || (h === prevHi[g] && l < prev[g]))) {
          unordered[g] = 1;
        }
        seen[g] = 1;
        prevNull[g] = isNull ? 1 : 0;
        prevHi[g] = h;
        prev[g] = l;
      }
      return;
    }
    if (this.#x.length < rows) this.#x = new Float64Array(rows);
    const x = toDoubles(arg, rows, this.#x);
    for (let i = 0; i < rows; i++) {
      if (mask && !mask[i]) continue;
      const v = x[i], isNull = v !== v;
      const g = gids[i];
      if (seen[g] && !prevNull[g] && (isNull || v < prev[g])) unordered[g] = 1;
      seen[g] = 1;
      prevNull[g] = isNull ? 1 : 0;
      prev[g] = v;
    }
  }

  #collectValues(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    const d = arg.data;
    if (d instanceof BigInt64Array && !this.#bigLists) {
      const w = new Int32Array(d.buffer, d.byteOffset, 2 * rows);
      for (let i = 0; i < rows; i++) {
        const h = w[2 * i + 1];
        if ((h < -2097152 || h >= 2097152) && !(h === -2147483648 && w[2 * i] === 0)) {
          this.#bigLists = this.#lists.map((l) => l?.map((x) => BigInt(x)));
          this.#lists = [];
          break;
        }
      }
    }
    if (this.#bigLists) {
      const lists = this.#bigLists, big = d as BigInt64Array;
      for (let i = 0; i < rows; i++) {
        if ((mask && !mask[i]) || big[i] === LONG_NULL) continue;
        (lists[gids[i]] ??= []).push(big[i]);
        this.#held += 32;
      }
      return;
    }
    if (this.#x.length < rows) this.#x = new Float64Array(rows);
    const x = toDoubles(arg, rows, this.#x), lists = this.#lists;
    for (let i = 0; i < rows; i++) {
      const v = x[i];
      if (v !== v || (mask && !mask[i])) continue;
      (lists[gids[i]] ??= []).push(v);
      this.#held += 16;
    }
  }

  /** aggregate_quantile.ts's result: the same comparator over the same values in the same order. */
  #quantile(g: number): Value {
    if (this.#bigLists) {
      const big = this.#bigLists[g];
      if (!big) return this.#empty;
      big.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const sorted = this.#unsigned() ? negativesLast(big) : big;
      if (this.fn === "quantile_disc") return sorted[this.#discIndex(sorted.length)];
      const pos = this.percentile.p * (sorted.length - 1);
      const lo = Math.floor(pos);
      const a = Number(sorted[lo]);
      return a + (pos - lo) * (Number(sorted[Math.min(lo + 1, sorted.length - 1)]) - a);
    }
    const values = this.#lists[g];
    if (!values) return this.#empty;
    // A typed sort orders equal doubles as the comparator's stable sort does (equal doubles are
    // the same bits) except -0.0 and 0, which it puts in sign order: with both, the comparator.
    const zeros = values.some((v) => v === 0 && 1 / v < 0) && values.some((v) => v === 0 && 1 / v > 0);
    const sorted = zeros
      ? values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      : Float64Array.from(values).sort();
    return this.#pick(this.#unsigned() ? negativesLast(sorted) : sorted);
  }

  /**
   * percentile_disc of integers (a LONG result) orders them as unsigned 64-bit numbers, the
   * negative ones last (aggregate_quantile.ts).
   */
  #unsigned(): boolean {
    return this.fn === "quantile_disc" && this.percentile.nearestRank === true && this.returns.tag === "LONG";
  }

  /** The discrete percentile's index among `n` sorted values (aggregate_quantile.ts discIndex). */
  #discIndex(n: number): number {
    return discIndex(n, this.percentile.p, this.percentile.nearestRank === true);
  }

  #pick(values: ArrayLike<number>): Value {
    const p = this.percentile.p;
    const pos = p * (values.length - 1);
    const lo = Math.floor(pos);
    if (this.fn === "quantile_disc") {
      const v = values[this.#discIndex(values.length)];
      return this.returns.tag === "LONG" ? BigInt(v) : v;
    }
    const a = values[lo];
    const hi = Math.min(lo + 1, values.length - 1);
    return a + (pos - lo) * (values[hi] - a);
  }

  #scratch = new Int32Array(0);
  #groupsScratch(rows: number): Int32Array {
    if (this.#scratch.length < rows) this.#scratch = new Int32Array(rows);
    return this.#scratch;
  }

  #percentile(gids: Int32Array, rows: number, arg: Vector, mask: Uint8Array | undefined): void {
    if (this.#x.length < rows) this.#x = new Float64Array(rows);
    const hist = this.#hist ??= new HistogramStates(
      this.fn,
      this.percentile.digits,
      this.percentile.integers,
    );
    hist.reserve(this.#seen.length);
    hist.add(gids, rows, toDoubles(arg, rows, this.#x), mask);
  }

  /** approx_count_distinct: each group's distinct values, from its pairs. */
  #distinctValues(): Value[][] {
    const lists: Value[][] = [];
    const group = this.#pairGroup, value = this.#pairValue, values = this.#ids!.values;
    for (let p = 0; p < this.#pairs!.size; p++) (lists[group[p]] ??= []).push(values[value[p]]);
    return lists;
  }

  /** mode: each group's best pair, chosen over all pairs once after the last batch. */
  #bestPairs(): Int32Array {
    const best = new Int32Array(this.#seen.length).fill(-1);
    const count = this.#pairCount, group = this.#pairGroup, value = this.#pairValue;
    const values = this.#ids!.values, isBool = this.returns.tag === "BOOLEAN";
    for (let p = 0; p < this.#pairs!.size; p++) {
      const g = group[p], b = best[g];
      if (b < 0 || count[p] > count[b] || (isBool && count[p] === count[b] && values[value[p]] === true)) {
        best[g] = p;
      }
    }
    return best;
  }

  result(g: number): Value {
    switch (this.fn) {
      case "bool_and":
      case "bool_or":
        return this.#seen[g] === 1 && this.#flag[g] === 1;
      case "arg_min":
      case "arg_max":
      case "min":
      case "max":
        return this.#values[g] ?? this.#empty;
      case "bit_and":
      case "bit_or":
      case "bit_xor": {
        if (!this.#seen[g]) return this.#empty;
        if (this.returns.tag === "LONG") {
          return int64((BigInt(this.#keyHi[g]) << 32n) + BigInt(this.#bitsLo[g] >>> 0));
        }
        return this.returns.tag === "INT" ? int32(this.#bitsLo[g]) : this.#bitsLo[g];
      }
      case "quantile_cont":
      case "quantile_disc":
        return this.#quantile(g);
      case "isordered":
        return this.#flag[g] === 0;
      case "string_agg":
      case "string_distinct_agg": {
        const parts = this.#parts[g];
        return parts ? parts.join(this.delimiter) : null;
      }
      case "approx_count_distinct": {
        // Each group's distinct values are its (group, value) pairs; the estimate is computed
        // once per group, after the last batch.
        const lists = this.#distinct ??= this.#distinctValues();
        const p = this.percentile;
        return approxCountDistinct(lists[g] ?? [], p.integers ? 4 : 8, p.digits);
      }
      case "mode": {
        const best = this.#best ??= this.#bestPairs();
        const p = g < best.length ? best[g] : -1;
        if (p < 0) return this.#empty;
        const v = this.#ids!.values[this.#pairValue[p]];
        // mode(L): a BYTE, SHORT or INT argument answers as LONG.
        return this.returns.tag === "LONG" && typeof v === "number" ? BigInt(v) : v;
      }
      default: {
        return this.#hist ? this.#hist.result(g, this.percentile.p) : null;
      }
    }
  }
}
