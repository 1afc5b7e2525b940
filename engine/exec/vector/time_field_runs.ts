/**
 * INT fields of an ascending TIMESTAMP column (`hour(ts)`, `day_of_week(ts)`, `year(ts)` of a
 * table's designated timestamp, issue #16): the field is constant over a unit of time (an hour
 * within its day, a day), and rows of ascending times come in runs of one unit, so each run is
 * found by a galloping search for the first row past its unit and filled with one value. At
 * 10M rows over a month an hour holds ~14,000 rows: the generated loop's per-row conversion
 * and range test (~5 ns a row) become a few comparisons per run.
 *
 * Only vectors marked `ascending` (values never decrease: a partition's designated timestamp
 * as the snapshot reads it, kept by forward scans and by filters' gathers) take this path;
 * every other batch runs the generated loop (batch_expr.ts). Values come from batch_time.ts
 * `fieldFn`, the per-row form the generated loop is tested against.
 */
import type { Batch, Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { DAY_MICROS, dayOf, fieldFn, inlineField } from "./batch_time.ts";

/** Batches filled by runs (tests: which path answered). */
export const timeFieldRunCounters = { batches: 0 };

/** 2^53 / 2^32: a high word at or past this gives times the doubles below cannot hold exactly. */
const HIGH_LIMIT = 2 ** 21;

/**
 * For `field(column)` of a TIMESTAMP column giving INT: fills `out` from the column's vector
 * when it is marked ascending and answers true; false leaves the batch to the caller.
 */
export function timeFieldRuns(e: BoundExpr): ((b: Batch, out: Int32Array) => boolean) | undefined {
  if (e.kind !== "call" || e.args.length !== 1 || e.type.tag !== "INT") return undefined;
  const arg = e.args[0];
  if (arg.kind !== "column" || arg.type.tag !== "TIMESTAMP") return undefined;
  const field = inlineField(e.name);
  const value = fieldFn(e.name);
  if (!field || !value) return undefined;
  // The unit a value holds over: a stretch of its day for time-of-day fields, else the day.
  const unit = field.kind === "tod" ? field.unit : DAY_MICROS;
  const col = arg.index;
  return (b, out) => {
    const v: Vector | undefined = b.columns[col];
    if (!v?.ascending || !(v.data instanceof BigInt64Array)) return false;
    const n = b.rowCount;
    if (n === 0) return true;
    const w = new Int32Array(v.data.buffer, v.data.byteOffset, n * 2);
    // Ascending: within range at both ends means within range everywhere (a designated
    // timestamp is never NULL, whose bits are the smallest LONG).
    const first = w[1], last = w[2 * n - 1];
    if (first >= HIGH_LIMIT || first < -HIGH_LIMIT || last >= HIGH_LIMIT || last < -HIGH_LIMIT) return false;
    const at = (i: number) => w[2 * i + 1] * 4294967296 + (w[2 * i] >>> 0);
    let i = 0, runs = 0;
    while (i < n) {
      // Sparse rows (a run or two per unit): the generated loop is cheaper than searching.
      if (++runs > 64 && runs * 16 > i) return false;
      const t = at(i);
      const dayStart = dayOf(t) * DAY_MICROS;
      const end = dayStart + (Math.floor((t - dayStart) / unit) + 1) * unit;
      // Gallop to a row at or past `end`, then bisect: the first such row is the run's end.
      let lo = i, step = 1, hi = i + 1;
      while (hi < n && at(hi) < end) {
        lo = hi;
        step *= 2;
        hi = Math.min(n, hi + step);
      }
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (at(mid) < end) lo = mid;
        else hi = mid;
      }
      out.fill(value(t), i, hi);
      i = hi;
    }
    timeFieldRunCounters.batches++;
    return true;
  };
}
