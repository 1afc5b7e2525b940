/**
 * ASOF and LT JOIN as a columnar forward merge (same semantics as asof_join.ts): every key
 * value gets a slot number; the right rows read so far are appended to a columnar buffer and
 * the last right row per slot is remembered as an index into it; each left batch gets an
 * Int32Array of matched buffer rows (-1: none) and its right columns are gathered from the
 * buffer with it. SYMBOL keys with dictionaries map dictionary keys to slots once per
 * dictionary; other keys go through their normalized scalar form. The buffer is compacted
 * to the rows still referenced when it grows large.
 */
import { type Batch, readValue, type SymbolDict, type Vector } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { normKey } from "../plan/bind_expr.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "./exec_context.ts";
import { SqlError } from "../base/errors.ts";
import { kernels, wasmMemory } from "../../engine-wasm/mod.ts";
import { Scratch } from "./wasm_scratch.ts";
import { ColumnBuffer } from "./column_buffer.ts";

type AsofNode = Extract<PlanNode, { kind: "asof" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;
/** Buffered right rows beyond which the buffer is compacted to the referenced rows. */
const COMPACT_ROWS = 1 << 21;

/** Dictionaries up to this size get a slot table in WASM memory (`Slots.table`). */
const TABLE_KEYS_MAX = 1 << 20;

/** Maps key values of both sides' batches to slot numbers (one slot per key value). */
class Slots {
  readonly #map = new Map<unknown, number>();
  readonly #dictSlots = new Map<SymbolDict, Int32Array>();
  readonly #tables = new Map<SymbolDict, { ptr: number; length: number }>();
  readonly #tableBlocks = blocks();
  count = 0;

  /**
   * For a batch keyed by one SYMBOL column, its dictionary's slot table in WASM memory
   * (entry 0: NULL, entry k + 1: key k), built once per dictionary with a slot for every
   * value: the merge kernel then maps keys itself, with no pass over the rows here.
   * Undefined for other keys and for dictionaries too large to map whole.
   */
  table(b: Batch, keys: number[]): { ptr: number; length: number } | undefined {
    if (keys.length !== 1) return undefined;
    const v = b.columns[keys[0]];
    const dict = v.dict;
    if (v.type.tag !== "SYMBOL" || !dict || !(v.data instanceof Int32Array) || dict.size >= TABLE_KEYS_MAX) {
      return undefined;
    }
    let t = this.#tables.get(dict);
    // A dictionary that grew since (a live one) gets a new table with its new keys.
    if (!t || t.length !== dict.size + 1) {
      const length = dict.size + 1;
      t = { ptr: this.#tableBlocks.alloc(length * 4), length };
      const table = wasmMemory().i32(t.ptr, length);
      table[0] = this.#slotOf(normKey(null));
      for (let k = 0; k < dict.size; k++) table[k + 1] = this.#slotOf(normKey(dict.valueOf(k)));
      this.#tables.set(dict, t);
    }
    return t;
  }

  release(): void {
    this.#tableBlocks.release();
  }

  #slotOf(key: unknown): number {
    let s = this.#map.get(key);
    if (s === undefined) this.#map.set(key, s = this.count++);
    return s;
  }

  /** Slot per row of `b` keyed by columns `keys`, written to `out` (`b.rowCount` long). */
  of(b: Batch, keys: number[], out: Int32Array): Int32Array {
    const n = b.rowCount;
    if (keys.length === 0) {
      if (this.count === 0) this.count = 1;
      out.fill(0);
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
  const tolerance = n.toleranceTicks;
  const slots = new Slots();
  const rightTypes = n.right.columns.map((c) => c.type);
  const buffers = rightTypes.map((t) => new ColumnBuffer(t));
  // Right keys and timestamp the query does not select are never gathered (pruning says which).
  const unused = new Set(n.rightUnused ?? []);
  let bufLen = 0, bufCap = 0, compactAt = COMPACT_ROWS;
  let bufTs = new BigInt64Array(0);
  // The merge runs in WASM (kernels().asofMerge): its inputs and outputs live in WASM memory.
  // The right batch's blocks stay until the next right batch; a left batch's until it is out.
  const k = kernels();
  const rightBlocks = blocks(), leftBlocks = blocks();
  let lastRowBlock = blocks();
  let lastRow: Int32Array = new Int32Array(0);
  let lastRowPtr = 0;

  const rightIt = run(n.right, ctx)[Symbol.asyncIterator]();
  let rb: Batch | undefined;
  let rtsPtr = 0;
  let rKeys: BatchKeys = { keys: 0 };
  let rRow = 0, rBase = 0;
  let rightDone = false;

  /** A batch's keys for the merge kernel: the key column and its slot table, or slots computed here. */
  const keysOf = (b: Batch, keys: number[], blocks: Scratch): BatchKeys => {
    const table = slots.table(b, keys);
    if (table) return { keys: blocks.of32(b.columns[keys[0]].data as Int32Array), table };
    const ptr = blocks.alloc(b.rowCount * 4);
    slots.of(b, keys, wasmMemory().i32(ptr, b.rowCount));
    return { keys: ptr };
  };

  /** Makes `lastRow` hold every slot (new slots at -1). */
  let chargedSlots = 0;
  const growSlots = () => {
    // Each key keeps its latest right row (buffered until compaction drops the others) and a
    // map entry: distinct keys are what the merge holds, so they count against the budget.
    if (slots.count > chargedSlots) {
      charge(ctx, rowBytes(slots.count - chargedSlots, rightTypes.length + 1));
      chargedSlots = slots.count;
    }
    if (slots.count <= lastRow.length) return;
    const grown = blocks();
    const count = Math.max(slots.count, lastRow.length * 2, 16);
    const ptr = grown.alloc(count * 4);
    const view = wasmMemory().i32(ptr, count).fill(-1);
    view.set(lastRow);
    lastRowBlock.release();
    lastRowBlock = grown;
    lastRow = view;
    lastRowPtr = ptr;
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
      rightBlocks.release();
      const rts = b.columns[n.rightTs].data as BigInt64Array;
      rtsPtr = rightBlocks.of64(rts);
      rKeys = keysOf(b, n.rightKeys, rightBlocks);
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

  try {
    for await (const lb of run(n.left, ctx)) {
      checkCancelled(ctx);
      const rowCount = lb.rowCount;
      const lts = lb.columns[n.leftTs].data as BigInt64Array;
      const ltsPtr = leftBlocks.of64(lts);
      const lKeys = keysOf(lb, n.leftKeys, leftBlocks);
      growSlots();
      const matchPtr = leftBlocks.alloc(rowCount * 4);
      const match = wasmMemory().i32(matchPtr, rowCount);
      let i = 0;
      while (i < rowCount) {
        const stop = k.asofMerge({
          leftTs: ltsPtr,
          leftKeys: lKeys.keys,
          leftTable: lKeys.table?.ptr,
          leftTableLength: lKeys.table?.length,
          from: i,
          to: rowCount,
          rightTs: rtsPtr,
          rightKeys: rKeys.keys,
          rightTable: rKeys.table?.ptr,
          rightTableLength: rKeys.table?.length,
          rightFrom: rb ? rRow : 0,
          rightCount: rb ? rb.rowCount : 0,
          rightBase: rBase,
          lastRow: lastRowPtr,
          slotCount: lastRow.length,
          match: matchPtr,
          strict,
          more: !rightDone,
        });
        i = stop.left;
        rRow = stop.right;
        if (i < rowCount) {
          // The right batch ran out before row i could be decided: load the next one.
          if (bufLen >= compactAt) {
            compact(match, i);
            compactAt = Math.max(COMPACT_ROWS, 2 * bufLen);
          }
          if (!(await nextRight())) {
            rightDone = true;
            rb = undefined;
            rightBlocks.release();
          }
        }
      }
      if (tolerance !== undefined) {
        for (let r = 0; r < rowCount; r++) {
          const m = match[r];
          if (m >= 0 && lts[r] - bufTs[m] > tolerance) match[r] = -1;
        }
      }
      const columns: Vector[] = [...lb.columns];
      buffers.forEach((c, k) =>
        columns.push(unused.has(k) ? c.placeholder(rowCount) : c.gather(match, rowCount))
      );
      leftBlocks.release();
      yield { rowCount, columns };
    }
  } finally {
    leftBlocks.release();
    rightBlocks.release();
    lastRowBlock.release();
    slots.release();
    for (const c of buffers) c.release();
    await rightIt.return?.(undefined);
  }
}

/** WASM blocks of the join, freed together: a full memory is a limit error (no row path to fall to). */
function blocks(): Scratch {
  return new Scratch(() => new SqlError("not enough WASM memory for ASOF JOIN", -1, "limit"));
}

/** The keys of one batch as the merge kernel reads them (AsofMergeArgs). */
interface BatchKeys {
  keys: number;
  table?: { ptr: number; length: number };
}

/**
 * Maps SYMBOL keys `data[from, n)` to slots through `cache` (dictionary key → slot, the NULL
 * key at `nullAt`) into `out`; stops at the first key without a slot yet and returns its row
 * (n when all were mapped). A plain function, so the per-row loop stays monomorphic.
 */
function mapKnownKeys(
  data: Int32Array,
  cache: Int32Array,
  nullAt: number,
  out: Int32Array,
  from: number,
  n: number,
): number {
  for (let r = from; r < n; r++) {
    const k = data[r];
    const s = cache[k < 0 || k >= nullAt ? nullAt : k];
    if (s < 0) return r;
    out[r] = s;
  }
  return n;
}
