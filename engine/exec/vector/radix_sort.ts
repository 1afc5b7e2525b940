/**
 * Full ORDER BY as a radix sort of a row permutation (issue #16). The input's columns are
 * concatenated (typed arrays stay typed arrays), every sort key becomes one or two words of
 * unsigned 32-bit order-preserving codes, a Uint32Array permutation is sorted by those words
 * with a least-significant-digit radix sort (11-bit digits, the word moved along with the
 * permutation; last key first, each pass stable, so ties keep input order as the row sort in
 * sort.ts does), and the output columns are gathered through the permutation. Under a LIMIT
 * (radix_window.ts) only the rows that can fall in the window are sorted and gathered. No per-row JS arrays. Up to `SMALL` rows (a grouped result
 * being ordered) the permutation is sorted by comparing the same codes, index last.
 *
 * Codes follow `compareValues` (functions/value_compare.ts): NULL is 0, below every value, so
 * NULLs come first ascending and last descending (DESC complements every code), except DOUBLE and
 * FLOAT, whose NULL (NaN, ±Infinity) is all ones, above every value: last ascending, first
 * descending, as QuestDB sorts them. -0.0 ties with 0.0; strings order by UTF-16 code units (the
 * dictionary of a SYMBOL key is ranked once, over the keys that occur).
 *
 * Key types it takes are listed in `RADIX_KEY_TYPES`; vector/physical.ts picks this sort at
 * plan time only when every key has one of them.
 */
import type { ColumnType } from "../../base/types.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import {
  type Batch,
  readValue,
  type SymbolDict,
  TYPED_VECTOR_TAGS,
  type Value,
  type Vector,
  type VectorData,
} from "../../base/values.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "../exec_context.ts";
import { sortPaced } from "../paced_sort.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;

/** Up to this many rows, codes are compared instead of radix-sorted. */
const SMALL = 2048;

export const RADIX_KEY_TYPES: ReadonlySet<string> = new Set([...TYPED_VECTOR_TAGS, "STRING", "VARCHAR"]);

/** The sort key codes of one key: `hi` absent for keys that fit 32 bits. */
interface KeyWords {
  lo: Uint32Array;
  hi?: Uint32Array;
}

/** Rows [skip, stop) of the sorted order: a LIMIT the sort answers itself (radix_window.ts). */
export interface SortWindow {
  skip: number;
  stop: number;
}

/** Up to this many output rows, a window's rows are gathered from the input batches as they came. */
const WINDOW_GATHER_MAX = 1 << 16;

export async function* runRadixSort(
  n: SortNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
  window?: SortWindow,
): AsyncGenerator<Batch> {
  const chunks: Batch[] = [];
  let total = 0;
  for await (const b of input) {
    checkCancelled(ctx);
    if (b.rowCount === 0) continue;
    charge(ctx, rowBytes(b.rowCount, n.columns.length));
    chunks.push(b);
    total += b.rowCount;
  }
  const lo = window ? Math.min(window.skip, total) : 0;
  const hi = window ? Math.min(window.stop, total) : total;
  if (hi <= lo) return;
  // A narrow window's rows are gathered from the batches as they came: only key columns are
  // concatenated. Otherwise every column is (typed arrays stay typed arrays).
  const narrow = hi - lo <= WINDOW_GATHER_MAX;
  if (narrow && hi - lo < total / 2 && total > SMALL) {
    const rows = await topWordWindow(n, chunks, total, lo, hi, ctx);
    if (rows) {
      yield gatherChunks(chunks, n.columns.map(() => undefined), rows);
      return;
    }
  }
  const keyCols = new Set(n.keys.map((k) => k.index));
  // Each step below is one synchronous pass over every row (~10-50 ms at a million rows):
  // between steps the statement checks its deadline and lets other clients in (issue #24).
  const columns: (Vector | undefined)[] = [];
  for (let i = 0; i < n.columns.length; i++) {
    if (paceDue(ctx)) await pace(ctx);
    columns.push(
      narrow && !keyCols.has(i)
        ? undefined
        : concatColumn(n.columns[i].type, chunks.map((b) => trimmed(b.columns[i], b.rowCount)), total),
    );
  }
  // Permutation, scratch, one histogram: 8 bytes a row plus the key words.
  charge(ctx, total * (8 + 8 * n.keys.length));
  const keys = n.keys.map((k) => ({ v: columns[k.index]!, desc: k.desc }));
  // Rows [lo, hi) of the order: first the rows that can be there (MSD digits), then their order.
  const { cand, base } = hi - lo < total / 2 ? await candidates(keys, total, lo, hi, ctx) : { base: 0 };
  const m = cand ? cand.length : total;
  const subKeys = cand ? keys.map((k) => ({ v: gatherVector(k.v, cand), desc: k.desc })) : keys;
  let perm = await sortPermutation(subKeys, m, ctx);
  perm = perm.subarray(lo - base, hi - base);
  if (cand) { for (let i = 0; i < perm.length; i++) perm[i] = cand[perm[i]]; }
  if (narrow) {
    yield gatherChunks(chunks, columns, perm);
    return;
  }
  chunks.length = 0;
  const whole: Batch = { rowCount: total, columns: columns as Vector[] };
  for (let at = 0; at < perm.length; at += BATCH_ROWS_MAX) {
    if (paceDue(ctx)) await pace(ctx);
    const end = Math.min(perm.length, at + BATCH_ROWS_MAX);
    yield gatherRows(whole, perm.subarray(at, end));
  }
}

interface SortKey {
  v: Vector;
  desc: boolean;
}

/**
 * The stable order of `rows` rows by `keys` as a permutation. Up to SMALL rows the codes are
 * compared; beyond, a least-significant-digit radix sort (last key first, each pass stable).
 */
async function sortPermutation(keys: SortKey[], rows: number, ctx: ExecContext): Promise<Uint32Array> {
  let perm = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) perm[i] = i;
  if (rows <= SMALL) {
    // A few rows (a grouped result): comparing codes beats the 64K-bucket histograms.
    const words: Uint32Array[] = [];
    for (const key of keys) {
      const w = await keyWords(key.v, rows, key.desc, ctx);
      words.push(...(w.hi ? [w.hi, w.lo] : [w.lo]));
    }
    const order = Array.from(perm).sort((a, b) => {
      for (const w of words) if (w[a] !== w[b]) return w[a] < w[b] ? -1 : 1;
      return a - b;
    });
    perm.set(order);
    return perm;
  }
  // Least significant word first: each word is gathered into the current order once, then
  // sorted with the permutation by up to three 11-bit digits (2048 buckets: the scatter's write
  // positions stay in cache, and every pass reads sequentially). Digits every row shares are skipped.
  let tmp = new Uint32Array(rows);
  let cur = new Uint32Array(rows), curTmp = new Uint32Array(rows);
  const hist = [
    new Uint32Array(DIGIT_BUCKETS),
    new Uint32Array(DIGIT_BUCKETS),
    new Uint32Array(DIGIT_BUCKETS),
  ];
  let identity = true;
  for (let k = keys.length - 1; k >= 0; k--) {
    if (paceDue(ctx)) await pace(ctx);
    const w = await keyWords(keys[k].v, rows, keys[k].desc, ctx);
    for (const words of w.hi ? [w.lo, w.hi] : [w.lo]) {
      if (paceDue(ctx)) await pace(ctx);
      if (identity) cur.set(words);
      else gatherWord(words, perm, cur);
      histograms(cur, hist);
      for (let d = 0; d < 3; d++) {
        const count = hist[d];
        if (count[digitOf(cur[0], d)] === rows) continue;
        if (paceDue(ctx)) await pace(ctx);
        scatter(cur, perm, curTmp, tmp, count, d * DIGIT_BITS);
        [perm, tmp] = [tmp, perm];
        [cur, curTmp] = [curTmp, cur];
        identity = false;
      }
    }
  }
  return perm;
}

const DIGIT_BITS = 11;
const DIGIT_BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGIT_BUCKETS - 1;

function digitOf(v: number, d: number): number {
  return (v >>> (d * DIGIT_BITS)) & DIGIT_MASK;
}

/** out[i] = words[perm[i]]: a word in the current order. */
function gatherWord(words: Uint32Array, perm: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < perm.length; i++) out[i] = words[perm[i]];
}

/** The three digits' counts of `cur`, in one read. */
function histograms(cur: Uint32Array, hist: Uint32Array[]): void {
  const [h0, h1, h2] = hist;
  h0.fill(0);
  h1.fill(0);
  h2.fill(0);
  for (let i = 0; i < cur.length; i++) {
    const v = cur[i];
    h0[v & DIGIT_MASK]++;
    h1[(v >>> 11) & DIGIT_MASK]++;
    h2[v >>> 22]++;
  }
}

/**
 * One stable counting pass on the digit at `shift`: moves (cur, perm) into (curOut, permOut).
 * `count` holds the digit's counts and is turned into positions.
 */
function scatter(
  cur: Uint32Array,
  perm: Uint32Array,
  curOut: Uint32Array,
  permOut: Uint32Array,
  count: Uint32Array,
  shift: number,
): void {
  let sum = 0;
  for (let d = 0; d < DIGIT_BUCKETS; d++) {
    const c = count[d];
    count[d] = sum;
    sum += c;
  }
  for (let i = 0; i < cur.length; i++) {
    const v = cur[i];
    const at = count[(v >>> shift) & DIGIT_MASK]++;
    curOut[at] = v;
    permOut[at] = perm[i];
  }
}

/**
 * The rows that can be at positions [lo, hi) of the order, in input order, and how many rows
 * of the order come before all of them (`base`). Reads the first key's digits most significant
 * first: a histogram of the candidates' digit, and the candidates whose digit falls in the
 * buckets the window spans. Narrowing goes on (to the next digit, then the next key) only while
 * the window lies in one bucket, where every candidate ties on every digit read so far.
 */
async function candidates(
  keys: SortKey[],
  total: number,
  lo: number,
  hi: number,
  ctx: ExecContext,
  skipWords = 0,
): Promise<{ cand?: Uint32Array; base: number; tied: boolean }> {
  let cand: Uint32Array | undefined;
  let m = total, base = 0;
  const count = new Uint32Array(65536);
  for (const [k, key] of keys.entries()) {
    const w = key.v.type === UINT_CODE
      ? { lo: key.v.data as unknown as Uint32Array }
      : await keyWords(key.v, total, key.desc, ctx);
    // The first key's leading words every row ties on (narrowed already) are not read again.
    const words = (w.hi ? [w.hi, w.lo] : [w.lo]).slice(k === 0 ? skipWords : 0);
    const digits: [Uint32Array, number][] = words.flatMap((x) =>
      [[x, 16], [x, 0]] as [Uint32Array, number][]
    );
    for (const [words, shift] of digits) {
      if (m <= SMALL) return { cand, base, tied: true };
      if (paceDue(ctx)) await pace(ctx);
      count.fill(0);
      if (cand) { for (let i = 0; i < m; i++) count[(words[cand[i]] >>> shift) & 0xffff]++; }
      else for (let i = 0; i < m; i++) count[(words[i] >>> shift) & 0xffff]++;
      // Buckets b0..b1 hold positions lo..hi-1 (relative to the candidates).
      let acc = 0, b0 = -1, below = 0, b1 = 0;
      for (let d = 0; d < 65536; d++) {
        const next = acc + count[d];
        if (b0 < 0 && next > lo - base) {
          b0 = d;
          below = acc;
        }
        if (next >= hi - base) {
          b1 = d;
          break;
        }
        acc = next;
      }
      const kept = acc + count[b1] - below;
      if (kept < m) {
        const out = new Uint32Array(kept);
        let j = 0;
        if (cand) {
          for (let i = 0; i < m; i++) {
            const r = cand[i], d = (words[r] >>> shift) & 0xffff;
            if (d >= b0 && d <= b1) out[j++] = r;
          }
        } else {
          for (let i = 0; i < m; i++) {
            const d = (words[i] >>> shift) & 0xffff;
            if (d >= b0 && d <= b1) out[j++] = i;
          }
        }
        cand = out;
        m = kept;
        base += below;
      }
      if (b0 !== b1) return { cand, base, tied: false };
    }
  }
  return { cand, base, tied: true };
}

/**
 * Rows [lo, hi) of the order (indexes over all the input, in order) read without copying the
 * key columns: the first key's most significant 32-bit word is computed from the input batches
 * (topWord) and narrows the candidates on its two 16-bit digits; only the candidates' key
 * values are gathered, narrowed further on the following words while they all tie, and sorted.
 * Undefined when the first key has no such word here (strings, symbols, boxed values) or the
 * word narrows nothing: the caller then sorts the concatenated keys.
 */
async function topWordWindow(
  n: SortNode,
  chunks: Batch[],
  total: number,
  lo: number,
  hi: number,
  ctx: ExecContext,
): Promise<Uint32Array | undefined> {
  const k0 = n.keys[0];
  const parts = chunks.map((b) => trimmed(b.columns[k0.index], b.rowCount));
  // A word every row shares (the high word of small LONGs) narrows nothing: the next one may.
  let word = 0, first: Awaited<ReturnType<typeof candidates>> | undefined;
  for (; !first?.cand; word++) {
    if (paceDue(ctx)) await pace(ctx);
    const top = topWord(parts, total, k0.desc, word);
    if (!top) return undefined;
    const code = { v: { type: UINT_CODE, data: top as unknown as VectorData }, desc: false };
    first = await candidates([code], total, lo, hi, ctx);
    if (!first.cand && !first.tied) return undefined;
  }
  let cand = first.cand;
  let from = lo - first.base, to = hi - first.base;
  const cols = n.keys.map((k) => k.index);
  let keys: SortKey[] = gatherChunks(chunks, cols.map(() => undefined), cand, cols).columns.map((v, j) => ({
    v,
    desc: n.keys[j].desc,
  }));
  if (first.tied && cand.length > Math.max(SMALL, 4 * (to - from))) {
    // Every candidate ties on the top word: the next words (and keys) narrow them further.
    const next = await candidates(keys, cand.length, from, to, ctx, word);
    if (next.cand) {
      const c2 = next.cand;
      cand = c2.map((i) => cand[i]);
      keys = keys.map((k) => ({ v: gatherVector(k.v, c2), desc: k.desc }));
      from -= next.base;
      to -= next.base;
    }
  }
  const perm = (await sortPermutation(keys, cand.length, ctx)).subarray(from, to);
  for (let i = 0; i < perm.length; i++) perm[i] = cand[perm[i]];
  return perm;
}

/** Marks a vector of ready order codes (a top word) that `candidates` reads as they are. */
const UINT_CODE = { tag: "IPV4" } as ColumnType;

/**
 * Word `word` (0: the most significant) of each row's order code, as `encode` makes it and
 * DESC complemented, straight from the input batches; undefined for keys without it here.
 */
function topWord(parts: Vector[], total: number, desc: boolean, word: number): Uint32Array | undefined {
  const tag = parts[0].type.tag;
  if (parts.some((p) => Array.isArray(p.data))) return undefined;
  const wide = ["FLOAT", "DOUBLE", "LONG", "DATE", "TIMESTAMP", "TIMESTAMP_NS"].includes(tag);
  if (word > (wide ? 1 : 0)) return undefined;
  const out = new Uint32Array(total);
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  let at = 0;
  for (const p of parts) {
    const d = p.data;
    const len = (d as ArrayLike<unknown>).length;
    switch (tag) {
      case "FLOAT":
      case "DOUBLE": {
        const x = d as Float64Array | Float32Array;
        for (let i = 0; i < len; i++) {
          const y = x[i];
          if (y - y !== 0) {
            out[at + i] = 0xffffffff;
            continue;
          }
          f[0] = y === 0 ? 0 : y;
          const h = u[1];
          if (word === 0) out[at + i] = h & 0x80000000 ? ~h : h | 0x80000000;
          else out[at + i] = h & 0x80000000 ? ~u[0] : u[0];
        }
        break;
      }
      case "LONG":
      case "DATE":
      case "TIMESTAMP":
      case "TIMESTAMP_NS": {
        const b = d as BigInt64Array;
        const w = new Uint32Array(b.buffer, b.byteOffset, len * 2);
        if (word === 0) { for (let i = 0; i < len; i++) out[at + i] = w[2 * i + 1] ^ 0x80000000; }
        else for (let i = 0; i < len; i++) out[at + i] = w[2 * i];
        break;
      }
      case "INT":
      case "BYTE":
      case "SHORT": {
        const x = d as Int32Array | Int16Array | Int8Array;
        for (let i = 0; i < len; i++) out[at + i] = x[i] ^ 0x80000000;
        break;
      }
      case "BOOLEAN":
      case "CHAR":
      case "IPV4": {
        const x = d as Int8Array | Uint16Array | Int32Array;
        for (let i = 0; i < len; i++) out[at + i] = x[i];
        break;
      }
      default:
        return undefined;
    }
    at += len;
  }
  if (desc) { for (let i = 0; i < total; i++) out[i] = ~out[i]; }
  return out;
}

/** One vector's values at rows `sel`. */
function gatherVector(v: Vector, sel: Uint32Array): Vector {
  return gatherRows({ rowCount: v.data.length, columns: [v] }, sel).columns[0];
}

/**
 * The output rows `sel` (indexes over all the input) as one batch: key columns from their
 * concatenation, the others from the input batch each row lies in.
 */
function gatherChunks(
  chunks: Batch[],
  columns: (Vector | undefined)[],
  sel: Uint32Array,
  cols: number[] = columns.map((_, i) => i),
): Batch {
  const starts: number[] = [];
  let at = 0;
  for (const b of chunks) {
    starts.push(at);
    at += b.rowCount;
  }
  const chunkOf = new Uint32Array(sel.length), rowIn = new Uint32Array(sel.length);
  for (let i = 0; i < sel.length; i++) {
    const r = sel[i];
    let a = 0, z = starts.length - 1;
    while (a < z) {
      const mid = (a + z + 1) >> 1;
      if (starts[mid] <= r) a = mid;
      else z = mid - 1;
    }
    chunkOf[i] = a;
    rowIn[i] = r - starts[a];
  }
  const out = cols.map((c, j): Vector => {
    const v = columns[j];
    if (v) return gatherVector(v, sel);
    const first = chunks[0].columns[c];
    const datas = chunks.map((b) => b.columns[c].data);
    const ctor = datas[0].constructor;
    const typed = !Array.isArray(datas[0]) && datas.every((d) => d.constructor === ctor) &&
      (first.type.tag !== "SYMBOL" ||
        (first.dict !== undefined && chunks.every((b) => b.columns[c].dict === first.dict)));
    if (typed) {
      // deno-lint-ignore no-explicit-any
      const data = new (ctor as any)(sel.length);
      for (let i = 0; i < sel.length; i++) data[i] = (datas[chunkOf[i]] as ArrayLike<unknown>)[rowIn[i]];
      return { type: first.type, data, dict: first.dict };
    }
    // Mixed representations (or dictionaries) become values, as concatColumn makes them.
    const values = new Array<Value>(sel.length);
    for (let i = 0; i < sel.length; i++) values[i] = readValue(chunks[chunkOf[i]].columns[c], rowIn[i]);
    return { type: first.type, data: values };
  });
  return { rowCount: sel.length, columns: out };
}

/** Order-preserving codes of a key column; DESC complements them. */
async function keyWords(v: Vector, n: number, desc: boolean, ctx: ExecContext): Promise<KeyWords> {
  const w = await encode(v, n, ctx);
  if (desc) {
    for (const a of w.hi ? [w.lo, w.hi] : [w.lo]) for (let i = 0; i < n; i++) a[i] = ~a[i];
  }
  return w;
}

async function encode(v: Vector, n: number, ctx: ExecContext): Promise<KeyWords> {
  const d = v.data;
  const lo = new Uint32Array(n);
  switch (v.type.tag) {
    case "FLOAT":
    case "DOUBLE": {
      const x = d as Float64Array | Float32Array;
      const hi = new Uint32Array(n);
      const f = new Float64Array(1);
      const u = new Uint32Array(f.buffer);
      for (let i = 0; i < n; i++) {
        const y = x[i];
        // Non-finite values are NULL (readValue): all ones, above every finite code (a finite
        // value's high word is at most 0xffefffff).
        if (y - y !== 0) {
          hi[i] = 0xffffffff;
          lo[i] = 0xffffffff;
          continue;
        }
        f[0] = y === 0 ? 0 : y;
        const h = u[1];
        if (h & 0x80000000) {
          hi[i] = ~h;
          lo[i] = ~u[0];
        } else {
          hi[i] = h | 0x80000000;
          lo[i] = u[0];
        }
      }
      return { lo, hi };
    }
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS": {
      // Two's complement with the sign bit flipped orders as unsigned; LONG_MIN (NULL) is 0.
      const b = d as BigInt64Array;
      const u = new Uint32Array(b.buffer, b.byteOffset, n * 2);
      const hi = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        lo[i] = u[2 * i];
        hi[i] = u[2 * i + 1] ^ 0x80000000;
      }
      return { lo, hi };
    }
    case "INT": // INT_MIN (NULL) maps to 0
    case "BYTE":
    case "SHORT": {
      const x = d as Int32Array | Int16Array | Int8Array;
      for (let i = 0; i < n; i++) lo[i] = x[i] ^ 0x80000000;
      return { lo };
    }
    case "BOOLEAN":
    case "CHAR": // 0 is NULL, below every character
    case "IPV4": {
      // IPV4 orders as unsigned (readValue's x >>> 0), 0 being NULL.
      const x = d as Int8Array | Uint16Array | Int32Array;
      for (let i = 0; i < n; i++) lo[i] = x[i];
      return { lo };
    }
    case "SYMBOL":
      if (v.dict) return { lo: await symbolRanks(d as Int32Array, v.dict, lo, ctx) };
      return { lo: await stringRanks(d as Value[], lo, ctx) };
    default:
      return { lo: await stringRanks(d as Value[], lo, ctx) };
  }
}

/** Rank + 1 of each row's symbol string among the strings that occur; NULL (key -1) is 0. */
async function symbolRanks(
  keys: Int32Array,
  dict: SymbolDict,
  out: Uint32Array,
  ctx: ExecContext,
): Promise<Uint32Array> {
  let top = -1;
  for (let i = 0; i < keys.length; i++) if (keys[i] > top) top = keys[i];
  const byKey = new Uint32Array(top + 1);
  for (let i = 0; i < keys.length; i++) if (keys[i] >= 0) byKey[keys[i]] = 1;
  const used: { k: number; s: string }[] = [];
  for (let k = 0; k <= top; k++) {
    if ((k & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    if (byKey[k]) used.push({ k, s: dict.valueOf(k) ?? "" });
  }
  // A dictionary of a million symbols sorted in one call held the event loop for ~1 s.
  const sorted = await sortPaced(used, (a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0), ctx);
  // Equal strings under two keys (not expected in one dictionary) share a rank.
  let rank = 0;
  for (let j = 0; j < sorted.length; j++) {
    if (j === 0 || sorted[j].s !== sorted[j - 1].s) rank++;
    byKey[sorted[j].k] = rank;
  }
  for (let i = 0; i < keys.length; i++) out[i] = keys[i] < 0 ? 0 : byKey[keys[i]];
  return out;
}

/**
 * Rank + 1 of each row's string among the distinct strings; NULL is 0. Every step gives the
 * event loop turns (issue #17): over a million distinct strings the map, the sort and the
 * lookup held it for 0.5-1 s in one piece.
 */
async function stringRanks(values: Value[], out: Uint32Array, ctx: ExecContext): Promise<Uint32Array> {
  const rankOf = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const s = values[i];
    if (s !== null && s !== undefined) rankOf.set(s as string, 0);
  }
  const distinct = await sortPaced([...rankOf.keys()], (a, b) => (a < b ? -1 : a > b ? 1 : 0), ctx);
  for (let j = 0; j < distinct.length; j++) {
    if ((j & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    rankOf.set(distinct[j], j + 1);
  }
  for (let i = 0; i < values.length; i++) {
    if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    const s = values[i];
    out[i] = s === null || s === undefined ? 0 : rankOf.get(s as string)!;
  }
  return out;
}

/** A vector cut to `rows` (a batch's data may be longer than its row count). */
function trimmed(v: Vector, rows: number): Vector {
  const d = v.data;
  if (d.length === rows) return v;
  return { ...v, data: (Array.isArray(d) ? d.slice(0, rows) : d.subarray(0, rows)) as VectorData };
}

/**
 * One column of all the input: typed arrays copied into one typed array, Value[] appended.
 * SYMBOL batches keep their keys when they share one dictionary (a table's column); otherwise
 * the column becomes strings, as a computed SYMBOL is.
 */
function concatColumn(type: ColumnType, parts: Vector[], total: number): Vector {
  const first = parts[0];
  const dict = first.dict;
  const oneDict = type.tag !== "SYMBOL" || (dict !== undefined && parts.every((p) => p.dict === dict));
  if (oneDict && !Array.isArray(first.data) && parts.every((p) => !Array.isArray(p.data))) {
    if (parts.length === 1) return first;
    // deno-lint-ignore no-explicit-any
    const out = new (first.data.constructor as any)(total) as Exclude<VectorData, Value[]>;
    let at = 0;
    for (const p of parts) {
      // deno-lint-ignore no-explicit-any
      out.set(p.data as any, at);
      at += (p.data as ArrayLike<unknown>).length;
    }
    return { type, data: out, dict };
  }
  const out = new Array<Value>(total);
  let at = 0;
  for (const p of parts) {
    const len = (p.data as ArrayLike<unknown>).length;
    if (Array.isArray(p.data)) { for (let i = 0; i < len; i++) out[at++] = p.data[i] ?? null; }
    else for (let i = 0; i < len; i++) out[at++] = readValue(p, i);
  }
  return { type, data: out };
}

/**
 * The output batch of rows `sel`. One loop per element width, each seeing one array type
 * (batch_util's gather shares one loop among all types, which V8 cannot specialise); 64-bit
 * integers move as two 32-bit words, never as BigInts.
 */
function gatherRows(b: Batch, sel: Uint32Array): Batch {
  const n = sel.length;
  const columns = b.columns.map((v): Vector => {
    const d = v.data;
    if (Array.isArray(d)) {
      const out = new Array<Value>(n);
      for (let i = 0; i < n; i++) out[i] = d[sel[i]];
      return { type: v.type, data: out, dict: v.dict };
    }
    if (d instanceof BigInt64Array) {
      const out = new BigInt64Array(n);
      gather32x2(new Int32Array(d.buffer, d.byteOffset, d.length * 2), new Int32Array(out.buffer), sel);
      return { type: v.type, data: out, dict: v.dict };
    }
    if (d instanceof Float64Array) {
      const out = new Float64Array(n);
      gatherF64(d, out, sel);
      return { type: v.type, data: out, dict: v.dict };
    }
    if (d instanceof Int32Array) {
      const out = new Int32Array(n);
      gatherI32(d, out, sel);
      return { type: v.type, data: out, dict: v.dict };
    }
    // deno-lint-ignore no-explicit-any
    const out = new (d.constructor as any)(n);
    for (let i = 0; i < n; i++) out[i] = d[sel[i]];
    return { type: v.type, data: out, dict: v.dict };
  });
  return { rowCount: n, columns };
}

function gather32x2(src: Int32Array, out: Int32Array, sel: Uint32Array): void {
  for (let i = 0; i < sel.length; i++) {
    const p = sel[i] * 2;
    out[2 * i] = src[p];
    out[2 * i + 1] = src[p + 1];
  }
}

function gatherF64(src: Float64Array, out: Float64Array, sel: Uint32Array): void {
  for (let i = 0; i < sel.length; i++) out[i] = src[sel[i]];
}

function gatherI32(src: Int32Array, out: Int32Array, sel: Uint32Array): void {
  for (let i = 0; i < sel.length; i++) out[i] = src[sel[i]];
}
