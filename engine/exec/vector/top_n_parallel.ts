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
 *
 * Tables larger than the column cache (issue #16, `ORDER BY price DESC, ts DESC LIMIT 20` over
 * 100M rows took 35x DuckDB's time) get two more steps:
 * - Pruning (EXPLAIN `pruned by morsel and block max|min`), when the first sort key is a numeric scan
 *   column: the workers measure each morsel piece's minimum and maximum rank of that column
 *   the first time they scan it, memoized per partition version and row range in the fact memo
 *   (TableSnapshot.factMemo: never stale, appends change the key). Each worker then visits its
 *   morsels best bound first, and a morsel whose bound is strictly worse than the n-th row some
 *   finished morsel already holds (the floor) is not read at all: `keep` rows rank strictly
 *   better than every row in it. Bounds cover whole pieces, so filters and intervals (which
 *   only drop rows) leave them safe; NULLs rank lowest, as the threshold loop ranks them.
 *   The same measure keeps each block's bound (64K rows, TopNJob.blocks), and inside a morsel
 *   a block strictly worse than the top-N's current threshold is not read.
 * - Late columns (EXPLAIN `late: a,b`): projected plain columns that are not sort keys are not
 *   read by the workers; rows carry their position, and the main thread reads those columns
 *   for the final `keep` rows only.
 */
import { type ColumnType, T } from "../../base/types.ts";
import type { Batch, Interval, SymbolDict, Value, Vector } from "../../base/values.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import { type BoundExpr, walkBound } from "../../plan/bound.ts";
import { forEachPlanNode, type PlanNode } from "../../plan/plan_node.ts";
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
import { type Morsel, morselsOf } from "./hash_parallel.ts";
import { rankF64, rankOfValue, rankReader, runTopN, type TopNState } from "./top_n.ts";
import { partitionRanges } from "../scan.ts";
import { morselsForWorkers } from "../../parallel/morsel_owner.ts";
import { readValue } from "../../base/values.ts";

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
 * 18 ms (issue #16); tests lower it to cut small tables into many morsels. `blockRows`: the rows
 * of a piece one block bound covers (see TopNJob.blocks); tests lower it too.
 */
export const topNTuning = { morselRows: 1_048_576, blockRows: BATCH_ROWS_MAX };

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
  /**
   * The output columns the worker computes, when the others are late (read by the main
   * thread for the final rows): each kept row then ends with its position, p * 2^32 + row.
   */
  computed?: number[];
  /** Scan column of the first sort key, when morsels are pruned by its bounds. */
  pruneCol?: number;
  /** This morsel's pieces have no bounds yet: measure them (per message). */
  measure?: boolean;
  /** A first-key rank `keep` rows of other morsels reach (per message, see `floors`). */
  floor?: number;
  /**
   * Per piece of the morsel (per message, when measured): the best first-key rank of each
   * block of `blockRows` rows from the piece's start (the maximum descending, the minimum
   * ascending). A block whose bound is strictly worse than the top-N's current threshold
   * is not read: none of its rows could become a candidate (issue #16: a whole morsel's
   * bound is near the table's best when the best values recur, as one symbol's prices do,
   * and pruned nothing for `ORDER BY price DESC` over 10M rows).
   */
  blocks?: (Float64Array | undefined)[];
  blockRows?: number;
  /** The session's time zone, for the row path of a batch the loops decline. */
  timeZone: string;
}

/** The kept rows of one morsel in sort order; SYMBOL columns of the scan as codes (-1: NULL). */
export interface TopNPartial {
  rows: Value[][];
  /** With `measure`: per piece of the morsel, the [min, max] first-key rank over its rows. */
  bounds?: [number, number][];
  /** With `measure`: per piece, min and max of each block of `blockRows` rows, interleaved. */
  blocks?: Float64Array[];
  /** Batches not read because their blocks' bounds were worse than the threshold. */
  skipped?: number;
}

/** Work the pruning and late columns saved (tests, diagnostics). */
export const topNCounters = { prunedMorsels: 0, measuredPieces: 0, lateRows: 0, skippedBlocks: 0 };

/**
 * How the pool visits a top-N's morsels (each still on worker `i % workers`, for its cache):
 * `order` sorts a worker's share, `jobFor` answers the job of a morsel or undefined when it is
 * pruned (its partial is then empty), `received` sees each partial as it arrives.
 */
export interface TopNSchedule {
  order(share: number[]): number[];
  jobFor(i: number): TopNJob | undefined;
  received(i: number, partial: TopNPartial): void;
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
    schedule?: TopNSchedule,
  ): Promise<TopNPartial[] | undefined>;
}

/** What the workers run, in bound form over the scan's columns (decided at plan time). */
interface Shape {
  scan: ScanNode;
  filters: BoundExpr[];
  columns: BoundExpr[];
  /** Scan column of the first sort key when it is a plain numeric column (pruning). */
  pruneCol?: number;
  /** Output indexes the workers compute when some outputs are late (plain, not sort keys). */
  computed?: number[];
}

/** Types whose values the threshold loop ranks as doubles (top_n.ts rankReader). */
const RANKED = new Set(["DOUBLE", "FLOAT", "LONG", "INT", "SHORT", "BYTE", "TIMESTAMP", "DATE"]);

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
  const first = columns[n.keys[0].index];
  const pruneCol = first.kind === "column" && RANKED.has(first.type.tag) ? first.index : undefined;
  const keyed = new Set(n.keys.map((k) => k.index));
  // Late: a plain column no sort key, filter or computed output reads on the worker anyway.
  const plain = columns.map((c, i) => !keyed.has(i) && c.kind === "column");
  const read = new Set<number>();
  for (const e of [...filters, ...columns.filter((_, i) => !plain[i])]) {
    walkBound(e, (x) => {
      if (x.kind === "column") read.add(x.index);
    });
  }
  const late = columns.map((c, i) => plain[i] && !read.has((c as { index: number }).index));
  const computed = late.some((l) => l) ? columns.flatMap((_, i) => (late[i] ? [] : [i])) : undefined;
  return { scan: input, filters, columns, pruneCol, computed };
}

/**
 * What EXPLAIN adds after `keep: n` for a parallel top-N: the pruning and the late columns
 * (empty when neither applies or the sort runs on the main thread).
 */
export function parallelTopNNotes(n: PlanNode): string {
  if (n.kind !== "sort" || !parallelTopNOf(n)) return "";
  const shape = shapeOf(n);
  if (!shape) return "";
  let notes = "";
  if (shape.pruneCol !== undefined) notes += ` pruned by morsel and block ${n.keys[0].desc ? "max" : "min"}`;
  if (shape.computed) {
    const late = n.columns.filter((_, i) => !shape.computed!.includes(i)).map((c) => c.name);
    notes += ` late: ${late.join(",")}`;
  }
  return notes;
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
  forEachPlanNode(plan, (n) => {
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
  });
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
  // With late columns: only the computed outputs, then the row position (an extra scan column).
  const computed = job.computed ?? job.columns.map((_, i) => i);
  const positionCol = job.types.length;
  const outputs = computed.map((i) => rebind(job.columns[i]));
  if (job.computed) outputs.push({ kind: "column", type: T.DOUBLE, index: positionCol });
  const keys = job.keys.map((k) => ({ index: computed.indexOf(k.index), desc: k.desc }));
  const vectors = outputs.map((e) => vectorOf(e, ctx));
  // A scan SYMBOL column passes as its codes (INT), the rest keep their type.
  const types = outputs.map((e) => e.kind === "column" && e.type.tag === "SYMBOL" ? T.INT : e.type);
  const stubs = new Map(job.symbols.map((s) => [s.col, new ShippedCodeDict(s.size, s.codes)]));
  const cols = new Set<number>();
  for (const e of [...job.filters, ...computed.map((i) => job.columns[i])]) columnsOf(e, (c) => cols.add(c));

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

  const measured = job.measure && job.pruneCol !== undefined
    ? await measure(snap, m, job.columnIndexes[job.pruneCol], job.blockRows ?? BATCH_ROWS_MAX)
    : undefined;
  const state: TopNState = {};
  // Blocks whose best first key is strictly worse than the current threshold are not read.
  const desc = keys[0].desc;
  let skipped = 0;
  const skip = job.blocks && job.blockRows
    ? (k: number, at: number, end: number): boolean => {
      const bounds = job.blocks![k], t = state.limit;
      if (!bounds || t === undefined) return false;
      const lo = m.pieces[k].lo, size = job.blockRows!;
      const last = Math.floor((end - 1 - lo) / size);
      for (let b = Math.floor((at - lo) / size); b <= last; b++) {
        if (desc ? !(bounds[b] < t) : !(bounds[b] > t)) return false;
      }
      skipped++;
      return true;
    }
    : undefined;
  // Only the columns read are set; a SYMBOL column has the codes of the job's texts.
  let input: AsyncIterable<Batch> = topNBatches(snap, m, job, cols, stubs, !!job.computed, skip);
  const filters = job.filters.map((f) => rebind(f));
  const preds = filters.flatMap((f) => conjuncts(f)).map((c) => predicateOf(c, scanColumns));
  const firstKey = outputs[keys[0].index];
  const prefiltered = filters.length > 0 || firstKey.kind !== "column";
  if (prefiltered && firstKey.type.tag === "DOUBLE" && preds.every((p) => !!p)) {
    // Simple conditions (or none) and a DOUBLE first key, computed or behind conditions: rows
    // are tested against the top-N's threshold before any column is gathered (prefilter).
    input = prefilter(input, firstKey, job.types, keys[0].desc, preds as Pred[], filters, state, ctx);
  } else {
    for (const predicate of filters) {
      const node = { kind: "filter", predicate, input: { columns: scanColumns } } as unknown as FilterNode;
      input = runFilter(node, input, ctx);
    }
  }
  const node = { keys, columns: types.map((type) => ({ type })) } as unknown as SortNode;
  const rows: Value[][] = [];
  const floor = tighter(floors.get(job.statement), job.floor, keys[0].desc);
  for await (const b of runTopN(node, job.keep, project(input), ctx, floor, state)) {
    rows.push(...batchToRows(b));
  }
  const first = keys[0];
  const reached = rows.length === job.keep
    ? rankOfValue(rows[job.keep - 1][first.index], types[first.index])
    : undefined;
  if (reached !== undefined) {
    if (floors.size >= FLOORS_MAX) floors.clear();
    floors.set(job.statement, tighter(floor, reached, first.desc)!);
  }
  return { rows, ...measured, ...(skipped ? { skipped } : {}) };
}

/** The tighter of two first-key floors (the higher descending, the lower ascending). */
function tighter(a: number | undefined, b: number | undefined, desc: boolean): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return desc ? Math.max(a, b) : Math.min(a, b);
}

/**
 * Per piece of `m`, the [min, max] rank of table column `col` over all its rows, and the min
 * and max of each block of `size` rows from the piece's start (interleaved).
 */
async function measure(
  snap: TableSnapshot,
  m: Morsel,
  col: number,
  size: number,
): Promise<{ bounds: [number, number][]; blocks: Float64Array[] }> {
  const bounds: [number, number][] = [];
  const blocks: Float64Array[] = [];
  for (const { p, lo, hi } of m.pieces) {
    const v = await snap.read(p, col, lo, hi);
    const rank = rankReader(v)!;
    const d = v.data;
    const n = hi - lo;
    const out = new Float64Array(2 * Math.ceil(n / size));
    let min = Infinity, max = -Infinity;
    for (let from = 0, b = 0; from < n; from += size, b++) {
      const to = Math.min(n, from + size);
      const [bmin, bmax] = d instanceof Float64Array ? rangeF64(d, from, to) : rangeOf(rank, from, to);
      out[2 * b] = bmin;
      out[2 * b + 1] = bmax;
      if (bmin < min) min = bmin;
      if (bmax > max) max = bmax;
    }
    bounds.push([min, max]);
    blocks.push(out);
  }
  return { bounds, blocks };
}

/** [min, max] rank of d[from, to) in one tight loop (the common case): NULL ranks +Infinity (rankF64). */
function rangeF64(d: Float64Array, from: number, to: number): [number, number] {
  let min = Infinity, max = -Infinity;
  for (let i = from; i < to; i++) {
    const r = rankF64(d[i]);
    if (r < min) min = r;
    if (r > max) max = r;
  }
  return [min, max];
}

function rangeOf(rank: (i: number) => number, from: number, to: number): [number, number] {
  let min = Infinity, max = -Infinity;
  for (let i = from; i < to; i++) {
    const r = rank(i);
    if (r < min) min = r;
    if (r > max) max = r;
  }
  return [min, max];
}

/**
 * The batches of a morsel (hash_parallel.ts morselBatches: the rows the intervals keep, only
 * the scan columns `cols` read), cut at block boundaries (TopNJob.blocks), without the batches
 * `skip` drops (read: nothing); with `positioned`, the row position of every row as one more
 * (DOUBLE) scan column after the table's: p * 2^32 + row, exact in a double for any partition
 * index below 2^21.
 */
async function* topNBatches(
  snap: TableSnapshot,
  m: Morsel,
  job: TopNJob,
  cols: Set<number>,
  dicts: Map<number, SymbolDict>,
  positioned: boolean,
  skip?: (piece: number, at: number, end: number) => boolean,
): AsyncGenerator<Batch> {
  const size = job.blockRows ?? BATCH_ROWS_MAX;
  // One buffer for every batch's positions: each batch is consumed (filtered, projected and its
  // candidates copied into rows by runTopN) before the next is made, and a fresh array per
  // batch cost more than the whole scan (issue #16: 27 of ~45 ms CPU per 10M-row top-N).
  const pos = positioned ? new Float64Array(Math.min(BATCH_ROWS_MAX, size)) : undefined;
  for (let k = 0; k < m.pieces.length; k++) {
    const piece = m.pieces[k];
    const ranges = (await partitionRanges(snap, piece.p, job.intervals))
      .map(([a, b]): [number, number] => [Math.max(a, piece.lo), Math.min(b, piece.hi)])
      .filter(([a, b]) => b > a);
    for (const [from, to] of ranges) {
      for (let at = from, end: number; at < to; at = end) {
        // Up to the next block boundary (blocks start at the piece's first row).
        end = Math.min(to, at + BATCH_ROWS_MAX, piece.lo + (Math.floor((at - piece.lo) / size) + 1) * size);
        if (skip?.(k, at, end)) continue;
        const columns: Vector[] = new Array(job.types.length + (pos ? 1 : 0));
        for (const c of cols) {
          const v = await snap.read(piece.p, job.columnIndexes[c], at, end);
          columns[c] = job.types[c].tag === "SYMBOL"
            ? { type: T.SYMBOL, data: v.data, dict: dicts.get(c) }
            : v;
        }
        if (pos) {
          columns[job.types.length] = {
            type: T.DOUBLE,
            data: positions(pos, piece.p * POSITION_SPAN + at, end - at),
          };
        }
        yield { rowCount: end - at, columns };
      }
    }
  }
}

const POSITION_SPAN = 2 ** 32;

/**
 * first, first + 1, ... as doubles in `pos`. A plain function: the same loop inside the async
 * generator ran at ~15 ns a row (V8 runs a loop with a `yield` around it far slower).
 */
function positions(pos: Float64Array, first: number, n: number): Float64Array {
  for (let i = 0; i < n; i++) pos[i] = first + i;
  return pos.subarray(0, n);
}
/** Above this share of rows beating the threshold, the conditions are tested before the key. */
const KEY_FIRST_PASS_MAX = 0.25;

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
  // The share of rows beating the threshold, as last seen: when most rows beat it (a selective
  // filter such as symbol = 'X' under ORDER BY price DESC, the threshold set by that symbol's
  // prices), testing the key first saves nothing and the conditions go first.
  let keyPass = 0;
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
      const picked = t !== undefined && keys instanceof Float64Array && preds.length > 0 &&
          keyPass > KEY_FIRST_PASS_MAX
        ? kernelSelect(b, preds, keySets)
        : undefined;
      if (picked && keys instanceof Float64Array) {
        // Conditions first (the kernels), then the key of the rows they keep.
        ({ sel, count } = picked);
        const tested = count;
        let n = 0;
        for (let j = 0; j < count; j++) {
          const r = rankF64(keys[sel[j]]);
          if (desc ? r >= t! : r <= t!) sel[n++] = sel[j];
        }
        count = n;
        keyPass = tested === 0 ? keyPass : count / tested;
      } else if (t !== undefined && keys instanceof Float64Array) {
        if (keys.buffer === mem.buffer && outRows >= b.rowCount) {
          const args = { data: keys.byteOffset, rowCount: b.rowCount, threshold: t, desc, out };
          count = kernels().topNCandidates(args);
          sel = mem.i32(out, count).slice();
          keyPass = count / b.rowCount;
        } else {
          sel = new Int32Array(Math.min(b.rowCount, 1024));
          count = 0;
          for (let i = 0; i < b.rowCount; i++) {
            const r = rankF64(keys[i]);
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
    ...(shape.computed ? { computed: shape.computed } : {}),
    ...(shape.pruneCol !== undefined ? { pruneCol: shape.pruneCol } : {}),
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
    const morsels = morselsForWorkers(morselsOf(snap, job.intervals, topNTuning.morselRows), pool.workers);
    const parts = await pool.topNPartials(job, snap, morsels, ctx, scheduleOf(job, snap, morsels));
    if (!parts) return undefined;
    checkCancelled(ctx);
    const computed = job.computed ?? shape.columns.map((_, i) => i);
    const dicts = computed.map((i) => {
      const c = shape.columns[i];
      return c.kind === "column" && c.type.tag === "SYMBOL"
        ? snap.symbols(job.columnIndexes[c.index])
        : undefined;
    });
    const rows: Value[][] = [];
    for (const p of parts) {
      charge(ctx, rowBytes(p.rows.length, computed.length + 1));
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
    if (!job.computed) {
      for await (const b of runTopN(sort, keep, toAsync(rowsToBatches(types, rows)), ctx)) out.push(b);
      return out;
    }
    // Late columns: the top-N over the computed columns and positions, then the other columns
    // of the final rows only.
    const narrowTypes = [...computed.map((i) => types[i]), T.DOUBLE];
    const narrow = {
      keys: sort.keys.map((k) => ({ ...k, index: computed.indexOf(k.index) })),
      columns: narrowTypes.map((type) => ({ type })),
    } as unknown as SortNode;
    const kept: Value[][] = [];
    for await (const b of runTopN(narrow, keep, toAsync(rowsToBatches(narrowTypes, rows)), ctx)) {
      kept.push(...batchToRows(b));
    }
    const full: Value[][] = [];
    for (const r of kept) {
      const at = r[computed.length] as number;
      const p = Math.floor(at / POSITION_SPAN), row = at - p * POSITION_SPAN;
      const values = new Array<Value>(types.length);
      computed.forEach((i, k) => values[i] = r[k]);
      for (let i = 0; i < types.length; i++) {
        if (computed.includes(i)) continue;
        const c = shape.columns[i] as Extract<BoundExpr, { kind: "column" }>;
        values[i] = readValue(await snap.read(p, job.columnIndexes[c.index], row, row + 1), 0);
      }
      full.push(values);
    }
    topNCounters.lateRows += full.length;
    out.push(...rowsToBatches(types, full));
    return out;
  }
}

/**
 * The visiting order and pruning of a top-N's morsels (see the module comment): bounds from
 * the fact memo, a floor from the partials received so far.
 */
function scheduleOf(job: TopNJob, snap: TableSnapshot, morsels: Morsel[]): TopNSchedule | undefined {
  if (job.pruneCol === undefined) return undefined;
  const col = job.columnIndexes[job.pruneCol];
  const desc = job.keys[0].desc;
  const first = (job.computed ?? job.columns.map((_, i) => i)).indexOf(job.keys[0].index);
  const firstType = job.columns[job.keys[0].index].type;
  const tag = (piece: { lo: number; hi: number }) => `topn:${piece.lo}:${piece.hi}`;
  const blockRows = topNTuning.blockRows;
  const blockTag = (piece: { lo: number; hi: number }) => `topn-blocks:${blockRows}:${piece.lo}:${piece.hi}`;
  // Per morsel and piece, the best first-key rank of each block (TopNJob.blocks), if measured.
  const blocksOf = (i: number) =>
    morsels[i].pieces.map((piece) => {
      const b = snap.factMemo?.(piece.p, col)?.get(blockTag(piece)) as Float64Array | undefined;
      return b && b.filter((_, k) => k % 2 === (desc ? 1 : 0));
    });
  const bounds = morsels.map((m) => {
    let bound = desc ? -Infinity : Infinity;
    for (const piece of m.pieces) {
      const b = snap.factMemo?.(piece.p, col)?.get(tag(piece)) as [number, number] | undefined;
      if (!b) return undefined;
      bound = desc ? Math.max(bound, b[1]) : Math.min(bound, b[0]);
    }
    return bound;
  });
  let floor: number | undefined;
  // Unmeasured morsels first (they may hold anything), then the best bounds.
  const score = (i: number) => bounds[i] === undefined ? -Infinity : desc ? -bounds[i]! : bounds[i]!;
  return {
    order: (share) => share.slice().sort((a, b) => score(a) - score(b) || a - b),
    jobFor(i) {
      const b = bounds[i];
      if (b !== undefined && floor !== undefined && (desc ? b < floor : b > floor)) {
        topNCounters.prunedMorsels++;
        return undefined;
      }
      if (b === undefined) return { ...job, floor, measure: true, blockRows };
      const blocks = blocksOf(i);
      return { ...job, floor, ...(blocks.some((x) => x) ? { blocks, blockRows } : {}) };
    },
    received(i, partial) {
      partial.bounds?.forEach((b, k) => {
        snap.factMemo?.(morsels[i].pieces[k].p, col)?.set(tag(morsels[i].pieces[k]), b);
        topNCounters.measuredPieces++;
      });
      topNCounters.skippedBlocks += partial.skipped ?? 0;
      partial.blocks?.forEach((b, k) => {
        snap.factMemo?.(morsels[i].pieces[k].p, col)?.set(blockTag(morsels[i].pieces[k]), b);
      });
      if (partial.rows.length === job.keep) {
        floor = tighter(floor, rankOfValue(partial.rows[job.keep - 1][first], firstType), desc);
      }
    },
  };
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
