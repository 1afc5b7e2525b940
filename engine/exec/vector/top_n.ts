/**
 * Top-N: `ORDER BY ... LIMIT n` keeps the best n rows seen so far and never sorts (or holds) the
 * whole input. Per batch, the first sort key is tested in one loop against the worst row kept
 * (its "threshold"); only rows that could enter the top n become candidates, and candidates are
 * merged into the kept rows by a stable sort, so ties keep input order exactly as the full
 * sort (sort.ts) does. Numeric first keys are compared as doubles in that loop (the mapping is
 * monotonic, so a strictly worse double is a strictly worse value; equal doubles go on to the
 * exact comparison); other types compare scalar values. A DOUBLE first key is tested by the
 * `topNCandidates` WASM kernel (issue #16: eight rows per SIMD step, ~4x the JavaScript loop),
 * in place when the batch's column is a view of the WASM column cache.
 */
import type { ColumnType } from "../../base/types.ts";
import { type Batch, INT_NULL, readValue, type Value, type Vector } from "../../base/values.ts";
import { compareValues } from "../../functions/value_compare.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import { rowOf, rowsToBatches } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "../exec_context.ts";
import { FastPathUnavailable, Scratch } from "../wasm_scratch.ts";
import { kernels, wasmMemory } from "../../../engine-wasm/mod.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;

/**
 * Rows of a DOUBLE first key tested against one threshold before candidates merge: one
 * kernel call per chunk (its fixed cost is paid per 16K rows; the chunk's copy, for a key
 * outside WASM memory, stays in L2).
 */
const CHUNK = 16_384;

/**
 * A DOUBLE/FLOAT value's ascending rank: the value, or +Infinity for NULL (NaN, ±Infinity), as
 * QuestDB sorts a NULL double last ascending and first descending (its SortKeyEncoder orders
 * the NaN bits above every number). Integer and time NULLs rank -Infinity (first ascending).
 */
export function rankF64(x: number): number {
  return x - x === 0 ? x : Infinity;
}

/** Ascending rank of row i as a double (NULL as it sorts: see rankF64), if numeric. */
export function rankReader(v: Vector): ((i: number) => number) | undefined {
  const d = v.data;
  const tag = v.type.tag;
  if (d instanceof Float64Array || d instanceof Float32Array) return (i) => rankF64(d[i]);
  if (d instanceof BigInt64Array) {
    // From the two 32-bit words: reading a BigInt64Array element allocates a bigint (~20 ns a
    // row). hi * 2^32 is exact and the sum is rounded once, to the double Number(d[i]) gives.
    const w = new Int32Array(d.buffer, d.byteOffset, d.length * 2);
    return (i) => {
      const hi = w[2 * i + 1], lo = w[2 * i];
      return hi === -2147483648 && lo === 0 ? -Infinity : hi * 4294967296 + (lo >>> 0);
    };
  }
  if (d instanceof Int32Array && tag === "INT") return (i) => (d[i] === INT_NULL ? -Infinity : d[i]);
  if ((d instanceof Int16Array && tag === "SHORT") || (d instanceof Int8Array && tag === "BYTE")) {
    return (i) => d[i];
  }
  return undefined;
}

/**
 * The rank of a first-key value of `type` as the threshold loop compares it (NULL as rankReader
 * ranks it), or undefined for a value of a type compared by value (text, booleans...).
 */
export function rankOfValue(v: Value, type: ColumnType): number | undefined {
  const floating = type.tag === "DOUBLE" || type.tag === "FLOAT";
  if (v === null) return floating ? Infinity : -Infinity;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return floating ? rankF64(v) : v;
  return undefined;
}

/**
 * What a top-N tells its producer: `limit`, the first-key rank a row must reach to become a
 * candidate (undefined while every row is one), updated as kept rows merge. A producer may drop
 * rows ranked strictly worse before it materializes them (top_n_parallel.ts).
 */
export interface TopNState {
  limit?: number;
}

/**
 * The best `keep` rows of `input` in sort order. `floor`, a first-key rank some `keep` rows
 * of the same statement's input already reach (a parallel top-N's earlier morsels on this
 * worker), drops rows ranked strictly worse from the start: such a row has `keep` rows
 * strictly ahead of it elsewhere, so it cannot be in the answer, whatever the tie order.
 */
export async function* runTopN(
  n: SortNode,
  keep: number,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
  floor?: number,
  state?: TopNState,
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
  /**
   * Row i of `b` against the worst kept row by every key, exactly (the sort's comparison): a
   * row whose first key ties with that row's is a candidate only if it sorts before it (it
   * comes later in the input, so a full tie sorts after). Without this, a first key with few
   * values (ORDER BY side, price DESC) made every row of the best value a candidate.
   */
  const beforeWorst = (b: Batch, i: number): boolean => {
    const worst = kept[keep - 1];
    for (const k of keys) {
      const c = compareValues(readValue(b.columns[k.index], i), worst[k.index], k.type);
      if (c !== 0) return (k.desc ? -c : c) < 0;
    }
    return false;
  };
  let kept: Value[][] = [];
  let candidates: Value[][] = [];
  // Worst kept row's first key, valid when kept.length === keep.
  let thresholdValue: Value = null;
  let thresholdRank = 0;
  // The rank a row must reach to be a candidate: the worst kept row's once `keep` rows are
  // held, tightened by `floor`; undefined while every row is one. Set by merges.
  let limit: number | undefined = floor;
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
      thresholdRank = rankOfValue(thresholdValue, first.type) ?? 0;
      limit = floor === undefined
        ? thresholdRank
        : sign > 0
        ? Math.min(thresholdRank, floor)
        : Math.max(thresholdRank, floor);
      if (state && rankOfValue(thresholdValue, first.type) !== undefined) state.limit = limit;
    }
  };
  if (state) state.limit = floor;
  charge(ctx, rowBytes(keep + mergeEvery, n.columns.length));
  if (keep <= 0) {
    for await (const _ of input) checkCancelled(ctx);
    return;
  }
  // Row indexes the kernel lists, and a copy of a chunk of a first key that is not in WASM
  // memory (a computed key such as price * amount): allocated on first use, freed at the end.
  let scratch: Scratch | undefined;
  let selPtr = 0, copyPtr = 0, noScratch = false;
  let jsSel = new Int32Array(0);
  let chunk = Math.max(64, keep);
  try {
    for await (const b of input) {
      checkCancelled(ctx);
      const v = b.columns[first.index];
      const rank = rankReader(v);
      const rows = b.rowCount;
      for (let i = 0; i < rows; i++) {
        const lim = rank ? limit : undefined;
        if (lim !== undefined && v.data instanceof Float64Array) {
          // A DOUBLE first key, once `keep` rows are held (from the batch's first row, or from
          // where they filled up): the `topNCandidates` kernel lists the rest's rows that could
          // enter under the current threshold; only they are re-checked (the threshold tightens
          // as they merge) and materialized.
          // Chunks of the batch each see the threshold the previous ones tightened: right after
          // the first `keep` rows (a morsel's start) most rows beat it, so chunks start small
          // and double.
          const d = v.data;
          const mem = wasmMemory();
          const inWasm = d.buffer === mem.buffer;
          if (!scratch && !noScratch) {
            try {
              scratch = new Scratch();
              selPtr = scratch.alloc(CHUNK * 4);
              copyPtr = scratch.alloc(CHUNK * 8);
            } catch (err) {
              if (!(err instanceof FastPathUnavailable)) throw err;
              // WASM memory full: the same test in JavaScript.
              scratch?.release();
              scratch = undefined;
              noScratch = true;
            }
          }
          for (let from = i; from < rows; from += chunk, chunk = Math.min(CHUNK, chunk * 2)) {
            const to = Math.min(rows, from + chunk);
            let count: number, sel: Int32Array;
            if (scratch) {
              let data = d.byteOffset + from * 8;
              if (!inWasm) {
                mem.f64(copyPtr, to - from).set(d.subarray(from, to));
                data = copyPtr;
              }
              const args = { data, rowCount: to - from, threshold: limit!, desc: sign < 0, out: selPtr };
              count = kernels().topNCandidates(args);
              sel = mem.i32(selPtr, count);
            } else {
              if (jsSel.length < CHUNK) jsSel = new Int32Array(CHUNK);
              sel = jsSel;
              count = candidatesF64(d, from, to, limit!, sign < 0, sel);
            }
            for (let j = 0; j < count; j++) {
              const at = from + sel[j];
              const r = rank!(at), t = limit!;
              if (sign > 0 ? r > t : r < t) continue;
              if (r === thresholdRank && kept.length === keep && !beforeWorst(b, at)) continue;
              candidates.push(rowOf(b, at));
              if (candidates.length >= mergeEvery) merge();
            }
          }
          break;
        }
        if (lim !== undefined) {
          // Skip a row whose first key is strictly worse than the worst kept row's (or the floor).
          const r = rank!(i);
          if (sign > 0 ? r > lim : r < lim) continue;
          if (r === thresholdRank && kept.length === keep && !beforeWorst(b, i)) continue;
        } else if (kept.length === keep) {
          const c = compareValues(readValue(v, i), thresholdValue, first.type);
          if (sign * c > 0) continue;
          if (c === 0 && !beforeWorst(b, i)) continue;
        }
        candidates.push(rowOf(b, i));
        if (candidates.length >= mergeEvery || kept.length + candidates.length === keep) merge();
      }
    }
  } finally {
    scratch?.release();
  }
  merge();
  yield* rowsToBatches(n.columns.map((c) => c.type), kept);
}

/**
 * The `topNCandidates` kernel's test in JavaScript, for when WASM memory has no room for its
 * scratch: rows of d[from, to) ranked at least (desc) or at most `t`, NULL ranking +Infinity;
 * entries are relative to `from`.
 */
function candidatesF64(
  d: Float64Array,
  from: number,
  to: number,
  t: number,
  desc: boolean,
  sel: Int32Array,
): number {
  let c = 0;
  for (let i = from; i < to; i++) {
    const r = rankF64(d[i]);
    if (desc ? r >= t : r <= t) sel[c++] = i - from;
  }
  return c;
}
