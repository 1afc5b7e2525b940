/**
 * Per-group states of the aggregates the vectorized hash aggregation computes itself, in
 * growable typed arrays indexed by group id, updated batch by batch from a group-id vector
 * (one tight loop per aggregate and batch). Results equal the accumulators of
 * engine/functions/aggregate_basic.ts: the same NULL rules and, for doubles, the same
 * additions in the same (row) order.
 *
 * Integer sums are exact: values are added as doubles, which stay exact while the running
 * magnitude is below 2^53, and are flushed into bigints before they could pass it. LONG values
 * are added as their two 32-bit words.
 */
import type { ColumnType } from "../../base/types.ts";
import { int64, nullValueOf, readValue, type Value, type Vector } from "../../base/values.ts";
import { INT_NULL } from "../../base/values.ts";
import { PairSet } from "./pair_set.ts";
import type { KeyIds } from "./key_ids.ts";

export type NativeFn = "count*" | "count" | "sum" | "avg" | "min" | "max" | "countDistinct";

const TWO32 = 4294967296;
/** Rows after which the double parts of integer sums are flushed (2^21 rows of < 2^32 each). */
const FLUSH_ROWS = 1 << 20;

/** `a` with room for `n` entries (doubling from 16), new entries `fill`; `a` itself when it has. */
export function grow<T extends Float64Array | Int32Array>(a: T, n: number, fill: number): T {
  if (a.length >= n) return a;
  let cap = Math.max(16, a.length * 2);
  while (cap < n) cap *= 2;
  // deno-lint-ignore no-explicit-any
  const b = new (a.constructor as any)(cap).fill(fill) as T;
  b.set(a);
  return b;
}

/** The numeric layout of an argument vector, decided per batch from its data. */
type Layout = "f64" | "f32" | "i32" | "i16" | "i8" | "i64";

function layoutOf(v: Vector): Layout | undefined {
  const d = v.data;
  if (d instanceof Float64Array) return "f64";
  if (d instanceof Float32Array) return "f32";
  if (d instanceof Int32Array) return v.type.tag === "INT" ? "i32" : undefined;
  if (d instanceof Int16Array) return v.type.tag === "SHORT" ? "i16" : undefined;
  // BOOLEAN holds 0/1 bytes: avg(BOOLEAN) is the share of true, as the row path's Number(v).
  if (d instanceof Int8Array) return v.type.tag === "BYTE" || v.type.tag === "BOOLEAN" ? "i8" : undefined;
  if (d instanceof BigInt64Array) return "i64";
  return undefined;
}

/** Which native aggregate serves a call over an argument of type `t` (undefined: none). */
export function nativeFnOf(
  name: string,
  argType: ColumnType | undefined,
  distinct: boolean,
): NativeFn | undefined {
  if (name === "count_distinct" || (name === "count" && distinct)) {
    return argType ? "countDistinct" : undefined;
  }
  if (distinct) return undefined;
  if (name === "count") return argType ? "count" : "count*";
  if (!argType || !["sum", "avg", "min", "max"].includes(name)) return undefined;
  if (name === "avg" && argType.tag === "BOOLEAN") return "avg";
  const numeric = ["DOUBLE", "FLOAT", "INT", "SHORT", "BYTE", "LONG"];
  const ordered = [...numeric, "DATE", "TIMESTAMP", "TIMESTAMP_NS"];
  if ((name === "min" || name === "max") ? ordered.includes(argType.tag) : numeric.includes(argType.tag)) {
    return name as NativeFn;
  }
  return undefined;
}

/** One native aggregate's states over all groups. */
export class NativeAgg {
  #count = new Float64Array(0);
  /** DOUBLE sums, or the low words / small part of integer sums. */
  #sum = new Float64Array(0);
  /** High words of LONG sums. */
  #sumHi = new Float64Array(0);
  #big: bigint[] = [];
  #best = new Float64Array(0);
  #bestHi = new Int32Array(0);
  #bestLo = new Float64Array(0);
  #rowsSinceFlush = 0;
  #integer = false;
  #wide = false;
  #distinct?: {
    pairs: PairSet;
    ids: KeyIds;
    tmp: Int32Array;
    groups: Int32Array;
    kept: Int32Array;
    fresh: Uint8Array;
  };

  constructor(readonly fn: NativeFn, readonly returns: ColumnType, distinctIds?: KeyIds) {
    if (distinctIds) {
      const none = new Int32Array(0);
      this.#distinct = {
        pairs: new PairSet(),
        ids: distinctIds,
        tmp: none,
        groups: none,
        kept: none,
        fresh: new Uint8Array(0),
      };
    }
  }

  /** Bytes per group, for the memory budget. */
  static readonly GROUP_BYTES = 40;

  /** Makes room for `groups` groups. */
  reserve(groups: number): void {
    this.#count = grow(this.#count, groups, 0);
    if (this.fn === "sum" || this.fn === "avg") {
      this.#sum = grow(this.#sum, groups, 0);
      this.#sumHi = grow(this.#sumHi, groups, 0);
    }
    if (this.fn === "min" || this.fn === "max") {
      this.#best = grow(this.#best, groups, NaN);
      this.#bestHi = grow(this.#bestHi, groups, 0);
      this.#bestLo = grow(this.#bestLo, groups, 0);
    }
  }

  /**
   * Adds rows 0..n-1: `gids[i]` is row i's group, `arg` the argument vector (absent for
   * count(*)), `mask` (when present) the rows the FILTER keeps.
   */
  add(gids: Int32Array, n: number, arg: Vector | undefined, mask: Uint8Array | undefined): void {
    const cnt = this.#count;
    if (this.fn === "count*") {
      if (mask) { for (let i = 0; i < n; i++) cnt[gids[i]] += mask[i]; }
      else for (let i = 0; i < n; i++) cnt[gids[i]]++;
      return;
    }
    if (this.fn === "countDistinct") return this.#addDistinct(gids, n, arg!, mask);
    const layout = layoutOf(arg!);
    if (this.fn === "count") {
      if (layout) return countNonNull(cnt, gids, n, arg!, layout, mask);
      for (let i = 0; i < n; i++) if ((!mask || mask[i]) && readValue(arg!, i) !== null) cnt[gids[i]]++;
      return;
    }
    if (!layout) throw new Error(`vector aggregate: unexpected argument layout ${arg!.type.tag}`);
    if (layout === "i64") {
      const d = arg!.data as BigInt64Array;
      const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
      this.#wide = true;
      if (this.fn === "min" || this.fn === "max") {
        extremeWide(cnt, this.#bestHi, this.#bestLo, gids, n, w, mask, this.fn === "max");
      } else if (this.fn === "avg") {
        sumWideAsDouble(cnt, this.#sum, gids, n, w, mask);
      } else {
        sumWide(cnt, this.#sum, this.#sumHi, gids, n, w, mask);
        this.#integer = true;
        this.#maybeFlush(n);
      }
      return;
    }
    const d = arg!.data as Float64Array | Float32Array | Int32Array | Int16Array | Int8Array;
    if (layout === "f64" && !mask) {
      // DOUBLE columns and expressions, the common case: loops that see one array type only.
      const f = d as Float64Array;
      if (this.fn === "min") return minF64(cnt, this.#best, gids, n, f);
      if (this.fn === "max") return maxF64(cnt, this.#best, gids, n, f);
      return sumF64(cnt, this.#sum, gids, n, f);
    }
    const nullable = layout === "f64" || layout === "f32" ? 2 : layout === "i32" ? 1 : 0;
    if (this.fn === "min") return extreme(cnt, this.#best, gids, n, d, nullable, mask, false);
    if (this.fn === "max") return extreme(cnt, this.#best, gids, n, d, nullable, mask, true);
    sum(cnt, this.#sum, gids, n, d, nullable, mask);
    if (this.fn === "sum" && nullable !== 2) {
      this.#integer = true;
      this.#maybeFlush(n);
    }
  }

  #maybeFlush(n: number): void {
    this.#rowsSinceFlush += n;
    if (this.#rowsSinceFlush < FLUSH_ROWS) return;
    this.#flush();
  }

  /** Moves the double parts of integer sums into bigints (exact while each part < 2^53). */
  #flush(): void {
    this.#rowsSinceFlush = 0;
    const s = this.#sum, hi = this.#sumHi, big = this.#big;
    for (let g = 0; g < s.length; g++) {
      if (s[g] === 0 && hi[g] === 0) continue;
      big[g] = (big[g] ?? 0n) + BigInt(s[g]) + BigInt(hi[g]) * 4294967296n;
      s[g] = 0;
      hi[g] = 0;
    }
  }

  #addDistinct(gids: Int32Array, n: number, arg: Vector, mask: Uint8Array | undefined): void {
    const st = this.#distinct!;
    if (st.tmp.length < n) st.tmp = new Int32Array(n);
    const vids = st.tmp;
    st.ids.map(arg, n, vids);
    const cnt = this.#count;
    // The kept rows' (group, value id) pairs go through the pair set in one batch (bits while
    // the ids are small: pair_set.ts).
    if (st.groups.length < n) {
      st.groups = new Int32Array(n);
      st.kept = new Int32Array(n);
      st.fresh = new Uint8Array(n);
    }
    const g = st.groups, v = st.kept, fresh = st.fresh;
    const nullId = st.ids.nullId();
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (mask && !mask[i]) continue;
      const id = vids[i];
      if (id === nullId) continue;
      g[m] = gids[i];
      v[m++] = id;
    }
    st.pairs.markNew(g, v, m, fresh);
    for (let i = 0; i < m; i++) cnt[g[i]] += fresh[i];
  }

  /** Non-NULL rows folded into group g (partial states for the workers: hash_parallel.ts). */
  countOf(g: number): number {
    return this.#count[g];
  }

  /**
   * The running double sum of group g: avg's partial state for the workers (hash_parallel.ts),
   * a double whatever the argument type, as avg adds here.
   */
  sumOf(g: number): number {
    return this.#sum[g];
  }

  /** Bytes held by DISTINCT pairs (the per-group arrays are counted by GROUP_BYTES). */
  get extraBytes(): number {
    // The (group, value id) pairs and the values: a rectangle of direct ids can hold the pairs
    // in less than the values take.
    return this.#distinct ? this.#distinct.pairs.bytes + this.#distinct.ids.bytes : 0;
  }

  result(g: number): Value {
    const n = this.#count[g];
    switch (this.fn) {
      case "count*":
      case "count":
      case "countDistinct":
        return BigInt(n);
      case "avg": {
        const v = this.#sum[g] / n;
        return n === 0 || !Number.isFinite(v) ? null : v;
      }
      case "sum": {
        if (n === 0) return null;
        if (this.#integer) {
          const total = (this.#big[g] ?? 0n) + BigInt(this.#sum[g]) + BigInt(this.#sumHi[g]) * 4294967296n;
          return int64(total);
        }
        const s = this.#sum[g];
        if (!Number.isFinite(s)) return null;
        return this.returns.tag === "FLOAT" ? Math.fround(s) : s;
      }
      default: {
        if (n === 0) return nullValueOf(this.returns);
        if (this.#wide) return BigInt(this.#bestHi[g]) * 4294967296n + BigInt(this.#bestLo[g]);
        return this.#best[g];
      }
    }
  }
}

function countNonNull(
  cnt: Float64Array,
  gids: Int32Array,
  n: number,
  v: Vector,
  layout: Layout,
  mask: Uint8Array | undefined,
): void {
  if (layout === "i64") {
    const d = v.data as BigInt64Array;
    const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
    for (let i = 0; i < n; i++) {
      if ((mask && !mask[i]) || (w[2 * i + 1] === INT_NULL && w[2 * i] === 0)) continue;
      cnt[gids[i]]++;
    }
    return;
  }
  const d = v.data as Float64Array | Int32Array;
  const nullable = layout === "f64" || layout === "f32" ? 2 : layout === "i32" ? 1 : 0;
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const x = d[i];
    if (nullable === 2 ? x - x !== 0 : nullable === 1 && x === INT_NULL) continue;
    cnt[gids[i]]++;
  }
}

/** nullable: 0 never NULL, 1 INT_MIN is NULL, 2 non-finite is NULL. */
function sum(
  cnt: Float64Array,
  s: Float64Array,
  gids: Int32Array,
  n: number,
  d: ArrayLike<number>,
  nullable: number,
  mask: Uint8Array | undefined,
): void {
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const x = d[i];
    if (nullable === 2 ? x - x !== 0 : nullable === 1 && x === INT_NULL) continue;
    const g = gids[i];
    s[g] += x;
    cnt[g]++;
  }
}

function extreme(
  cnt: Float64Array,
  best: Float64Array,
  gids: Int32Array,
  n: number,
  d: ArrayLike<number>,
  nullable: number,
  mask: Uint8Array | undefined,
  max: boolean,
): void {
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const x = d[i];
    if (nullable === 2 ? x - x !== 0 : nullable === 1 && x === INT_NULL) continue;
    const g = gids[i];
    // The first value wins ties, as the accumulator's strict comparison does.
    if (cnt[g] === 0 || (max ? x > best[g] : x < best[g])) best[g] = x;
    cnt[g]++;
  }
}

function sumWide(
  cnt: Float64Array,
  lo: Float64Array,
  hi: Float64Array,
  gids: Int32Array,
  n: number,
  w: Int32Array,
  mask: Uint8Array | undefined,
): void {
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const h = w[2 * i + 1], l = w[2 * i];
    if (h === INT_NULL && l === 0) continue;
    const g = gids[i];
    lo[g] += l >>> 0;
    hi[g] += h;
    cnt[g]++;
  }
}

function sumWideAsDouble(
  cnt: Float64Array,
  s: Float64Array,
  gids: Int32Array,
  n: number,
  w: Int32Array,
  mask: Uint8Array | undefined,
): void {
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const h = w[2 * i + 1], l = w[2 * i];
    if (h === INT_NULL && l === 0) continue;
    const g = gids[i];
    // h * 2^32 is exact, so one rounding: the same double as Number(bigint).
    s[g] += h * TWO32 + (l >>> 0);
    cnt[g]++;
  }
}

function extremeWide(
  cnt: Float64Array,
  bestHi: Int32Array,
  bestLo: Float64Array,
  gids: Int32Array,
  n: number,
  w: Int32Array,
  mask: Uint8Array | undefined,
  max: boolean,
): void {
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const h = w[2 * i + 1], l = w[2 * i] >>> 0;
    if (h === INT_NULL && l === 0) continue;
    const g = gids[i];
    const bh = bestHi[g], bl = bestLo[g];
    const better = cnt[g] === 0 ||
      (max ? h > bh || (h === bh && l > bl) : h < bh || (h === bh && l < bl));
    if (better) {
      bestHi[g] = h;
      bestLo[g] = l;
    }
    cnt[g]++;
  }
}

function sumF64(cnt: Float64Array, s: Float64Array, gids: Int32Array, n: number, d: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = d[i];
    if (x - x !== 0) continue;
    const g = gids[i];
    s[g] += x;
    cnt[g]++;
  }
}

function minF64(cnt: Float64Array, best: Float64Array, gids: Int32Array, n: number, d: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = d[i];
    if (x - x !== 0) continue;
    const g = gids[i];
    if (cnt[g] === 0 || x < best[g]) best[g] = x;
    cnt[g]++;
  }
}

function maxF64(cnt: Float64Array, best: Float64Array, gids: Int32Array, n: number, d: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = d[i];
    if (x - x !== 0) continue;
    const g = gids[i];
    if (cnt[g] === 0 || x > best[g]) best[g] = x;
    cnt[g]++;
  }
}
