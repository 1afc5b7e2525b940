/**
 * SAMPLE BY over any input (a filtered scan, a join, a subquery) as a vectorized hash
 * aggregation (vector/hash_aggregate.ts): each batch gets its rows' bucket starts as one more
 * column (consecutive rows of one bucket cost one comparison, so ordered input floors once
 * per bucket), rows outside FROM/TO or without a timestamp are dropped, and the aggregation
 * groups by (bucket, keys). Its groups, in first-appearance order, become the `Sampled`
 * buckets that sample_by.ts emits and fills, exactly as from the row path (`collectRows`,
 * the reference).
 */
import { type Batch, LONG_NULL, readValue, type Value } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { valueKey } from "../plan/bound.ts";
import { gather } from "./batch_util.ts";
import { type ExecContext, pace, PACE_MASK, paceDue } from "./exec_context.ts";
import { boundTicks, type Bucketer, bucketerOf } from "./sample_by_buckets.ts";
import {
  ColumnWriter,
  fillRange,
  interpolate,
  linearNeighbours,
  type SampleByNode,
  type Sampled,
  startingPrev,
} from "./sample_by.ts";
import { runHashAggregate } from "./vector/hash_aggregate.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

/** The key of a group's key values, as the row path computes it. */
export function keyHash(keys: Value[]): unknown {
  return keys.length === 1 ? valueKey(keys[0]) : keys.map((k) => String(valueKey(k))).join("\u0001");
}

/** The bucket gridBuckets is in, as doubles, and its start's two int32 words. */
interface GridState {
  start: number;
  end: number;
  hiWord: number;
  loWord: number;
}

const TWO32 = 4294967296;
/** High words of the timestamps a double holds exactly (|t| < 2^53). */
const HI_SAFE = 1 << 21;

/**
 * Buckets of a batch on a grid of fixed-length buckets in double arithmetic: each row's
 * timestamp read as its two int32 words (a BigInt64Array read allocates a bigint), rows in
 * [lo, hi] kept with their bucket start written as two words. Answers the rows kept, or -1
 * (nothing written) when a timestamp or the grid is past 2^53, for the bigint loop.
 */
function gridBuckets(
  ts: BigInt64Array,
  n: number,
  grid: { origin: bigint; stride: bigint },
  lo: bigint,
  hi: bigint,
  st: GridState,
  buckets: BigInt64Array,
  keep: Int32Array,
): number {
  const bound = 2n ** 53n;
  if (grid.origin <= -bound || grid.origin >= bound || grid.stride >= bound) return -1;
  const origin = Number(grid.origin), stride = Number(grid.stride);
  // Bounds past the doubles' exact range compare right as doubles against exact timestamps.
  const loN = Number(lo), hiN = Number(hi);
  const words = new Int32Array(ts.buffer, ts.byteOffset, n * 2);
  const out = new Int32Array(buckets.buffer, buckets.byteOffset, n * 2);
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + 1];
    if (h >= HI_SAFE || h < -HI_SAFE) {
      // NULL (its high word is -2^31 and low word 0) or a timestamp a double does not hold.
      if (h === -2147483648 && words[2 * i] === 0) continue;
      return -1;
    }
  }
  let { start, end, hiWord, loWord } = st;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + 1];
    if (h === -2147483648) continue;
    const t = h * TWO32 + (words[2 * i] >>> 0);
    if (t < loN || t > hiN) continue;
    if (t < start || t >= end) {
      const d = t - origin;
      let q = Math.floor(d / stride);
      // The quotient of two doubles can round across an integer: correct it exactly.
      const r = d - q * stride;
      if (r < 0) q--;
      else if (r >= stride) q++;
      start = origin + q * stride;
      end = start + stride;
      hiWord = Math.floor(start / TWO32);
      loWord = (start - hiWord * TWO32) | 0;
    }
    out[2 * kept] = loWord;
    out[2 * kept + 1] = hiWord;
    keep[kept++] = i;
  }
  st.start = start;
  st.end = end;
  st.hiWord = hiWord;
  st.loWord = loWord;
  return kept;
}

export async function collectHashed(
  n: SampleByNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): Promise<Sampled> {
  const spec = n.spec;
  const tsType = n.input.columns[spec.tsIndex].type;
  const width = n.input.columns.length;
  let bucketer: Bucketer | undefined;

  /** The input batches with their bucket starts appended (rows that belong to no bucket dropped). */
  async function* withBuckets(): AsyncGenerator<Batch> {
    let lo = -(2n ** 63n), hi = 2n ** 63n - 1n;
    let start = 0n, end = -(2n ** 63n);
    const fast: GridState = { start: 0, end: -Infinity, hiWord: 0, loWord: 0 };
    for await (const b of input) {
      const ts = b.columns[spec.tsIndex].data as BigInt64Array;
      const buckets = new BigInt64Array(b.rowCount);
      const keep = new Int32Array(b.rowCount);
      let kept = 0;
      if (!bucketer) {
        // The bucketer comes from the first timestamp (FIRST OBSERVATION's origin).
        let i = 0;
        while (i < b.rowCount && ts[i] === LONG_NULL) i++;
        if (i < b.rowCount) {
          bucketer = bucketerOf(spec, ts[i]);
          if (bucketer.first !== undefined) lo = bucketer.rowsFrom ?? bucketer.first;
          if (spec.to !== undefined) hi = boundTicks(spec, spec.to) - 1n;
        }
      }
      // Fixed-length buckets are floored in doubles (gridBuckets); the bigint loop takes the
      // batches gridBuckets declines (timestamps past 2^53).
      const viaGrid = bucketer?.grid
        ? gridBuckets(ts, b.rowCount, bucketer.grid, lo, hi, fast, buckets, keep)
        : -1;
      if (viaGrid >= 0) kept = viaGrid;
      for (let i = viaGrid >= 0 ? b.rowCount : 0; i < b.rowCount; i++) {
        const t = ts[i];
        if (t === LONG_NULL) continue;
        if (t < lo || t > hi) continue;
        if (t < start || t >= end) {
          start = bucketer!.floor(t);
          end = bucketer!.next(start);
        }
        buckets[kept] = start;
        keep[kept++] = i;
      }
      if (kept === 0) continue;
      const rows = kept === b.rowCount ? b : gather(b, keep, kept);
      yield { rowCount: kept, columns: [...rows.columns, { type: tsType, data: buckets.subarray(0, kept) }] };
    }
  }

  const bucketKey: BoundExpr = { kind: "column", index: width, type: tsType } as BoundExpr;
  const grouped: AggregateNode = {
    kind: "aggregate",
    input: n.input,
    keys: [bucketKey, ...spec.keys],
    aggs: spec.aggs,
    columns: [
      { name: "bucket", type: tsType },
      ...spec.keys.map((k, i) => ({ name: `k${i}`, type: k.type })),
      ...spec.aggs.map((a, i) => ({ name: `a${i}`, type: a.binding.returns })),
    ],
    timestampIndex: -1,
  } as AggregateNode;

  const out: Batch[] = [];
  let ordered = true, last = -(2n ** 63n);
  for await (const b of runHashAggregate(grouped, withBuckets(), ctx)) {
    const starts = b.columns[0].data as BigInt64Array;
    for (let i = 0; i < b.rowCount && ordered; i++) {
      ordered = starts[i] >= last;
      last = starts[i];
    }
    out.push(b);
  }
  const base = {
    bucketer: bucketer ??
      (spec.from !== undefined ? bucketerOf(spec, boundTicks(spec, spec.from)) : undefined),
  };
  // Groups of ordered input come out bucket after bucket, keys in first-appearance order within
  // each: without FILL they are the output as they are; with FILL they are merged with the
  // bucket range.
  if (ordered && (spec.fill.length === 0 || (out.length > 0 && base.bucketer))) {
    return {
      ...base,
      buckets: new Map(),
      keys: new Map(),
      batches: spec.fill.length === 0
        ? async function* () {
          yield* out;
        }
        : () => emitFilled(n, out, base.bucketer!, ctx),
      batchesFill: true,
    };
  }
  const buckets: Sampled["buckets"] = new Map();
  const keys = new Map<unknown, Value[]>();
  const keyCount = spec.keys.length;
  for (const b of out) {
    const starts = b.columns[0].data as BigInt64Array;
    for (let i = 0; i < b.rowCount; i++) {
      const row = b.columns.map((c) => readValue(c, i));
      const k = row.slice(1, 1 + keyCount);
      const h = keyHash(k);
      let m = buckets.get(starts[i]);
      if (!m) buckets.set(starts[i], m = new Map());
      m.set(h, { keys: k, values: row.slice(1 + keyCount) });
      if (!keys.has(h)) keys.set(h, k);
    }
  }
  return { ...base, buckets, keys };
}

/**
 * FILL over groups sorted by bucket: for every bucket of the range and every key (in first
 * appearance order) the group's values or the fill's, written column by column. Produces the
 * rows sample_by.ts `emit` produces from a `Sampled`, without a map per bucket.
 */
async function* emitFilled(
  n: SampleByNode,
  groupBatches: Batch[],
  bucketer: Bucketer,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const spec = n.spec;
  const keyCount = spec.keys.length, aggCount = spec.aggs.length;
  if (keyCount === 0 && spec.fill.every((f) => f.kind !== "linear")) {
    yield* emitKeyless(n, groupBatches, bucketer, ctx);
    return;
  }
  // Every group as (batch, row), its key's index, and its bucket's position in the range.
  const batchOf: number[] = [], rowOf: number[] = [], keyOf: number[] = [];
  const starts: bigint[] = [];
  const keyIndex = new Map<unknown, number>();
  const keyValues: Value[][] = [];
  groupBatches.forEach((b, bi) => {
    const bucketStarts = b.columns[0].data as BigInt64Array;
    for (let i = 0; i < b.rowCount; i++) {
      const k: Value[] = [];
      for (let c = 1; c <= keyCount; c++) k.push(readValue(b.columns[c], i));
      const h = keyHash(k);
      let ki = keyIndex.get(h);
      if (ki === undefined) {
        keyIndex.set(h, ki = keyValues.length);
        keyValues.push(k);
      }
      batchOf.push(bi);
      rowOf.push(i);
      keyOf.push(ki);
      starts.push(bucketStarts[i]);
    }
  });
  const range = fillRange(spec, bucketer, starts[0], starts[starts.length - 1], keyValues.length, ctx) ?? [];
  // Per key, its groups' range positions and group numbers, ascending (a merge of two sorted lists).
  const keyPositions: number[][] = keyValues.map(() => []);
  const keyGroups: number[][] = keyValues.map(() => []);
  for (let g = 0, pos = 0; g < starts.length; g++) {
    while (pos < range.length && range[pos] < starts[g]) pos++;
    // A bucket outside the range (before FROM, after TO) is not emitted.
    if (pos >= range.length || range[pos] !== starts[g]) continue;
    keyPositions[keyOf[g]].push(pos);
    keyGroups[keyOf[g]].push(g);
  }
  const valueOf = (g: number, a: number) =>
    readValue(groupBatches[batchOf[g]].columns[1 + keyCount + a], rowOf[g]);
  const aggTypes = spec.aggs.map((a) => a.binding.returns);
  const out = new ColumnWriter(n.columns.map((c) => c.type));
  const cursor = keyValues.map(() => 0);
  const prev: Value[][] = keyValues.map(() => spec.aggs.map(() => null));
  const filled: Value[] = spec.aggs.map(() => null);
  // FILL(LINEAR) writes a bucket's own groups first, in their order (the order their keys first
  // appear in the bucket), then the keys it lacks (QuestDB's interpolating cursor:
  // SampleByTest#testSampleCountFillLinear); the other fills write every key in the order keys
  // first appear overall (SampleByTest#testSampleFillNullMonthAlignToCalendar).
  const dataFirst = spec.fill.some((f) => f.kind === "linear");
  const seenAt = keyValues.map(() => -1);
  let nextGroup = 0;
  for (let pos = 0; pos < range.length; pos++) {
    if ((pos & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const b = range[pos];
    while (nextGroup < starts.length && starts[nextGroup] < b) nextGroup++;
    for (; dataFirst && nextGroup < starts.length && starts[nextGroup] === b; nextGroup++) {
      const g = nextGroup, k = keyOf[g];
      seenAt[k] = pos;
      out.set(0, b);
      for (let c = 0; c < keyCount; c++) out.set(1 + c, keyValues[k][c]);
      for (let a = 0; a < aggCount; a++) {
        const v = valueOf(g, a);
        prev[k][a] = v;
        out.set(1 + keyCount + a, v);
      }
      if (out.next()) yield out.take();
    }
    for (let k = 0; k < keyValues.length; k++) {
      if (seenAt[k] === pos) continue;
      const positions = keyPositions[k];
      let at = cursor[k];
      while (at < positions.length && positions[at] < pos) at++;
      cursor[k] = at;
      out.set(0, b);
      for (let c = 0; c < keyCount; c++) out.set(1 + c, keyValues[k][c]);
      if (at < positions.length && positions[at] === pos) {
        const g = keyGroups[k][at];
        for (let a = 0; a < aggCount; a++) {
          const v = valueOf(g, a);
          prev[k][a] = v;
          out.set(1 + keyCount + a, v);
        }
        if (out.next()) yield out.take();
        continue;
      }
      for (let a = 0; a < aggCount; a++) {
        const f = spec.fill[a];
        switch (f.kind) {
          case "value":
            filled[a] = f.value;
            break;
          case "prev":
            filled[a] = prev[k][a];
            break;
          case "prevOf":
            filled[a] = prev[k][f.index];
            break;
          case "key":
            filled[a] = keyValues[k][f.index];
            break;
          case "linear": {
            const line = linearNeighbours(positions.length, at);
            if (!line) filled[a] = null;
            else {
              const [p, q] = line;
              const va = valueOf(keyGroups[k][p], a), vb = valueOf(keyGroups[k][q], a);
              filled[a] = interpolate(aggTypes[a], va, vb, pos - positions[p], positions[q] - positions[p]);
            }
            break;
          }
          default:
            filled[a] = null;
        }
      }
      for (let a = 0; a < aggCount; a++) {
        prev[k][a] = filled[a];
        out.set(1 + keyCount + a, filled[a]);
      }
      if (out.next()) yield out.take();
    }
  }
  if (out.rows) yield out.take();
}

/**
 * emitFilled without keys (a group per bucket) and without linear fills: the groups are walked
 * beside the range in one pass, no key hash, map or per-group lists (SAMPLE BY 1m FILL(NULL)
 * over one symbol: 43,200 buckets of a month, a group in a fifth of them at 1M rows).
 */
async function* emitKeyless(
  n: SampleByNode,
  groupBatches: Batch[],
  bucketer: Bucketer,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const spec = n.spec, aggCount = spec.aggs.length;
  const nonEmpty = groupBatches.filter((b) => b.rowCount > 0);
  const startsOf = (b: Batch) => b.columns[0].data as BigInt64Array;
  const firstB = nonEmpty[0], lastB = nonEmpty[nonEmpty.length - 1];
  const range = fillRange(
    spec,
    bucketer,
    firstB ? startsOf(firstB)[0] : undefined,
    lastB ? startsOf(lastB)[lastB.rowCount - 1] : undefined,
    0,
    ctx,
  ) ?? [];
  const out = new ColumnWriter(n.columns.map((c) => c.type));
  const prev: Value[] = startingPrev(spec), filled: Value[] = spec.aggs.map(() => null);
  let bi = 0, row = 0;
  for (let pos = 0; pos < range.length; pos++) {
    if ((pos & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const b = range[pos];
    // Groups before this bucket (before FROM) are not emitted.
    while (bi < nonEmpty.length && startsOf(nonEmpty[bi])[row] < b) {
      if (++row === nonEmpty[bi].rowCount) bi++, row = 0;
    }
    out.set(0, b);
    if (bi < nonEmpty.length && startsOf(nonEmpty[bi])[row] === b) {
      const g = nonEmpty[bi];
      for (let a = 0; a < aggCount; a++) {
        const v = readValue(g.columns[1 + a], row);
        prev[a] = v;
        out.set(1 + a, v);
      }
    } else {
      for (let a = 0; a < aggCount; a++) {
        const f = spec.fill[a];
        const v = f.kind === "value"
          ? f.value
          : f.kind === "prev"
          ? prev[a]
          : f.kind === "prevOf"
          ? prev[f.index]
          : null;
        filled[a] = v;
      }
      for (let a = 0; a < aggCount; a++) {
        prev[a] = filled[a];
        out.set(1 + a, filled[a]);
      }
    }
    if (out.next()) yield out.take();
  }
  if (out.rows) yield out.take();
}
