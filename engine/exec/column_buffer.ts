/**
 * A growing columnar copy of one column's rows (the build side of a join): typed arrays when
 * every batch brings the same layout and dictionary (in WASM memory when it has room, so that
 * `gather` runs as a kernel), scalar values otherwise; `gather` reads rows out by index, -1
 * giving the column's NULL. Used by ASOF/LT JOIN (asof_join_columnar.ts) and the vectorized
 * hash join (hash_join.ts).
 */
import {
  allocVectorData,
  readValue,
  type SymbolDict,
  TYPED_VECTOR_TAGS,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { kernels, wasmMemory } from "../../engine-wasm/mod.ts";

// deno-lint-ignore no-explicit-any
type Typed = any;

function typedCtor(type: ColumnType): Typed {
  if (type.tag === "SYMBOL") return Int32Array;
  return (allocVectorData(type, 0) as Typed).constructor;
}

/**
 * One right column's buffered rows: typed (raw copies, one dictionary) or scalar values.
 * Typed rows live in WASM memory when it has room, so that `gather` runs as a kernel.
 */
export class ColumnBuffer {
  typed: Typed | undefined;
  scalar: Value[] | undefined;
  dict: SymbolDict | undefined;
  #decided = false;
  /** The WASM block under `typed`, 0 when `typed` is a JavaScript array. */
  #block = 0;
  constructor(readonly type: ColumnType) {}

  /**
   * A typed array of `capacity` rows holding the first `keep` rows of the current one, in WASM
   * memory when it has room; frees the old block.
   */
  #newTyped(capacity: number, keep: number): Typed {
    const ctor = typedCtor(this.type);
    const old = this.#block;
    const p = wasmMemory().alloc(Math.max(16, capacity * ctor.BYTES_PER_ELEMENT));
    const typed = p < 0 ? new ctor(capacity) : new ctor(wasmMemory().buffer, p, capacity);
    if (keep > 0) typed.set(this.typed.subarray(0, keep));
    if (old) wasmMemory().free(old);
    this.#block = Math.max(p, 0);
    return typed;
  }

  /** Frees the WASM block (the run is over). */
  release(): void {
    if (this.#block) wasmMemory().free(this.#block);
    this.#block = 0;
    this.typed = undefined;
  }

  /** Appends rows [from, to) of `v` at buffer position `at` (capacity ensured by caller). */
  append(v: Vector, from: number, to: number, at: number, capacity: number): void {
    if (!this.#decided) {
      this.#decided = true;
      const ok = TYPED_VECTOR_TAGS.has(this.type.tag) && !Array.isArray(v.data) &&
        v.data.constructor === typedCtor(this.type) &&
        (this.type.tag !== "SYMBOL" || v.dict !== undefined);
      if (ok) {
        this.typed = this.#newTyped(capacity, 0);
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
    this.release();
    this.dict = undefined;
  }

  ensure(capacity: number, length: number): void {
    if (this.typed && this.typed.length < capacity) this.typed = this.#newTyped(capacity, length);
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

  /** The type's NULL as a typed-array element (SYMBOL: the NULL key). */
  get #nul(): number | bigint {
    return this.type.tag === "SYMBOL" ? -1 : (allocVectorData(this.type, 1) as Typed)[0];
  }

  #nulBits: bigint | undefined;

  /**
   * The gather as a kernel (gatherOrNull) when the rows and `match` are in WASM memory: the
   * result is copied out into a JavaScript array, which the batch owns from then on.
   */
  #gatherInWasm(match: Int32Array, n: number): VectorData | undefined {
    const mem = wasmMemory();
    if (!this.#block || match.buffer !== mem.buffer || n === 0) return undefined;
    const ctor = this.typed.constructor;
    const width = ctor.BYTES_PER_ELEMENT as 1 | 2 | 4 | 8;
    if (this.#nulBits === undefined) {
      const one = new ctor(1);
      one[0] = this.#nul;
      const bits = new Uint8Array(8);
      bits.set(new Uint8Array(one.buffer, 0, width));
      // Sign-extend the type's NULL to 64 bits (the kernel keeps its low `width` bytes).
      this.#nulBits = BigInt.asIntN(width * 8, new BigUint64Array(bits.buffer)[0]);
    }
    const out = mem.alloc(Math.max(16, n * width));
    if (out < 0) return undefined;
    try {
      kernels().gatherOrNull({
        width,
        data: this.#block,
        rowCount: this.typed.length,
        match: match.byteOffset,
        count: n,
        out,
        nul: this.#nulBits,
      });
      return new ctor(mem.buffer, out, n).slice();
    } finally {
      mem.free(out);
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
    return this.type.tag === "SYMBOL"
      ? { type: this.type, data, dict: this.dict }
      : { type: this.type, data };
  }

  /** The output vector of `match` (buffer rows, -1: NULL). */
  gather(match: Int32Array, n: number): Vector {
    const type = this.type;
    const fast = this.#gatherInWasm(match, n);
    if (fast) return type.tag === "SYMBOL" ? { type, data: fast, dict: this.dict } : { type, data: fast };
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
      const nul = this.#nul;
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
