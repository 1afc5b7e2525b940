/**
 * LATEST ON over any input (a subquery, a function table, a scan not on its designated
 * timestamp), batch at a time (issue #16): the input is read forward once and the row with the
 * greatest timestamp per key is kept, the last one read on ties, as the row-at-a-time
 * reference (latest_by.ts) does.
 *
 * Per batch: each key becomes a vector of dense value ids (key_ids.ts) and several keys fold
 * into one group id per row (IntPairHash); one loop over the timestamp's int32 words compares
 * each row with its group's best so far (no bigint per row) and notes the batch's winning row
 * per group; the winners' cells are then copied into a columnar store that holds one row per
 * group, overwritten in place when a later batch beats it. At the end the groups are ordered by
 * (timestamp, input position) and gathered from the store a batch at a time.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { ColumnType } from "../base/types.ts";
import {
  allocVectorData,
  type Batch,
  readValue,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import { charge, checkCancelled, type ExecContext, pace, paceDue, rowBytes } from "./exec_context.ts";
import { sortPaced } from "./paced_sort.ts";
import { vectorOf } from "./vector/hash_aggregate.ts";
import { IntPairHash } from "./vector/int_hash.ts";
import { KeyIds } from "./vector/key_ids.ts";

type LatestNode = Extract<PlanNode, { kind: "latestBy" }>;

const NULL_HI = -2147483648;
/** Bytes a key costs in the id tables and the per-group arrays, per key, beyond its row. */
const GROUP_BYTES = 64;

/** One output column of the store: a row per group, in the column type's own array. */
class StoreColumn {
  data: VectorData;
  #words?: Int32Array;

  constructor(readonly type: ColumnType, capacity: number) {
    this.data = allocVectorData(type, capacity);
  }

  grow(capacity: number): void {
    const old = this.data;
    this.data = allocVectorData(this.type, capacity);
    if (Array.isArray(old)) {
      for (let i = 0; i < old.length; i++) (this.data as Value[])[i] = old[i];
    } else (this.data as Int32Array).set(old as Int32Array);
    this.#words = undefined;
  }

  /** Copies row rows[j] of `v` to store row slots[j], for j < n. */
  copy(v: Vector, rows: Int32Array, slots: Int32Array, n: number): void {
    const src = v.data, dst = this.data;
    if (this.type.tag === "SYMBOL" && v.dict && src instanceof Int32Array) {
      // SYMBOLs are held as their texts: batches may come with different dictionaries.
      const dict = v.dict, out = dst as Value[];
      for (let j = 0; j < n; j++) {
        const k = src[rows[j]];
        out[slots[j]] = k < 0 ? null : dict.valueOf(k);
      }
      return;
    }
    if (src instanceof BigInt64Array && dst instanceof BigInt64Array) {
      const s = new Int32Array(src.buffer, src.byteOffset, src.length * 2);
      const d = this.#words ??= new Int32Array(dst.buffer);
      for (let j = 0; j < n; j++) {
        d[2 * slots[j]] = s[2 * rows[j]];
        d[2 * slots[j] + 1] = s[2 * rows[j] + 1];
      }
      return;
    }
    if (
      !Array.isArray(src) && !Array.isArray(dst) && src.constructor === dst.constructor &&
      this.type.tag !== "SYMBOL"
    ) {
      const s = src as Int32Array, d = dst as Int32Array;
      for (let j = 0; j < n; j++) d[slots[j]] = s[rows[j]];
      return;
    }
    for (let j = 0; j < n; j++) writeValue(this.type, dst, slots[j], readValue(v, rows[j]));
  }
}

/** The timestamp's words of a batch: a view of a LONG-like column, else its values converted. */
function timestampWords(b: Batch, tsIndex: number): Int32Array {
  const d = b.columns[tsIndex].data;
  if (d instanceof BigInt64Array) return new Int32Array(d.buffer, d.byteOffset, b.rowCount * 2);
  const out = new BigInt64Array(b.rowCount);
  for (let i = 0; i < b.rowCount; i++) {
    const x = readValue(b.columns[tsIndex], i);
    out[i] = x === null ? -(2n ** 63n) : BigInt(x as number | bigint);
  }
  return new Int32Array(out.buffer);
}

/** `a` widened to `to` entries, the new ones `fill`. */
function widenInts(a: Int32Array, to: number, fill: number): Int32Array {
  const grown = new Int32Array(to);
  grown.set(a);
  grown.fill(fill, a.length);
  return grown;
}

export async function* latestForward(
  n: LatestNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const keyVectors = n.keys.map((k) => vectorOf(k, ctx));
  const keyIds = n.keys.map(() => new KeyIds());
  const folds = n.keys.slice(1).map(() => new IntPairHash());
  const types = n.columns.map((c) => c.type);
  const unused = new Set(n.unused ?? []);
  let capacity = 1024;
  const store = types.map((t) => new StoreColumn(t, capacity));
  // Per group: best timestamp words, input position of its row, store row (-1: none yet), and
  // the batch's winning row with the batch that last touched it.
  let bestHi: Int32Array = new Int32Array(capacity).fill(NULL_HI);
  let bestLo: Int32Array = new Int32Array(capacity);
  let seqOf = new Float64Array(capacity), slot: Int32Array = new Int32Array(capacity).fill(-1);
  let winRow: Int32Array = new Int32Array(capacity), stamp: Int32Array = new Int32Array(capacity).fill(-1);
  let groups = 0, stored = 0, seq = 0, batchNo = 0;
  let perKey: Int32Array[] = [], tmp: Int32Array = new Int32Array(0), gids: Int32Array = new Int32Array(0);
  const noTs = new Int32Array(0);
  const touched = new Int32Array(BATCH_ROWS_MAX), rowsOut = new Int32Array(BATCH_ROWS_MAX);
  const slotsOut = new Int32Array(BATCH_ROWS_MAX);
  for await (const b of input) {
    checkCancelled(ctx);
    const rows = b.rowCount;
    if (rows === 0) continue;
    if (paceDue(ctx)) await pace(ctx);
    if (gids.length < rows) {
      gids = new Int32Array(rows);
      tmp = new Int32Array(rows);
      perKey = n.keys.map(() => new Int32Array(rows));
    }
    // Group ids of the batch's rows (ids first appear in increasing order).
    let cur = gids, size = 1;
    if (n.keys.length === 1) {
      keyIds[0].map(keyVectors[0](b), rows, gids);
      size = keyIds[0].size;
    } else if (n.keys.length > 1) {
      keyIds[0].map(keyVectors[0](b), rows, perKey[0]);
      cur = perKey[0];
      for (let k = 1; k < n.keys.length; k++) {
        keyIds[k].map(keyVectors[k](b), rows, perKey[k]);
        const out = k === n.keys.length - 1 ? gids : (k % 2 ? tmp : perKey[0]);
        folds[k - 1].mapBatch(cur, perKey[k], rows, out);
        cur = out;
      }
      size = folds[n.keys.length - 2].size;
    } else gids.fill(0, 0, rows);
    if (size > capacity) {
      let to = capacity;
      while (to < size) to *= 2;
      bestHi = widenInts(bestHi, to, NULL_HI);
      bestLo = widenInts(bestLo, to, 0);
      const seqs = new Float64Array(to);
      seqs.set(seqOf);
      seqOf = seqs;
      slot = widenInts(slot, to, -1);
      winRow = widenInts(winRow, to, 0);
      stamp = widenInts(stamp, to, -1);
      for (const c of store) c.grow(to);
      capacity = to;
    }
    if (size > groups) {
      charge(ctx, (size - groups) * GROUP_BYTES * Math.max(1, n.keys.length));
      groups = size;
    }
    // Without a timestamp every row is newer than the ones before it: words stay (0, 0).
    const w = n.tsIndex >= 0 ? timestampWords(b, n.tsIndex) : noTs;
    const hasTs = n.tsIndex >= 0;
    let count = 0;
    batchNo++;
    for (let i = 0; i < rows; i++) {
      const hi = hasTs ? w[2 * i + 1] : 0, lo = hasTs ? w[2 * i] : 0;
      if (hasTs && hi === NULL_HI && lo === 0) continue; // a NULL timestamp: never latest
      const g = cur[i], bh = bestHi[g];
      // Newer, or as new and read later (the last row read wins ties). A new group's best is
      // (INT_MIN, 0), the NULL timestamp, which every other timestamp passes.
      if (hi > bh || (hi === bh && lo >>> 0 >= bestLo[g] >>> 0)) {
        bestHi[g] = hi;
        bestLo[g] = lo;
        winRow[g] = i;
        if (stamp[g] !== batchNo) {
          stamp[g] = batchNo;
          touched[count++] = g;
        }
      }
    }
    let added = 0;
    for (let j = 0; j < count; j++) {
      const g = touched[j];
      if (slot[g] < 0) {
        slot[g] = stored++;
        added++;
      }
      seqOf[g] = seq + winRow[g];
      rowsOut[j] = winRow[g];
      slotsOut[j] = slot[g];
    }
    for (let c = 0; c < store.length; c++) {
      // Columns nothing above reads stay NULL (plan_node.ts `unused`).
      if (!unused.has(c)) store[c].copy(b.columns[c], rowsOut, slotsOut, count);
    }
    // A row per key is held until the end: distinct keys are what LATEST ON holds.
    if (added) charge(ctx, rowBytes(added, n.columns.length));
    seq += rows;
  }
  // Groups with a row, by (timestamp, input position); with keyOrder by group id, the order the
  // keys first appeared in.
  const live: number[] = [];
  for (let g = 0; g < groups; g++) if (slot[g] >= 0) live.push(g);
  const order = n.keyOrder !== undefined ? live : await sortPaced(live, (a, b) => {
    if (bestHi[a] !== bestHi[b]) return bestHi[a] < bestHi[b] ? -1 : 1;
    const la = bestLo[a] >>> 0, lb = bestLo[b] >>> 0;
    return la !== lb ? (la < lb ? -1 : 1) : seqOf[a] - seqOf[b];
  }, ctx);
  const post = n.post ? compilePredicate(n.post, ctx) : undefined;
  const all: Batch = { rowCount: stored, columns: store.map((c) => ({ type: c.type, data: c.data })) };
  const sel = new Int32Array(BATCH_ROWS_MAX);
  for (let at = 0; at < order.length; at += BATCH_ROWS_MAX) {
    if (paceDue(ctx)) await pace(ctx);
    checkCancelled(ctx);
    const m = Math.min(BATCH_ROWS_MAX, order.length - at);
    for (let j = 0; j < m; j++) sel[j] = slot[order[at + j]];
    const out = gather(all, sel, m);
    if (!post) {
      yield out;
      continue;
    }
    const keep: number[] = [];
    for (let i = 0; i < out.rowCount; i++) if (post(out, i)) keep.push(i);
    if (keep.length) yield gather(out, keep);
  }
}
