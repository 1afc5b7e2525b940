/**
 * The downsampling window functions `minmax(ts, value, target)` and `m4(ts, value, target)`
 * OVER (ORDER BY ...): TRUE on the rows the downsampling to `target` points keeps, FALSE
 * elsewhere (QuestDB's MinMaxAlgorithm / M4Algorithm, MinMaxWindowFunctionTest,
 * M4WindowFunctionTest).
 *
 * Rows with a NULL timestamp or a NULL/NaN value take no part and are never kept. When at most
 * `target` rows remain, all of them are kept. Otherwise the time range from the first to the
 * last remaining row is cut into equal buckets (target / 2 for minmax, target / 4 for m4; the
 * last one open-ended, bounds truncated to whole ticks), and each non-empty bucket keeps its
 * first minimum and first maximum (m4: also its first and last row); the kept rows are capped
 * at `target`.
 */
import type { Value } from "../base/values.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import type { PartitionInput } from "./window_functions.ts";

export function bucketSelectPartition(w: WindowCall, rows: number[], p: PartitionInput): void {
  const [tss, vals] = p.args;
  const target = Number((w.args[2] as { value: Value }).value);
  const ts: number[] = [], vs: number[] = [], at: number[] = [];
  for (const r of rows) {
    p.out[r] = false;
    const t = tss[r], v = vals[r];
    if (t === null || v === null) continue;
    const d = Number(v);
    if (Number.isNaN(d)) continue;
    ts.push(Number(t));
    vs.push(d);
    at.push(r);
  }
  const kept = at.length <= target ? ts.map((_, i) => i) : select(w.name === "m4", ts, vs, target);
  for (const i of kept) p.out[at[i]] = true;
}

/** Indexes (in time order) of the rows each bucket keeps. */
function select(m4: boolean, ts: number[], vs: number[], target: number): number[] {
  const n = ts.length;
  const buckets = Math.max(1, Math.floor(target / (m4 ? 4 : 2)));
  const lo = ts[0], hi = ts[n - 1];
  if (lo === hi) return ts.slice(0, Math.min(n, target)).map((_, i) => i);
  const width = (hi - lo) / buckets;
  const out: number[] = [];
  let i = 0;
  for (let b = 0; b < buckets; b++) {
    const start = Math.trunc(lo + b * width);
    const last = b === buckets - 1;
    const end = Math.trunc(lo + (b + 1) * width);
    let first = -1, final = -1, minAt = -1, maxAt = -1;
    for (; i < n && (last || ts[i] < end); i++) {
      if (ts[i] < start) continue;
      if (first < 0) [first, minAt, maxAt] = [i, i, i];
      final = i;
      if (vs[i] < vs[minAt]) minAt = i;
      if (vs[i] > vs[maxAt]) maxAt = i;
    }
    if (first < 0) continue;
    const picks = m4 ? [first, minAt, maxAt, final] : [minAt, maxAt];
    for (const k of [...new Set(picks)].sort((a, b) => a - b)) out.push(k);
  }
  return out.slice(0, target);
}
