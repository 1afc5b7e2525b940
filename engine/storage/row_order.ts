/**
 * Row orders for writes: sorting a batch by the designated timestamp, merging it into a
 * partition's rows, and DEDUP UPSERT KEYS (spec/sql.md §5.1, §6.1).
 *
 * An order is an Int32Array of row picks; in merges a non-negative entry is an existing row
 * and a negative entry `~b` is batch row `b` (see `gatherFixed`). Timestamps are compared as
 * (high int32, low uint32) pairs read through views of the BigInt64Array, which avoids
 * allocating a BigInt per comparison.
 */

/** Int32 views of the halves of little-endian int64 timestamps. */
class TsHalves {
  readonly hi: Int32Array;
  readonly lo: Uint32Array;
  constructor(ts: BigInt64Array) {
    this.hi = new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2);
    this.lo = new Uint32Array(ts.buffer, ts.byteOffset, ts.length * 2);
  }
}

/**
 * QuestDB's order of equal timestamps in an out-of-order batch (one transaction): rows are
 * appended in place while they ascend from the table's last timestamp; from the first row
 * that goes back in time every row goes to an out-of-order buffer, and at commit the
 * in-place rows of the last partition written (uncommitted, so QuestDB moves them) are put
 * after that buffer, which is then sorted stably. Equal timestamps therefore come: in-place
 * rows of earlier partitions (merged as existing rows, first), the out-of-order rows, then
 * the moved rows (AsOfJoinTest#testAsOfJoinOnTripleSymbolKey). Returns per-row ranks for
 * `sortOrder`, or null when the batch needs no such ranks (ascending, or out of order from
 * its first row). `partitionHi(t)` is the exclusive end of t's partition.
 */
export function outOfOrderTieRanks(
  ts: BigInt64Array,
  tableMaxTs: bigint | null,
  partitionHi: (t: bigint) => bigint,
): Uint8Array | null {
  let max = tableMaxTs;
  let first = 0;
  for (; first < ts.length; first++) {
    if (max !== null && ts[first] < max) break;
    max = ts[first];
  }
  if (first === 0 || first === ts.length) return null;
  const ranks = new Uint8Array(ts.length).fill(1);
  const lastHi = partitionHi(ts[first - 1]);
  for (let i = 0; i < first; i++) ranks[i] = partitionHi(ts[i]) === lastHi ? 2 : 0;
  return ranks;
}

/**
 * The stable ascending order of `ts`, or null when it is already ascending; equal timestamps
 * follow `ranks` (outOfOrderTieRanks) before their position when given.
 */
export function sortOrder(ts: BigInt64Array, ranks: Uint8Array | null = null): Int32Array | null {
  const { hi, lo } = new TsHalves(ts);
  let sorted = true;
  for (let i = 1; i < ts.length; i++) {
    const c = hi[2 * i + 1] - hi[2 * i - 1] || lo[2 * i] - lo[2 * i - 2];
    if (c < 0) {
      sorted = false;
      break;
    }
  }
  if (sorted) return null;
  const order = new Int32Array(ts.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  // Ties broken by position keep insertion order whatever the engine's sort stability.
  if (ranks) {
    return order.sort((a, b) =>
      hi[2 * a + 1] - hi[2 * b + 1] || lo[2 * a] - lo[2 * b] || ranks[a] - ranks[b] || a - b
    );
  }
  return order.sort((a, b) => hi[2 * a + 1] - hi[2 * b + 1] || lo[2 * a] - lo[2 * b] || a - b);
}

/** Rows sorted per run by `sortOrderPaced` before runs are merged. */
const SORT_RUN_ROWS = 65_536;

/**
 * `sortOrder` for a large batch with a call of `turn` between pieces of the work: runs of
 * SORT_RUN_ROWS rows are sorted, then merged pairwise, each pass a few ms per run (a million
 * out-of-order rows sorted in one piece held the event loop ~300 ms: issue #17). The same
 * order: ties are broken by position in both.
 */
export async function sortOrderPaced(
  ts: BigInt64Array,
  turn: () => Promise<void>,
  ranks: Uint8Array | null = null,
): Promise<Int32Array | null> {
  const n = ts.length;
  if (n <= SORT_RUN_ROWS) return sortOrder(ts, ranks);
  const { hi, lo } = new TsHalves(ts);
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    sorted = (hi[2 * i + 1] - hi[2 * i - 1] || lo[2 * i] - lo[2 * i - 2]) >= 0;
  }
  if (sorted) return null;
  const before = (a: number, b: number) =>
    (hi[2 * a + 1] - hi[2 * b + 1] || lo[2 * a] - lo[2 * b] || (ranks ? ranks[a] - ranks[b] : 0) ||
      a - b) < 0;
  let from: Int32Array = identityOrder(n), into: Int32Array = new Int32Array(n);
  for (let r = 0; r < n; r += SORT_RUN_ROWS) {
    from.subarray(r, Math.min(n, r + SORT_RUN_ROWS)).sort((a, b) => (before(a, b) ? -1 : 1));
    await turn();
  }
  for (let width = SORT_RUN_ROWS; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const mid = Math.min(left + width, n), end = Math.min(left + 2 * width, n);
      let i = left, j = mid, k = left;
      while (i < mid && j < end) {
        into[k++] = before(from[j], from[i]) ? from[j++] : from[i++];
        if ((k & (SORT_RUN_ROWS - 1)) === 0) await turn();
      }
      while (i < mid) into[k++] = from[i++];
      while (j < end) into[k++] = from[j++];
    }
    [from, into] = [into, from];
    await turn();
  }
  return from;
}

/** The identity order 0..n-1. */
export function identityOrder(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/**
 * In-batch dedup over a sorted order: among rows with equal timestamps and equal `keyOf`, the
 * later row's values take the earlier row's slot and the later slot disappears (last write
 * wins, §6.1). Returns the order unchanged when nothing was deduplicated.
 */
export function dedupSorted(
  order: Int32Array,
  ts: BigInt64Array,
  keyOf: (row: number) => string,
): Int32Array {
  return dedupRuns(order, ts, keyOf, (out, slot, row) => {
    out[slot] = row;
  });
}

/**
 * In-batch dedup for INSERT ... ON CONFLICT: like `dedupSorted`, but the first row of equal
 * keys keeps its slot and its values; each later duplicate is reported to `onDuplicate` with
 * the row it conflicts with (in batch order), so DO NOTHING can drop it and DO UPDATE can
 * carry its SET columns over to the kept row.
 */
export function dedupSortedFirst(
  order: Int32Array,
  ts: BigInt64Array,
  keyOf: (row: number) => string,
  onDuplicate: (kept: number, duplicate: number) => void,
): Int32Array {
  return dedupRuns(order, ts, keyOf, (out, slot, row) => onDuplicate(out[slot], row));
}

/**
 * The shared walk of both dedups: runs of equal timestamps are keyed; the first row of a key
 * takes the next output slot and every later row of that key goes to `duplicate` with that
 * slot (which still holds the row put there last).
 */
function dedupRuns(
  order: Int32Array,
  ts: BigInt64Array,
  keyOf: (row: number) => string,
  duplicate: (out: Int32Array, slot: number, row: number) => void,
): Int32Array {
  const out = new Int32Array(order.length);
  let n = 0;
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && ts[order[j]] === ts[order[i]]) j++;
    if (j - i === 1) {
      out[n++] = order[i];
    } else {
      const seen = new Map<string, number>();
      for (let k = i; k < j; k++) {
        const key = keyOf(order[k]);
        const slot = seen.get(key);
        if (slot === undefined) {
          seen.set(key, n);
          out[n++] = order[k];
        } else {
          duplicate(out, slot, order[k]);
        }
      }
    }
    i = j;
  }
  return n === order.length ? order : out.slice(0, n);
}

/**
 * Matches batch rows against existing rows with equal timestamps and keys (DEDUP UPSERT
 * KEYS): returns, for each existing row, the batch row replacing it (or -1), and the batch
 * rows left to insert. `rows` is sorted by timestamp and already deduplicated in itself.
 * Existing rows may repeat a key (rows written before the keys changed): as in QuestDB, the
 * batch row replaces each of them.
 */
export function matchExisting(
  existingTs: BigInt64Array,
  batchTs: BigInt64Array,
  rows: Int32Array,
  existingKeyOf: (row: number) => string,
  batchKeyOf: (row: number) => string,
): { replaced: Int32Array; remaining: Int32Array } {
  const replaced = new Int32Array(existingTs.length).fill(-1);
  const remaining: number[] = [];
  let e = 0;
  for (let k = 0; k < rows.length; k++) {
    const b = rows[k];
    const t = batchTs[b];
    while (e < existingTs.length && existingTs[e] < t) e++;
    let hit = false;
    if (e < existingTs.length && existingTs[e] === t) {
      const key = batchKeyOf(b);
      for (let x = e; x < existingTs.length && existingTs[x] === t; x++) {
        if (existingKeyOf(x) === key) {
          replaced[x] = b;
          hit = true;
        }
      }
    }
    if (!hit) remaining.push(b);
  }
  return { replaced, remaining: Int32Array.from(remaining) };
}

/**
 * Merges existing rows (sorted) with batch rows `rows` (sorted): existing rows come first on
 * equal timestamps, so new rows land after old ones (§5.1 "ties keep insertion order").
 * `replaced[e] >= 0` makes existing slot `e` take that batch row instead.
 */
export async function mergeOrder(
  existingTs: BigInt64Array,
  batchTs: BigInt64Array,
  rows: Int32Array,
  replaced?: Int32Array,
  turn: () => Promise<void> = () => Promise.resolve(),
): Promise<Int32Array> {
  const a = new TsHalves(existingTs), b = new TsHalves(batchTs);
  const out = new Int32Array(existingTs.length + rows.length);
  let e = 0, k = 0, n = 0;
  while (e < existingTs.length || k < rows.length) {
    // Millions of rows take tens of ms: a turn (when due) every SORT_RUN_ROWS picks.
    if ((n & (SORT_RUN_ROWS - 1)) === SORT_RUN_ROWS - 1) await turn();
    let takeExisting = k >= rows.length;
    if (!takeExisting && e < existingTs.length) {
      const r = rows[k];
      const c = a.hi[2 * e + 1] - b.hi[2 * r + 1] || a.lo[2 * e] - b.lo[2 * r];
      takeExisting = c <= 0;
    }
    if (takeExisting) {
      const rep = replaced ? replaced[e] : -1;
      out[n++] = rep >= 0 ? ~rep : e;
      e++;
    } else {
      out[n++] = ~rows[k++];
    }
  }
  return out;
}
