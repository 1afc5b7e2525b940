/**
 * Vectorized hash aggregation: GROUP BY any number of keys of any type, every aggregate, over
 * any input, batch at a time (issue #16). Per batch:
 *
 * 1. each key becomes a vector (a column as is, an expression evaluated over the batch) and
 *    then a vector of dense value ids (key_ids.ts);
 * 2. several keys fold pairwise into one group id per row through IntPairHash tables;
 * 3. each aggregate updates its per-group typed-array state in one loop over the group ids
 *    (agg_states.ts): count/sum/avg/min/max of numbers and times, count(DISTINCT x) as a
 *    second-level (group, value) hash. Other aggregates (first, stddev, string_agg, ...) and
 *    other DISTINCT aggregates keep one accumulator per group, fed row by row, but still
 *    grouped by the id vector.
 *
 * Groups come out in first-appearance order, as from the row-at-a-time reference
 * (aggregate.ts `runGenericAggregate`).
 */
import {
  allocVectorData,
  type Batch,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../../base/values.ts";
import type { ColumnType } from "../../base/types.ts";
import { gather } from "../batch_util.ts";
import { Ints } from "../key_words.ts";
import type { Accumulator } from "../../functions/registry_types.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { AggregateCall, PlanNode } from "../../plan/plan_node.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import { compileExpr, type Evaluator } from "../compile_expr.ts";
import { charge, checkCancelled, type ExecContext, pace, PACE_MASK, paceDue } from "../exec_context.ts";
import { compileVectorExpr } from "../vector_expr.ts";
import { type BatchMask, batchMask, batchVector } from "./batch_eval.ts";
import { NativeAgg } from "./agg_states.ts";
import { StatAgg } from "./stat_states.ts";
import { PickAgg } from "./pick_states.ts";
import { DoubleAgg } from "./double_states.ts";
import { CollectAgg } from "./collect_states.ts";
import { BigSumAgg } from "./big_sum_states.ts";
import { ArrayAgg } from "./array_states.ts";
import { type AggKind, aggKindOf, isDistinct } from "./agg_kind.ts";
import { DistinctRows } from "./distinct_rows.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";
import { DenseIds, denseIdsShape, denseIdsTesting } from "./dense_ids.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

/** Computes an expression over a whole batch as a vector. */
export type VectorOf = (b: Batch) => Vector;

/**
 * A batch-wide evaluator of `e`: columns pass through, expressions with a batch form run as one
 * generated loop (batch_expr.ts; its vector is reused batch to batch), the rest is evaluated
 * per row into a vector of its type.
 */
export function vectorOf(e: BoundExpr, ctx: ExecContext): VectorOf {
  if (e.kind === "column") {
    const index = e.index;
    return (b) => b.columns[index];
  }
  const batch = batchVector(e, ctx, true);
  if (batch) return batch;
  const fused = e.type.tag === "DOUBLE" ? compileVectorExpr(e) : undefined;
  if (fused) return (b) => ({ type: e.type, data: fused(b) });
  const f = compileExpr(e, ctx);
  const t = e.type;
  return (b) => {
    const data = allocVectorData(t, b.rowCount);
    for (let i = 0; i < b.rowCount; i++) writeValue(t, data, i, f(b, i));
    return { type: t, data };
  };
}

/**
 * A key column's distinct values as a vector of type `t`: a SYMBOL key of one table as its
 * codes and dictionary (`ids.symbolCodes()`, as DenseIds.keyVector gives them), anything else
 * written from the values.
 */
function keyVector(t: ColumnType, ids: KeyIds): Vector {
  const sym = t.tag === "SYMBOL" ? ids.symbolCodes() : undefined;
  if (sym) return { type: t, data: sym.codes, dict: sym.dict };
  return { type: t, data: valueVector(t, ids.values) };
}

/** The values as a vector of type `t`. */
function valueVector(t: ColumnType, values: Value[]): VectorData {
  const data = allocVectorData(t, values.length);
  for (let i = 0; i < values.length; i++) writeValue(t, data, i, values[i]);
  return data;
}

export { isDistinct };

interface AggPlan {
  native?: NativeAgg;
  arg?: VectorOf;
  /** Statistics aggregates (stddev, covar...) over typed arrays, and their arguments. */
  stat?: StatAgg;
  statArgs?: VectorOf[];
  /** first/last over vectors, and the argument. */
  pick?: PickAgg;
  /** geomean, weighted_avg, vwap, twap, ... and bool_*, arg_*, mode, approx_* (statArgs too). */
  dbl?: DoubleAgg;
  collect?: CollectAgg;
  /** sum/avg of DECIMAL, sum of LONG256 (exact bigint sums). */
  bigSum?: BigSumAgg;
  /** array_agg, asum/amin/amax/aavg. */
  array?: ArrayAgg;
  /** Accumulator fallback: one per group, argument evaluators per row. */
  accs?: Accumulator[];
  args?: Evaluator[];
  filter?: Evaluator;
  /** The FILTER clause as a batch mask, when it has a batch form. */
  filterMask?: BatchMask;
  /** DISTINCT over a plain form's state: the rows bringing a new (group, value) pair. */
  dedupe?: DistinctRows;
  dedupeArgs?: VectorOf[];
  call: AggregateCall;
}

export async function* runHashAggregate(
  n: AggregateNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const keyVectors = n.keys.map((k) => vectorOf(k, ctx));
  const keyIds = n.keys.map(() => new KeyIds());
  const folds = n.keys.slice(1).map(() => new IntPairHash());
  const aggs: AggPlan[] = n.aggs.map((call) => {
    const filterMask = call.filter ? batchMask(call.filter, ctx) : undefined;
    const filter = call.filter && !filterMask ? compileExpr(call.filter, ctx) : undefined;
    const kind = aggKindOf(call);
    const vectors = () => call.args.map((x) => vectorOf(x, ctx));
    const plan = planOf(call, kind, filter, filterMask, vectors);
    if (kind.dedupe) {
      plan.dedupe = new DistinctRows();
      // Constant arguments (a percentile, a delimiter) tell no rows apart.
      plan.dedupeArgs = call.args.filter((x, i) => i === 0 || x.kind !== "const").map((x) =>
        vectorOf(x, ctx)
      );
    }
    return plan;
  });
  function planOf(
    call: AggregateCall,
    kind: AggKind,
    filter: Evaluator | undefined,
    filterMask: BatchMask | undefined,
    vectors: () => VectorOf[],
  ): AggPlan {
    switch (kind.kind) {
      case "native": {
        const distinctIds = kind.fn === "countDistinct" ? new KeyIds() : undefined;
        return {
          call,
          filter,
          filterMask,
          native: new NativeAgg(kind.fn, call.binding.returns, distinctIds),
          arg: call.args.length ? vectorOf(call.args[0], ctx) : undefined,
        };
      }
      case "pick":
        return {
          call,
          filter,
          filterMask,
          pick: new PickAgg(kind.fn, call.binding.returns),
          arg: vectorOf(call.args[0], ctx),
        };
      case "stat":
        return { call, filter, filterMask, stat: new StatAgg(kind.fn), statArgs: vectors() };
      case "bigSum":
        return {
          call,
          filter,
          filterMask,
          bigSum: new BigSumAgg(kind.fn, call.pos),
          arg: vectorOf(call.args[0], ctx),
        };
      case "array":
        return {
          call,
          filter,
          filterMask,
          array: new ArrayAgg(kind.fn, call.name),
          arg: vectorOf(call.args[0], ctx),
        };
      case "double":
        return { call, filter, filterMask, dbl: new DoubleAgg(kind.fn), statArgs: vectors() };
      case "collect":
        return {
          call,
          filter,
          filterMask,
          collect: new CollectAgg(kind.fn, call.binding.returns, kind.percentile, kind.delimiter),
          // Constant arguments (percentile, precision) are the binding's: only the first two are read.
          statArgs: call.args.slice(0, kind.fn.startsWith("arg_") ? 2 : 1).map((x) => vectorOf(x, ctx)),
        };
    }
    return { call, filter, filterMask, accs: [], args: call.args.map((x) => compileExpr(x, ctx)) };
  }
  // Group g's key ids, one array per key (several keys); a single key's ids are its group ids.
  const groupKeyIds: Ints[] = n.keys.map(() => new Ints());
  let groups = n.keys.length === 0 ? 1 : 0;
  let ids = new Int32Array(0), gids = new Int32Array(0), fold = new Int32Array(0);
  let perKey: Int32Array[] = [];
  let mask = new Uint8Array(0), firstRows = new Uint8Array(0);
  const groupBytes = NativeAgg.GROUP_BYTES * aggs.length + 16 * n.keys.length +
    96 * aggs.filter((a) => a.accs).length + StatAgg.GROUP_BYTES * aggs.filter((a) => a.stat).length +
    PickAgg.GROUP_BYTES * aggs.filter((a) => a.pick).length +
    DoubleAgg.GROUP_BYTES * aggs.filter((a) => a.dbl).length +
    CollectAgg.GROUP_BYTES * aggs.filter((a) => a.collect).length +
    BigSumAgg.GROUP_BYTES * aggs.filter((a) => a.bigSum).length +
    ArrayAgg.GROUP_BYTES * aggs.filter((a) => a.array).length;
  for (const a of aggs) a.native?.reserve(groups);
  // Several keys with small domains: one direct table (dense_ids.ts), decided at the first
  // batch (null: the general path); the general path maps each key and folds them pairwise.
  let dense: DenseIds | null | undefined = denseIdsShape(n) ? undefined : null;
  function generalIds(vectors: Vector[], rows: number, out: Int32Array, perKey: Int32Array[]): void {
    if (ids.length < rows) {
      ids = new Int32Array(rows);
      fold = new Int32Array(rows);
    }
    keyIds[0].map(vectors[0], rows, perKey[0]);
    let cur = perKey[0];
    for (let k = 1; k < n.keys.length; k++) {
      keyIds[k].map(vectors[k], rows, perKey[k]);
      const to = k === n.keys.length - 1 ? out : (k % 2 ? fold : ids);
      folds[k - 1].mapBatch(cur, perKey[k], rows, to);
      cur = to;
    }
    groups = folds[folds.length - 1].size;
    for (let i = 0, next = groupKeyIds[0].length; i < rows && next < groups; i++) {
      if (out[i] === next) {
        for (let k = 0; k < n.keys.length; k++) groupKeyIds[k].push(perKey[k][i]);
        next++;
      }
    }
  }
  let charged = 0;
  for await (const b of input) {
    checkCancelled(ctx);
    const rows = b.rowCount;
    if (rows === 0) continue;
    if (gids.length < rows) {
      ids = new Int32Array(rows);
      gids = new Int32Array(rows);
      fold = new Int32Array(rows);
      perKey = n.keys.map(() => new Int32Array(rows));
      mask = new Uint8Array(rows);
      firstRows = new Uint8Array(rows);
    }
    if (n.keys.length === 0) {
      // gids stays all zeros: the single group.
    } else if (n.keys.length === 1) {
      keyIds[0].map(keyVectors[0](b), rows, gids);
      groups = keyIds[0].size;
    } else {
      const vectors = keyVectors.map((f) => f(b));
      if (dense === undefined) dense = DenseIds.of(n.keys, vectors) ?? null;
      if (dense && dense.map(vectors, rows, gids)) groups = dense.size;
      else {
        if (dense) {
          // A batch outside the keys' domains: the groups so far go to the general path first,
          // in id order, so that they keep their ids there.
          const replay = dense.size;
          denseIdsTesting.replays++;
          if (replay > 0) {
            const all = new Int32Array(replay);
            generalIds(
              n.keys.map((_, k) => dense!.keyVector(k)),
              replay,
              all,
              n.keys.map(() => new Int32Array(replay)),
            );
          }
          dense = null;
        }
        generalIds(vectors, rows, gids, perKey);
      }
    }
    for (const a of aggs) {
      let m: Uint8Array | undefined;
      if (a.filterMask) {
        m = mask;
        a.filterMask(b, m);
      } else if (a.filter) {
        m = mask;
        for (let i = 0; i < rows; i++) m[i] = a.filter(b, i) === true ? 1 : 0;
      }
      if (a.dedupe) {
        a.dedupe.mark(gids, rows, a.dedupeArgs!.map((f) => f(b)), m, firstRows);
        m = firstRows;
      }
      if (a.native) {
        a.native.reserve(groups);
        a.native.add(gids, rows, a.arg?.(b), m);
        continue;
      }
      if (a.pick) {
        a.pick.reserve(groups);
        a.pick.add(gids, rows, a.arg!(b), m);
        continue;
      }
      if (a.bigSum) {
        a.bigSum.reserve(groups);
        a.bigSum.add(gids, rows, a.arg!(b), m);
        continue;
      }
      if (a.array) {
        a.array.reserve(groups);
        a.array.add(gids, rows, a.arg!(b), m);
        continue;
      }
      const state = a.stat ?? a.dbl ?? a.collect;
      if (state) {
        state.reserve(groups);
        state.add(gids, rows, a.statArgs!.map((f) => f(b)), m);
        continue;
      }
      const accs = a.accs!, args = a.args!, create = a.call.binding.create;
      while (accs.length < groups) accs.push(create());
      // One argument array for every row: accumulators read it during add and keep nothing of it.
      const row: Value[] = new Array(args.length).fill(null);
      for (let i = 0; i < rows; i++) {
        // Accumulators fed row by row (string_agg, ...) can cost a while per batch.
        if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
        if (m && !m[i]) continue;
        for (let j = 0; j < args.length; j++) row[j] = args[j](b, i);
        accs[gids[i]].add(row);
      }
    }
    // Charged after the batch is added: DISTINCT aggregates' (group, value) sets grow while the
    // group count stays put (count_distinct of an unkeyed query holds every value in one group).
    const held = groups * groupBytes +
      aggs.reduce(
        (s, a) =>
          s + (a.native?.extraBytes ?? 0) + (a.collect?.extraBytes ?? 0) + (a.array?.extraBytes ?? 0) +
          (a.dedupe?.bytes ?? 0),
        0,
      );
    if (held > charged) {
      charge(ctx, held - charged);
      charged = held;
    }
  }
  for (const a of aggs) {
    if (a.native) a.native.reserve(groups);
    else if (a.stat) a.stat.reserve(groups);
    else if (a.pick) a.pick.reserve(groups);
    else if (a.dbl) a.dbl.reserve(groups);
    else if (a.collect) a.collect.reserve(groups);
    else if (a.bigSum) a.bigSum.reserve(groups);
    else if (a.array) a.array.reserve(groups);
    else while (a.accs!.length < groups) a.accs!.push(a.call.binding.create());
  }
  // Output columns written directly, batch by batch: a row array per group (330K groups of
  // GROUP BY qty, symbol) was most of the collector's work of the statement.
  const types = n.columns.map((c) => c.type);
  const nk = n.keys.length;
  const keyValues: Vector[] = [];
  for (let at = 0; at < groups; at += BATCH_ROWS_MAX) {
    const rows = Math.min(groups, at + BATCH_ROWS_MAX) - at;
    const columns: Vector[] = [];
    for (let c = 0; c < types.length; c++) {
      const t = types[c];
      if (c < nk) {
        // Each key column from its distinct values, written once per value (10,000 qty values
        // for 860K groups of GROUP BY qty, symbol), then gathered per group. A SYMBOL key of one
        // table stays its codes with the dictionary (key_ids.ts symbolCodes).
        const values = keyValues[c] ??= dense ? { ...dense.keyVector(c), type: t } : keyVector(t, keyIds[c]);
        if (nk === 1 || dense) {
          // One value per group already (a single key's ids are its groups; dense keys decode).
          columns.push({ ...values, data: values.data.slice(at, at + rows) as VectorData });
          continue;
        }
        const ofGroup = groupKeyIds[c].data.subarray(at, at + rows);
        columns.push(gather({ rowCount: values.data.length, columns: [values] }, ofGroup).columns[0]);
        continue;
      }
      const data = allocVectorData(t, rows);
      const p = aggs[c - nk];
      const fn = p.native?.fn;
      if ((fn === "count*" || fn === "count" || fn === "countDistinct") && t.tag === "LONG") {
        // Counts as the LONG's two words: a bigint per group (330K-860K of GROUP BY qty,
        // symbol) cost more than the loop.
        const words = new Int32Array((data as BigInt64Array).buffer);
        for (let i = 0; i < rows; i++) {
          const n = p.native!.countOf(at + i), hi = Math.floor(n / 4294967296);
          words[2 * i] = (n - hi * 4294967296) | 0;
          words[2 * i + 1] = hi;
        }
        columns.push({ type: t, data });
        continue;
      }
      for (let i = 0; i < rows; i++) {
        if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
        const v = p.native
          ? p.native.result(at + i)
          : p.stat
          ? p.stat.result(at + i)
          : p.pick
          ? p.pick.result(at + i)
          : p.dbl
          ? p.dbl.result(at + i)
          : p.collect
          ? p.collect.result(at + i)
          : p.bigSum
          ? p.bigSum.result(at + i)
          : p.array
          ? p.array.result(at + i)
          : p.accs![at + i].result();
        writeValue(t, data, i, v);
      }
      columns.push({ type: t, data });
    }
    yield { rowCount: rows, columns };
  }
}
