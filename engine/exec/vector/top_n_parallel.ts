/**
 * Top-N (`ORDER BY ... LIMIT n`, top_n.ts) over a table scan as morsels on the worker heaps
 * (issues #16, #17): each morsel (consecutive row ranges in table order) is read, filtered and
 * projected on a worker, which keeps the morsel's best n rows with the same top-N code the main
 * thread runs; the main thread takes the kept rows of every morsel in morsel order and runs the
 * same top-N over them. The top-N is stable (ties keep input order) and the morsels are in table
 * order, so a row one morsel drops has n rows ahead of it in its own morsel, and the answer is
 * the single heap's, ties included.
 *
 * The shape: a sort under a LIMIT that keeps its first rows (physical.ts `topNOf`) over a
 * forward table scan through filters and projections, whose WHERE conditions and projected
 * expressions have a batch form the workers evaluate themselves (expr_ship.ts), whose sort keys
 * are not SYMBOL (they order by text, which a worker's snapshot cannot read), and which keeps at
 * most KEEP_MAX rows (the kept rows travel as rows). SYMBOL columns travel as dictionary codes
 * and are turned into text by the main snapshot.
 *
 * Chosen per plan (`markParallelTopN`, beside `markParallelHash`) for tables of at least the
 * pool's `hashRowsMin` rows; EXPLAIN shows `Top N [parallel N] ...` exactly when it runs there.
 */
import { type ColumnType, T } from "../../base/types.ts";
import type { Batch, Interval, SymbolDict, Value } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../../storage/api.ts";
import { batchToRows, gather, rowsToBatches } from "../batch_util.ts";
import { compilePredicate } from "../compile_expr.ts";
import { kernelSelect } from "../filter.ts";
import { FastPathUnavailable, Scratch } from "../wasm_scratch.ts";
import { argExprOf, type ArgOperand } from "../fast_aggregate.ts";
import { kernels, wasmMemory } from "../../../engine-wasm/mod.ts";
import { type Pred, predicateOf } from "../kernel_predicates.ts";
import { conjuncts } from "../../plan/intervals_from_where.ts";
import { charge, checkCancelled, type ExecContext, rowBytes, snapshotOf } from "../exec_context.ts";
import { runFilter } from "../filter.ts";
import {
  columnsOf,
  inline,
  rebind,
  shipExpr,
  shippable,
  ShippedCodeDict,
  shippedExecContext,
  type ShippedExpr,
  shippedSymbolCodes,
  type SymbolCodes,
} from "./expr_ship.ts";
import { vectorOf } from "./hash_aggregate.ts";
import { topNOf } from "./physical.ts";
import { type Morsel, morselBatches, morselsOf } from "./hash_parallel.ts";
import { rankOfValue, runTopN, type TopNState } from "./top_n.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type FilterNode = Extract<PlanNode, { kind: "filter" }>;

/**
 * Rows a parallel top-N may keep: every morsel sends its kept rows as rows, and the main thread
 * re-ranks morsels × keep of them.
 */
export const KEEP_MAX = 10_000;

/**
 * Rows per morsel. A top-N tests most rows with one SIMD comparison against its threshold
 * (~1 ns a row), so a morsel's fixed cost (a message, a snapshot, the first rows merged) is
 * paid per million rows: at 512K rows per morsel the 10M-row top-N took 32 ms of CPU, at 1M
 * 18 ms (issue #16); tests lower it to cut small tables into many morsels.
 */
export const topNTuning = { morselRows: 1_048_576 };

/** What a worker needs to run the top-N of a morsel: plain, structured-cloneable data. */
export interface TopNJob {
  /** Table column index of each scan column. */
  columnIndexes: number[];
  types: ColumnType[];
  intervals?: Interval[];
  /** WHERE conditions over the scan columns, all of which a row must meet. */
  filters: ShippedExpr[];
  /** The sort's input columns over the scan columns. */
  columns: ShippedExpr[];
  keys: { index: number; desc: boolean }[];
  keep: number;
  /**
   * Names this execution: a worker's earlier morsels of the same statement give its later
   * ones a floor (top_n.ts runTopN), so a morsel's start skips rows already beaten.
   */
  statement: string;
  /** Per SYMBOL scan column that expressions compare: the codes of the texts compared with. */
  symbols: SymbolCodes[];
  /** The session's time zone, for the row path of a batch the loops decline. */
  timeZone: string;
}

/** The kept rows of one morsel in sort order; SYMBOL columns of the scan as codes (-1: NULL). */
export interface TopNPartial {
  rows: Value[][];
}

/** The worker side of a pool, as the executor sees it (engine/parallel/worker_pool.ts). */
export interface ParallelTopN {
  readonly workers: number;
  /** Rows a table must hold for its parallel operators to go to the workers. */
  readonly hashRowsMin: number;
  /** The partials of `morsels` in order, or undefined when the workers cannot run them. */
  topNPartials(
    job: TopNJob,
    snap: TableSnapshot,
    morsels: Morsel[],
    ctx: ExecContext,
  ): Promise<TopNPartial[] | undefined>;
}

/** What the workers run, in bound form over the scan's columns (decided at plan time). */
interface Shape {
  scan: ScanNode;
  filters: BoundExpr[];
  columns: BoundExpr[];
}

const shapes = new WeakMap<PlanNode, Shape | null>();

function shapeOf(n: SortNode): Shape | undefined {
  let s = shapes.get(n);
  if (s === undefined) {
    s = findShape(n) ?? null;
    shapes.set(n, s);
  }
  return s ?? undefined;
}

function findShape(n: SortNode): Shape | undefined {
  if (n.keys.some((k) => n.columns[k.index].type.tag === "SYMBOL")) return undefined;
  let columns: BoundExpr[] = n.columns.map((c, index): BoundExpr => ({
    kind: "column",
    type: c.type,
    index,
  }));
  const filters: BoundExpr[] = [];
  let input = n.input;
  for (;;) {
    if (input.kind === "filter") {
      filters.push(input.predicate);
      input = input.input;
    } else if (input.kind === "project") {
      const exprs = input.exprs;
      columns = columns.map((c) => inline(c, exprs));
      for (let i = 0; i < filters.length; i++) filters[i] = inline(filters[i], exprs);
      input = input.input;
    } else break;
  }
  if (input.kind !== "scan" || input.reverse) return undefined;
  // A SYMBOL an expression computes would need the dictionary's text on the worker.
  if (columns.some((c) => c.kind !== "column" && c.type.tag === "SYMBOL")) return undefined;
  if (!columns.every((c) => shippable(c, "value"))) return undefined;
  if (!filters.every((f) => shippable(f, "select"))) return undefined;
  return { scan: input, filters, columns };
}

/** Workers each parallel top-N sort node runs on, as chosen for its plan. */
const chosen = new WeakMap<PlanNode, number>();

/**
 * Marks the top-N sorts of `plan` that run on the workers: the shape fits, it keeps at most
 * KEEP_MAX rows, the pool has workers and the table holds at least `hashRowsMin` rows now (the
 * threshold of the parallel hash aggregation, whose per-morsel costs are alike). A plan kept by
 * a statement cache keeps its choice.
 */
export function markParallelTopN(
  plan: PlanNode,
  pool: Partial<ParallelTopN> | undefined,
  storage: Storage,
): void {
  if (!pool?.workers || !pool.topNPartials) return;
  const min = pool.hashRowsMin ?? Infinity;
  const visit = (n: PlanNode) => {
    const top = n.kind === "limit" ? topNOf(n) : undefined;
    if (top && top.keep > 0 && top.keep <= KEEP_MAX) {
      const shape = shapeOf(top.sort);
      if (shape) {
        const snap = storage.table(shape.scan.table)?.snapshot();
        const rows = snap?.rowCount ?? 0;
        snap?.release();
        if (rows >= min) chosen.set(top.sort, pool.workers!);
      }
    }
    if ("input" in n) visit(n.input);
    if ("left" in n) {
      visit(n.left);
      visit(n.right);
    }
  };
  visit(plan);
}

/** Workers the plan chose for this top-N sort (0: it runs on the main thread). */
export function parallelTopNOf(n: PlanNode): number {
  return chosen.get(n) ?? 0;
}

// ---- on a worker heap ----

/**
 * Per statement, the tightest first-key rank the worker's finished morsels reached with
 * `keep` rows: `keep` rows of that statement's input rank at least as well, so any row ranked
 * strictly worse is out of the answer. Statements are few at a time; the map is cleared when
 * it grows (a missing floor only costs speed).
 */
const floors = new Map<string, number>();
const FLOORS_MAX = 64;

/**
 * The best `job.keep` rows of one morsel of `snap` (a worker's snapshot of the same state),
 * through the operators the main thread runs: the filter (its WASM kernels when the conditions
 * are simple comparisons, else the batch loops), then the projected columns, then the top-N.
 */
export async function topNPartialOf(job: TopNJob, snap: TableSnapshot, m: Morsel): Promise<TopNPartial> {
  const ctx = shippedExecContext(job.timeZone);
  const scanColumns = job.types.map((type, i) => ({ name: `c${i}`, type }));
  const outputs = job.columns.map((c) => rebind(c));
  const vectors = outputs.map((e) => vectorOf(e, ctx));
  // A scan SYMBOL column passes as its codes (INT), the rest keep their type.
  const types = outputs.map((e) => e.kind === "column" && e.type.tag === "SYMBOL" ? T.INT : e.type);
  const stubs = new Map(job.symbols.map((s) => [s.col, new ShippedCodeDict(s.size, s.codes)]));
  const cols = new Set<number>();
  for (const e of [...job.filters, ...job.columns]) columnsOf(e, (c) => cols.add(c));

  async function* project(input: AsyncIterable<Batch>): AsyncGenerator<Batch> {
    for await (const b of input) {
      yield {
        rowCount: b.rowCount,
        columns: vectors.map((f, k) => {
          const v = f(b);
          return types[k] === v.type ? v : { type: types[k], data: v.data };
        }),
      };
    }
  }

  // Only the columns read are set; a SYMBOL column has the codes of the job's texts.
  let input: AsyncIterable<Batch> = morselBatches(snap, m, job, cols, stubs);
  const state: TopNState = {};
  const filters = job.filters.map((f) => rebind(f));
  const preds = filters.flatMap((f) => conjuncts(f)).map((c) => predicateOf(c, scanColumns));
  const firstKey = outputs[job.keys[0].index];
  const prefiltered = filters.length > 0 || firstKey.kind !== "column";
  if (prefiltered && firstKey.type.tag === "DOUBLE" && preds.every((p) => !!p)) {
    // Simple conditions (or none) and a DOUBLE first key, computed or behind conditions: rows
    // are tested against the top-N's threshold before any column is gathered (prefilter).
    const first = job.keys[0];
    const key = outputs[first.index];
    input = prefilter(input, key, job.types, first.desc, preds as Pred[], filters, state, ctx);
  } else {
    for (const predicate of filters) {
      const node = { kind: "filter", predicate, input: { columns: scanColumns } } as unknown as FilterNode;
      input = runFilter(node, input, ctx);
    }
  }
  const node = { keys: job.keys, columns: types.map((type) => ({ type })) } as unknown as SortNode;
  const rows: Value[][] = [];
  const floor = floors.get(job.statement);
  for await (const b of runTopN(node, job.keep, project(input), ctx, floor, state)) {
    rows.push(...batchToRows(b));
  }
  const first = job.keys[0];
  const reached = rows.length === job.keep ? rankOfValue(rows[job.keep - 1][first.index]) : undefined;
  if (reached !== undefined) {
    const tighter = floor === undefined
      ? reached
      : first.desc
      ? Math.max(floor, reached)
      : Math.min(floor, reached);
    if (floors.size >= FLOORS_MAX) floors.clear();
    floors.set(job.statement, tighter);
  }
  return { rows };
}

/**
 * The rows of a morsel's batches that meet the WHERE conditions and whose first sort key is
 * not strictly worse than the top-N's current threshold (`state.limit`), gathered only then
 * (issue #16: a filtered top-N gathered and projected every matching row, ~90% of a 10M-row
 * table for `price > 109`). Once the top-N holds a threshold, which after a morsel's first rows
 * few rows beat, the key is tested first, over the whole batch (a cached DOUBLE column by the
 * `topNCandidates` kernel in place, an expression by its batch loop), and only the rows that
 * beat it are tested against the conditions by the WASM filter kernels (filter.ts kernelSelect
 * `within`); before that, the kernels select the rows. A batch outside WASM memory takes the
 * row predicate (on a worker, a SYMBOL text there declines the morsel to the main heap).
 */
async function* prefilter(
  input: AsyncIterable<Batch>,
  key: BoundExpr,
  scanTypes: ColumnType[],
  desc: boolean,
  preds: Pred[],
  filters: BoundExpr[],
  state: TopNState,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const keySets = new Map<SymbolDict, Map<Pred, Uint8Array>>();
  const keyOf = vectorOf(key, ctx);
  // `a op b` of DOUBLE columns and constants: computed by the binop kernel into scratch.
  const expr = argExprOf(key, scanTypes.map((type) => ({ type })));
  const binop = expr?.kind === "f64" && !("op" in expr.a) && !("op" in expr.b) ? expr : undefined;
  const rowPred = compilePredicate(
    filters.length === 1 ? filters[0] : { kind: "and", type: T.BOOLEAN, args: filters },
    ctx,
  );
  const scratch = new Scratch();
  const mem = wasmMemory();
  // Scratch for the rows beating the threshold and the computed keys, for outRows rows.
  let out = 0, outRows = 0, noScratch = false, keyPtr = 0;
  /** The key of every row of `b`: by the binop kernel when its columns are in WASM memory. */
  const keysOf = (b: Batch) => {
    if (binop && keyPtr && b.rowCount <= outRows) {
      const operand = (o: ArgOperand) => {
        if ("op" in o) return undefined;
        if (!("col" in o)) return o;
        const d = b.columns[o.col].data;
        return d instanceof Float64Array && d.buffer === mem.buffer ? { data: d.byteOffset } : undefined;
      };
      const a = operand(binop.a), c = operand(binop.b);
      if (a && c) {
        kernels().binop({ rowCount: b.rowCount, op: binop.op, a, b: c, out: keyPtr });
        return mem.f64(keyPtr, b.rowCount);
      }
    }
    return keyOf(b).data;
  };
  try {
    for await (const b of input) {
      const t = state.limit;
      if (t !== undefined && outRows < b.rowCount && !noScratch) {
        try {
          out = scratch.alloc(b.rowCount * 4);
          keyPtr = scratch.alloc(b.rowCount * 8);
          outRows = b.rowCount;
        } catch (err) {
          if (!(err instanceof FastPathUnavailable)) throw err;
          noScratch = true;
        }
      }
      const keys = t === undefined ? undefined : keysOf(b);
      let sel: Int32Array, count: number;
      if (t !== undefined && keys instanceof Float64Array) {
        if (keys.buffer === mem.buffer && outRows >= b.rowCount) {
          const args = { data: keys.byteOffset, rowCount: b.rowCount, threshold: t, desc, out };
          count = kernels().topNCandidates(args);
          sel = mem.i32(out, count).slice();
        } else {
          sel = new Int32Array(Math.min(b.rowCount, 1024));
          count = 0;
          for (let i = 0; i < b.rowCount; i++) {
            const x = keys[i];
            const r = x - x === 0 ? x : -Infinity;
            if (desc ? r >= t : r <= t) {
              if (count === sel.length) sel = grow(sel);
              sel[count++] = i;
            }
          }
        }
        // The conditions, on those rows only: the filter kernels, else the row predicate.
        const refined = count > 0 && preds.length > 0
          ? kernelSelect(b, preds, keySets, { sel, count })
          : undefined;
        if (refined) ({ sel, count } = refined);
        else if (preds.length > 0) {
          let n = 0;
          for (let j = 0; j < count; j++) if (rowPred(b, sel[j])) sel[n++] = sel[j];
          count = n;
        }
      } else if (preds.length === 0) {
        yield b;
        continue;
      } else {
        const picked = kernelSelect(b, preds, keySets);
        if (picked) ({ sel, count } = picked);
        else {
          sel = new Int32Array(b.rowCount);
          count = 0;
          for (let i = 0; i < b.rowCount; i++) if (rowPred(b, i)) sel[count++] = i;
        }
      }
      if (count === 0) continue;
      yield count === b.rowCount ? b : gather(b, sel, count);
    }
  } finally {
    scratch.release();
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

// ---- on the main thread ----

/** The job of `shape` for this execution over `snap`. */
function jobOf(shape: Shape, sort: SortNode, keep: number, ctx: ExecContext, snap: TableSnapshot): TopNJob {
  const ship = (e: BoundExpr) => shipExpr(e, ctx.params);
  const { scan } = shape;
  const job: TopNJob = {
    columnIndexes: [...scan.columnIndexes],
    types: scan.columns.map((c) => c.type),
    intervals: scan.intervals,
    filters: shape.filters.map(ship),
    columns: shape.columns.map(ship),
    keys: sort.keys.map((k) => ({ index: k.index, desc: k.desc })),
    keep,
    statement: crypto.randomUUID(),
    symbols: [],
    timeZone: ctx.evalContext.timeZone,
  };
  job.symbols = shippedSymbolCodes([...job.filters, ...job.columns], job, snap);
  return job;
}

/**
 * Runs the top-N of `sort` on the workers and yields its rows in order, or runs `fallback` (the
 * same top-N on this heap) when the pool declines: no workers running, a worker cannot
 * evaluate a batch. Nothing is read on this heap before the workers answer, so the fallback
 * starts from the beginning.
 */
export async function* runParallelTopN(
  sort: SortNode,
  keep: number,
  ctx: ExecContext,
  fallback: () => AsyncGenerator<Batch>,
): AsyncGenerator<Batch> {
  const pool = ctx.parallel as Partial<ParallelTopN> | undefined;
  const shape = shapeOf(sort);
  const partials = shape && pool?.topNPartials ? await partialsOf(pool as ParallelTopN, shape) : undefined;
  if (!partials) {
    yield* fallback();
    return;
  }
  yield* partials;

  async function partialsOf(pool: ParallelTopN, shape: Shape): Promise<Batch[] | undefined> {
    const snap = snapshotOf(ctx, shape.scan.table);
    const job = jobOf(shape, sort, keep, ctx, snap);
    const parts = await pool.topNPartials(
      job,
      snap,
      morselsOf(snap, job.intervals, topNTuning.morselRows),
      ctx,
    );
    if (!parts) return undefined;
    checkCancelled(ctx);
    const dicts = shape.columns.map((c) =>
      c.kind === "column" && c.type.tag === "SYMBOL" ? snap.symbols(job.columnIndexes[c.index]) : undefined
    );
    const rows: Value[][] = [];
    for (const p of parts) {
      charge(ctx, rowBytes(p.rows.length, job.columns.length));
      for (const r of p.rows) {
        dicts.forEach((d, k) => {
          if (d) r[k] = (r[k] as number) < 0 ? null : d.valueOf(r[k] as number);
        });
        rows.push(r);
      }
    }
    // The same stable top-N over the morsels' rows in table order: ties keep input order.
    const types = sort.columns.map((c) => c.type);
    const out: Batch[] = [];
    for await (const b of runTopN(sort, keep, toAsync(rowsToBatches(types, rows)), ctx)) out.push(b);
    return out;
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
