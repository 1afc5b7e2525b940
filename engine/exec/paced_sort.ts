/**
 * A stable sort that keeps the event loop turning (issue #24): `Array.prototype.sort` over a
 * million rows with a comparator is one synchronous call of seconds, during which no other
 * client is served and neither a cancel nor the statement timeout can fire. Runs of RUN items
 * are sorted with the built-in sort (stable, ~1-2 ms each), then merged pairwise; the merge
 * checks the deadline and yields every PACE_ROWS outputs when the time slice is used up.
 */
import { type ExecContext, pace, PACE_MASK, paceDue } from "./exec_context.ts";

/** Items sorted by one built-in call between turns. */
const RUN = 8192;

/** Sorts `items` stably by `cmp`; the result may be `items` itself or a new array. */
export async function sortPaced<T>(items: T[], cmp: (a: T, b: T) => number, ctx: ExecContext): Promise<T[]> {
  const n = items.length;
  if (n <= RUN) return items.sort(cmp);
  for (let from = 0; from < n; from += RUN) {
    if (paceDue(ctx)) await pace(ctx);
    const run = items.slice(from, Math.min(n, from + RUN)).sort(cmp);
    for (let i = 0; i < run.length; i++) items[from + i] = run[i];
  }
  let src = items, dst = new Array<T>(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width), hi = Math.min(n, lo + 2 * width);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if ((k & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
        // The right run's item goes first only when strictly smaller: ties keep input order.
        dst[k++] = cmp(src[j], src[i]) < 0 ? src[j++] : src[i++];
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    [src, dst] = [dst, src];
  }
  return src;
}
