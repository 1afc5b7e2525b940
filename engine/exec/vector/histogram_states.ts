/**
 * approx_percentile / approx_median states of the hash aggregation: the histogram of
 * functions/hdr_double_histogram.ts (QuestDB's auto-ranging DoubleHistogram) for every group,
 * with each group's counts in a Float64Array indexed by HdrHistogram's counts index instead of
 * a Map from quantized value to count (a Map update a row was most of the aggregate's time).
 *
 * The index is a bijection with the quantized values the Map keys on: a value q below
 * 2 * half is index q; above, q = sub * 2^b (sub in [half, 2 * half)) is index b * half + sub.
 * Indexes grow with the value, so a walk up the array is the Map's sorted keys. Range shifts,
 * rescaling and the reported value are the DoubleHistogram's own arithmetic on those values,
 * so the answers are the row path's to the last bit.
 */
import { SqlError } from "../../base/errors.ts";
import { containingOrder, floorLog2, halfCountOf, rangeError } from "../../functions/hdr_double_histogram.ts";

const EMPTY = new Float64Array(0);
/** Most dense count slots of one group (512 KB) and of all groups (64 MB). */
const DENSE_MAX = 1 << 16;
const SLOTS_MAX = 1 << 23;

export class HistogramStates {
  readonly #half: number;
  readonly #halfMagnitude: number;
  /** Each group's range and scale (DoubleHistogram's lowest, highestLimit, ratio). */
  #lowest = new Float64Array(0);
  #highest = new Float64Array(0);
  #ratio = new Float64Array(0);
  #total = new Float64Array(0);
  /** 1 once the group has a value. */
  #opened = new Uint8Array(0);
  /** Each group's counts by index (EMPTY: no value yet; a packed array of one type). */
  #counts: Float64Array[] = [];
  /** Groups whose counts outgrew a dense array: counts by index. */
  #sparse = new Map<number, Map<number, number>>();
  /** Dense count slots held over all groups, for the memory budget. */
  #slots = 0;

  /** `integers`: INT/LONG arguments record into a plain integer histogram (no range shifts). */
  constructor(readonly fn: string, digits: number, readonly integers: boolean) {
    this.#half = halfCountOf(digits);
    this.#halfMagnitude = Math.round(Math.log2(this.#half));
  }

  get bytes(): number {
    let sparse = 0;
    for (const m of this.#sparse.values()) sparse += m.size;
    return this.#slots * 8 + sparse * 40;
  }

  reserve(groups: number): void {
    if (this.#lowest.length >= groups) return;
    const size = Math.max(groups, this.#lowest.length * 2, 16);
    const grow = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.#lowest = grow(this.#lowest);
    this.#highest = grow(this.#highest);
    this.#ratio = grow(this.#ratio);
    this.#total = grow(this.#total);
    const opened = new Uint8Array(size);
    opened.set(this.#opened);
    this.#opened = opened;
    while (this.#counts.length < size) this.#counts.push(EMPTY);
  }

  /** Records x[i] (NaN: NULL, skipped) into group gids[i], for rows `mask` keeps. */
  add(gids: Int32Array, rows: number, x: Float64Array, mask: Uint8Array | undefined): void {
    const lowest = this.#lowest, highest = this.#highest, ratio = this.#ratio, total = this.#total;
    const counts = this.#counts, integers = this.integers, opened = this.#opened;
    const half = this.#half, twoHalf = 2 * half, halfMagnitude = this.#halfMagnitude;
    for (let i = 0; i < rows; i++) {
      const v = x[i];
      if (v !== v || (mask && !mask[i])) continue;
      if (v < 0) throw new SqlError(`${this.fn}: negative values are not supported [value=${v}]`);
      const g = gids[i];
      if (opened[g] === 0) this.#open(g);
      if (!integers && v !== 0 && (v < lowest[g] || v >= highest[g])) this.#reach(g, v);
      const raw = Math.floor(v * ratio[g]);
      let at: number;
      if (raw < 2147483648) {
        // As an int32 from here: index arithmetic on small integers.
        const r = raw | 0;
        if (r < twoHalf) at = r;
        else {
          const b = 31 - Math.clz32(r) - halfMagnitude;
          at = b * half + (r >>> b);
        }
      } else if (raw === Infinity) throw rangeError(this.fn, v);
      else at = this.#indexOf(raw);
      total[g]++;
      const c = counts[g];
      if (at < c.length) c[at]++;
      else this.#count(g, at, 1);
    }
  }

  /** The group's percentile (p in [0, 1]) as DoubleHistogram.valueAtPercentile(p * 100). */
  result(g: number, p: number): number | null {
    if (g >= this.#ratio.length || this.#total[g] === 0) return null;
    const total = this.#total[g];
    const percentile = p * 100;
    const requested = Math.min(Math.max(nextDown(percentile), 0), 100);
    const want = Math.max(1, Math.ceil((requested / 100) * total));
    let seen = 0, last = -1;
    for (const [at, n] of this.#entries(g)) {
      last = at;
      seen += n;
      if (seen >= want) {
        const k = this.#valueOf(at);
        return (percentile === 0 ? this.#lowestEquivalent(k) : this.#highestEquivalent(k)) / this.#ratio[g];
      }
    }
    return this.#highestEquivalent(this.#valueOf(last)) / this.#ratio[g];
  }

  #open(g: number): void {
    this.#opened[g] = 1;
    const c = new Float64Array(4 * this.#half);
    this.#slots += c.length;
    this.#counts[g] = c;
    this.#lowest[g] = 1;
    // deriveInternalHighestToLowestValueRatio(2) = 4.
    this.#highest[g] = 4;
    this.#ratio[g] = this.integers ? 1 : this.#half;
  }

  /**
   * Adds n at index `at` past the group's dense counts: the array doubles while it stays within
   * DENSE_MAX slots (and all groups' within SLOTS_MAX); past that the group's counts move to a
   * Map by index (values spread over many binary orders with 4-5 digits would take megabytes
   * a group).
   */
  #count(g: number, at: number, n: number): void {
    let sparse = this.#sparse.get(g);
    if (!sparse) {
      const old = this.#counts[g];
      let size = old.length * 2;
      while (size <= at) size *= 2;
      if (size <= DENSE_MAX && this.#slots + size - old.length <= SLOTS_MAX) {
        const c = new Float64Array(size);
        c.set(old);
        this.#slots += size - old.length;
        this.#counts[g] = c;
        c[at] += n;
        return;
      }
      sparse = new Map();
      for (let i = 0; i < old.length; i++) if (old[i] !== 0) sparse.set(i, old[i]);
      this.#slots -= old.length;
      this.#counts[g] = EMPTY;
      this.#sparse.set(g, sparse);
    }
    sparse.set(at, (sparse.get(at) ?? 0) + n);
  }

  /** The group's (index, count) pairs of non-zero counts, by increasing index. */
  #entries(g: number): [number, number][] {
    const sparse = this.#sparse.get(g);
    if (sparse) return [...sparse].filter(([, n]) => n !== 0).sort((a, b) => a[0] - b[0]);
    const c = this.#counts[g], out: [number, number][] = [];
    for (let at = 0; at < c.length; at++) if (c[at] !== 0) out.push([at, c[at]]);
    return out;
  }

  #bucketOf(v: number): number {
    if (v < 2 * this.#half) return 0;
    return floorLog2(v) - this.#halfMagnitude;
  }

  #lowestEquivalent(v: number): number {
    const p = Math.pow(2, this.#bucketOf(v));
    return Math.floor(v / p) * p;
  }

  #highestEquivalent(v: number): number {
    const p = Math.pow(2, this.#bucketOf(v));
    return Math.floor(v / p) * p + p - 1;
  }

  /** The counts index of integer value v (its lowest equivalent's). */
  #indexOf(v: number): number {
    if (v < 2 * this.#half) return v;
    const b = this.#bucketOf(v);
    return b * this.#half + Math.floor(v / Math.pow(2, b));
  }

  /** The quantized value (a lowest equivalent) of counts index `at`. */
  #valueOf(at: number): number {
    const half = this.#half;
    if (at < 2 * half) return at;
    const b = Math.floor(at / half) - 1;
    return (at - b * half) * Math.pow(2, b);
  }

  /** The smallest index above 0 holding a count (-1: none): the Map's smallest non-zero key. */
  #minNonZero(g: number): number {
    const sparse = this.#sparse.get(g);
    if (sparse) {
      let min = -1;
      for (const [at, n] of sparse) if (at > 0 && n > 0 && (min < 0 || at < min)) min = at;
      return min;
    }
    const c = this.#counts[g];
    for (let at = 1; at < c.length; at++) if (c[at] > 0) return at;
    return -1;
  }

  /** The counts moved to the lowest equivalents of their values times `factor`. */
  #rescale(g: number, factor: number): void {
    const entries = this.#entries(g);
    const sparse = this.#sparse.get(g);
    if (sparse) sparse.clear();
    else this.#counts[g].fill(0);
    for (const [at, n] of entries) {
      const scaled = Math.floor(this.#valueOf(at) * factor);
      if (scaled === Infinity) throw rangeError(this.fn, this.#valueOf(at) / this.#ratio[g]);
      const to = this.#indexOf(scaled);
      const c = this.#counts[g];
      if (to < c.length) c[to] += n;
      else this.#count(g, to, n);
    }
  }

  /** DoubleHistogram.record's range shifts until `v` is inside the group's range. */
  #reach(g: number, v: number): void {
    const half = this.#half;
    while (v < this.#lowest[g]) {
      // shiftRight: recorded values are multiplied, losslessly.
      const n = Math.max(1, containingOrder(Math.ceil(this.#lowest[g] / v) - 1));
      const mult = Math.pow(2, n);
      if (this.#minNonZero(g) >= 0) this.#rescale(g, mult);
      this.#lowest[g] /= mult;
      this.#highest[g] /= mult;
      this.#ratio[g] = half / this.#lowest[g];
    }
    while (v >= this.#highest[g]) {
      const ulp = v * Number.EPSILON;
      const n = Math.max(1, containingOrder(Math.ceil((v + ulp) / this.#highest[g])));
      const mult = Math.pow(2, n);
      const min = this.#minNonZero(g);
      if (min >= 0 && min < n * half + half) {
        // shiftValuesRight would underflow: the integer histogram is resized, the ratio stays.
        this.#highest[g] *= mult;
        continue;
      }
      if (min >= 0) this.#rescale(g, 1 / mult);
      this.#lowest[g] *= mult;
      this.#highest[g] *= mult;
      this.#ratio[g] = half / this.#lowest[g];
    }
  }
}

/** Math.nextAfter(x, -Infinity) for x >= 0. */
function nextDown(x: number): number {
  if (x <= 0) return x === 0 ? -Number.MIN_VALUE : x;
  const buf = new Float64Array([x]);
  const bits = new BigInt64Array(buf.buffer);
  bits[0] -= 1n;
  return buf[0];
}
