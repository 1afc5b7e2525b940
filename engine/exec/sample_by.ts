/**
 * SAMPLE BY execution (spec/sql.md §10): groups rows by (bucket, keys), then emits buckets in
 * ascending order with keys in first-appearance order, adding FILL rows for missing buckets.
 * The WASM segmented reduce (`sample_by_fast.ts`) handles unkeyed numeric aggregates over a
 * table scan; everything else groups as a vectorized hash aggregation (sample_by_hash.ts),
 * or, as the reference for the differential tests, row by row here (`collectRows`). Output columns: bucket start, keys,
 * aggregates.
 */
import {
  allocVectorData,
  type Batch,
  LONG_NULL,
  type Value,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { ColumnType } from "../base/types.ts";
import type { Accumulator } from "../functions/registry_types.ts";
import type { PlanNode, SampleBySpec } from "../plan/plan_node.ts";

import { compileExpr, compilePredicate } from "./compile_expr.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "./exec_context.ts";
import { boundTicks, type Bucketer, bucketerOf } from "./sample_by_buckets.ts";
import { trySampleByFast } from "./sample_by_fast.ts";
import { parallelSampleByOf, runParallelSampleBy } from "./sample_by_parallel.ts";
import { collectHashed, keyHash } from "./sample_by_hash.ts";
import { referenceExecution } from "./vector/physical.ts";

export type SampleByNode = Extract<PlanNode, { kind: "sampleBy" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

/** Aggregated groups per bucket: what both the row path and the WASM path produce. */
export interface Sampled {
  bucketer?: Bucketer;
  /** Bucket start → key hash → group, buckets in insertion order (sorted before emission). */
  buckets: Map<bigint, Map<unknown, { keys: Value[]; values: Value[] }>>;
  /** Every key combination seen, in first-appearance order. */
  keys: Map<unknown, Value[]>;
  /**
   * The output batches when the producer can build them column by column (no FILL): the
   * WASM keyed path, whose groups are already in emission order. Saves a row per group.
   */
  batches?: () => AsyncGenerator<Batch>;
  /** `batches` includes the FILL rows (sample_by_hash.ts over ordered groups). */
  batchesFill?: boolean;
}

export async function* runSampleBy(n: SampleByNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  // The reference (tests) buckets row at a time: the WASM paths are what it checks.
  const sampled = referenceExecution()
    ? await collectRows(n, run(n.input, ctx), ctx)
    : (parallelSampleByOf(n) ? await runParallelSampleBy(n, ctx) : undefined) ??
      (await trySampleByFast(n, ctx)) ??
      (await collectHashed(n, run(n.input, ctx), ctx));
  if (sampled.batches && (n.spec.fill.length === 0 || sampled.batchesFill)) yield* sampled.batches();
  else yield* emit(n, sampled, ctx);
}

async function collectRows(n: SampleByNode, input: AsyncIterable<Batch>, ctx: ExecContext): Promise<Sampled> {
  const spec = n.spec;
  const keyEvals = spec.keys.map((k) => compileExpr(k, ctx));
  const argEvals = spec.aggs.map((a) => a.args.map((x) => compileExpr(x, ctx)));
  const filters = spec.aggs.map((a) => (a.filter ? compilePredicate(a.filter, ctx) : undefined));
  const groups = new Map<bigint, Map<unknown, { keys: Value[]; accs: Accumulator[] }>>();
  const keys = new Map<unknown, Value[]>();
  let bucketer: Bucketer | undefined;
  let lo = -(2n ** 63n), hi = 2n ** 63n - 1n;
  let start = 0n, end = -(2n ** 63n);
  let current: Map<unknown, { keys: Value[]; accs: Accumulator[] }> | undefined;
  for await (const b of input) {
    checkCancelled(ctx);
    const ts = b.columns[spec.tsIndex].data as BigInt64Array;
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const t = ts[i];
      if (t === LONG_NULL) continue;
      if (!bucketer) {
        bucketer = bucketerOf(spec, t);
        if (bucketer.first !== undefined) lo = bucketer.rowsFrom ?? bucketer.first;
        if (spec.to !== undefined) hi = boundTicks(spec, spec.to) - 1n;
      }
      if (t < lo || t > hi) continue;
      if (!current || t < start || t >= end) {
        start = bucketer.floor(t);
        end = bucketer.next(start);
        current = groups.get(start);
        if (!current) groups.set(start, current = new Map());
      }
      const k = keyEvals.map((e) => e(b, i));
      const h = keyHash(k);
      let g = current.get(h);
      if (!g) {
        // Every (bucket, key) group is held until the input ends.
        charge(ctx, rowBytes(1, k.length + spec.aggs.length));
        current.set(h, g = { keys: k, accs: spec.aggs.map((a) => a.binding.create()) });
        if (!keys.has(h)) keys.set(h, k);
      }
      for (let a = 0; a < argEvals.length; a++) {
        const f = filters[a];
        if (f && !f(b, i)) continue;
        const ev = argEvals[a];
        g.accs[a].add(ev.length === 0 ? [] : ev.map((x) => x(b, i)));
      }
    }
  }
  const buckets: Sampled["buckets"] = new Map();
  for (const [s, m] of groups) {
    const out = new Map<unknown, { keys: Value[]; values: Value[] }>();
    for (const [h, g] of m) out.set(h, { keys: g.keys, values: g.accs.map((a) => a.result()) });
    buckets.set(s, out);
  }
  return {
    bucketer: bucketer ??
      (spec.from !== undefined ? bucketerOf(spec, boundTicks(spec, spec.from)) : undefined),
    buckets,
    keys,
  };
}

/** The bucket starts to emit: data buckets, or every step of the range when filling. */
function bucketRange(n: SampleByNode, s: Sampled, ctx: ExecContext): bigint[] {
  const data = [...s.buckets.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (n.spec.fill.length === 0 || !s.bucketer) return data;
  return fillRange(n.spec, s.bucketer, data[0], data[data.length - 1], s.keys.size, ctx) ?? data;
}

/**
 * Every bucket start FILL emits: from FROM (else the first data bucket) to TO (else the last
 * data bucket); undefined when there is no start.
 */
export function fillRange(
  spec: SampleByNode["spec"],
  bucketer: Bucketer,
  firstData: bigint | undefined,
  lastData: bigint | undefined,
  keyCount: number,
  ctx: ExecContext,
): bigint[] | undefined {
  // FILL(LINEAR) interpolates between data buckets only: FROM/TO add no buckets before the first
  // or after the last (QuestDB SampleByTest#testSampleByFromToFillLinearMultiBucket).
  const linear = spec.fill.some((f) => f.kind === "linear");
  const first = linear ? firstData : bucketer.first ?? firstData;
  if (first === undefined) return undefined;
  const last = spec.to !== undefined && !linear ? boundTicks(spec, spec.to) - 1n : lastData;
  const out: bigint[] = [];
  if (last === undefined) return out;
  // FILL over FROM/TO emits every step of the range, and the range is held as bucket starts
  // (plus a filled position per key): a fine step over a long range fails on the budget
  // here instead of exhausting the heap.
  const perBucket = 32 + 8 * Math.max(1, keyCount);
  for (let b = first; b <= last; b = bucketer.next(b)) {
    if ((out.push(b) & 4095) === 0) charge(ctx, 4096 * perBucket);
  }
  charge(ctx, (out.length & 4095) * perBucket);
  return out;
}

/**
 * The two data positions a linear fill draws its line through, as indexes into `positions` (a
 * key's data positions, ascending) for a gap whose next data index is `at`: the data on either
 * side, else (before the first or after the last data) the nearest two, as QuestDB's keyed
 * FILL(LINEAR) extrapolates (SampleByTest#testSampleCountFillLinear); none with one data point.
 */
export function linearNeighbours(count: number, at: number): [number, number] | undefined {
  if (at > 0 && at < count) return [at - 1, at];
  if (count < 2) return undefined;
  return at === 0 ? [0, 1] : [count - 2, count - 1];
}

/** Each aggregate's value before any data: NULL, or zero for numbers (SampleBySpec.prevStartsAtZero). */
export function startingPrev(spec: SampleBySpec): Value[] {
  return spec.aggs.map((a) => {
    if (!spec.prevStartsAtZero) return null;
    const tag = a.binding.returns.tag;
    if (tag === "LONG") return 0n;
    return tag === "DOUBLE" || tag === "FLOAT" || tag === "INT" || tag === "SHORT" || tag === "BYTE"
      ? 0
      : null;
  });
}

export function interpolate(t: ColumnType, a: Value, b: Value, num: number, den: number): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") {
    // QuestDB interpolates a LONG in doubles and truncates the result: a falling 3 -> 2 over three
    // buckets gives 2, 2 (SampleByTest#testSampleFillLinearWithAlignment), not 3, 3.
    const d = Number(a) + ((Number(b) - Number(a)) * num) / den;
    return Number.isFinite(d) ? BigInt(Math.trunc(d)) : null;
  }
  const v = (a as number) + (((b as number) - (a as number)) * num) / den;
  if (t.tag === "DOUBLE") return v;
  if (t.tag === "FLOAT") return Math.fround(v);
  return Math.trunc(v);
}

interface KeyState {
  keys: Value[];
  /** The previous row's aggregate values (its own array: filled rows write into it). */
  prev: Value[];
  /** Positions (in the bucket range) that hold data, ascending. */
  data: number[];
  at: number;
}

/**
 * Output columns written cell by cell, handed out as batches of at most BATCH_ROWS_MAX rows.
 * The columns start small and double as rows come: most SAMPLE BY answers are a few hundred
 * rows, and NULL-filling BATCH_ROWS_MAX rows per column for each took ~15 % of the server's
 * main thread in the soak (`SAMPLE BY 1m LIMIT -5` from 50 clients).
 */
export class ColumnWriter {
  #data: VectorData[] = [];
  #capacity = 0;
  rows = 0;
  constructor(readonly types: ColumnType[]) {}

  /** Columns for a new batch, made when its first cell is written (a taken batch's are not). */
  #reset(): void {
    this.#capacity = WRITER_ROWS_FIRST;
    this.#data = this.types.map((t) => allocVectorData(t, this.#capacity));
    this.rows = 0;
  }

  /** Writes `v` to column `c` of the current row. */
  set(c: number, v: Value): void {
    if (this.#capacity === 0) this.#reset();
    writeValue(this.types[c], this.#data[c], this.rows, v);
  }

  /** Ends the current row; true when the batch is full. */
  next(): boolean {
    if (this.#capacity === 0) this.#reset();
    if (++this.rows === this.#capacity && this.rows < BATCH_ROWS_MAX) this.#grow();
    return this.rows === BATCH_ROWS_MAX;
  }

  #grow(): void {
    this.#capacity = Math.min(BATCH_ROWS_MAX, this.#capacity * 4);
    this.#data = this.types.map((t, c) => {
      const old = this.#data[c], wider = allocVectorData(t, this.#capacity);
      if (Array.isArray(old)) { for (let i = 0; i < old.length; i++) (wider as Value[])[i] = old[i]; }
      else (wider as typeof old).set(old as never);
      return wider;
    });
  }

  take(): Batch {
    if (this.#capacity === 0) this.#reset();
    const n = this.rows;
    const columns = this.types.map((type, c) => {
      const d = this.#data[c];
      return { type, data: n === d.length ? d : (Array.isArray(d) ? d.slice(0, n) : d.subarray(0, n)) };
    });
    this.#capacity = 0;
    this.#data = [];
    this.rows = 0;
    return { rowCount: n, columns };
  }
}

/**
 * Rows a ColumnWriter's columns hold at first (they grow fourfold up to BATCH_ROWS_MAX): a
 * dashboard's `SAMPLE BY 1m LIMIT -5` emits tens of rows, and each typed array made is an
 * off-heap allocation the GC tracks.
 */
const WRITER_ROWS_FIRST = 64;

async function* emit(n: SampleByNode, s: Sampled, ctx: ExecContext): AsyncGenerator<Batch> {
  const spec = n.spec;
  const out = new ColumnWriter(n.columns.map((c) => c.type));
  const range = bucketRange(n, s, ctx);
  const fill = spec.fill;
  const keyCount = spec.keys.length;
  const write = (b: bigint, keys: Value[], values: Value[]) => {
    out.set(0, b);
    for (let k = 0; k < keyCount; k++) out.set(1 + k, keys[k]);
    for (let a = 0; a < values.length; a++) out.set(1 + keyCount + a, values[a]);
    return out.next();
  };
  if (fill.length === 0) {
    let rows = 0;
    for (const b of range) {
      for (const g of s.buckets.get(b)!.values()) {
        if ((++rows & PACE_MASK) === 0 && paceDue(ctx)) await pace(ctx);
        if (write(b, g.keys, g.values)) yield out.take();
      }
    }
    if (out.rows) yield out.take();
    return;
  }
  const keyList = keyCount === 0 ? new Map<unknown, Value[]>([[keyHash([]), []]]) : s.keys;
  const states = new Map<unknown, KeyState>();
  for (const [h, k] of keyList) states.set(h, { keys: k, prev: startingPrev(spec), data: [], at: 0 });
  range.forEach((b, pos) => {
    const m = s.buckets.get(b);
    if (m) { for (const h of m.keys()) states.get(h)?.data.push(pos); }
  });
  const aggTypes = spec.aggs.map((a) => a.binding.returns);
  const filled: Value[] = spec.aggs.map(() => null);
  const dataFirst = fill.some((f) => f.kind === "linear");
  for (let pos = 0; pos < range.length; pos++) {
    // Every bucket of the range, filled or not: a fine step over a long range is many rows.
    if ((pos & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const b = range[pos];
    const m = s.buckets.get(b);
    // FILL(LINEAR) writes a bucket's own rows first, in the order their keys first appear in it,
    // then the keys it lacks (QuestDB's interpolating cursor: SampleByTest#testSampleCountFillLinear);
    // the other fills write every key in the order keys first appear overall
    // (SampleByTest#testSampleFillNullMonthAlignToCalendar).
    if (m && dataFirst) {
      for (const [h, g] of m) {
        const st = states.get(h);
        if (st) { for (let i = 0; i < filled.length; i++) st.prev[i] = g.values[i]; }
        if (write(b, st?.keys ?? g.keys, g.values)) yield out.take();
      }
    }
    for (const [h, st] of states) {
      if (dataFirst && m?.has(h)) continue;
      const g = dataFirst ? undefined : m?.get(h);
      while (st.at < st.data.length && st.data[st.at] < pos) st.at++;
      if (g) {
        for (let i = 0; i < filled.length; i++) st.prev[i] = g.values[i];
        if (write(b, st.keys, g.values)) yield out.take();
        continue;
      }
      const line = linearNeighbours(st.data.length, st.at);
      for (let i = 0; i < filled.length; i++) {
        const f = fill[i];
        switch (f.kind) {
          case "value":
            filled[i] = f.value;
            break;
          case "prev":
            filled[i] = st.prev[i];
            break;
          case "prevOf":
            filled[i] = st.prev[f.index];
            break;
          case "key":
            filled[i] = st.keys[f.index];
            break;
          case "linear": {
            if (!line) filled[i] = null;
            else {
              const before = st.data[line[0]], after = st.data[line[1]];
              const va = s.buckets.get(range[before])!.get(h)!.values[i];
              const vb = s.buckets.get(range[after])!.get(h)!.values[i];
              filled[i] = interpolate(aggTypes[i], va, vb, pos - before, after - before);
            }
            break;
          }
          default:
            filled[i] = null;
        }
      }
      // The row's values become the previous ones only once all are computed (prevOf reads them).
      for (let i = 0; i < filled.length; i++) st.prev[i] = filled[i];
      if (write(b, st.keys, filled)) yield out.take();
    }
  }
  if (out.rows) yield out.take();
}
