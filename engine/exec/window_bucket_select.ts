/**
 * The downsampling window functions `minmax(ts, value, target)` and `m4(ts, value, target)`
 * OVER (ORDER BY ...): TRUE on the rows the downsampling to `target` points keeps, FALSE
 * elsewhere (QuestDB's MinMaxAlgorithm / M4Algorithm, MinMaxWindowFunctionTest,
 * M4WindowFunctionTest).
 *
 * Rows with a NULL timestamp or a NULL/NaN value take no part and are never kept. When at most
 * `target` rows remain, all of them are kept. Otherwise the time range from the first to the
 * last remaining row is cut into equal buckets (target / 2 for minmax, target / 4 for m4; the
 * last one open-ended, bounds truncated to whole ticks), and each non-empty bucket keeps its
 * first minimum and first maximum (m4: also its first and last row); the kept rows are capped
 * at `target`.
 *
 * `lttb(ts, value, target [, gap])` keeps the Largest-Triangle-Three-Buckets selection instead
 * (QuestDB's LttbAlgorithm, LttbWindowFunctionTest): see `lttbSelect`. `uniform(target)` keeps
 * evenly spaced rows whatever their values (UniformWindowFunctionTest), `cadence(stride [, seed])`
 * every stride-th row (CadenceWindowFunctionTest), `sdt(ts, value, compdev)` the rows Swinging Door
 * Trending archives (SdtWindowFunctionTest).
 */
import type { Value } from "../base/values.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import type { PartitionInput } from "./window_functions.ts";
import { SqlError } from "../base/errors.ts";
import { FIXED_NANOS } from "../functions/datetime_units.ts";

export function bucketSelectPartition(w: WindowCall, rows: number[], p: PartitionInput): void {
  const constArg = (i: number) => (w.args[i] as { value?: Value } | undefined)?.value ?? null;
  if (w.name === "uniform") return uniformSelect(Number(constArg(0)), rows, p.out);
  if (w.name === "sdt") return sdtSelect(Number(constArg(2)), w.ignoreNulls, rows, p);
  if (w.name === "cadence") {
    return cadenceSelect(BigInt(constArg(0) as bigint), w.args.length > 1, constArg(1), rows, p.out);
  }
  const [tss, vals] = p.args;
  const target = Number((w.args[2] as { value: Value }).value);
  const ts: number[] = [], vs: number[] = [], at: number[] = [];
  let prev: Value = null;
  for (const r of rows) {
    p.out[r] = false;
    const t = tss[r], v = vals[r];
    // The bucketing reads its rows in ascending time: a window ORDER BY other than the
    // timestamp argument must deliver them so (WindowDownsampleOrderDirectionTest).
    if (t !== null && prev !== null && t < prev) {
      throw new SqlError(`${w.name}() requires timestamps in ascending order`, w.pos ?? 0);
    }
    if (t !== null) prev = t;
    if (t === null || v === null) continue;
    const d = Number(v);
    if (Number.isNaN(d)) continue;
    ts.push(Number(t));
    vs.push(d);
    at.push(r);
  }
  let kept: number[];
  if (w.name === "lttb") {
    const gapArg = w.args[3] as { value: Value } | undefined;
    const gap = gapArg ? gapThreshold(String(gapArg.value), 0, w.args[0].type.tag === "TIMESTAMP_NS") : 0n;
    kept = at.length <= target ? ts.map((_, i) => i) : lttbSelect(tss, at, vs, target, gap);
  } else kept = at.length <= target ? ts.map((_, i) => i) : select(w.name === "m4", ts, vs, target);
  for (const i of kept) p.out[at[i]] = true;
}

/** Indexes (in time order) of the rows each bucket keeps. */
function select(m4: boolean, ts: number[], vs: number[], target: number): number[] {
  const n = ts.length;
  const buckets = Math.max(1, Math.floor(target / (m4 ? 4 : 2)));
  const lo = ts[0], hi = ts[n - 1];
  if (lo === hi) return ts.slice(0, Math.min(n, target)).map((_, i) => i);
  const width = (hi - lo) / buckets;
  const out: number[] = [];
  let i = 0;
  for (let b = 0; b < buckets; b++) {
    const start = Math.trunc(lo + b * width);
    const last = b === buckets - 1;
    const end = Math.trunc(lo + (b + 1) * width);
    let first = -1, final = -1, minAt = -1, maxAt = -1;
    for (; i < n && (last || ts[i] < end); i++) {
      if (ts[i] < start) continue;
      if (first < 0) [first, minAt, maxAt] = [i, i, i];
      final = i;
      if (vs[i] < vs[minAt]) minAt = i;
      if (vs[i] > vs[maxAt]) maxAt = i;
    }
    if (first < 0) continue;
    const picks = m4 ? [first, minAt, maxAt, final] : [minAt, maxAt];
    for (const k of [...new Set(picks)].sort((a, b) => a - b)) out.push(k);
  }
  return out.slice(0, target);
}

/**
 * A gap threshold ('30s', '5m', '1h', '1d': digits then one unit) in the timestamp column's
 * ticks, with QuestDB's LttbFunctionFactory.parseGapThresholdMicros errors; `pos` is the quoted
 * literal's position (a bad unit points at the unit character inside the quotes).
 */
export function gapThreshold(text: string, pos: number, nanos: boolean): bigint {
  const k = leadingDigits(text);
  if (k === 0 || k !== text.length - 1) {
    throw new SqlError(
      `invalid gap threshold '${text}'; expected a number followed by a unit, such as '30s', '5m', '1h' or '1d'`,
      pos,
    );
  }
  const n = BigInt(text.slice(0, k));
  if (n === 0n) throw new SqlError("gap threshold must be greater than zero", pos);
  const badUnit = gapUnitError(text, (unitAt) => pos + 1 + unitAt);
  if (badUnit) throw badUnit;
  const micros = n * (FIXED_NANOS[text[k]] / 1000n);
  if (micros > MAX_LONG) throw new SqlError("gap threshold overflow", pos);
  const ticks = nanos ? micros * 1000n : micros;
  return ticks > MAX_LONG ? MAX_LONG : ticks;
}

/**
 * QuestDB's error for a gap threshold of digits and one letter that is not a gap unit (s, m, h,
 * d), placed by `at` from the letter's offset in the text; undefined for any other text. The
 * SUBSAMPLE clause and the window function place it differently (plan_subsample.ts).
 */
export function gapUnitError(text: string, at: (unitAt: number) => number): SqlError | undefined {
  const k = leadingDigits(text);
  if (k === 0 || k !== text.length - 1 || "smhd".includes(text[k])) return undefined;
  return new SqlError(`unsupported interval unit: ${text[k]}. Supported: s, m, h, d`, at(k));
}

/** How many digits `text` starts with. */
function leadingDigits(text: string): number {
  let k = 0;
  while (k < text.length && text[k] >= "0" && text[k] <= "9") k++;
  return k;
}

const MAX_LONG = (1n << 63n) - 1n;

/**
 * LTTB over the usable rows (`at` into the partition's columns, `vs` their values): with a gap
 * threshold the rows split where consecutive timestamps are more than `gap` apart, each segment
 * gets at least min(2, size) points plus its share of the rest (trimmed from the last segment
 * back when rounding overshoots), so many segments may exceed `target`.
 */
function lttbSelect(tss: Value[], at: number[], vs: number[], target: number, gap: bigint): number[] {
  const ts = at.map((r) => BigInt(tss[r] as bigint | number));
  const n = ts.length;
  if (gap === 0n) return lttbRange(ts, vs, 0, n, target);
  const segs: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || ts[i] - ts[i - 1] > gap) {
      segs.push([start, i - start]);
      start = i;
    }
  }
  const floorTotal = segs.reduce((s, [, size]) => s + Math.min(2, size), 0);
  const targets: number[] = [];
  if (floorTotal >= target) {
    for (const [, size] of segs) targets.push(Math.min(2, size));
  } else {
    const budget = target - floorTotal;
    let total = 0;
    for (const [, size] of segs) {
      const t = Math.min(Math.min(2, size) + Math.floor(size * budget / n), size);
      targets.push(t);
      total += t;
    }
    for (let s = segs.length - 1; total > target && s >= 0; s--) {
      const floor = Math.min(2, segs[s][1]);
      if (targets[s] > floor) {
        const trim = Math.min(targets[s] - floor, total - target);
        targets[s] -= trim;
        total -= trim;
      }
    }
  }
  const out: number[] = [];
  segs.forEach(([st, size], s) => {
    if (size <= targets[s]) { for (let j = st; j < st + size; j++) out.push(j); }
    else out.push(...lttbRange(ts, vs, st, st + size, targets[s]));
  });
  return out;
}

/**
 * LTTB on rows [start, end) to `m` points; a large range first keeps only the first and last
 * rows and each of 2 * (m - 2) equal row-count bins' minimum and maximum (MinMaxLTTB).
 */
function lttbRange(ts: bigint[], vs: number[], start: number, end: number, m: number): number[] {
  if (m > 2 && end - start - 2 > 8 * (m - 2)) {
    const inner = end - start - 2, bins = 2 * (m - 2);
    const cand = [start];
    for (let b = 0; b < bins; b++) {
      const lo = start + 1 + Math.floor(b * inner / bins),
        hi = start + 1 + Math.floor((b + 1) * inner / bins);
      let minAt = lo, maxAt = lo;
      for (let j = lo + 1; j < hi; j++) {
        if (vs[j] < vs[minAt]) minAt = j;
        if (vs[j] > vs[maxAt]) maxAt = j;
      }
      cand.push(Math.min(minAt, maxAt));
      if (maxAt !== minAt) cand.push(Math.max(minAt, maxAt));
    }
    cand.push(end - 1);
    return lttbCore(cand.map((i) => ts[i]), cand.map((i) => vs[i]), m).map((i) => cand[i]);
  }
  return lttbCore(ts.slice(start, end), vs.slice(start, end), m).map((i) => start + i);
}

/** Plain LTTB: first, one point per interior bucket (largest triangle with the last pick and the next bucket's mean), last. */
function lttbCore(ts: bigint[], vs: number[], m: number): number[] {
  const n = ts.length;
  if (n < 2) return ts.map((_, i) => i);
  const out = [0];
  const size = (n - 2) / (m - 2);
  let prev = 0;
  for (let b = 0; b < m - 2; b++) {
    const lo = Math.trunc(b * size) + 1;
    const hi = Math.min(Math.trunc((b + 1) * size) + 1, n - 1);
    const nextLo = hi;
    let nextHi = Math.trunc((b + 2) * size) + 1;
    if (nextHi > n - 1 || b === m - 3) nextHi = n;
    const ax = ts[prev], ay = vs[prev];
    let avgDx = 0, avgY = 0;
    for (let j = nextLo; j < nextHi; j++) {
      avgDx += Number(ts[j] - ax);
      avgY += vs[j];
    }
    if (nextHi > nextLo) {
      avgDx /= nextHi - nextLo;
      avgY /= nextHi - nextLo;
    }
    let maxArea = -1, pick = lo;
    for (let j = lo; j < hi; j++) {
      const area = Math.abs(Number(ts[j] - ax) * (avgY - ay) - avgDx * (vs[j] - ay));
      if (area > maxArea) [maxArea, pick] = [area, j];
    }
    out.push(pick);
    prev = pick;
  }
  out.push(n - 1);
  return out;
}

/**
 * `target` rows evenly spaced over the partition, first and last included: row
 * (i * (n - 1) + (target - 1) / 2) / (target - 1) for i in 0 .. target - 1 (half up); all rows
 * when there are at most `target`.
 */
function uniformSelect(target: number, rows: number[], out: Value[]): void {
  const n = rows.length;
  for (const r of rows) out[r] = n <= target;
  if (n <= target) return;
  const divisor = BigInt(target - 1), range = BigInt(n - 1), half = divisor / 2n;
  for (let i = 0n; i < BigInt(target); i++) out[rows[Number((i * range + half) / divisor)]] = true;
}

/**
 * QuestDB's CadenceFunctionFactory: the first row, then rows stride + offset, 2 * stride + offset,
 * ... and the last row (pinned); every row for stride 1, only the first when stride exceeds the
 * row count. The offset is 0 without a seed, random for a NULL seed, else the seed's splitmix64
 * finalizer mod stride.
 */
function cadenceSelect(stride: bigint, seeded: boolean, seed: Value, rows: number[], out: Value[]): void {
  const n = BigInt(rows.length);
  for (const r of rows) out[r] = stride === 1n;
  if (stride === 1n || n === 0n) return;
  out[rows[0]] = true;
  if (stride > n) return;
  let offset = 0n;
  if (seeded && seed === null) offset = BigInt(Math.floor(Math.random() * Number(stride)));
  else if (seeded) {
    const mask = (1n << 64n) - 1n;
    let h = BigInt.asUintN(64, BigInt(seed as bigint));
    h = ((h ^ (h >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    h = ((h ^ (h >> 27n)) * 0x94d049bb133111ebn) & mask;
    h = BigInt.asIntN(64, h ^ (h >> 31n));
    offset = ((h % stride) + stride) % stride;
  }
  for (let pos = stride + offset; pos < n; pos += stride) out[rows[Number(pos)]] = true;
  out[rows[rows.length - 1]] = true;
}

/**
 * QuestDB's SwingingDoor over one partition in ORDER BY order: the first row of a series is kept
 * and anchors a corridor of slopes within +-compdev of the rows after it; when the corridor
 * closes, the last row inside it is kept and becomes the anchor. The row still pending at the
 * end is kept. A NULL value or timestamp is kept and restarts the series (IGNORE NULLS: dropped,
 * no effect); a timestamp not after the last seen one restarts the series at that row.
 */
function sdtSelect(compdev: number, ignoreNulls: boolean, rows: number[], p: PartitionInput): void {
  const [tss, vals] = p.args;
  let hasAnchor = false, hasInterval = false, hasPending = false;
  let anchorRow = -1, anchorTs = 0n, anchorValue = 0, slopeHi = Infinity, slopeLo = -Infinity;
  let pendingRow = -1, pendingTs = 0n, pendingValue = 0;
  const pending = (r: number, ts: bigint, v: number) => {
    [hasPending, pendingRow, pendingTs, pendingValue] = [true, r, ts, v];
  };
  const anchor = (r: number, ts: bigint, v: number) => {
    [hasAnchor, anchorRow, anchorTs, anchorValue] = [true, r, ts, v];
    [hasInterval, slopeHi, slopeLo] = [false, Infinity, -Infinity];
    pending(r, ts, v);
    p.out[r] = true;
  };
  for (const r of rows) {
    const raw = vals[r];
    const value = raw === null ? NaN : Number(raw);
    if (Number.isNaN(value) || tss[r] === null) {
      p.out[r] = !ignoreNulls;
      if (!ignoreNulls) {
        [hasAnchor, hasInterval, hasPending, slopeHi, slopeLo] = [false, false, false, Infinity, -Infinity];
      }
      continue;
    }
    const ts = BigInt(tss[r] as bigint | number);
    if (!hasAnchor) {
      anchor(r, ts, value);
      continue;
    }
    const dt = BigInt.asIntN(64, ts - anchorTs);
    if (ts <= pendingTs || ts <= anchorTs || dt <= 0n) {
      anchor(r, ts, value);
      continue;
    }
    const sU = (value + compdev - anchorValue) / Number(dt);
    const sL = (value - compdev - anchorValue) / Number(dt);
    if (!Number.isFinite(sU) || !Number.isFinite(sL) || (compdev > 0 && sU === sL)) {
      anchor(r, ts, value);
      continue;
    }
    const nHi = sU < slopeHi ? sU : slopeHi;
    const nLo = sL > slopeLo ? sL : slopeLo;
    if (hasInterval && nLo > nHi) {
      // The doors crossed: the pending row is archived and anchors the next corridor.
      const dt2 = ts - pendingTs;
      [anchorRow, anchorTs, anchorValue] = [pendingRow, pendingTs, pendingValue];
      if (dt2 <= 0n) {
        anchor(r, ts, value);
        continue;
      }
      slopeHi = (value + compdev - anchorValue) / Number(dt2);
      slopeLo = (value - compdev - anchorValue) / Number(dt2);
      if (!Number.isFinite(slopeHi) || !Number.isFinite(slopeLo) || (compdev > 0 && slopeHi === slopeLo)) {
        anchor(r, ts, value);
        continue;
      }
      hasInterval = true;
      pending(r, ts, value);
      p.out[r] = true;
      continue;
    }
    if (hasPending && pendingRow !== anchorRow) p.out[pendingRow] = false;
    [slopeHi, slopeLo, hasInterval] = [nHi, nLo, true];
    pending(r, ts, value);
    p.out[r] = true;
  }
}
