/**
 * IngestBlocks to and from messages between threads (the ILP parse workers, parse_pool.ts).
 * The typed arrays are transferred, not copied; the string and bigint payloads of a column
 * travel as a dictionary plus an Int32Array of codes, because structured clone copies every
 * array element separately (a tag column repeats a few strings on every row) and the codes
 * give the receiving side one shared string per distinct value.
 */
// The leaf block module, not engine/mod.ts: the parse workers load this file (see line_parser.ts).
import { BlockColumn, type CellRef, IngestBlock } from "../../engine/ingest/block.ts";
import { DoubleArray } from "../../engine/base/double_array.ts";

export interface WireColumn {
  name: string;
  count: number;
  firstLine: number;
  kinds: Uint8Array<ArrayBuffer>;
  nums: Float64Array<ArrayBuffer>;
  /** Per row: index into `dict`, or -1 for no payload; absent when the column has none. */
  codes?: Int32Array;
  dict?: CellRef[];
}

export interface WireBlock {
  table: string;
  rowCount: number;
  lines: Int32Array<ArrayBuffer>;
  timestamps: Float64Array<ArrayBuffer>;
  columns: WireColumn[];
}

/** The blocks as messages, and the buffers to transfer with them (the blocks are spent). */
export function blocksToWire(blocks: IngestBlock[]): { wire: WireBlock[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const own = <A extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(
    a: A,
  ): A => {
    // A view of part of a buffer cannot be transferred alone: send a copy.
    const whole = a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice() as A;
    transfer.push(whole.buffer);
    return whole;
  };
  const wire = blocks.map((b): WireBlock => ({
    table: b.table,
    rowCount: b.rowCount,
    lines: own(b.lines),
    timestamps: own(b.timestamps),
    columns: b.columns.map((c) => {
      const col: WireColumn = {
        name: c.name,
        count: c.count,
        firstLine: c.firstLine,
        kinds: own(c.kinds as Uint8Array<ArrayBuffer>),
        nums: own(c.nums as Float64Array<ArrayBuffer>),
      };
      if (c.refs.length > 0) {
        const encoded = encodeRefs(c.refs, Math.min(c.refs.length, b.rowCount));
        col.codes = encoded.codes;
        col.dict = encoded.dict;
        transfer.push(encoded.codes.buffer);
      }
      return col;
    }),
  }));
  return { wire, transfer };
}

const RECENT_SLOTS = 256;

/**
 * `refs[0, n)` as codes into a dictionary of distinct values. A small direct-mapped cache in
 * front of the Map catches the few values a tag column repeats (the parser hands out one
 * string object per distinct value, so the cache's `===` is mostly an identity check).
 */
function encodeRefs(
  refs: (CellRef | null)[],
  n: number,
): { codes: Int32Array<ArrayBuffer>; dict: CellRef[] } {
  const codes = new Int32Array(n);
  const dict: CellRef[] = [];
  const index = new Map<CellRef, number>();
  const recent: (CellRef | null)[] = new Array(RECENT_SLOTS).fill(null);
  const recentCodes = new Int32Array(RECENT_SLOTS);
  for (let i = 0; i < n; i++) {
    const v = refs[i];
    if (v === null || v === undefined) {
      codes[i] = -1;
      continue;
    }
    let slot = 0;
    if (typeof v === "string") {
      const len = v.length;
      slot = len === 0
        ? 0
        : (len * 31 + v.charCodeAt(len - 1) * 7 + v.charCodeAt(len >> 1)) & (RECENT_SLOTS - 1);
      if (recent[slot] === v) {
        codes[i] = recentCodes[slot];
        continue;
      }
    }
    let code = index.get(v);
    if (code === undefined) {
      index.set(v, code = dict.length);
      dict.push(v);
    }
    if (typeof v === "string") {
      recent[slot] = v;
      recentCodes[slot] = code;
    }
    codes[i] = code;
  }
  return { codes, dict };
}

/** Blocks rebuilt from `blocksToWire`'s messages. */
export function blocksFromWire(wire: WireBlock[]): IngestBlock[] {
  return wire.map((w) => {
    const columns = w.columns.map((wc) => {
      const c = new BlockColumn(wc.name, 0);
      c.kinds = wc.kinds;
      c.nums = wc.nums;
      c.count = wc.count;
      c.firstLine = wc.firstLine;
      if (wc.codes && wc.dict) {
        // Filled first, then set: the quickest way to a dense array in V8 (push is slower).
        // Rows past the codes (none from blocksToWire) have no payload; a later setRef
        // fills up to the capacity.
        const codes = wc.codes, n = codes.length;
        // An array arrives as a plain {shape, data} (structured clone drops the class).
        const dict = wc.dict.map((v): CellRef => {
          if (typeof v !== "object" || v instanceof DoubleArray) return v;
          const plain = v as { shape: number[]; data: Float64Array };
          return new DoubleArray(plain.shape, plain.data);
        });
        const refs = new Array<CellRef | null>(n).fill(null);
        for (let i = 0; i < n; i++) {
          const code = codes[i];
          if (code >= 0) refs[i] = dict[code];
        }
        c.refs = refs;
      }
      return c;
    });
    return IngestBlock.restore(w.table, w.rowCount, w.lines, w.timestamps, columns);
  });
}
