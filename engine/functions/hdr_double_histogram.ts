/**
 * The answers of QuestDB's approx_percentile / approx_median, which record values into an
 * HdrHistogram DoubleHistogram (auto-ranging, highest-to-lowest ratio 2, `precision`
 * significant digits) and read `getValueAtPercentile(p * 100)`. The histogram's buckets, its
 * range shifts and the value it reports (the top of the bucket, or the bottom for p = 0) are
 * reproduced here so the results match QuestDB's to the last bit (e.g. 1..100 at p = 0.5 gives
 * 51.9375, ApproxPercentileDoubleGroupByFunctionFactoryTest). Counts are kept per quantized
 * integer value rather than in HdrHistogram's counts array: the bucket layout does not depend
 * on the array's size, so the answers are the same.
 */
import { SqlError } from "../base/errors.ts";

/** HdrHistogram's `subBucketHalfCount` for `digits` significant digits. */
export function halfCountOf(digits: number): number {
  const largest = 2 * Math.pow(10, digits);
  const magnitude = Math.ceil(Math.log(largest) / Math.log(2));
  return Math.pow(2, (magnitude > 1 ? magnitude : 1) - 1);
}

/** findContainingBinaryOrderOfMagnitude(ceil(x)): bits needed to hold ceil(x). */
export function containingOrder(x: number): number {
  const n = Math.ceil(x);
  return n <= 0 ? 0 : Math.floor(Math.log2(n)) + 1;
}

export class DoubleHistogram {
  private readonly half: number;
  private readonly halfMagnitude: number;
  private lowest = 1;
  private highestLimit: number;
  /** integer = floor(value * ratio); the reported double = integer / ratio. */
  private ratio: number;
  private readonly counts = new Map<number, number>();
  private total = 0;

  /**
   * `integers`: QuestDB's LONG/INT variant records into a plain integer Histogram (lowest
   * discernible value 1, no range shifts), so 1..100 at p = 0.5 gives 51.0.
   */
  constructor(
    digits: number,
    private readonly integers = false,
    private readonly name = "approx_percentile",
  ) {
    this.half = halfCountOf(digits);
    this.halfMagnitude = Math.round(Math.log2(this.half));
    // deriveInternalHighestToLowestValueRatio(2) = 1 << (containing(2) + 1) = 4.
    this.highestLimit = this.lowest * 4;
    this.ratio = integers ? 1 : this.half / this.lowest;
  }

  private bucketOf(v: number): number {
    if (v < 2 * this.half) return 0;
    return floorLog2(v) - this.halfMagnitude;
  }

  private lowestEquivalent(v: number): number {
    const b = this.bucketOf(v);
    const p = Math.pow(2, b);
    return Math.floor(v / p) * p;
  }

  private highestEquivalent(v: number): number {
    const b = this.bucketOf(v);
    const p = Math.pow(2, b);
    return Math.floor(v / p) * p + p - 1;
  }

  /** HdrHistogram's countsArrayIndex. */
  private indexOf(v: number): number {
    const b = this.bucketOf(v);
    const sub = Math.floor(v / Math.pow(2, b));
    return (b + 1) * this.half + (sub - this.half);
  }

  private minNonZero(): number | undefined {
    let min: number | undefined;
    for (const [v, c] of this.counts) if (v > 0 && c > 0 && (min === undefined || v < min)) min = v;
    return min;
  }

  private rescale(factor: number): void {
    const old = [...this.counts];
    this.counts.clear();
    for (const [v, c] of old) {
      const scaled = Math.floor(v * factor);
      if (scaled === Infinity) throw rangeError(this.name, v / this.ratio);
      const nv = this.lowestEquivalent(scaled);
      this.counts.set(nv, (this.counts.get(nv) ?? 0) + c);
    }
  }

  /** Values above the range: shift it up by 2^n, or widen it when shifting would lose precision. */
  private shiftLeft(n: number): void {
    const mult = Math.pow(2, n);
    const min = this.minNonZero();
    if (min !== undefined && this.indexOf(min) < n * this.half + this.half) {
      // shiftValuesRight would underflow: the integer histogram is resized, the ratio stays.
      this.highestLimit *= mult;
      return;
    }
    if (min !== undefined) this.rescale(1 / mult);
    this.lowest *= mult;
    this.highestLimit *= mult;
    this.ratio = this.half / this.lowest;
  }

  /** Values below the range: shift it down by 2^n (recorded values are multiplied, losslessly). */
  private shiftRight(n: number): void {
    const mult = Math.pow(2, n);
    if (this.minNonZero() !== undefined) this.rescale(mult);
    this.lowest /= mult;
    this.highestLimit /= mult;
    this.ratio = this.half / this.lowest;
  }

  record(value: number): void {
    if (value !== 0 && !this.integers) {
      while (value < this.lowest) {
        this.shiftRight(Math.max(1, containingOrder(Math.ceil(this.lowest / value) - 1)));
      }
      while (value >= this.highestLimit) {
        const ulp = value * Number.EPSILON;
        // HdrHistogram subtracts 1 before taking the order; QuestDB's answers (a column of 5.0
        // reports 5.0, 6..10 reports 8.25 at p = 0.5) need the shift without it.
        this.shiftLeft(Math.max(1, containingOrder(Math.ceil((value + ulp) / this.highestLimit))));
      }
    }
    const raw = Math.floor(value * this.ratio);
    if (raw === Infinity) throw rangeError(this.name, value);
    let q: number;
    if (raw < 2 * this.half) q = raw;
    else if (raw < 2147483648) {
      // lowestEquivalent by bits: below 2^31, floor(log2(raw)) is 31 - clz32(raw) exactly.
      const b = 31 - Math.clz32(raw) - this.halfMagnitude;
      q = (raw >>> b) << b >>> 0;
    } else q = this.lowestEquivalent(raw);
    this.counts.set(q, (this.counts.get(q) ?? 0) + 1);
    this.total++;
  }

  /** getValueAtPercentile(percentile), `percentile` in 0..100; undefined when empty. */
  valueAtPercentile(percentile: number): number | undefined {
    if (this.total === 0) return undefined;
    const requested = Math.min(Math.max(nextDown(percentile), 0), 100);
    const want = Math.max(1, Math.ceil((requested / 100) * this.total));
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    let seen = 0;
    for (const k of keys) {
      seen += this.counts.get(k)!;
      if (seen >= want) {
        const v = percentile === 0 ? this.lowestEquivalent(k) : this.highestEquivalent(k);
        return v / this.ratio;
      }
    }
    const last = keys[keys.length - 1];
    return this.highestEquivalent(last) / this.ratio;
  }
}

/**
 * floor(log2(v)) exactly, for v >= 1, as HdrHistogram's leading-zero count gives it: Math.log2
 * rounds to the next integer just below a large power of two (2^53 - 1 gives 53), which put
 * the value in a bucket whose sub-bucket is below the half count.
 */
export function floorLog2(v: number): number {
  let e = Math.floor(Math.log2(v));
  const p = Math.pow(2, e);
  if (p > v) e--;
  else if (p * 2 <= v) e++;
  return e;
}

/**
 * The error for a value the histogram cannot count: its range was widened for values so far
 * apart (1e-300 and 1e12) that this one scales past the largest double.
 */
export function rangeError(name: string, value: number): SqlError {
  return new SqlError(`${name}: values span too wide a range for the histogram [value=${value}]`);
}

/** Math.nextAfter(x, -Infinity) for x >= 0. */
function nextDown(x: number): number {
  if (x <= 0) return x === 0 ? -Number.MIN_VALUE : x;
  const buf = new Float64Array([x]);
  const bits = new BigInt64Array(buf.buffer);
  bits[0] -= 1n;
  return buf[0];
}
