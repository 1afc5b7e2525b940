/**
 * SAMPLE BY execution (spec/sql.md §10): groups rows by (bucket, keys), then emits buckets in
 * ascending order with keys in first-appearance order, adding FILL rows for missing buckets.
 * The WASM segmented reduce (`sample_by_fast.ts`) handles unkeyed numeric aggregates over a
 * table scan; everything else takes the row path here. Output columns: bucket start, keys,
 * aggregates.
 */
import { type Batch, LONG_NULL, type Value } from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import type { Accumulator } from "../functions/registry_types.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { valueKey } from "../plan/bound.ts";
import { RowBuffer } from "./batch_util.ts";
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
}

export async function* runSampleBy(n: SampleByNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const sampled = (parallelSampleByOf(n) ? await runParallelSampleBy(n, ctx) : undefined) ??
    (await trySampleByFast(n, ctx)) ?? (await collectRows(n, run(n.input, ctx), ctx));
  if (sampled.batches && n.spec.fill.length === 0) yield* sampled.batches();
  else yield* emit(n, sampled, ctx);
}

function keyHash(keys: Value[]): unknown {
  return keys.length === 1 ? valueKey(keys[0]) : keys.map((k) => String(valueKey(k))).join("\u0001");
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
        if (bucketer.first !== undefined) lo = bucketer.first;
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
  const spec = n.spec;
  if (spec.fill.length === 0 || !s.bucketer) return data;
  const first = s.bucketer.first ?? data[0];
  if (first === undefined) return data;
  const last = spec.to !== undefined ? boundTicks(spec, spec.to) - 1n : data[data.length - 1];
  const out: bigint[] = [];
  // FILL over FROM/TO emits every step of the range, and the range is held as bucket starts
  // (plus a filled position per key): a fine step over a long range fails on the budget
  // here instead of exhausting the heap.
  const perBucket = 32 + 8 * Math.max(1, s.keys.size);
  for (let b = first; b <= last; b = s.bucketer.next(b)) {
    if ((out.push(b) & 4095) === 0) charge(ctx, 4096 * perBucket);
  }
  charge(ctx, (out.length & 4095) * perBucket);
  return out;
}

function interpolate(t: ColumnType, a: Value, b: Value, num: number, den: number): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") return a + ((b - a) * BigInt(num)) / BigInt(den);
  const v = (a as number) + (((b as number) - (a as number)) * num) / den;
  if (t.tag === "DOUBLE") return v;
  if (t.tag === "FLOAT") return Math.fround(v);
  return Math.trunc(v);
}

interface KeyState {
  keys: Value[];
  prev: Value[];
  /** Positions (in the bucket range) that hold data, ascending. */
  data: number[];
  at: number;
}

async function* emit(n: SampleByNode, s: Sampled, ctx: ExecContext): AsyncGenerator<Batch> {
  const spec = n.spec;
  const buffer = new RowBuffer(n.columns.map((c) => c.type));
  const range = bucketRange(n, s, ctx);
  const fill = spec.fill;
  if (fill.length === 0) {
    let rows = 0;
    for (const b of range) {
      for (const g of s.buckets.get(b)!.values()) {
        if ((++rows & PACE_MASK) === 0 && paceDue(ctx)) await pace(ctx);
        buffer.push([b, ...g.keys, ...g.values]);
        if (buffer.full) yield buffer.take();
      }
    }
    if (buffer.rows.length) yield buffer.take();
    return;
  }
  const keyList = spec.keys.length === 0 ? new Map<unknown, Value[]>([[keyHash([]), []]]) : s.keys;
  const states = new Map<unknown, KeyState>();
  for (const [h, k] of keyList) states.set(h, { keys: k, prev: spec.aggs.map(() => null), data: [], at: 0 });
  range.forEach((b, pos) => {
    const m = s.buckets.get(b);
    if (m) { for (const h of m.keys()) states.get(h)?.data.push(pos); }
  });
  const aggTypes = spec.aggs.map((a) => a.binding.returns);
  for (let pos = 0; pos < range.length; pos++) {
    // Every bucket of the range, filled or not: a fine step over a long range is many rows.
    if ((pos & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const b = range[pos];
    const m = s.buckets.get(b);
    for (const [h, st] of states) {
      const g = m?.get(h);
      while (st.at < st.data.length && st.data[st.at] < pos) st.at++;
      let values: Value[];
      if (g) values = g.values;
      else {
        const before = st.at > 0 ? st.data[st.at - 1] : -1;
        const after = st.at < st.data.length ? st.data[st.at] : -1;
        values = fill.map((f, i) => {
          switch (f.kind) {
            case "value":
              return f.value;
            case "prev":
              return st.prev[i];
            case "prevOf":
              return st.prev[f.index];
            case "linear": {
              if (before < 0 || after < 0) return null;
              const va = s.buckets.get(range[before])!.get(h)!.values[i];
              const vb = s.buckets.get(range[after])!.get(h)!.values[i];
              return interpolate(aggTypes[i], va, vb, pos - before, after - before);
            }
            default:
              return null;
          }
        });
      }
      st.prev = values;
      buffer.push([b, ...st.keys, ...values]);
      if (buffer.full) yield buffer.take();
    }
  }
  if (buffer.rows.length) yield buffer.take();
}
