/**
 * A plan-time estimate of how many groups a parallel hash aggregation or DISTINCT finds in one
 * morsel (issue #16), so the plan itself keeps shapes with about a group per row on the main
 * thread. Each worker's partial of such a shape holds nearly a group per row, and merging the
 * partials costs the main thread about what grouping the rows there costs, on top of the
 * workers' work: GROUP BY qty, symbol over 10M trades (~860K groups) ran 5.7 s on the workers
 * with a hand-back against 1.1 s on the main thread. Before this estimate the pool found out at
 * run time and handed the job back, which EXPLAIN did not show.
 *
 * The estimate: when every key has a small known domain (SYMBOL dictionaries, BOOLEAN, BYTE,
 * SHORT, hour(ts) and the like: dense_groups.ts `denseKeyOf`) the product of the domains; else
 * the distinct key tuples among sampled rows that pass the WHERE (four contiguous slices of 16K
 * rows spread over the scanned partitions, as morsels are contiguous), extrapolated to a
 * morsel's rows from how the count grows within the slices (`extrapolate`). A uniform model
 * (D (1 - e^(-s/D)) distinct in s rows) was tried first: the trades' qty is skewed, and 16K
 * rows of it looked like a 45K domain where a morsel holds 135K (qty, symbol) groups.
 * Samples are memoized per committed table state and shape.
 */
import { keyText } from "../../base/key_text.ts";
import type { Batch, Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { forEachPlanNode, type PlanNode } from "../../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../../storage/api.ts";
import { gather } from "../batch_util.ts";
import { batchSelect } from "./batch_eval.ts";
import { denseKeyOf } from "./dense_groups.ts";
import { shippedExecContext } from "./expr_ship.ts";
import { vectorOf } from "./hash_aggregate.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";

type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** What the estimate reads of a parallel shape (hash_parallel.ts). */
export interface EstimateShape {
  scan: ScanNode;
  filters: BoundExpr[];
  keys: BoundExpr[];
  aggs: { fn: string; arg?: BoundExpr }[];
}

/**
 * `share`: groups per morsel row beyond which a shape stays on the main thread, the share at
 * which the pool used to hand a job back at run time (merging a partial of more groups than
 * this cost the main thread about as much as grouping its rows). Tests that check the workers'
 * answers over small tables, where most keys have about a group per row, set it to Infinity.
 */
export const groupEstimate = { share: 0.25 };

/** Rows of one sampled slice, and slices per sample. */
const SLICE_ROWS = 16384;
const SLICES = 4;

/** Memoized samples: per committed table state (its partition list), per shape text. */
const samples = new WeakMap<readonly unknown[], Map<string, Sample>>();

/** Per slice (averages): rows read, rows kept and distinct tuples at its three nested marks. */
interface Sample {
  rows: number;
  kept: number[];
  distinct: number[];
}
const SAMPLES_MAX = 256;

/** Nodes whose shape the estimate found to hold about a group per row per morsel. */
const many = new WeakSet<PlanNode>();

/** Whether the plan-time estimate keeps this node on the main thread (set by estimateGroups). */
export function manyGroupsOf(n: PlanNode): boolean {
  return many.has(n);
}

/**
 * Estimates the groups per morsel of each parallel-eligible node `shapeOf` answers for and
 * marks those with about a group per row (manyGroupsOf). Runs before the plan's parallel
 * choice (hash_parallel.ts markParallelHash); reads at most SLICES x SLICE_ROWS rows of the
 * key and filter columns per node.
 */
export async function estimateGroups(
  plan: PlanNode,
  storage: Storage,
  tuning: { rowsMin: number; morselRows: number },
  shapeOf: (n: PlanNode) => EstimateShape | undefined,
): Promise<void> {
  const nodes: PlanNode[] = [];
  forEachPlanNode(plan, (n) => {
    if (n.kind === "aggregate" || n.kind === "distinct") nodes.push(n);
  });
  for (const n of nodes) {
    const shape = shapeOf(n);
    if (!shape) continue;
    const snap = storage.table(shape.scan.table)?.snapshot();
    if (!snap) continue;
    try {
      if (await manyGroupsPerMorsel(shape, snap, tuning)) many.add(n);
    } finally {
      snap.release();
    }
  }
}

/**
 * Whether a morsel of `shape` over `snap` holds more than `groupEstimate.share` groups a row,
 * counting the (group, value) pairs of each count(DISTINCT x) too: the partials carry those.
 */
export async function manyGroupsPerMorsel(
  shape: EstimateShape,
  snap: TableSnapshot,
  tuning: { rowsMin: number; morselRows: number },
): Promise<boolean> {
  if (groupEstimate.share === Infinity) return false;
  const parts = scannedPartitions(snap, shape.scan);
  const rows = parts.reduce((s, p) => s + snap.partitions[p].rowCount, 0);
  // Tables the pool leaves to the main thread anyway are not sampled.
  if (rows === 0 || rows < tuning.rowsMin) return false;
  // Groups in a morsel of `m` rows against a full morsel's rows: a table's short last morsel
  // (or a small scan's only one) may hold all of a few hundred groups.
  const m = Math.min(tuning.morselRows, rows), limit = groupEstimate.share * tuning.morselRows;
  const tuples = [shape.keys];
  for (const a of shape.aggs) if (a.fn === "countDistinct" && a.arg) tuples.push([...shape.keys, a.arg]);
  let total = 0;
  for (const keys of tuples) {
    if (keys.length === 0) continue;
    total += await tuplesPerMorsel(shape, keys, snap, parts, m, limit);
    if (total > limit) return true;
  }
  return false;
}

/** The expected distinct tuples of `keys` in a morsel of `m` rows. */
async function tuplesPerMorsel(
  shape: EstimateShape,
  keys: BoundExpr[],
  snap: TableSnapshot,
  parts: number[],
  m: number,
  limit: number,
): Promise<number> {
  // Known small domains: no rows read.
  let domain = 1;
  for (const k of keys) {
    const d = denseKeyOf(k, (c) => snap.symbols(shape.scan.columnIndexes[c]).size);
    domain = d ? domain * d.slots : Infinity;
  }
  if (domain <= limit) return domain;
  let s;
  try {
    s = await sampleOf(shape, keys, snap, parts);
  } catch {
    // A key the main heap cannot evaluate without the statement (a bind value): no estimate.
    return 0;
  }
  if (s.rows === 0 || s.kept[2] === 0) return 0;
  return Math.min(domain, extrapolate(s.kept, s.distinct, m * (s.kept[2] / s.rows)));
}

/**
 * Distinct tuples among `to` rows, from the distinct tuples `d` among the nested first
 * `n[0] < n[1] < n[2]` rows of the sampled slices: the curve's log-log slope between the last
 * two points, falling per doubling of rows by the ratio of the last two slopes (a small domain
 * saturates: the slope drops towards 0; a key of about a value per row keeps slope 1; skewed
 * keys such as the trades' qty (~135K groups in 256K rows, ~13.6K in 16K) in between).
 */
export function extrapolate(n: number[], d: number[], to: number): number {
  if (d[2] === 0) return 0;
  if (to <= n[2]) return d[2] * to / n[2];
  // Values drawn uniformly from a domain follow its curve closely at all three points: then
  // the domain answers (the slopes' fall would overshoot its sudden saturation).
  const domain = domainOf(n[2], d[2]);
  if (domain !== Infinity && [0, 1].every((i) => Math.abs(uniform(domain, n[i]) - d[i]) <= 0.02 * d[i] + 2)) {
    return uniform(domain, to);
  }
  const slope = (a: number, b: number) =>
    n[b] > n[a] && d[a] > 0 ? Math.max(0, Math.min(1, Math.log(d[b] / d[a]) / Math.log(n[b] / n[a]))) : 0;
  const s1 = slope(0, 1), s2 = slope(1, 2);
  const decay = s1 > 0 ? Math.min(1, s2 / s1) : 0;
  let g = d[2], rows = n[2], a = s2;
  while (rows < to && a > 1e-3) {
    const step = Math.min(2, to / rows);
    a *= decay;
    g *= step ** a;
    rows *= step;
  }
  return Math.min(g, to);
}

/** Expected distinct values among `rows` uniform draws from a domain of `domain` values. */
function uniform(domain: number, rows: number): number {
  return domain * -Math.expm1(-rows / domain);
}

/** The domain D with D (1 - e^(-s/D)) = d (Infinity when nearly every sampled row is new). */
function domainOf(s: number, d: number): number {
  if (d >= s * 0.98) return Infinity;
  if (d <= 1) return d;
  // uniform() grows with the domain: bisect on a log scale.
  let lo = d, hi = d * 2;
  while (uniform(hi, s) < d) hi *= 2;
  for (let i = 0; i < 40; i++) {
    const mid = Math.sqrt(lo * hi);
    if (uniform(mid, s) < d) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Indexes of the partitions the scan reads (its intervals' partitions, non-empty). */
function scannedPartitions(snap: TableSnapshot, scan: ScanNode): number[] {
  const out: number[] = [];
  snap.partitions.forEach((p, i) => {
    if (p.rowCount === 0) return;
    if (scan.intervals && !scan.intervals.some((iv) => iv.hi >= p.minTs && iv.lo <= p.maxTs)) return;
    out.push(i);
  });
  return out;
}

/** Key tuples among sampled rows: rows read, rows the filters keep, distinct tuples of those. */
async function sampleOf(
  shape: EstimateShape,
  keys: BoundExpr[],
  snap: TableSnapshot,
  parts: number[],
): Promise<Sample> {
  const text = keyText([shape.scan.columnIndexes, shape.scan.intervals, shape.filters, keys, parts]);
  let memo = samples.get(snap.partitions);
  const hit = memo?.get(text);
  if (hit) return hit;
  const cols = new Set<number>();
  const walk = (e: unknown) => {
    if (!e || typeof e !== "object") return;
    const x = e as { kind?: string; index?: number };
    if (x.kind === "column" && typeof x.index === "number") cols.add(x.index);
    for (const v of Object.values(e)) if (v && typeof v === "object") walk(v);
  };
  [...keys, ...shape.filters].forEach(walk);
  const ctx = shippedExecContext("UTC");
  const keyOf = keys.map((k) => vectorOf(k, ctx));
  let filters: ((b: Batch, sel: Int32Array) => number)[] | undefined = [];
  for (const f of shape.filters) {
    const sel = batchSelect(f, ctx);
    if (!sel) {
      filters = undefined;
      break;
    }
    filters.push(sel);
  }
  let rows = 0;
  const kept = [0, 0, 0], distinct = [0, 0, 0];
  // Slices spread over the scanned partitions, each from the middle of its partition; in each,
  // the distinct tuples of its first quarter, half and whole (tables fresh per slice).
  const picks = new Set<number>();
  for (let i = 0; i < SLICES; i++) picks.add(parts[Math.floor((i + 0.5) * parts.length / SLICES)]);
  for (const p of picks) {
    const count = snap.partitions[p].rowCount;
    const from = Math.max(0, Math.floor(count / 2) - SLICE_ROWS / 2), to = Math.min(count, from + SLICE_ROWS);
    const columns: Vector[] = new Array(shape.scan.columns.length);
    for (const c of cols) columns[c] = await snap.read(p, shape.scan.columnIndexes[c], from, to);
    const keyIds = keys.map(() => new KeyIds());
    const folds = keys.slice(1).map(() => new IntPairHash());
    const marks = [(to - from) >> 2, (to - from) >> 1, to - from];
    let at = 0, seen = 0, stage = 0, groups = 0;
    for (const end of marks) {
      let b: Batch = { rowCount: end - at, columns: columns.map((v) => v && sliceOf(v, at, end)) };
      rows += b.rowCount;
      if (filters) {
        const sel = new Int32Array(b.rowCount);
        for (const f of filters) {
          const n = f(b, sel);
          b = n === b.rowCount ? b : gather(b, sel, n);
          if (n === 0) break;
        }
      }
      seen += b.rowCount;
      if (b.rowCount) groups = fold(b, keyOf, keyIds, folds);
      kept[stage] += seen;
      distinct[stage] += groups;
      at = end;
      stage++;
    }
  }
  // Per slice: the curve of one contiguous stretch, as a morsel is.
  const slices = Math.max(1, picks.size);
  const sample = {
    kept: kept.map((k) => k / slices),
    rows: rows / slices,
    distinct: distinct.map((d) => d / slices),
  };
  if (!memo) samples.set(snap.partitions, memo = new Map());
  if (memo.size >= SAMPLES_MAX) memo.clear();
  memo.set(text, sample);
  return sample;
}

/** Rows [from, to) of a scanned vector (a view of typed data; a copy of value arrays). */
function sliceOf(v: Vector, from: number, to: number): Vector {
  const data = v.data as {
    subarray?: (a: number, b: number) => unknown;
    slice: (a: number, b: number) => unknown;
  };
  return { ...v, data: (data.subarray ? data.subarray(from, to) : data.slice(from, to)) as Vector["data"] };
}

/** Maps a batch's key tuples to ids (the tables carry over batches); answers the tuples seen. */
function fold(
  b: Batch,
  keyOf: ((b: Batch) => Vector)[],
  keyIds: KeyIds[],
  folds: IntPairHash[],
): number {
  const n = b.rowCount;
  let cur = new Int32Array(n);
  keyIds[0].map(keyOf[0](b), n, cur);
  for (let k = 1; k < keyOf.length; k++) {
    const ids = new Int32Array(n), out = new Int32Array(n);
    keyIds[k].map(keyOf[k](b), n, ids);
    folds[k - 1].mapBatch(cur, ids, n, out);
    cur = out;
  }
  return keyOf.length === 1 ? keyIds[0].size : folds[folds.length - 1].size;
}
