/**
 * Group ids of several keys with small domains on this heap's hash aggregation (issue #16):
 * SYMBOL codes, date parts (`hour(ts)`), remainders by constants (`qty % 7`), BOOLEAN, BYTE and
 * SHORT (dense_groups.ts `denseKeyOf`, the workers' fused loop's domains). Each row's keys
 * become slots (0 for NULL) combined into one index of a direct table from composite slot to
 * group id, where the general path mapped every key to value ids (KeyIds) and folded them
 * pairwise (IntPairHash): ~25 ns a row for three keys, most of a small interval query's time.
 *
 * Ids are given in first-appearance order, as the general path's. A batch outside the domains
 * (a SYMBOL vector of another dictionary or as texts, a value past its range) is refused before
 * any id is given (`map` answers false): the caller replays the groups so far into the general
 * path (`keyValues`) and goes on there.
 */
import {
  allocVectorData,
  INT_NULL,
  LONG_NULL,
  type SymbolDict,
  type Value,
  type Vector,
  writeValue,
} from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { type DenseKey, denseKeyOf, denseSlots } from "./dense_groups.ts";

const LONG_NULL_HIGH = Number(LONG_NULL >> 32n);

/**
 * Whether this heap's hash aggregation of `n` groups through DenseIds (plan time, EXPLAIN's
 * `dense keys`): several keys, each a SYMBOL column or of a small domain. At run time a SYMBOL
 * dictionary too large for the table (DENSE_SLOTS_MAX slots in all) keeps the general path.
 */
export function denseIdsShape(n: { keys: BoundExpr[] }): boolean {
  return n.keys.length > 1 &&
    n.keys.every((k) =>
      (k.kind === "column" && k.type.tag === "SYMBOL") ||
      (k.type.tag !== "SYMBOL" && denseKeyOf(k, () => Infinity) !== undefined)
    );
}

/**
 * Tests: `refuseAfter` batches mapped, every grouping refuses the next one as a batch outside
 * its domains would (no query reaches that otherwise: a scan's SYMBOL codes always fit).
 */
export const denseIdsTesting = { refuseAfter: Infinity, replays: 0 };

export class DenseIds {
  readonly #keys: BoundExpr[];
  readonly #dense: DenseKey[];
  readonly #dicts: (SymbolDict | undefined)[];
  readonly #table: Int32Array;
  /** Each group's composite slot, in id order. */
  #firsts = new Int32Array(64);
  #size = 0;
  #comp = new Int32Array(0);
  #batches = 0;

  private constructor(
    keys: BoundExpr[],
    dense: DenseKey[],
    dicts: (SymbolDict | undefined)[],
    slots: number,
  ) {
    this.#keys = keys;
    this.#dense = dense;
    this.#dicts = dicts;
    this.#table = new Int32Array(slots).fill(-1);
  }

  /**
   * The dense grouping of `keys`, whose vectors for the first batch are `first` (SYMBOL keys'
   * dictionaries fix their domains), or undefined when a key has no small domain.
   */
  static of(keys: BoundExpr[], first: Vector[]): DenseIds | undefined {
    const dicts = first.map((
      v,
    ) => (v.type.tag === "SYMBOL" && v.data instanceof Int32Array ? v.dict : undefined));
    const dense: DenseKey[] = [];
    for (const [k, key] of keys.entries()) {
      const d = key.kind === "column" && key.type.tag === "SYMBOL"
        ? (dicts[k] ? { how: "sym" as const, lo: 0, slots: dicts[k]!.size + 1 } : undefined)
        : denseKeyOf(key, () => Infinity);
      if (!d) return undefined;
      dense.push(d);
    }
    const slots = denseSlots(dense);
    return slots === Infinity ? undefined : new DenseIds(keys, dense, dicts, slots);
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Writes each row's group id into `gids` (new groups take the next ids); false, giving no id,
   * when a vector is outside its key's domain.
   */
  map(vectors: Vector[], rows: number, gids: Int32Array): boolean {
    if (this.#batches++ >= denseIdsTesting.refuseAfter) return false;
    if (this.#comp.length < rows) this.#comp = new Int32Array(rows);
    const comp = this.#comp;
    comp.fill(0, 0, rows);
    for (const [k, d] of this.#dense.entries()) {
      if (!this.#slots(k, d, vectors[k], rows, comp)) return false;
    }
    const table = this.#table;
    for (let i = 0; i < rows; i++) {
      const c = comp[i];
      let g = table[c];
      if (g < 0) {
        g = table[c] = this.#size++;
        if (g === this.#firsts.length) {
          const grown = new Int32Array(g * 2);
          grown.set(this.#firsts);
          this.#firsts = grown;
        }
        this.#firsts[g] = c;
      }
      gids[i] = g;
    }
    return true;
  }

  /** comp = comp * slots + slot of key k, per row; false when a value is outside the domain. */
  #slots(k: number, d: DenseKey, v: Vector, rows: number, comp: Int32Array): boolean {
    const slots = d.slots, data = v.data;
    if (d.how === "sym") {
      if (!(data instanceof Int32Array) || v.dict !== this.#dicts[k]) return false;
      for (let i = 0; i < rows; i++) {
        const s = data[i] < 0 ? 0 : data[i] + 1;
        if (s >= slots) return false;
        comp[i] = comp[i] * slots + s;
      }
      return true;
    }
    if (d.how === "bool") {
      if (!(data instanceof Int8Array) && !(data instanceof Uint8Array)) return false;
      for (let i = 0; i < rows; i++) comp[i] = comp[i] * slots + (data[i] ? 2 : 1);
      return true;
    }
    const base = d.lo - 1;
    if (data instanceof BigInt64Array) {
      // LONG values through their words: small values have the low word's sign in the high.
      const w = new Int32Array(data.buffer, data.byteOffset, rows * 2);
      for (let i = 0; i < rows; i++) {
        const lo = w[2 * i], hi = w[2 * i + 1];
        let s = 0;
        if (hi === (lo >> 31)) {
          s = lo - base;
          if (s <= 0 || s >= slots) return false;
        } else if (hi !== LONG_NULL_HIGH || lo !== 0) return false;
        comp[i] = comp[i] * slots + s;
      }
      return true;
    }
    if (!(data instanceof Int32Array || data instanceof Int16Array || data instanceof Int8Array)) {
      return false;
    }
    // INT's NULL is its smallest value; SHORT and BYTE have none (their domains hold every value).
    const nullable = v.type.tag === "INT";
    for (let i = 0; i < rows; i++) {
      const x = data[i];
      let s = 0;
      if (!nullable || x !== INT_NULL) {
        s = x - base;
        if (s <= 0 || s >= slots) return false;
      }
      comp[i] = comp[i] * slots + s;
    }
    return true;
  }

  /**
   * Key k's value of every group as a vector, in id order (SYMBOL keys as codes of their
   * dictionary, as the batches held them): the groups so far, for the general path to replay.
   */
  keyVector(k: number): Vector {
    const t = this.#keys[k].type, dict = this.#dicts[k];
    const values = this.keyValues(k);
    if (dict) {
      const codes = new Int32Array(values.length);
      const slots = this.#slotsOf(k);
      for (let g = 0; g < codes.length; g++) codes[g] = slots[g] - 1;
      return { type: t, data: codes, dict };
    }
    const data = allocVectorData(t, values.length);
    for (let g = 0; g < values.length; g++) writeValue(t, data, g, values[g]);
    return { type: t, data };
  }

  /** Key k's slot of every group, in id order. */
  #slotsOf(k: number): Int32Array {
    let stride = 1;
    for (let j = this.#dense.length - 1; j > k; j--) stride *= this.#dense[j].slots;
    const out = new Int32Array(this.#size);
    for (let g = 0; g < this.#size; g++) out[g] = Math.floor(this.#firsts[g] / stride) % this.#dense[k].slots;
    return out;
  }

  /** Key k's value of every group, in id order (SYMBOL keys as texts). */
  keyValues(k: number): Value[] {
    const d = this.#dense[k];
    const slots = this.#slotsOf(k);
    const tag = this.#keys[k].type.tag;
    const out: Value[] = new Array(this.#size);
    for (let g = 0; g < this.#size; g++) {
      const s = slots[g];
      if (s === 0) out[g] = null;
      else if (d.how === "sym") out[g] = this.#dicts[k]!.valueOf(s - 1);
      else if (d.how === "bool") out[g] = s === 2;
      else {
        const x = s + d.lo - 1;
        out[g] = tag === "LONG" ? BigInt(x) : x;
      }
    }
    return out;
  }
}
