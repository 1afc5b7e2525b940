/**
 * The partitions and row order of a window specification over columnar input (issue #16),
 * shared by every call with the same PARTITION BY and ORDER BY: dense partition ids per row
 * (KeyIds; several keys combine into one id), the first ORDER BY key as an ascending Float64
 * key (NULL as -Infinity: first, as compareValues orders them; a DOUBLE/FLOAT NULL, every
 * non-finite value, as +Infinity: last, as QuestDB's RecordComparator orders NaN; DESC negated),
 * and the sequence in which to visit rows.
 *
 * When each partition already comes in ORDER BY order (a scan in designated-timestamp order)
 * the sequence is the input order itself and nothing is sorted: the window kernels keep one
 * state per partition and walk the rows once. Otherwise rows are grouped by partition (a stable
 * counting sort) and each partition out of order is sorted by (key, input position), which is
 * the row path's stable sort.
 */
import { keyText } from "../base/key_text.ts";
import type { Batch } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue } from "./exec_context.ts";
import { vectorOf } from "./vector/hash_aggregate.ts";
import { KeyIds } from "./vector/key_ids.ts";

export interface WindowLayout {
  /** Partition id of each input row (0 when there is no PARTITION BY). */
  gid: Int32Array;
  groups: number;
  /** Whether there is an ORDER BY. */
  ordered: boolean;
  /**
   * The first ORDER BY key as an ascending number per row (computed on first use: input in
   * timestamp order needs it only for ranks), or undefined when a LONG is past 2^53.
   */
  key(): Promise<Float64Array | undefined>;
  /** Rows in visiting order (partitions contiguous, each in ORDER BY order); undefined: input order. */
  seq?: Int32Array;
  /** With `seq`: partition ids and keys in visiting order (computed on first use). */
  visitGid?: Int32Array;
  visitKey?: Float64Array;
  /** Rows per partition (computed on first use). */
  counts?: Int32Array;
}

/** Partition key types whose KeyIds grouping is the row path's grouping by value. */
export const PARTITION_TAGS: ReadonlySet<string> = new Set([
  "SYMBOL",
  "STRING",
  "VARCHAR",
  "CHAR",
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
]);
/** ORDER BY types whose values are numbers the key can hold exactly. */
export const ORDER_TAGS: ReadonlySet<string> = new Set([
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "FLOAT",
  "DOUBLE",
]);

/** Whether a layout can be built for this PARTITION BY / ORDER BY (shape only). */
export function layoutFits(w: WindowCall): boolean {
  if (w.partitionBy.length > 4 || w.orderBy.length > 1) return false;
  if (!w.partitionBy.every((p) => PARTITION_TAGS.has(p.type.tag))) return false;
  if (w.orderBy.length === 0) return true;
  const e = w.orderBy[0].expr;
  // A column: a computed DOUBLE's overflow to Infinity would be a value in the row path.
  return ORDER_TAGS.has(e.type.tag) && (e.kind === "column" || !["FLOAT", "DOUBLE"].includes(e.type.tag));
}

/** Layouts of one window operator's input, by specification text. */
export class LayoutCache {
  #byKey = new Map<string, WindowLayout | null>();

  async of(
    w: WindowCall,
    batches: Batch[],
    total: number,
    ctx: ExecContext,
  ): Promise<WindowLayout | undefined> {
    const k = specKey(w);
    if (!this.#byKey.has(k)) this.#byKey.set(k, (await buildLayout(w, batches, total, ctx)) ?? null);
    return this.#byKey.get(k) ?? undefined;
  }
}

function specKey(w: WindowCall): string {
  try {
    return keyText([w.partitionBy, w.orderBy]);
  } catch {
    // An expression that does not print (a cycle): this call keeps a layout of its own.
    return `call ${++unshared}`;
  }
}

let unshared = 0;

/** Partition ids in visiting order (the layout's own when rows are visited in input order). */
export function visitOrder(l: WindowLayout): { gid: Int32Array } {
  if (!l.seq) return { gid: l.gid };
  if (!l.visitGid) {
    // The sequence holds partition 0's rows, then partition 1's...
    const counts = countsOf(l), out = new Int32Array(l.seq.length);
    for (let g = 0, at = 0; g < l.groups; at += counts[g++]) out.fill(g, at, at + counts[g]);
    l.visitGid = out;
  }
  return { gid: l.visitGid };
}

/** The ORDER BY key in visiting order (ranks compare neighbours), or undefined past 2^53. */
export async function visitKey(l: WindowLayout): Promise<Float64Array | undefined> {
  const key = await l.key();
  if (!key || !l.seq) return key;
  if (!l.visitKey) {
    const seq = l.seq, out = new Float64Array(seq.length);
    for (let i = 0; i < seq.length; i++) out[i] = key[seq[i]];
    l.visitKey = out;
  }
  return l.visitKey;
}

export function countsOf(l: WindowLayout): Int32Array {
  if (l.counts) return l.counts;
  const c = new Int32Array(l.groups);
  const gid = l.gid;
  for (let i = 0; i < gid.length; i++) c[gid[i]]++;
  return l.counts = c;
}

/**
 * Rows grouped by partition, each in ORDER BY order, and where each partition starts: the
 * layout's sorted sequence, or input order regrouped by a stable counting sort.
 */
export function groupedRows(l: WindowLayout): { seq: Int32Array; starts: Int32Array } {
  const counts = countsOf(l), groups = l.groups, gid = l.gid;
  const starts = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) starts[g + 1] = starts[g] + counts[g];
  if (l.seq) return { seq: l.seq, starts };
  const seq = new Int32Array(gid.length);
  const fill = starts.slice(0, groups);
  for (let i = 0; i < gid.length; i++) seq[fill[gid[i]]++] = i;
  return { seq, starts };
}

async function buildLayout(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<WindowLayout | undefined> {
  const { gid, groups } = await partitionIds(w.partitionBy, batches, total, ctx);
  if (w.orderBy.length === 0) return { gid, groups, ordered: false, key: () => Promise.resolve(undefined) };
  const { expr, desc } = w.orderBy[0];
  let memo: Promise<Float64Array | undefined> | undefined;
  const keyOf = () => memo ??= orderKey(expr, desc, batches, total, ctx);
  // Input in (64-bit) ORDER BY order, as a scan by its timestamp: every partition is too.
  if (await inOrder(expr, desc, batches, ctx)) return { gid, groups, ordered: true, key: keyOf };
  const key = await keyOf();
  if (!key) return undefined;
  // Input order is partition order when every partition's keys never go down.
  const last = new Float64Array(groups).fill(-Infinity);
  let ordered = true;
  for (let i = 0; i < total; i++) {
    const g = gid[i], v = key[i];
    if (v < last[g]) {
      ordered = false;
      break;
    }
    last[g] = v;
  }
  const layout: WindowLayout = { gid, groups, ordered: true, key: keyOf };
  if (ordered) return layout;
  // Input in the opposite order (ORDER BY ts DESC over a forward scan): each partition reversed,
  // runs of equal keys turned back to input order, without a sort.
  const reversed = await inOrder(expr, !desc, batches, ctx);
  layout.seq = reversed ? reversedRows(layout, key) : await sortedRows(key, gid, groups, ctx);
  return layout;
}

/** Rows by (partition, key, input position) for input whose keys never go up. */
function reversedRows(l: WindowLayout, key: Float64Array): Int32Array {
  const { seq, starts } = groupedRows(l);
  for (let g = 0; g < l.groups; g++) {
    seq.subarray(starts[g], starts[g + 1]).reverse();
    for (let i = starts[g]; i < starts[g + 1];) {
      let j = i + 1;
      while (j < starts[g + 1] && key[seq[j]] === key[seq[i]]) j++;
      if (j - i > 1) seq.subarray(i, j).reverse();
      i = j;
    }
  }
  return seq;
}

/**
 * Whether 64-bit ORDER BY values never go down (up for DESC) over the whole input, read as
 * their two 32-bit words; NULL (the least 64-bit value) sorts first there as in the row path.
 */
async function inOrder(e: BoundExpr, desc: boolean, batches: Batch[], ctx: ExecContext): Promise<boolean> {
  const f = vectorOf(e, ctx);
  let ph = desc ? 2147483647 : -2147483648, pl = desc ? 4294967295 : 0;
  for (const b of batches) {
    if (paceDue(ctx)) await pace(ctx);
    const d = f(b).data;
    if (!(d instanceof BigInt64Array)) return false;
    const w = new Int32Array(d.buffer, d.byteOffset, 2 * b.rowCount);
    for (let i = 0; i < w.length; i += 2) {
      const h = w[i + 1], l = w[i] >>> 0;
      if (desc ? h > ph || (h === ph && l > pl) : h < ph || (h === ph && l < pl)) return false;
      ph = h;
      pl = l;
    }
  }
  return true;
}

/**
 * Rows by (partition, key, input position): grouped by partition with a stable counting sort,
 * then each partition out of order sorted on its own (small arrays stay in cache) by a stable
 * LSD radix sort of the key's order-preserving bits, 11-bit digits, digits every row shares
 * skipped; a few rows by insertion. Stability gives ties (and NULLs) input order, the row
 * path's stable sort.
 */
async function sortedRows(
  key: Float64Array,
  gid: Int32Array,
  groups: number,
  ctx: ExecContext,
): Promise<Int32Array> {
  const n = key.length;
  let seq: Int32Array;
  const starts = new Int32Array(groups + 1);
  if (groups === 1) {
    seq = new Int32Array(n);
    for (let i = 0; i < n; i++) seq[i] = i;
    starts[1] = n;
  } else {
    for (let i = 0; i < n; i++) starts[gid[i] + 1]++;
    for (let g = 0; g < groups; g++) starts[g + 1] += starts[g];
    seq = new Int32Array(n);
    const fill = starts.slice(0, groups);
    for (let i = 0; i < n; i++) seq[fill[gid[i]]++] = i;
  }
  const sorter = new RadixSorter();
  for (let g = 0; g < groups; g++) {
    if (paceDue(ctx)) await pace(ctx);
    const part = seq.subarray(starts[g], starts[g + 1]);
    let sorted = true;
    for (let k = 1; k < part.length && sorted; k++) sorted = key[part[k - 1]] <= key[part[k]];
    if (sorted) continue;
    if (part.length <= 32) insertion(part, key);
    else await sorter.sort(part, key, ctx);
  }
  return seq;
}

/** Sorts row ids by their keys, stably; scratch arrays are kept between partitions. */
class RadixSorter {
  #hi = new Uint32Array(0);
  #lo = new Uint32Array(0);
  #a = new Int32Array(0);
  #b = new Int32Array(0);
  #count = new Int32Array(2048);
  #f = new Float64Array(1);
  #w = new Uint32Array(this.#f.buffer);

  async sort(rows: Int32Array, key: Float64Array, ctx: ExecContext): Promise<void> {
    const m = rows.length;
    if (this.#hi.length < m) {
      this.#hi = new Uint32Array(m);
      this.#lo = new Uint32Array(m);
      this.#a = new Int32Array(m);
      this.#b = new Int32Array(m);
    }
    const hi = this.#hi, lo = this.#lo, f = this.#f, w = this.#w, count = this.#count;
    // Order-preserving bits: negatives flipped, the sign set on the rest; -0 as 0 (peers).
    for (let j = 0; j < m; j++) {
      f[0] = key[rows[j]] + 0;
      const h = w[1];
      if (h & 0x80000000) {
        hi[j] = ~h >>> 0;
        lo[j] = ~w[0] >>> 0;
      } else {
        hi[j] = (h | 0x80000000) >>> 0;
        lo[j] = w[0];
      }
    }
    // Positions within the partition, sorted digit by digit.
    let idx = this.#a, tmp = this.#b;
    for (let j = 0; j < m; j++) idx[j] = j;
    for (let d = 0; d < 6; d++) {
      if (m > 1 << 16 && paceDue(ctx)) await pace(ctx);
      const words = d < 3 ? lo : hi, shift = (d % 3) * 11;
      count.fill(0);
      for (let j = 0; j < m; j++) count[(words[j] >>> shift) & 2047]++;
      if (count[(words[0] >>> shift) & 2047] === m) continue;
      let sum = 0;
      for (let c = 0; c < 2048; c++) {
        const x = count[c];
        count[c] = sum;
        sum += x;
      }
      for (let j = 0; j < m; j++) {
        const p = idx[j];
        tmp[count[(words[p] >>> shift) & 2047]++] = p;
      }
      [idx, tmp] = [tmp, idx];
    }
    for (let j = 0; j < m; j++) tmp[j] = rows[idx[j]];
    rows.set(tmp.subarray(0, m));
  }
}

/** Stable insertion sort of a few row ids by key (ties keep their order: input order). */
function insertion(rows: Int32Array, key: Float64Array): void {
  for (let j = 1; j < rows.length; j++) {
    const r = rows[j], v = key[r] + 0;
    let k = j - 1;
    while (k >= 0 && key[rows[k]] + 0 > v) {
      rows[k + 1] = rows[k];
      k--;
    }
    rows[k + 1] = r;
  }
}

async function partitionIds(
  keys: BoundExpr[],
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<{ gid: Int32Array; groups: number }> {
  const gid = new Int32Array(total);
  if (keys.length === 0) return { gid, groups: 1 };
  if (keys.length === 1) {
    const codes = await symbolCodes(keys[0], batches, gid, ctx);
    if (codes !== undefined) return { gid, groups: codes };
  }
  let groups = 0;
  const next = keys.length > 1 ? new Int32Array(total) : gid;
  for (let k = 0; k < keys.length; k++) {
    const ids = new KeyIds();
    const f = vectorOf(keys[k], ctx);
    const out = k === 0 ? gid : next;
    let at = 0;
    for (const b of batches) {
      if (paceDue(ctx)) await pace(ctx);
      ids.map(f(b), b.rowCount, out.subarray(at, at + b.rowCount));
      at += b.rowCount;
    }
    if (k === 0) {
      groups = ids.size;
      continue;
    }
    // Pairs (ids so far, this key's id) renumbered densely in first-appearance order.
    const width = ids.size;
    if (groups * width <= 1 << 22) {
      // A direct table over every pair when small (two symbols, a symbol and a side).
      const table = new Int32Array(groups * width).fill(-1);
      let size = 0;
      for (let i = 0; i < total; i++) {
        const p = gid[i] * width + next[i];
        let id = table[p];
        if (id < 0) table[p] = id = size++;
        gid[i] = id;
      }
      groups = size;
      continue;
    }
    const pairs = new Map<number, number>();
    for (let i = 0; i < total; i++) {
      const p = gid[i] * width + next[i];
      let id = pairs.get(p);
      if (id === undefined) pairs.set(p, id = pairs.size);
      gid[i] = id;
    }
    groups = pairs.size;
  }
  return { gid, groups };
}

/**
 * A SYMBOL column whose batches share one dictionary: its codes are the partition ids (NULL
 * after the last code), no lookup per row. Answers the number of ids, or undefined.
 */
async function symbolCodes(
  e: BoundExpr,
  batches: Batch[],
  gid: Int32Array,
  ctx: ExecContext,
): Promise<number | undefined> {
  if (e.type.tag !== "SYMBOL") return undefined;
  const f = vectorOf(e, ctx);
  const vs = batches.map((b) => f(b));
  const dict = vs[0]?.dict;
  // Ids by code: per-partition state is sized by the dictionary, so not beyond the rows.
  if (!dict || dict.size > Math.max(gid.length, 1024)) return undefined;
  if (!vs.every((v) => v.dict === dict && v.data instanceof Int32Array)) return undefined;
  const nullId = dict.size;
  let at = 0;
  for (let k = 0; k < vs.length; k++) {
    if (paceDue(ctx)) await pace(ctx);
    const d = vs[k].data as Int32Array, n = batches[k].rowCount;
    for (let i = 0; i < n; i++) {
      const c = d[i];
      gid[at + i] = c < 0 || c >= nullId ? nullId : c;
    }
    at += n;
  }
  return nullId + 1;
}

/** The ORDER BY values as ascending numbers, or undefined when a LONG is past 2^53. */
async function orderKey(
  e: BoundExpr,
  desc: boolean,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<Float64Array | undefined> {
  const f = vectorOf(e, ctx);
  const key = new Float64Array(total);
  let at = 0;
  for (const b of batches) {
    if (paceDue(ctx)) await pace(ctx);
    const n = b.rowCount;
    const d = f(b).data;
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const hi = w[2 * i + 1], lo = w[2 * i];
        if (hi === -2147483648 && lo === 0) key[at + i] = -Infinity;
        else if (hi >= -2097152 && hi < 2097152) key[at + i] = hi * 4294967296 + (lo >>> 0);
        else return undefined;
      }
    } else if (d instanceof Float64Array || d instanceof Float32Array) {
      for (let i = 0; i < n; i++) {
        const v = d[i];
        key[at + i] = v - v === 0 ? v : Infinity;
      }
    } else if (d instanceof Int32Array) {
      for (let i = 0; i < n; i++) key[at + i] = d[i] === -2147483648 ? -Infinity : d[i];
    } else if (d instanceof Int16Array || d instanceof Int8Array) {
      for (let i = 0; i < n; i++) key[at + i] = d[i];
    } else return undefined;
    at += n;
  }
  if (desc) { for (let i = 0; i < total; i++) key[i] = -key[i]; }
  return key;
}
