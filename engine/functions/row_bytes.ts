/**
 * Result rows as JSON array bytes (`[c0,c1],[c0,c1]`), assembled in WASM memory for /exec:
 * the json_rows kernel writes DOUBLE values as text straight into their rows (Ryu's shortest
 * digits in Java's layout: the text formatDouble gives), LONG values too (no BigInt per value),
 * and copies the other columns' cells, which arrive as text, encoded there once per column.
 * One pass over the rows: formatting each DOUBLE column apart and then interleaving the cells
 * cost ~0.4 ms more of ~5 (12,288 rows x 9 columns, 3.3 ms of it the digits). Against building a
 * string cell by cell and encoding it, this cut the main thread's text time of a wide numeric
 * result (TSBS double-groupby-all: 12,000 rows x 7 DOUBLEs) by about two thirds: String(x) per
 * double, the concatenation and the encoder's flattening of the rope were most of it.
 */
import {
  FORMAT_F64_BYTES,
  FORMAT_I64_BYTES,
  JSON_CELLS,
  JSON_COLUMN_WORDS,
  kernels,
  wasmMemory,
} from "../../engine-wasm/mod.ts";
import { formatDouble } from "./double_format.ts";

/**
 * A column of the rows: DOUBLE values (NULL: non-finite, printed `null`), LONG values (NULL:
 * LONG_NULL, printed `null`; `quote` puts the others in double quotes) or each row's cell text.
 */
export type RowColumn = { doubles: Float64Array } | { longs: BigInt64Array; quote: boolean } | {
  cells: string[];
};

const encoder = new TextEncoder();

/**
 * `rows` rows of the columns as JSON arrays, comma-separated, with a comma before the first
 * unless `first`. Undefined when the WASM memory has no room: the caller builds the text itself.
 */
export function rowBytes(
  columns: RowColumn[],
  rows: number,
  first: boolean,
): Uint8Array<ArrayBuffer> | undefined {
  const n = rows, ncols = columns.length;
  if (n <= 0) return new Uint8Array(0);
  const mem = wasmMemory();
  const blocks: number[] = [];
  const alloc = (bytes: number): number => {
    const p = mem.alloc(Math.max(16, bytes));
    if (p >= 0) blocks.push(p);
    return p;
  };
  try {
    const cols = alloc(ncols * JSON_COLUMN_WORDS * 4);
    if (cols < 0) return undefined;
    // Per column: kind and two addresses (JsonRowsArgs). DOUBLE and LONG values are written
    // as text by the row kernel itself, straight into their rows.
    const words = new Array<number>(ncols * JSON_COLUMN_WORDS).fill(0);
    let bytes = n * (ncols + 2);
    for (let c = 0; c < ncols; c++) {
      const col = columns[c], w = c * JSON_COLUMN_WORDS;
      if ("doubles" in col || "longs" in col) {
        const data = alloc(n * 8);
        if (data < 0) return undefined;
        if ("doubles" in col) {
          mem.f64(data, n).set(col.doubles.subarray(0, n));
          words[w] = JSON_CELLS.f64;
          bytes += n * FORMAT_F64_BYTES;
        } else {
          mem.i64(data, n).set(col.longs.subarray(0, n));
          words[w] = col.quote ? JSON_CELLS.i64Quoted : JSON_CELLS.i64;
          bytes += n * FORMAT_I64_BYTES;
        }
        words[w + 1] = data;
        continue;
      }
      const all = col.cells.join("");
      // UTF-8 takes at most 3 bytes per UTF-16 unit; ASCII (the usual case) exactly one.
      const base = alloc(all.length * 3), ends = alloc(n * 4);
      if (base < 0 || ends < 0) return undefined;
      encodeCells(all, col.cells, base, ends, n);
      words[w] = JSON_CELLS.text;
      words[w + 1] = base;
      words[w + 2] = ends;
      bytes += mem.i32(ends, n)[n - 1];
    }
    const out = alloc(bytes);
    if (out < 0) return undefined;
    mem.i32(cols, words.length).set(words);
    let len = kernels().jsonRows({ cols, colCount: ncols, rows: n, first, out });
    if (len < 0) {
      // A subnormal DOUBLE: the DOUBLE columns become cell text first (formatDoubles writes
      // those cells with formatDouble), at most FORMAT_F64_BYTES a cell as counted above.
      for (let w = 0; w < words.length; w += JSON_COLUMN_WORDS) {
        if (words[w] !== JSON_CELLS.f64) continue;
        const base = alloc(n * FORMAT_F64_BYTES), ends = alloc(n * 4);
        if (base < 0 || ends < 0) return undefined;
        formatDoubles(words[w + 1], n, base, ends);
        words.splice(w, JSON_COLUMN_WORDS, JSON_CELLS.text, base, ends);
      }
      mem.i32(cols, words.length).set(words);
      len = kernels().jsonRows({ cols, colCount: ncols, rows: n, first, out });
    }
    return mem.u8(out, len).slice();
  } finally {
    for (const p of blocks) mem.free(p);
  }
}

/** The kernel's text of `n` doubles at `data`; a subnormal value it stops at is written here. */
function formatDoubles(data: number, n: number, out: number, ends: number): void {
  const k = kernels(), mem = wasmMemory();
  let from = 0, pos = 0;
  for (;;) {
    const stop = k.formatF64({ data, count: n, from, pos, out, ends });
    if (stop >= n) return;
    const text = formatDouble(mem.f64(data, n)[stop]);
    pos = stop === 0 ? 0 : mem.i32(ends, n)[stop - 1];
    pos += encoder.encodeInto(text, mem.u8(out + pos, FORMAT_F64_BYTES)).written;
    mem.i32(ends, n)[stop] = pos;
    from = stop + 1;
  }
}

/** Encodes the cells (joined in `all`) at `base` and their end offsets at `ends`. */
function encodeCells(all: string, cells: string[], base: number, ends: number, n: number): void {
  const mem = wasmMemory();
  const endsView = mem.i32(ends, n);
  const room = mem.u8(base, Math.max(1, all.length * 3));
  const { written } = encoder.encodeInto(all, room);
  let pos = 0;
  if (written === all.length) {
    // All ASCII: a cell's bytes are its characters.
    for (let j = 0; j < n; j++) endsView[j] = pos += cells[j].length;
    return;
  }
  for (let j = 0; j < n; j++) {
    pos += encoder.encodeInto(cells[j], room.subarray(pos)).written;
    endsView[j] = pos;
  }
}
