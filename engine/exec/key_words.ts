/**
 * Key values as 32-bit word pairs, for hash operators over batches (hash_join.ts, setop.ts):
 * `KeyEncoder` writes, per row, two words that are equal exactly when the values are equal
 * under the row operators' rules (valueKey/normKey): integers of every width as their 64-bit
 * value (a type's NULL sentinel as one NULL pair), floats as their bits (-0 as 0, every
 * non-finite value as NULL), text (SYMBOL, STRING, VARCHAR) as an id from a map shared by the
 * encoders of one operator (symbol dictionaries map each key once). `hashRows` hashes rows'
 * words key by key; `WordSet` is a set of such rows.
 */
import type { Batch, SymbolDict, Vector } from "../base/values.ts";

/** How one key column is compared. */
export type KeyFamily = "int" | "float" | "text";

const NULL_HI = -2147483648;
const INT_NULL = -2147483648;
/** Text ids: NULL on both sides, and probe text the build side never had. */
const TEXT_NULL = -1;
const TEXT_UNSEEN = -2;
/** Symbol table entry not computed yet. */
const UNMAPPED = -3;

/** Writes the words of one key column's rows; text ids come from `texts` (shared by both sides). */
export class KeyEncoder {
  readonly #dictIds = new Map<SymbolDict, Int32Array>();
  readonly #f = new Float64Array(1);
  readonly #fw = new Int32Array(this.#f.buffer);

  constructor(
    readonly family: KeyFamily,
    readonly texts: Map<string, number>,
    /** Build side: new text gets an id; probe side: it gets TEXT_UNSEEN. */
    readonly adds: boolean,
  ) {}

  encode(v: Vector, n: number, hi: Int32Array, lo: Int32Array): void {
    if (this.family === "text") return this.#text(v, n, hi, lo);
    const d = v.data;
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
      for (let i = 0; i < n; i++) {
        lo[i] = w[2 * i];
        hi[i] = w[2 * i + 1];
      }
    } else if (d instanceof Float64Array || d instanceof Float32Array) {
      const f = this.#f, fw = this.#fw;
      for (let i = 0; i < n; i++) {
        const x = d[i];
        if (x - x !== 0) {
          hi[i] = NULL_HI;
          lo[i] = 0;
          continue;
        }
        f[0] = x === 0 ? 0 : x;
        lo[i] = fw[0];
        hi[i] = fw[1];
      }
    } else if (d instanceof Int32Array) {
      for (let i = 0; i < n; i++) {
        const x = d[i];
        lo[i] = x === INT_NULL ? 0 : x;
        hi[i] = x === INT_NULL ? NULL_HI : x >> 31;
      }
    } else if (d instanceof Int8Array || d instanceof Int16Array || d instanceof Uint16Array) {
      // BYTE, SHORT, BOOLEAN and CHAR: each value is its own key (CHAR's NULL is 0).
      for (let i = 0; i < n; i++) {
        lo[i] = d[i];
        hi[i] = d[i] >> 31;
      }
    } else {
      this.#scalars(d as unknown[], n, hi, lo);
    }
  }

  /** Values in scalar form (a computed column): numbers and bigints by value, NULL as NULL. */
  #scalars(values: unknown[], n: number, hi: Int32Array, lo: Int32Array): void {
    const f = this.#f, fw = this.#fw;
    for (let i = 0; i < n; i++) {
      const x = values[i];
      if (x === null || x === undefined || (typeof x === "number" && x - x !== 0)) {
        hi[i] = NULL_HI;
        lo[i] = 0;
      } else if (this.family === "float" || (typeof x === "number" && !Number.isInteger(x))) {
        f[0] = (x as number) === 0 ? 0 : Number(x);
        lo[i] = fw[0];
        hi[i] = fw[1];
      } else {
        const big = BigInt.asIntN(64, BigInt(x as number | bigint));
        lo[i] = Number(BigInt.asIntN(32, big));
        hi[i] = Number(big >> 32n);
      }
    }
  }

  #idOf(text: string | null): number {
    if (text === null) return TEXT_NULL;
    let id = this.texts.get(text);
    if (id === undefined) {
      if (!this.adds) return TEXT_UNSEEN;
      this.texts.set(text, id = this.texts.size);
    }
    return id;
  }

  #text(v: Vector, n: number, hi: Int32Array, lo: Int32Array): void {
    hi.fill(0, 0, n);
    const d = v.data;
    if (v.dict && d instanceof Int32Array) {
      const dict = v.dict;
      let ids = this.#dictIds.get(dict);
      // A live dictionary may have grown since: new keys get entries.
      if (!ids || ids.length < dict.size) {
        const grown = new Int32Array(dict.size).fill(UNMAPPED);
        if (ids) grown.set(ids);
        this.#dictIds.set(dict, ids = grown);
      }
      for (let i = 0; i < n; i++) {
        const k = d[i];
        if (k < 0 || k >= ids.length) {
          lo[i] = TEXT_NULL;
          continue;
        }
        let id = ids[k];
        if (id === UNMAPPED) ids[k] = id = this.#idOf(dict.valueOf(k));
        lo[i] = id;
      }
      return;
    }
    const values = d as unknown[];
    for (let i = 0; i < n; i++) {
      const x = values[i];
      lo[i] = this.#idOf(x === null || x === undefined ? null : String(x));
    }
  }
}

/**
 * out[i] = the hash of row i's key words, for i < n: key by key over all rows, so that each
 * pass is one tight loop over two arrays.
 */
export function hashRows(hi: Int32Array[], lo: Int32Array[], n: number, out: Int32Array): void {
  out.fill(0x9e3779b9 | 0, 0, n);
  for (let k = 0; k < hi.length; k++) {
    const h32 = hi[k], l32 = lo[k];
    for (let i = 0; i < n; i++) {
      let h = Math.imul(out[i] ^ l32[i], 0x85ebca6b);
      h ^= h >>> 15;
      h = Math.imul(h ^ h32[i], 0xc2b2ae35);
      out[i] = h ^ (h >>> 13);
    }
  }
}

/** Growable Int32Array. */
export class Ints {
  data = new Int32Array(1024);
  length = 0;
  append(src: Int32Array, n: number): void {
    if (this.length + n > this.data.length) {
      const grown = new Int32Array(Math.max(this.length + n, this.data.length * 2));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(src.subarray(0, n), this.length);
    this.length += n;
  }

  push(x: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
  }
}

/**
 * A batch's key columns as words and row hashes, in arrays reused from batch to batch: what
 * the hash join's probe and the set operations read per batch.
 */
export class BatchWords {
  hi: Int32Array[] = [];
  lo: Int32Array[] = [];
  hashes = new Int32Array(0);

  /** `columns[k]` is the batch column `encoders[k]` encodes. */
  constructor(readonly encoders: KeyEncoder[], readonly columns: number[]) {}

  encode(b: Batch): void {
    const count = b.rowCount;
    if (this.hashes.length < count) {
      this.hi = this.encoders.map(() => new Int32Array(count));
      this.lo = this.encoders.map(() => new Int32Array(count));
      this.hashes = new Int32Array(count);
    }
    this.encoders.forEach((e, k) => e.encode(b.columns[this.columns[k]], count, this.hi[k], this.lo[k]));
    hashRows(this.hi, this.lo, count, this.hashes);
  }
}

/** The family a set operation compares a column of this type in, or undefined (rows compare). */
export function columnFamily(tag: string): KeyFamily | undefined {
  if (WORD_TYPES.has(tag)) return "int";
  if (tag === "DOUBLE" || tag === "FLOAT") return "float";
  if (tag === "SYMBOL" || tag === "STRING" || tag === "VARCHAR") return "text";
  return undefined;
}

/** Types whose vectors are typed arrays in which distinct values are distinct elements. */
const WORD_TYPES = new Set([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "CHAR",
  "INT",
  "IPV4",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
]);

/**
 * A set of rows given as key words (`KeyEncoder`) and hashes (`hashRows`): a chained table
 * over stored copies of the rows, grown (rehashed from the stored hashes) at half load. Each
 * stored row is one stride of `#rows` (next row of its chain, hash, then each key's two words),
 * so that a probe reads one cache line per row it visits.
 */
export class WordSet {
  readonly #stride: number;
  #rows: Int32Array;
  #first = new Int32Array(2048).fill(-1);
  #mask = 2047;
  size = 0;

  constructor(keys: number) {
    this.#stride = 2 + 2 * keys;
    this.#rows = new Int32Array(1024 * this.#stride);
  }

  /** The stored row equal to row `i` of the given words (hash `h`), or -1. */
  #find(hi: Int32Array[], lo: Int32Array[], h: number, i: number): number {
    const rows = this.#rows, stride = this.#stride, keys = hi.length;
    const x = hi[0][i], y = lo[0][i];
    for (let r = this.#first[h & this.#mask]; r >= 0;) {
      const at = r * stride;
      if (rows[at + 1] === h && rows[at + 2] === x && rows[at + 3] === y) {
        let same = true;
        for (let k = 1; k < keys && same; k++) {
          same = rows[at + 2 + 2 * k] === hi[k][i] && rows[at + 3 + 2 * k] === lo[k][i];
        }
        if (same) return r;
      }
      r = rows[at];
    }
    return -1;
  }

  /** For rows i < n: out[i] = 1 when the set holds the row. */
  has(hi: Int32Array[], lo: Int32Array[], hashes: Int32Array, n: number, out: Uint8Array): void {
    for (let i = 0; i < n; i++) out[i] = this.#find(hi, lo, hashes[i], i) >= 0 ? 1 : 0;
  }

  /** Adds rows i < n; out[i] = 1 when row i was not in the set before (earlier rows included). */
  add(hi: Int32Array[], lo: Int32Array[], hashes: Int32Array, n: number, out: Uint8Array): void {
    const stride = this.#stride;
    for (let i = 0; i < n; i++) {
      const h = hashes[i];
      if (this.#find(hi, lo, h, i) >= 0) {
        out[i] = 0;
        continue;
      }
      out[i] = 1;
      const r = this.size++;
      if ((r + 1) * stride > this.#rows.length) {
        const grown = new Int32Array(this.#rows.length * 2);
        grown.set(this.#rows);
        this.#rows = grown;
      }
      const rows = this.#rows, at = r * stride, bucket = h & this.#mask;
      rows[at] = this.#first[bucket];
      rows[at + 1] = h;
      for (let k = 0; k < hi.length; k++) {
        rows[at + 2 + 2 * k] = hi[k][i];
        rows[at + 3 + 2 * k] = lo[k][i];
      }
      this.#first[bucket] = r;
      if (this.size * 2 > this.#first.length) this.#grow();
    }
  }

  #grow(): void {
    const size = this.#first.length * 2;
    const first = new Int32Array(size).fill(-1);
    const mask = size - 1;
    const rows = this.#rows, stride = this.#stride;
    // Chains keep no order a caller relies on: rows are re-linked from the last one down.
    for (let r = this.size - 1; r >= 0; r--) {
      const bucket = rows[r * stride + 1] & mask;
      rows[r * stride] = first[bucket];
      first[bucket] = r;
    }
    this.#first = first;
    this.#mask = mask;
  }
}
