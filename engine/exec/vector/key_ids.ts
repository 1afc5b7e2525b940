/**
 * Dense ids for the values of one key column, batch by batch: `map` writes, per row, the id of
 * the row's value (0, 1, 2, ... in first-appearance order; NULL gets an id of its own), and
 * `values[id]` is the value in scalar form. Each vector layout has its own loop:
 *
 * - SYMBOL with a dictionary: a per-dictionary table from dictionary key to id, so a row costs
 *   one array read; ids go through the symbol's text, so batches with different dictionaries
 *   (a UNION of two tables) agree.
 * - BYTE/SHORT/CHAR/BOOLEAN: a direct table over the 16-bit range.
 * - INT/IPV4, LONG/DATE/TIMESTAMP, FLOAT/DOUBLE: the value's 32-bit words in an IntPairHash
 *   (NULL sentinels and all non-finite doubles fold into one NULL word pair; -0 into 0).
 * - Anything else (strings, computed symbols, UUID, ...): a Map over the value's key.
 */
import { type Value, type Vector } from "../../base/values.ts";
import { valueKey } from "../../plan/bound.ts";
import { readValue } from "../../base/values.ts";
import { IntPairHash } from "./int_hash.ts";

const NULL_HI = -2147483648;

export class KeyIds {
  /** Scalar value of each id. */
  readonly values: Value[] = [];
  #symbolTables = new Map<unknown, Int32Array>();
  #byText = new Map<unknown, number>();
  #small?: Int32Array;
  #pairs?: IntPairHash;
  #hi = new Int32Array(0);
  #lo = new Int32Array(0);

  get size(): number {
    return this.values.length;
  }

  /** out[i] = id of row i of `v`, for i < n. */
  map(v: Vector, n: number, out: Int32Array): void {
    const d = v.data;
    const tag = v.type.tag;
    if (tag === "SYMBOL" && v.dict) return this.#symbol(v, n, out);
    if (d instanceof Int8Array || d instanceof Int16Array || d instanceof Uint16Array) {
      return this.#smallInts(v, n, out);
    }
    if (d instanceof Int32Array) return this.#words(v, d, n, out, tag === "IPV4" ? 0 : NULL_HI);
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
      this.#ensure(n);
      const hi = this.#hi, lo = this.#lo;
      // LONG_NULL is hi = INT_MIN, lo = 0: the (NULL_HI, 0) pair the NULL test below uses.
      for (let i = 0; i < n; i++) {
        lo[i] = w[2 * i];
        hi[i] = w[2 * i + 1];
      }
      return this.#pairsOf(v, hi, lo, n, out);
    }
    if (d instanceof Float64Array || d instanceof Float32Array) {
      this.#ensure(n);
      const hi = this.#hi, lo = this.#lo;
      const f = new Float64Array(1), w = new Int32Array(f.buffer);
      for (let i = 0; i < n; i++) {
        const x = d[i];
        if (x - x !== 0) {
          hi[i] = NULL_HI;
          lo[i] = 0;
          continue;
        }
        f[0] = x === 0 ? 0 : x;
        lo[i] = w[0];
        hi[i] = w[1];
      }
      return this.#pairsOf(v, hi, lo, n, out);
    }
    const arr = d as Value[];
    const byText = this.#byText;
    for (let i = 0; i < n; i++) {
      const x = arr[i] ?? null;
      const k = valueKey(x);
      let id = byText.get(k);
      if (id === undefined) {
        id = this.values.length;
        this.values.push(x);
        byText.set(k, id);
      }
      out[i] = id;
    }
  }

  #ensure(n: number): void {
    if (this.#hi.length < n) {
      this.#hi = new Int32Array(n);
      this.#lo = new Int32Array(n);
    }
  }

  #symbol(v: Vector, n: number, out: Int32Array): void {
    const dict = v.dict!;
    const keys = v.data as Int32Array;
    let table = this.#symbolTables.get(dict);
    if (!table || table.length < dict.size + 1) {
      const grown = new Int32Array(dict.size + 1).fill(-1);
      if (table) grown.set(table);
      this.#symbolTables.set(dict, table = grown);
    }
    const nullSlot = dict.size;
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      const slot = k < 0 || k >= nullSlot ? nullSlot : k;
      let id = table[slot];
      if (id < 0) {
        const text = slot === nullSlot ? null : dict.valueOf(slot);
        id = this.#textId(text);
        table[slot] = id;
      }
      out[i] = id;
    }
  }

  #textId(x: Value): number {
    const k = valueKey(x);
    let id = this.#byText.get(k);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(x);
      this.#byText.set(k, id);
    }
    return id;
  }

  #smallInts(v: Vector, n: number, out: Int32Array): void {
    const d = v.data as Int8Array | Int16Array | Uint16Array;
    const table = this.#small ??= new Int32Array(65536).fill(-1);
    for (let i = 0; i < n; i++) {
      const slot = d[i] & 0xffff;
      let id = table[slot];
      if (id < 0) {
        id = this.values.length;
        this.values.push(readValue(v, i));
        table[slot] = id;
      }
      out[i] = id;
    }
  }

  #words(v: Vector, d: Int32Array, n: number, out: Int32Array, nullWord: number): void {
    this.#ensure(n);
    const hi = this.#hi, lo = this.#lo;
    // A value's high word is 0 here, so the NULL pair (NULL_HI, 0) cannot be a value.
    for (let i = 0; i < n; i++) {
      const x = d[i];
      hi[i] = x === nullWord ? NULL_HI : 0;
      lo[i] = x === nullWord ? 0 : x;
    }
    this.#pairsOf(v, hi, lo, n, out);
  }

  /**
   * Maps word pairs to value ids: the pair table is this column's only source of ids (its
   * layout is fixed by its type), so pair ids are value ids. A new id's scalar value is read
   * from `v` at its first row; ids first appear in increasing order.
   */
  #pairsOf(v: Vector, hi: Int32Array, lo: Int32Array, n: number, out: Int32Array): void {
    const pairs = this.#pairs ??= new IntPairHash();
    const before = pairs.size;
    pairs.mapBatch(hi, lo, n, out);
    if (pairs.size === before) return;
    const values = this.values;
    for (let i = 0; i < n && values.length < pairs.size; i++) {
      if (out[i] === values.length) values.push(readValue(v, i));
    }
  }
}
