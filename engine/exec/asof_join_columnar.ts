/**
 * ASOF and LT JOIN as a columnar forward merge (same semantics as asof_join.ts): every key
 * value gets a slot number; the right rows read so far are appended to a columnar buffer and
 * the last right row per slot is remembered as an index into it; each left batch gets an
 * Int32Array of matched buffer rows (-1: none) and its right columns are gathered from the
 * buffer with it. SYMBOL keys with dictionaries map dictionary keys to slots once per
 * dictionary; other keys go through their normalized scalar form. The buffer is compacted
 * to the rows still referenced when it grows large.
 */
import {
  allocVectorData,
  type Batch,
  readValue,
  type SymbolDict,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { normKey } from "../plan/bind_expr.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";

type AsofNode = Extract<PlanNode, { kind: "asof" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;
// deno-lint-ignore no-explicit-any
type Typed = any;

/** Buffered right rows beyond which the buffer is compacted to the referenced rows. */
const COMPACT_ROWS = 1 << 21;

/** Types whose vectors are copied as typed arrays (their NULL-filled form from allocVectorData). */
const TYPED = new Set([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "CHAR",
  "INT",
  "IPV4",
  "FLOAT",
  "DOUBLE",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "SYMBOL",
]);

function typedCtor(type: ColumnType): Typed {
  if (type.tag === "SYMBOL") return Int32Array;
  return (allocVectorData(type, 0) as Typed).constructor;
}

/** One right column's buffered rows: typed (raw copies, one dictionary) or scalar values. */
class ColumnBuffer {
  typed: Typed | undefined;
  scalar: Value[] | undefined;
  dict: SymbolDict | undefined;
  #decided = false;
  constructor(readonly type: ColumnType) {}

  /** Appends rows [from, to) of `v` at buffer position `at` (capacity ensured by caller). */
  append(v: Vector, from: number, to: number, at: number, capacity: number): void {
    if (!this.#decided) {
      this.#decided = true;
      const ok = TYPED.has(this.type.tag) && !Array.isArray(v.data) &&
        v.data.constructor === typedCtor(this.type) &&
        (this.type.tag !== "SYMBOL" || v.dict !== undefined);
      if (ok) {
        this.typed = new (typedCtor(this.type))(capacity);
        this.dict = v.dict;
      } else {
        this.scalar = new Array<Value>(capacity);
      }
    }
    if (
      this.typed &&
      (Array.isArray(v.data) || v.data.constructor !== this.typed.constructor || v.dict !== this.dict)
    ) {
      this.#toScalar(at, capacity);
    }
    if (this.typed) {
      this.ensure(capacity, at);
      this.typed.set((v.data as Typed).subarray(from, to), at);
    } else {
      const s = this.scalar!;
      for (let r = from; r < to; r++) s[at + r - from] = readValue(v, r);
    }
  }

  #toScalar(length: number, capacity: number): void {
    const old: Vector = { type: this.type, data: this.typed, dict: this.dict };
    const s = new Array<Value>(capacity);
    for (let r = 0; r < length; r++) s[r] = readValue(old, r);
    this.scalar = s;
    this.typed = undefined;
    this.dict = undefined;
  }

  ensure(capacity: number, length: number): void {
    if (this.typed && this.typed.length < capacity) {
      const grown = new this.typed.constructor(capacity);
      grown.set(this.typed.subarray(0, length));
      this.typed = grown;
    }
  }

  /** Keeps only rows `keep` (ascending), moved to the front. */
  compact(keep: Int32Array, count: number): void {
    if (this.typed) {
      for (let j = 0; j < count; j++) this.typed[j] = this.typed[keep[j]];
    } else if (this.scalar) {
      for (let j = 0; j < count; j++) this.scalar[j] = this.scalar[keep[j]];
      this.scalar.length = count;
    }
  }

  #nulls: VectorData | undefined;

  /**
   * A NULL vector of `n` rows standing in for a column nothing downstream reads: allocated
   * once and handed out as views, so skipping the gather costs no allocation per batch.
   */
  placeholder(n: number): Vector {
    if (!this.#nulls || this.#nulls.length < n) {
      this.#nulls = this.type.tag === "SYMBOL" ? new Int32Array(n).fill(-1) : allocVectorData(this.type, n);
    }
    const all = this.#nulls as Typed;
    const data = Array.isArray(all) ? all.slice(0, n) : all.subarray(0, n);
    return this.type.tag === "SYMBOL" ? { type: this.type, data, dict: this.dict } : { type: this.type, data };
  }

  /** The output vector of `match` (buffer rows, -1: NULL). */
  gather(match: Int32Array, n: number): Vector {
    const type = this.type;
    if (this.typed instanceof BigInt64Array) {
      // Copied as 32-bit word pairs: no BigInt per row. NULL is LONG_MIN (low 0, high INT_MIN).
      const out = new BigInt64Array(n);
      const o = new Int32Array(out.buffer, 0, 2 * n);
      const src = new Int32Array(this.typed.buffer, this.typed.byteOffset, 2 * this.typed.length);
      for (let i = 0; i < n; i++) {
        const m = match[i];
        if (m >= 0) {
          o[2 * i] = src[2 * m];
          o[2 * i + 1] = src[2 * m + 1];
        } else {
          o[2 * i + 1] = -2147483648;
        }
      }
      return { type, data: out };
    }
    if (this.typed) {
      // One pass: each slot gets its value or the type's NULL (no NULL fill before the copy).
      const out: Typed = new this.typed.constructor(n);
      const nul = type.tag === "SYMBOL" ? -1 : (allocVectorData(type, 1) as Typed)[0];
      const src = this.typed;
      for (let i = 0; i < n; i++) {
        const m = match[i];
        out[i] = m >= 0 ? src[m] : nul;
      }
      return type.tag === "SYMBOL" ? { type, data: out, dict: this.dict } : { type, data: out };
    }
    const data: VectorData = allocVectorData(type, n);
    const src = this.scalar;
    if (src) {
      for (let i = 0; i < n; i++) {
        const m = match[i];
        if (m >= 0) writeValue(type, data, i, src[m]);
      }
    }
    return { type, data };
  }
}

/** Maps key values of both sides' batches to slot numbers (one slot per key value). */
class Slots {
  readonly #map = new Map<unknown, number>();
  readonly #dictSlots = new Map<SymbolDict, Int32Array>();
  count = 0;

  #slotOf(key: unknown): number {
    let s = this.#map.get(key);
    if (s === undefined) this.#map.set(key, s = this.count++);
    return s;
  }

  /** Slot per row of `b` keyed by columns `keys`. */
  of(b: Batch, keys: number[]): Int32Array {
    const n = b.rowCount;
    const out = new Int32Array(n);
    if (keys.length === 0) {
      if (this.count === 0) this.count = 1;
      return out;
    }
    if (keys.length === 1) {
      const v = b.columns[keys[0]];
      if (v.type.tag === "SYMBOL" && v.dict && v.data instanceof Int32Array) {
        const dict = v.dict;
        let cache = this.#dictSlots.get(dict);
        if (!cache || cache.length !== dict.size + 1) {
          cache = new Int32Array(dict.size + 1).fill(-1);
          this.#dictSlots.set(dict, cache);
        }
        const nullAt = dict.size;
        // Keys first seen in this batch get their slots; then one tight pass maps every row.
        const data = v.data;
        let r = mapKnownKeys(data, cache, nullAt, out, 0, n);
        while (r < n) {
          const k = data[r];
          const c = k < 0 || k >= nullAt ? nullAt : k;
          cache[c] = this.#slotOf(normKey(c === nullAt ? null : dict.valueOf(c)));
          r = mapKnownKeys(data, cache, nullAt, out, r, n);
        }
        return out;
      }
      for (let r = 0; r < n; r++) out[r] = this.#slotOf(normKey(readValue(v, r)));
      return out;
    }
    for (let r = 0; r < n; r++) {
      out[r] = this.#slotOf(keys.map((k) => String(normKey(readValue(b.columns[k], r)))).join("\u0001"));
    }
    return out;
  }
}

export async function* runAsofColumnar(n: AsofNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const strict = n.type === "lt";
  const tolerance = n.toleranceMicros;
  const slots = new Slots();
  const rightTypes = n.right.columns.map((c) => c.type);
  const buffers = rightTypes.map((t) => new ColumnBuffer(t));
  const cursor = new Int32Array(1);
  // Right keys and timestamp the query does not select are never gathered (pruning says which).
  const unused = new Set(n.rightUnused ?? []);
  let bufLen = 0, bufCap = 0, compactAt = COMPACT_ROWS;
  let bufTs = new BigInt64Array(0);
  let lastRow = new Int32Array(16).fill(-1);

  const rightIt = run(n.right, ctx)[Symbol.asyncIterator]();
  let rb: Batch | undefined;
  let rts: BigInt64Array = new BigInt64Array(0);
  // The timestamps as 32-bit word pairs (little-endian: [low, high]): comparing two signed
  // 64-bit values as (signed high, unsigned low) is exact and avoids a BigInt per row.
  let rw: Int32Array = new Int32Array(0);
  let rSlots: Int32Array = new Int32Array(0);
  let rRow = 0, rBase = 0;
  let rightDone = false;

  const growSlots = () => {
    if (slots.count > lastRow.length) {
      const grown = new Int32Array(Math.max(slots.count, lastRow.length * 2)).fill(-1);
      grown.set(lastRow);
      lastRow = grown;
    }
  };

  /** Loads the next right batch into the buffer; false at the end. */
  const nextRight = async (): Promise<boolean> => {
    for (;;) {
      const r = await rightIt.next();
      if (r.done) return false;
      const b = r.value;
      if (b.rowCount === 0) continue;
      rb = b;
      rRow = 0;
      rts = b.columns[n.rightTs].data as BigInt64Array;
      rw = new Int32Array(rts.buffer, rts.byteOffset, 2 * rts.length);
      rSlots = slots.of(b, n.rightKeys);
      growSlots();
      if (bufLen + b.rowCount > bufCap) {
        bufCap = Math.max(bufLen + b.rowCount, bufCap * 2, 1024);
        const t = new BigInt64Array(bufCap);
        t.set(bufTs.subarray(0, bufLen));
        bufTs = t;
        for (const c of buffers) c.ensure(bufCap, bufLen);
      }
      bufTs.set(rts, bufLen);
      buffers.forEach((c, k) => c.append(b.columns[k], 0, b.rowCount, bufLen, bufCap));
      rBase = bufLen;
      bufLen += b.rowCount;
      return true;
    }
  };

  /** Drops buffered rows referenced neither by a slot nor by match[0..upTo). */
  const compact = (match: Int32Array, upTo: number) => {
    const keepMark = new Uint8Array(bufLen);
    for (let s = 0; s < slots.count; s++) if (lastRow[s] >= 0) keepMark[lastRow[s]] = 1;
    for (let i = 0; i < upTo; i++) if (match[i] >= 0) keepMark[match[i]] = 1;
    // The current right batch stays whole: its unread rows are still to come.
    const curFrom = rb ? rBase : bufLen;
    for (let r = curFrom; r < bufLen; r++) keepMark[r] = 1;
    const remap = new Int32Array(bufLen).fill(-1);
    const keep = new Int32Array(bufLen);
    let count = 0;
    for (let r = 0; r < bufLen; r++) {
      if (keepMark[r]) {
        remap[r] = count;
        keep[count++] = r;
      }
    }
    for (const c of buffers) c.compact(keep, count);
    for (let j = 0; j < count; j++) bufTs[j] = bufTs[keep[j]];
    for (let s = 0; s < slots.count; s++) if (lastRow[s] >= 0) lastRow[s] = remap[lastRow[s]];
    for (let i = 0; i < upTo; i++) if (match[i] >= 0) match[i] = remap[match[i]];
    rBase = remap[rBase] >= 0 ? remap[rBase] : count;
    bufLen = count;
  };

  for await (const lb of run(n.left, ctx)) {
    checkCancelled(ctx);
    const rowCount = lb.rowCount;
    const lts = lb.columns[n.leftTs].data as BigInt64Array;
    const lw = new Int32Array(lts.buffer, lts.byteOffset, 2 * lts.length);
    const ls = slots.of(lb, n.leftKeys);
    growSlots();
    const match = new Int32Array(rowCount);
    let i = 0;
    while (i < rowCount) {
      const rCount = rb ? rb.rowCount : 0;
      i = mergeRows(lw, ls, i, rowCount, rw, rSlots, rRow, rCount, rBase, lastRow, match, strict, !rightDone, cursor);
      rRow = cursor[0];
      if (i < rowCount) {
        // The right batch ran out before row i could be decided: load the next one.
        if (bufLen >= compactAt) {
          compact(match, i);
          compactAt = Math.max(COMPACT_ROWS, 2 * bufLen);
        }
        if (!(await nextRight())) {
          rightDone = true;
          rb = undefined;
        }
      }
    }
    if (tolerance !== undefined) {
      for (let k = 0; k < rowCount; k++) {
        const m = match[k];
        if (m >= 0 && lts[k] - bufTs[m] > tolerance) match[k] = -1;
      }
    }
    const columns: Vector[] = [...lb.columns];
    buffers.forEach((c, k) => columns.push(unused.has(k) ? c.placeholder(rowCount) : c.gather(match, rowCount)));
    yield { rowCount, columns };
  }
}

/**
 * The merge itself, over locals (the generator's variables live in a closure context, and
 * reading them per row costs more than the comparison): left rows from `i` take, per key
 * slot, the last right row at or before their timestamp (strictly before for LT). Returns the
 * first left row it could not decide because the right batch ran out while `more` may come;
 * `cursor[0]` receives the right batch position reached. Timestamps are compared as 32-bit
 * word pairs (little-endian [low, high]: signed high, then unsigned low), exact and BigInt-free.
 */
function mergeRows(
  lw: Int32Array,
  ls: Int32Array,
  from: number,
  rowCount: number,
  rw: Int32Array,
  rSlots: Int32Array,
  rFrom: number,
  rCount: number,
  rBase: number,
  lastRow: Int32Array,
  match: Int32Array,
  strict: boolean,
  more: boolean,
  cursor: Int32Array,
): number {
  let r = rFrom;
  let i = from;
  for (; i < rowCount; i++) {
    const th = lw[2 * i + 1], tl = lw[2 * i] >>> 0;
    while (r < rCount) {
      const rh = rw[2 * r + 1], rl = rw[2 * r] >>> 0;
      if (rh > th || (rh === th && (strict ? rl >= tl : rl > tl))) break;
      lastRow[rSlots[r]] = rBase + r;
      r++;
    }
    if (r >= rCount && more) break;
    match[i] = lastRow[ls[i]];
  }
  cursor[0] = r;
  return i;
}

/**
 * Maps SYMBOL keys `data[from, n)` to slots through `cache` (dictionary key → slot, the NULL
 * key at `nullAt`) into `out`; stops at the first key without a slot yet and returns its row
 * (n when all were mapped). A plain function, so the per-row loop stays monomorphic.
 */
function mapKnownKeys(data: Int32Array, cache: Int32Array, nullAt: number, out: Int32Array, from: number, n: number): number {
  for (let r = from; r < n; r++) {
    const k = data[r];
    const s = cache[k < 0 || k >= nullAt ? nullAt : k];
    if (s < 0) return r;
    out[r] = s;
  }
  return n;
}
