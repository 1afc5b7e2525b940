/**
 * Dense ids for the values of one key column, batch by batch: `map` writes, per row, the id of
 * the row's value (0, 1, 2, ... in first-appearance order; NULL gets an id of its own), and
 * `values[id]` is the value in scalar form. Each vector layout has its own loop:
 *
 * - SYMBOL with a dictionary: a per-dictionary table from dictionary key to id, so a row costs
 *   one array read; ids go through the symbol's text, so batches with different dictionaries
 *   (a UNION of two tables) agree. SYMBOL codes without a dictionary (worker heaps): a direct
 *   table from code to id, the code being the value.
 * - BYTE/SHORT/CHAR/BOOLEAN: a direct table over the 16-bit range.
 * - INT/IPV4, LONG/DATE/TIMESTAMP, FLOAT/DOUBLE: the value's 32-bit words in an IntPairHash
 *   (NULL sentinels and all non-finite doubles fold into one NULL word pair; -0 into 0).
 * - Text cast from a SYMBOL column (symbol_cast.ts textOrigin): as the symbol, by its codes.
 * - Anything else (strings, computed symbols, UUID, ...): a Map over the value's key.
 */
import { type SymbolDict, type Value, type Vector } from "../../base/values.ts";
import { valueKey } from "../../plan/bound.ts";
import { readValue } from "../../base/values.ts";
import { IntPairHash } from "./int_hash.ts";
import { textOrigin } from "./symbol_cast.ts";

const NULL_HI = -2147483648;
/**
 * Values 0..SMALL-1 of INT and LONG-like keys get their ids by direct index; the table doubles
 * up to SMALL_MAX entries (256 KB) when larger small values come (qty in 1..10000).
 */
const SMALL = 4096;
const SMALL_MAX = 65536;

export class KeyIds {
  /** Scalar value of each id. */
  readonly values: Value[] = [];
  #symbolTables = new Map<unknown, Int32Array>();
  #byText = new Map<unknown, number>();
  #small?: Int32Array;
  #codeTable = new Int32Array(0);
  #direct?: Int32Array;
  #pairs?: IntPairHash;
  #hi = new Int32Array(0);
  #lo = new Int32Array(0);

  get size(): number {
    return this.values.length;
  }

  /**
   * The dictionary every id so far came from by its code (#symbolCodes), undefined before the
   * first id, null once an id came another way or from another dictionary; `#codeOf[id]` is
   * the id's code (-1: NULL) while it is set.
   */
  #soleDict: SymbolDict | null | undefined;
  #codeOf: number[] = [];

  /**
   * The ids' codes in the one dictionary all the ids' values came from (SYMBOL keys of one
   * table), or undefined: a SYMBOL result column can then be those codes with the dictionary,
   * as a scan gives them, instead of a string per group.
   */
  symbolCodes(): { codes: Int32Array; dict: SymbolDict } | undefined {
    const dict = this.#soleDict;
    if (!dict || this.#codeOf.length !== this.values.length) return undefined;
    return { codes: Int32Array.from(this.#codeOf), dict };
  }

  /** The values scanned for NULL so far by `nullId`, and the NULL's id (-1: none among them). */
  #nullScanned = 0;
  #nullId = -1;

  /** The id of NULL, or -1 while no row has been NULL (each value is looked at once). */
  nullId(): number {
    const values = this.values;
    for (; this.#nullId < 0 && this.#nullScanned < values.length; this.#nullScanned++) {
      if (values[this.#nullScanned] === null) this.#nullId = this.#nullScanned;
    }
    return this.#nullId;
  }

  /**
   * Bytes held, for the statement's memory budget: a value slot and its boxed number (or
   * string or bigint header) about 16 bytes, plus the id tables.
   */
  get bytes(): number {
    return this.values.length * 16 + (this.#pairs?.bytes ?? 0) +
      4 * ((this.#direct?.length ?? 0) + (this.#small?.length ?? 0) + this.#codeTable.length);
  }

  /** out[i] = id of row i of `v`, for i < n. */
  map(v: Vector, n: number, out: Int32Array): void {
    const d = v.data;
    const tag = v.type.tag;
    if (tag === "SYMBOL" && v.dict) return this.#symbol(v, n, out);
    if (tag === "SYMBOL" && d instanceof Int32Array) return this.#codes(d, n, out);
    if (d instanceof Int8Array || d instanceof Int16Array || d instanceof Uint16Array) {
      return this.#smallInts(v, n, out);
    }
    if (d instanceof Int32Array && tag !== "IPV4") return this.#ints(v, d, 1, n, out);
    if (d instanceof Int32Array) return this.#words(v, d, n, out, 0);
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
      if (tag !== "LONG256") return this.#ints(v, w, 2, n, out);
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
    // Text cast from a symbol (symbol_cast.ts): ids per code, as for the symbol itself.
    const origin = textOrigin(d);
    if (origin && origin.codes.length >= n) return this.#symbolCodes(origin.codes, origin.dict, n, out);
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
    this.#symbolCodes(v.data as Int32Array, v.dict!, n, out);
  }

  #symbolCodes(keys: Int32Array, dict: SymbolDict, n: number, out: Int32Array): void {
    let table = this.#symbolTables.get(dict);
    if (!table || table.length < dict.size + 1) {
      const grown = new Int32Array(dict.size + 1).fill(-1);
      if (table) {
        // The old NULL slot (the old size) is a code of the grown dictionary now.
        grown.set(table);
        grown[table.length - 1] = -1;
      }
      this.#symbolTables.set(dict, table = grown);
    }
    const nullSlot = dict.size;
    if (this.#soleDict !== dict) {
      this.#soleDict = this.#soleDict === undefined && this.values.length === 0 ? dict : null;
    }
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      const slot = k < 0 || k >= nullSlot ? nullSlot : k;
      let id = table[slot];
      if (id < 0) {
        const text = slot === nullSlot ? null : dict.valueOf(slot);
        const before = this.values.length;
        id = this.#textId(text);
        if (id === before && this.#codeOf.length === before) this.#codeOf.push(slot === nullSlot ? -1 : slot);
        table[slot] = id;
      }
      out[i] = id;
    }
  }

  /**
   * SYMBOL keys without a dictionary (a worker's snapshot: hash_parallel.ts) group by their
   * codes through a direct table, as #symbol does; the value of an id is the code (a number),
   * or null for a negative code.
   */
  #codes(keys: Int32Array, n: number, out: Int32Array): void {
    let table = this.#codeTable;
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      const slot = k < 0 ? 0 : k + 1;
      if (slot >= table.length) {
        const grown = new Int32Array(Math.max(slot + 1, table.length * 2)).fill(-1);
        grown.set(table);
        this.#codeTable = table = grown;
      }
      let id = table[slot];
      if (id < 0) {
        id = this.values.length;
        this.values.push(k < 0 ? null : k);
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

  /**
   * INT (`step` 1) or LONG-like (`step` 2: low word, high word) values: small non-negative ones
   * (hour(ts), qty % 7, ...) by a direct table, one read a row; others, and a small value's
   * first row, through the pair table, which alone hands out ids (the direct table caches them).
   */
  #ints(v: Vector, w: Int32Array, step: 1 | 2, n: number, out: Int32Array): void {
    let direct = this.#direct ??= new Int32Array(SMALL).fill(-1);
    const pairs = this.#pairs ??= new IntPairHash();
    const values = this.values;
    // Loops with the word stride known, over the leading rows whose ids the direct table already
    // holds (all of them, once a low-cardinality key has been seen); the general loop below
    // takes the rest from the first row that needs it.
    let i = 0;
    if (step === 1) {
      for (; i < n; i++) {
        const lo = w[i];
        const id = lo >>> 0 < direct.length ? direct[lo] : -1;
        if (id < 0) break;
        out[i] = id;
      }
    } else {
      for (; i < n; i++) {
        const lo = w[2 * i];
        const id = w[2 * i + 1] === 0 && lo >>> 0 < direct.length ? direct[lo] : -1;
        if (id < 0) break;
        out[i] = id;
      }
    }
    // The previous row's words and id: runs of one key (date_trunc('day', ts) over sorted
    // times, 30 keys in 10M rows) skip the pair table, one call a row before.
    let plo = 0, phi = 0, pid = -1;
    for (; i < n; i++) {
      const lo = w[step * i], hi = step === 2 ? w[2 * i + 1] : 0;
      if (lo === plo && hi === phi && pid >= 0) {
        out[i] = pid;
        continue;
      }
      plo = lo;
      phi = hi;
      const small = hi === 0 && lo >>> 0 < SMALL_MAX;
      if (small && lo >= direct.length) direct = this.#widenDirect(lo);
      if (small) {
        const id = direct[lo];
        if (id >= 0) {
          out[i] = pid = id;
          continue;
        }
      }
      // INT's NULL (INT_MIN) becomes the pair (NULL_HI, 0); LONG_NULL already is that pair.
      const id = step === 1 && lo === NULL_HI ? pairs.idOf(NULL_HI, 0) : pairs.idOf(hi, lo);
      if (id === values.length) values.push(readValue(v, i));
      if (small) direct[lo] = id;
      out[i] = pid = id;
    }
  }

  /** The direct table grown to hold value `lo` (< SMALL_MAX), keeping its ids. */
  #widenDirect(lo: number): Int32Array {
    let n = this.#direct!.length;
    while (n <= lo) n *= 2;
    const grown = new Int32Array(n).fill(-1);
    grown.set(this.#direct!);
    return this.#direct = grown;
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
