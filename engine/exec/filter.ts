/**
 * Filter: keeps the rows for which the predicate is true, as a gathered batch. When every
 * conjunct is a simple comparison (numeric column vs constant, symbol = / IN, IS NULL) or an
 * OR / AND / NOT of simple comparisons (kernel_predicates.ts runPred) and
 * the batch's columns are views of WASM memory (as scans hand them out), the WASM filter
 * kernels build the selection vector; otherwise a generated batch loop does when the predicate
 * has one (vector/batch_expr.ts), and else the predicate runs row by row, giving other
 * clients a turn every few thousand rows when the batch takes long (a regex per row).
 */
import type { Batch, SymbolDict, Value, Vector } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { isStringLike } from "../base/types.ts";
import { kernels, wasmMemory } from "../../engine-wasm/mod.ts";
import { conjuncts } from "../plan/intervals_from_where.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import { checkCancelled, type ExecContext, pace, PACE_ROWS, paceDue } from "./exec_context.ts";
import {
  type LeafPred,
  type Pred,
  predicateOf,
  predLeaves,
  type PredRows,
  type PredRunner,
  runPred,
  runSymbolLeaf,
} from "./kernel_predicates.ts";
import { batchSelect } from "./vector/batch_eval.ts";
import { referenceExecution } from "./vector/physical.ts";

type FilterNode = Extract<PlanNode, { kind: "filter" }>;

export async function* runFilter(
  n: FilterNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const pred = compilePredicate(n.predicate, ctx);
  const simple = conjuncts(n.predicate).map((c) => predicateOf(withSubqueryValues(c, ctx), n.input.columns));
  // The row-at-a-time reference (differential tests) tests every row with the predicate.
  const kernelPreds = !referenceExecution() && simple.every((p) => p !== undefined)
    ? (simple as Pred[])
    : undefined;
  const keySets = new Map<SymbolDict, Map<Pred, Uint8Array>>();
  // Predicates the kernels cannot take (arithmetic, date functions) or batches outside WASM
  // memory: one generated loop over the batch (vector/batch_expr.ts) when the predicate has one.
  const batchPred = batchSelect(n.predicate, ctx);
  for await (const b of input) {
    checkCancelled(ctx);
    const viaKernels = kernelPreds && kernelSelect(b, kernelPreds, keySets);
    if (viaKernels) {
      const { sel, count } = viaKernels;
      if (count === b.rowCount) yield b;
      else if (count > 0) yield gatherRead(b, sel, count, n.unread);
      continue;
    }
    const sel = new Int32Array(b.rowCount);
    if (batchPred) {
      const count = batchPred(b, sel);
      if (count === b.rowCount) yield b;
      else if (count > 0) yield gatherRead(b, sel, count, n.unread);
      continue;
    }
    let count = 0;
    for (let from = 0; from < b.rowCount; from += PACE_ROWS) {
      if (from > 0 && paceDue(ctx)) await pace(ctx);
      const to = Math.min(b.rowCount, from + PACE_ROWS);
      for (let i = from; i < to; i++) if (pred(b, i)) sel[count++] = i;
    }
    if (count === b.rowCount) yield b;
    else if (count > 0) yield gatherRead(b, sel, count, n.unread);
  }
}

/**
 * The operator a Filter node runs, for EXPLAIN: `wasm kernels` when every conjunct is a kernel
 * predicate over the columns of a table scan (whose batches are views of WASM memory), as
 * runFilter decides per batch; otherwise undefined (a generated batch loop, or row by row).
 * Conjuncts with uncorrelated subqueries count as kernel predicates only once their values
 * are known, at run time, so EXPLAIN does not promise kernels for them.
 */
export function filterOp(n: FilterNode): string | undefined {
  if (referenceExecution() || n.input.kind !== "scan") return undefined;
  const all = conjuncts(n.predicate).every((c) => predicateOf(c, n.input.columns) !== undefined);
  return all ? "wasm kernels" : undefined;
}

/**
 * A conjunct with its uncorrelated subqueries' prepared values in place, for the kernels:
 * `price > (SELECT avg(price) ...)` becomes a comparison with a constant and `symbol IN
 * (SELECT ...)` an IN list (a NULL row of the subquery matches a NULL text value only, as the
 * row path's membership test answers). Anything else is left as it is.
 */
function withSubqueryValues(c: BoundExpr, ctx: ExecContext): BoundExpr {
  const prepared = (x: BoundExpr) =>
    (x.kind === "subquery" || x.kind === "inSubquery") && !x.outer?.length && ctx.subqueries.has(x.plan);
  if (c.kind === "inSubquery" && prepared(c)) {
    const keys = ctx.subqueries.get(c.plan);
    if (!(keys instanceof Set)) return c;
    if (!keys.has(null)) return { kind: "inSet", type: c.type, arg: c.arg, keys, hasNull: false, not: c.not };
    const hasNull = isStringLike(c.arg.type) || c.arg.type.tag === "NULL";
    const rest = new Set(keys);
    rest.delete(null);
    return { kind: "inSet", type: c.type, arg: c.arg, keys: rest, hasNull, not: c.not };
  }
  if (c.kind !== "call" || !c.args.some(prepared)) return c;
  const args = c.args.map((a): BoundExpr =>
    a.kind === "subquery" && prepared(a)
      ? { kind: "const", type: a.type, value: (ctx.subqueries.get(a.plan) ?? null) as Value }
      : a
  );
  return { ...c, args };
}

function inWasm(v: Vector, buffer: ArrayBufferLike): boolean {
  return !Array.isArray(v.data) && v.data.buffer === buffer;
}

/**
 * The selection built by the kernels, or undefined when the batch is not in WASM memory. Also
 * used by the worker heaps' hash aggregation (vector/hash_parallel.ts), whose batches are in
 * their own WASM memory. `within`: test only these rows (ascending), as the parallel top-N
 * does for the few rows that beat its threshold (vector/top_n_parallel.ts).
 */
export function kernelSelect(
  b: Batch,
  preds: Pred[],
  keySets: Map<SymbolDict, Map<Pred, Uint8Array>>,
  within?: { sel: Int32Array; count: number },
): { sel: Int32Array; count: number } | undefined {
  const mem = wasmMemory();
  const buffer = mem.memory.buffer;
  for (const p of predLeaves(preds)) {
    const v = b.columns[p.col];
    if (!inWasm(v, buffer) || (p.kind === "sym" && !v.dict)) return undefined;
  }
  const k = kernels();
  const out = mem.alloc(Math.max(16, b.rowCount * 4));
  if (out < 0) return undefined;
  const runner: PredRunner = {
    leaf(p, rows, to) {
      const v = b.columns[p.col];
      const data = (v.data as Int32Array).byteOffset;
      if (p.kind === "sym") {
        const table = keyTable(p, v.dict!, keySets);
        let setPtr = -1;
        const tablePtr = () => {
          setPtr = runner.alloc(table.length);
          mem.u8(setPtr, table.length).set(table);
          return setPtr;
        };
        try {
          return runSymbolLeaf(p, table, tablePtr, data, rows, to, runner);
        } finally {
          if (setPtr >= 0) mem.free(setPtr);
        }
      }
      if (p.type === "i64") {
        const value2 = p.value2 as bigint | undefined;
        return k.filter("i64", { ...rows, data, op: p.op, value: p.value as bigint | null, value2, out: to });
      }
      const value2 = p.value2 as number | undefined;
      return k.filter(p.type, { ...rows, data, op: p.op, value: p.value as number | null, value2, out: to });
    },
    alloc(bytes) {
      const ptr = mem.alloc(Math.max(16, bytes));
      if (ptr < 0) throw new NoRoom();
      return ptr;
    },
    free: (ptr) => mem.free(ptr),
  };
  try {
    let rows: PredRows = { rowCount: b.rowCount };
    if (within) {
      mem.i32(out, within.count).set(within.sel.subarray(0, within.count));
      rows = { rowCount: b.rowCount, sel: out, selCount: within.count };
    }
    const count = runPred({ kind: "and", all: preds }, rows, out, runner);
    return { sel: mem.i32(out, count).slice(), count };
  } catch (err) {
    if (err instanceof NoRoom) return undefined;
    throw err;
  } finally {
    mem.free(out);
  }
}

/** WASM memory had no room for a selection: the caller's other path runs. */
class NoRoom extends Error {}

/** The byte table of keys a symbol predicate selects (last byte: the NULL key), per dictionary. */
function keyTable(
  p: Extract<LeafPred, { kind: "sym" }>,
  dict: SymbolDict,
  cache: Map<SymbolDict, Map<Pred, Uint8Array>>,
): Uint8Array {
  let perDict = cache.get(dict);
  if (!perDict) cache.set(dict, perDict = new Map());
  let table = perDict.get(p);
  if (!table || table.length !== dict.size + 1) {
    table = new Uint8Array(dict.size + 1).fill(p.not ? 1 : 0);
    for (const value of p.values) {
      const key = value === null ? dict.size : dict.keyOf(value);
      if (key !== undefined) table[key] = p.not ? 0 : 1;
    }
    perDict.set(p, table);
  }
  return table;
}

/**
 * The selected rows of the columns something above reads; columns in `unread` (only the
 * predicate reads them, prune_columns.ts) keep the input's vectors ungathered: no operator
 * above reads them, and gathering them cost as much as the filter's loop.
 */
function gatherRead(b: Batch, sel: Int32Array, count: number, unread?: readonly number[]): Batch {
  if (!unread?.length) return keepAscending(b, gather(b, sel, count));
  const skip = new Set(unread);
  const read = b.columns.map((_, i) => i).filter((i) => !skip.has(i));
  const g = gather({ rowCount: b.rowCount, columns: read.map((i) => b.columns[i]) }, sel, count);
  const columns = b.columns.slice();
  read.forEach((c, j) => columns[c] = g.columns[j]);
  return keepAscending(b, { rowCount: count, columns });
}

/** A selection lists rows in ascending order: the gathered rows of an ascending vector are too. */
function keepAscending(from: Batch, to: Batch): Batch {
  if (!from.columns.some((v) => v.ascending)) return to;
  const columns = to.columns.map((v, i) =>
    from.columns[i].ascending && !v.ascending ? { ...v, ascending: true } : v
  );
  return { rowCount: to.rowCount, columns };
}
