/**
 * Symbol dictionaries (spec/sql.md §2.1 SYMBOL): strings interned per column, keys 0..n-1 in
 * first-seen order, key -1 for NULL.
 *
 * `SymbolTable` is the append-only dictionary a table writes to; it is also a plain
 * `SymbolDict` that the engine may use for symbol vectors it builds itself. Snapshots get a
 * `SymbolDictView` bounded by the committed size at snapshot time, so entries interned by a
 * later (or failed) append are invisible to them.
 */
import type { SymbolDict } from "../base/values.ts";

/** A dictionary that grows by interning; entries past `committedCount` are not yet durable. */
export class SymbolTable implements SymbolDict {
  #values: string[] = [];
  #keys = new Map<string, number>();
  /** Entries that are in the dictionary file and named by the transaction file. */
  committedCount = 0;
  /** Bytes of the dictionary file that hold the committed entries. */
  committedBytes = 0;

  /** A dictionary holding `values` in order, all of them counted as committed. */
  static of(values: Iterable<string>): SymbolTable {
    const t = new SymbolTable();
    for (const v of values) t.intern(v);
    t.committedCount = t.size;
    return t;
  }

  get size(): number {
    return this.#values.length;
  }

  valueOf(key: number): string | null {
    return key >= 0 && key < this.#values.length ? this.#values[key] : null;
  }

  keyOf(value: string): number | undefined {
    return this.#keys.get(value);
  }

  /** The key of `value`, adding it when new. */
  intern(value: string): number {
    let key = this.#keys.get(value);
    if (key === undefined) {
      key = this.#values.length;
      this.#values.push(value);
      this.#keys.set(value, key);
    }
    return key;
  }

  /** Forgets entries interned since the last commit (a failed write). */
  rollback(): void {
    while (this.#values.length > this.committedCount) this.#keys.delete(this.#values.pop()!);
  }

  /** The file encoding of the uncommitted entries: per entry an int32 LE length in UTF-16 units, then the units. */
  pendingBytes(): Uint8Array {
    let bytes = 0;
    for (let k = this.committedCount; k < this.#values.length; k++) bytes += 4 + 2 * this.#values[k].length;
    const out = new Uint8Array(bytes);
    const view = new DataView(out.buffer);
    let at = 0;
    for (let k = this.committedCount; k < this.#values.length; k++) {
      const s = this.#values[k];
      view.setInt32(at, s.length, true);
      at += 4;
      for (let i = 0; i < s.length; i++, at += 2) view.setUint16(at, s.charCodeAt(i), true);
    }
    return out;
  }

  /** Records that the uncommitted entries (`bytes` long in the file) are now committed. */
  markCommitted(bytes: number): void {
    this.committedCount = this.#values.length;
    this.committedBytes += bytes;
  }

  /** A read-only view of the first `count` entries. */
  view(count: number): SymbolDict {
    return new SymbolDictView(this, count);
  }
}

/** The first `size` entries of a `SymbolTable`: what one snapshot sees. */
export class SymbolDictView implements SymbolDict {
  readonly #table: SymbolTable;
  readonly size: number;

  constructor(table: SymbolTable, size: number) {
    this.#table = table;
    this.size = size;
  }

  valueOf(key: number): string | null {
    return key >= 0 && key < this.size ? this.#table.valueOf(key) : null;
  }

  keyOf(value: string): number | undefined {
    const key = this.#table.keyOf(value);
    return key !== undefined && key < this.size ? key : undefined;
  }
}

/**
 * Parses the first `count` entries of a dictionary file. Returns the table (all entries
 * committed) and the byte length they occupy; fewer entries than `count` is an error.
 */
export function decodeSymbolFile(
  bytes: Uint8Array,
  count: number,
): { table: SymbolTable; byteLength: number } | undefined {
  const table = new SymbolTable();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 4 > bytes.length) return undefined;
    const units = view.getInt32(at, true);
    at += 4;
    if (units < 0 || at + 2 * units > bytes.length) return undefined;
    let s = "";
    for (let i = 0; i < units; i += 4096) {
      const n = Math.min(4096, units - i);
      const codes = new Array<number>(n);
      for (let j = 0; j < n; j++) codes[j] = view.getUint16(at + 2 * (i + j), true);
      s += String.fromCharCode(...codes);
    }
    at += 2 * units;
    table.intern(s);
  }
  table.committedCount = table.size;
  table.committedBytes = at;
  return { table, byteLength: at };
}
