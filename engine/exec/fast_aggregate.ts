/**
 * The WASM hot path for aggregates over a table (ARCHITECTURE.md "WASM hot path"):
 * count/sum/avg/min/max of numeric columns, unkeyed or keyed by one SYMBOL column, over a
 * scan narrowed by timestamp intervals and simple filters (numeric column vs constant,
 * symbol equality and IN, IS NULL). Kernels scan the cached column memory in place through
 * selection vectors; partial results merge across partitions in TypeScript.
 *
 * `tryFastAggregate` answers undefined when the query is outside this shape, and the
 * generic row path runs instead.
 */
import type { ColumnType } from "../base/types.ts";
import { type Batch, LONG_NULL, type Value } from "../base/values.ts";
import { kernels, type MeasureKind, type NumericKind, wasmMemory } from "../../engine-wasm/mod.ts";
import { conjuncts } from "../plan/intervals_from_where.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { rowsToBatch } from "./batch_util.ts";
import { type ExecContext, pace, snapshotOf } from "./exec_context.ts";
import { partitionRanges } from "./scan.ts";
import { KIND, type Pred, predicateOf, WIDTH } from "./kernel_predicates.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

type Agg = { fn: "count" | "sum" | "avg" | "min" | "max"; col: number; kind?: NumericKind; returns: ColumnType };

interface Shape {
  scan: ScanNode;
  preds: Pred[];
  key?: number;
  aggs: Agg[];
}

/** Recognises the shape, or undefined. */
export function fastShape(n: AggregateNode): Shape | undefined {
  let input = n.input;
  const preds: Pred[] = [];
  if (input.kind === "filter") {
    if (input.input.kind !== "scan") return undefined;
    for (const c of conjuncts(input.predicate)) {
      const p = predicateOf(c, input.input.columns);
      if (!p) return undefined;
      preds.push(p);
    }
    input = input.input;
  }
  if (input.kind !== "scan" || input.reverse) return undefined;
  const scan = input;
  let key: number | undefined;
  if (n.keys.length > 1) return undefined;
  if (n.keys.length === 1) {
    const k = n.keys[0];
    if (k.kind !== "column" || scan.columns[k.index].type.tag !== "SYMBOL") return undefined;
    key = k.index;
  }
  const aggs: Agg[] = [];
  for (const a of n.aggs) {
    if (a.filter) return undefined;
    const fn = a.name as Agg["fn"];
    if (!["count", "sum", "avg", "min", "max"].includes(fn)) return undefined;
    if ((a.binding as { distinct?: boolean }).distinct) return undefined;
    if (a.args.length === 0) {
      if (fn !== "count") return undefined;
      aggs.push({ fn, col: -1, returns: a.binding.returns });
      continue;
    }
    const arg = a.args[0];
    if (a.args.length !== 1 || arg.kind !== "column") return undefined;
    const kind = KIND[scan.columns[arg.index].type.tag];
    if (!kind) return undefined;
    if (key !== undefined && (kind === "i16" || kind === "i8")) return undefined;
    if (kind === "i16" || kind === "i8") {
      if (fn !== "sum" && fn !== "count") return undefined;
    }
    aggs.push({ fn, col: arg.index, kind, returns: a.binding.returns });
  }
  return { scan, preds, key, aggs };
}

/** Partial state of one aggregate for one group. */
interface Acc {
  count: number;
  sum: number | bigint;
  min: number | bigint | null;
  max: number | bigint | null;
}

const newAcc = (): Acc => ({ count: 0, sum: 0, min: null, max: null });

function lessThan(a: number | bigint, b: number | bigint): boolean {
  return a < b;
}

function finish(a: Agg, acc: Acc, rows: number): Value {
  switch (a.fn) {
    case "count":
      return BigInt(a.col < 0 ? rows : acc.count);
    case "sum":
      if (acc.count === 0) return null;
      if (a.returns.tag === "DOUBLE") return Number(acc.sum);
      if (a.returns.tag === "FLOAT") return Math.fround(Number(acc.sum));
      return BigInt.asIntN(64, BigInt(acc.sum));
    case "avg":
      return acc.count === 0 ? null : Number(acc.sum) / acc.count;
    case "min":
    case "max": {
      const v = a.fn === "min" ? acc.min : acc.max;
      if (v === null) return null;
      if (a.returns.tag === "DOUBLE" || a.returns.tag === "FLOAT") return Number(v);
      if (a.returns.tag === "INT" || a.returns.tag === "SHORT" || a.returns.tag === "BYTE") return Number(v);
      return BigInt(v);
    }
  }
}


/** Runs the aggregate on the WASM kernels; undefined when the shape does not fit. */
export async function tryFastAggregate(n: AggregateNode, ctx: ExecContext): Promise<Batch | undefined> {
  const shape = fastShape(n);
  if (!shape) return undefined;
  const snap = snapshotOf(ctx, shape.scan.table);
  const scratch = new Scratch();
  try {
    return await runFast(n, shape, snap, ctx, scratch);
  } catch (err) {
    if (err instanceof FastPathUnavailable) return undefined;
    throw err;
  } finally {
    scratch.release();
  }
}

async function runFast(n: AggregateNode, s: Shape, snap: TableSnapshot, ctx: ExecContext, scratch: Scratch): Promise<Batch> {
  const k = kernels();
  const mem = wasmMemory();
  const tableCol = (c: number) => s.scan.columnIndexes[c];
  const keyCount = s.key !== undefined ? snap.symbols(tableCol(s.key)).size : 0;
  const slots = keyCount + 1;
  const groups = s.key !== undefined ? Array.from({ length: slots }, () => s.aggs.map(newAcc)) : [s.aggs.map(newAcc)];
  const rowsPerGroup = new Float64Array(groups.length);
  // Symbol predicates become key tables once: keys are per table column, shared by partitions.
  const symSets = s.preds.map((p) => {
    if (p.kind !== "sym") return 0;
    const dict = snap.symbols(tableCol(p.col));
    const set = scratch.alloc(dict.size + 1);
    const bytes = mem.u8(set, dict.size + 1);
    bytes.fill(p.not ? 1 : 0);
    for (const v of p.values) {
      const key = v === null ? dict.size : dict.keyOf(v);
      if (key !== undefined) bytes[key] = p.not ? 0 : 1;
    }
    return set;
  });
  for (let p = 0; p < snap.partitions.length; p++) {
    await pace(ctx);
    const ranges = await partitionRanges(snap, p, s.scan.intervals);
    if (!ranges.length) continue;
    const needed = new Set<number>([...s.preds.map((x) => x.col), ...s.aggs.filter((a) => a.col >= 0).map((a) => a.col)]);
    if (s.key !== undefined) needed.add(s.key);
    const regions = new Map<number, number>();
    for (const c of needed) {
      const r = await snap.region(p, tableCol(c));
      if (!r) throw new FastPathUnavailable();
      regions.set(c, r.ptr);
    }
    const width = (c: number) => (s.scan.columns[c].type.tag === "SYMBOL" ? 4 : WIDTH[KIND[s.scan.columns[c].type.tag]!]);
    for (const [from, to] of ranges) {
      const rowCount = to - from;
      const at = (c: number) => regions.get(c)! + from * width(c);
      let sel: number | undefined;
      let selCount = rowCount;
      for (let i = 0; i < s.preds.length; i++) {
        const pr = s.preds[i];
        const out = sel ?? scratch.alloc(rowCount * 4);
        const rows = sel === undefined ? { rowCount } : { rowCount, sel, selCount };
        if (pr.kind === "sym") {
          const size = snap.symbols(tableCol(pr.col)).size;
          selCount = k.filterKeySet({ ...rows, data: at(pr.col), set: symSets[i], setSize: size, out });
        } else if (pr.type === "i64") {
          selCount = k.filter("i64", { ...rows, data: at(pr.col), op: pr.op, value: pr.value as bigint | null, out });
        } else {
          selCount = k.filter(pr.type, { ...rows, data: at(pr.col), op: pr.op, value: pr.value as number | null, out });
        }
        sel = out;
        if (selCount === 0) break;
      }
      if (selCount === 0) continue;
      const rows = sel === undefined ? { rowCount } : { rowCount, sel, selCount };
      if (s.key === undefined) accumulateUnkeyed(s, groups[0], rows, at);
      else accumulateKeyed(s, groups, rowsPerGroup, rows, at, keyCount, scratch);
      if (s.key === undefined) rowsPerGroup[0] += selCount;
    }
  }
  const types = n.columns.map((c) => c.type);
  if (s.key === undefined) {
    return rowsToBatch(types, [s.aggs.map((a, i) => finish(a, groups[0][i], rowsPerGroup[0]))]);
  }
  const dict = snap.symbols(tableCol(s.key));
  const out: Value[][] = [];
  for (let slot = 0; slot < slots; slot++) {
    if (rowsPerGroup[slot] === 0) continue;
    const keyValue = slot === keyCount ? null : dict.valueOf(slot);
    out.push([keyValue, ...s.aggs.map((a, i) => finish(a, groups[slot][i], rowsPerGroup[slot]))]);
  }
  return rowsToBatch(types, out);
}

type RowsArg = { rowCount: number; sel?: number; selCount?: number };

function accumulateUnkeyed(s: Shape, accs: Acc[], rows: RowsArg, at: (c: number) => number): void {
  const k = kernels();
  const cache = new Map<number, { count: number; sum: number | bigint; min: number | bigint; max: number | bigint }>();
  s.aggs.forEach((a, i) => {
    if (a.col < 0) return;
    let st = cache.get(a.col);
    if (!st) {
      const kind = a.kind!;
      st = kind === "f64" || kind === "f32" ? k.stats(kind, { ...rows, data: at(a.col) }) : k.stats(kind, { ...rows, data: at(a.col) });
      cache.set(a.col, st);
    }
    mergeStats(accs[i], st, a.kind!);
  });
}

function mergeStats(acc: Acc, st: { count: number; sum: number | bigint; min: number | bigint; max: number | bigint }, kind: NumericKind): void {
  if (st.count === 0) return;
  acc.count += st.count;
  if (typeof st.sum === "bigint") acc.sum = BigInt.asIntN(64, BigInt(acc.sum) + st.sum);
  else acc.sum = Number(acc.sum) + st.sum;
  const isNull = (v: number | bigint) => (typeof v === "bigint" ? v === LONG_NULL : Number.isNaN(v)) || (kind === "i32" && v === -2147483648n);
  if (!isNull(st.min) && (acc.min === null || lessThan(st.min, acc.min))) acc.min = st.min;
  if (!isNull(st.max) && (acc.max === null || lessThan(acc.max, st.max))) acc.max = st.max;
}

function accumulateKeyed(
  s: Shape,
  groups: Acc[][],
  rowsPerGroup: Float64Array,
  rows: RowsArg,
  at: (c: number) => number,
  keyCount: number,
  scratch: Scratch,
): void {
  const k = kernels();
  const mem = wasmMemory();
  const keys = at(s.key!);
  const slots = keyCount + 1;
  const nullFill = (kind: MeasureKind, p: number) => {
    if (kind === "f64") mem.f64(p, slots).fill(NaN);
    else if (kind === "f32") mem.f32(p, slots).fill(NaN);
    else if (kind === "i64") mem.i64(p, slots).fill(LONG_NULL);
    else mem.i32(p, slots).fill(-2147483648);
  };
  // One pass per distinct column gives rows, counts, sums, minimums and maximums for every
  // aggregate over it; count(*) takes the row counts of the first such pass.
  let rowCounts: BigInt64Array | undefined;
  const columns = [...new Set(s.aggs.filter((a) => a.col >= 0).map((a) => a.col))];
  for (const col of columns) {
    const kind = s.aggs.find((a) => a.col === col)!.kind as MeasureKind;
    const width = WIDTH[kind];
    const out = {
      rows: scratch.alloc(slots * 8),
      counts: scratch.alloc(slots * 8),
      sums: scratch.alloc(slots * 8),
      mins: scratch.alloc(slots * width),
      maxs: scratch.alloc(slots * width),
    };
    mem.i64(out.rows, slots).fill(0n);
    mem.i64(out.counts, slots).fill(0n);
    if (kind === "f64" || kind === "f32") mem.f64(out.sums, slots).fill(0);
    else mem.i64(out.sums, slots).fill(0n);
    nullFill(kind, out.mins);
    nullFill(kind, out.maxs);
    k.keyedStats(kind, { ...rows, keys, keyCount, data: at(col), ...out });
    rowCounts ??= mem.i64(out.rows, slots);
    const counts = mem.i64(out.counts, slots);
    const sums = kind === "f64" || kind === "f32" ? mem.f64(out.sums, slots) : mem.i64(out.sums, slots);
    const view = (p: number) => kind === "f64" ? mem.f64(p, slots) : kind === "f32" ? mem.f32(p, slots) : kind === "i64" ? mem.i64(p, slots) : mem.i32(p, slots);
    const mins = view(out.mins), maxs = view(out.maxs);
    s.aggs.forEach((a, ai) => {
      if (a.col !== col) return;
      for (let slot = 0; slot < slots; slot++) {
        const n = Number(counts[slot]);
        if (n === 0) continue;
        mergeStats(groups[slot][ai], { count: n, sum: sums[slot], min: mins[slot], max: maxs[slot] }, kind);
      }
    });
  }
  if (!rowCounts) {
    const counts = scratch.alloc(slots * 8);
    mem.i64(counts, slots).fill(0n);
    k.keyedCount({ ...rows, keys, keyCount, counts });
    rowCounts = mem.i64(counts, slots);
  }
  for (let i = 0; i < slots; i++) rowsPerGroup[i] += Number(rowCounts[i]);
}
