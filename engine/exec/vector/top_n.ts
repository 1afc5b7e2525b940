/**
 * Top-N: `ORDER BY ... LIMIT n` keeps the best n rows seen so far and never sorts (or holds) the
 * whole input. Per batch, the first sort key is tested in one loop against the worst row kept
 * (its "threshold"); only rows that could enter the top n become candidates, and candidates are
 * merged into the kept rows by a stable sort, so ties keep input order exactly as the full
 * sort (sort.ts) does. Numeric first keys are compared as doubles in that loop (the mapping is
 * monotonic, so a strictly worse double is a strictly worse value; equal doubles go on to the
 * exact comparison); other types compare scalar values.
 */
import { type Batch, INT_NULL, LONG_NULL, readValue, type Value, type Vector } from "../../base/values.ts";
import { compareValues } from "../../functions/value_compare.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import { rowOf, rowsToBatches } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "../exec_context.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;

/** Rows of a DOUBLE first key tested against one threshold before candidates merge. */
const CHUNK = 4096;

/** Ascending rank of row i as a double (NULL lowest, as NULLs sort first ascending), if numeric. */
function rankReader(v: Vector): ((i: number) => number) | undefined {
  const d = v.data;
  const tag = v.type.tag;
  if (d instanceof Float64Array || d instanceof Float32Array) {
    return (i) => {
      const x = d[i];
      return x - x === 0 ? x : -Infinity;
    };
  }
  if (d instanceof BigInt64Array) return (i) => (d[i] === LONG_NULL ? -Infinity : Number(d[i]));
  if (d instanceof Int32Array && tag === "INT") return (i) => (d[i] === INT_NULL ? -Infinity : d[i]);
  if ((d instanceof Int16Array && tag === "SHORT") || (d instanceof Int8Array && tag === "BYTE")) {
    return (i) => d[i];
  }
  return undefined;
}

export async function* runTopN(
  n: SortNode,
  keep: number,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const keys = n.keys.map((k) => ({ ...k, type: n.columns[k.index].type }));
  const compare = (a: Value[], b: Value[]) => {
    for (const k of keys) {
      const c = compareValues(a[k.index], b[k.index], k.type);
      if (c !== 0) return k.desc ? -c : c;
    }
    return 0;
  };
  const first = keys[0];
  const sign = first.desc ? -1 : 1;
  let kept: Value[][] = [];
  let candidates: Value[][] = [];
  // Worst kept row's first key, valid when kept.length === keep.
  let thresholdValue: Value = null;
  let thresholdRank = 0;
  // Merging often keeps the threshold tight (fewer candidates); a merge sorts at most 3 keep rows.
  const mergeEvery = Math.max(keep * 2, 64);
  const merge = () => {
    if (candidates.length === 0) return;
    const all = kept.concat(candidates);
    all.sort(compare);
    kept = all.length > keep ? all.slice(0, keep) : all;
    candidates = [];
    if (kept.length === keep) {
      thresholdValue = kept[keep - 1][first.index];
      thresholdRank = thresholdValue === null
        ? -Infinity
        : typeof thresholdValue === "bigint"
        ? Number(thresholdValue)
        : thresholdValue as number;
    }
  };
  charge(ctx, rowBytes(keep + mergeEvery, n.columns.length));
  if (keep <= 0) {
    for await (const _ of input) checkCancelled(ctx);
    return;
  }
  let sel = new Int32Array(0);
  let chunk = Math.max(64, keep);
  for await (const b of input) {
    checkCancelled(ctx);
    const v = b.columns[first.index];
    const rank = rankReader(v);
    const rows = b.rowCount;
    for (let i = 0; i < rows; i++) {
      if (kept.length === keep && v.data instanceof Float64Array) {
        // A DOUBLE first key, once `keep` rows are held (from the batch's first row, or from
        // where they filled up): one typed-array loop lists the rest's rows that could enter
        // under the current threshold; only they are re-checked (the threshold tightens as
        // they merge) and materialized.
        // Chunks of the batch each see the threshold the previous ones tightened: right after
        // the first `keep` rows (a morsel's start) most rows beat it, so chunks start small
        // and double.
        if (sel.length < CHUNK) sel = new Int32Array(CHUNK);
        for (let from = i; from < rows; from += chunk, chunk = Math.min(CHUNK, chunk * 2)) {
          const to = Math.min(rows, from + chunk);
          const count = sign > 0
            ? atMostF64(v.data, from, to, thresholdRank, sel)
            : atLeastF64(v.data, from, to, thresholdRank, sel);
          for (let j = 0; j < count; j++) {
            const at = sel[j];
            const r = rank!(at);
            if (sign > 0 ? r > thresholdRank : r < thresholdRank) continue;
            candidates.push(rowOf(b, at));
            if (candidates.length >= mergeEvery) merge();
          }
        }
        break;
      }
      if (kept.length === keep) {
        // Skip a row whose first key is strictly worse than the worst kept row's.
        if (rank) {
          const r = rank(i);
          if (sign > 0 ? r > thresholdRank : r < thresholdRank) continue;
        } else {
          const c = compareValues(readValue(v, i), thresholdValue, first.type);
          if (sign * c > 0) continue;
        }
      }
      candidates.push(rowOf(b, i));
      if (candidates.length >= mergeEvery || kept.length + candidates.length === keep) merge();
    }
  }
  merge();
  yield* rowsToBatches(n.columns.map((c) => c.type), kept);
}

/** Rows from `from` whose DOUBLE value is NULL (ranked lowest) or at most `t`: ascending. */
function atMostF64(d: Float64Array, from: number, n: number, t: number, sel: Int32Array): number {
  let c = 0;
  for (let i = from; i < n; i++) {
    const x = d[i];
    if (x <= t || x - x !== 0) sel[c++] = i;
  }
  return c;
}

/** Rows from `from` whose DOUBLE value is at least `t` (NULL only when t is -Infinity): descending. */
function atLeastF64(d: Float64Array, from: number, n: number, t: number, sel: Int32Array): number {
  let c = 0;
  for (let i = from; i < n; i++) {
    const x = d[i];
    if (x >= t || (t === -Infinity && x - x !== 0)) sel[c++] = i;
  }
  return c;
}
