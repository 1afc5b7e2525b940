/**
 * Result batches between a worker heap and the main thread (statement offload): typed column
 * arrays travel as transferred buffers (one copy on the worker, since a batch's arrays may be
 * views of the WASM memory or of buffers an operator reuses; none on the main thread), text
 * and other scalar columns by structured clone. A SYMBOL column with a dictionary travels as
 * its codes plus, the first time a stream meets that dictionary, its values; a very large
 * dictionary is decoded to strings per batch instead (its values would cost more to send than
 * the rows that use them).
 */
import type { ColumnType } from "../base/types.ts";
import { type Batch, DoubleArray, type SymbolDict, type Value, type VectorData } from "../base/values.ts";

/** Dictionaries at most this large travel whole, once per statement. */
const DICT_SHIPPED_MAX = 65_536;

/** A scalar value as structured clone carries it (DoubleArray loses its class). */
export type WireValue = Exclude<Value, DoubleArray> | { shape: number[]; data: Float64Array; array: true };

export interface WireVector {
  type: ColumnType;
  data: VectorData | WireValue[];
  /** A SYMBOL's dictionary, by the id the stream gave it. */
  dict?: number;
}

export interface WireBatch {
  rowCount: number;
  columns: WireVector[];
  /** Dictionaries first seen in this batch: id and values by key. */
  dicts?: { id: number; values: (string | null)[] }[];
}

export function toWireValue(v: Value): WireValue {
  return v instanceof DoubleArray ? { shape: [...v.shape], data: v.data, array: true } : v;
}

export function fromWireValue(v: WireValue): Value {
  if (v !== null && typeof v === "object" && "array" in v) return new DoubleArray(v.shape, v.data);
  return v as Value;
}

/** The worker's side: remembers which dictionaries the main thread already has. */
export class BatchEncoder {
  readonly #dictIds = new Map<SymbolDict, number>();

  /** The batch as wire data and the buffers to transfer with it. */
  encode(b: Batch): { batch: WireBatch; transfer: ArrayBuffer[] } {
    const transfer: ArrayBuffer[] = [];
    const dicts: WireBatch["dicts"] = [];
    const columns = b.columns.map((v): WireVector => {
      const d = v.data;
      if (ArrayBuffer.isView(d)) {
        if (v.dict && v.dict.size > DICT_SHIPPED_MAX) {
          const codes = d as Int32Array, dict = v.dict, out: Value[] = new Array(b.rowCount);
          for (let i = 0; i < b.rowCount; i++) out[i] = codes[i] < 0 ? null : dict.valueOf(codes[i]);
          return { type: v.type, data: out };
        }
        // A copy of the batch's rows: the original may be WASM memory or reused upstream.
        const copy = (d as Int32Array).slice(0, b.rowCount);
        transfer.push(copy.buffer as ArrayBuffer);
        if (!v.dict) return { type: v.type, data: copy };
        let id = this.#dictIds.get(v.dict);
        if (id === undefined) {
          this.#dictIds.set(v.dict, id = this.#dictIds.size);
          const values: (string | null)[] = new Array(v.dict.size);
          for (let k = 0; k < values.length; k++) values[k] = v.dict.valueOf(k);
          dicts.push({ id, values });
        }
        return { type: v.type, data: copy, dict: id };
      }
      const values = d as Value[];
      if (v.type.tag === "ARRAY") return { type: v.type, data: values.map(toWireValue) };
      return { type: v.type, data: values.length > b.rowCount ? values.slice(0, b.rowCount) : values };
    });
    return { batch: { rowCount: b.rowCount, columns, ...(dicts.length ? { dicts } : {}) }, transfer };
  }
}

/** The main thread's side: rebuilds batches, keeping the dictionaries a stream sent. */
export class BatchDecoder {
  readonly #dicts = new Map<number, SymbolDict>();

  /** `types`: the main thread's plan's column types, used where they agree with the worker's. */
  constructor(readonly types: ColumnType[]) {}

  decode(w: WireBatch): Batch {
    for (const d of w.dicts ?? []) this.#dicts.set(d.id, new ShippedDict(d.values));
    return {
      rowCount: w.rowCount,
      columns: w.columns.map((v, i) => {
        // Interned types (reg* INTs) keep their identity on this side.
        const own = this.types[i];
        const type = own && own.tag === v.type.tag ? own : v.type;
        if (v.dict !== undefined) return { type, data: v.data as VectorData, dict: this.#dicts.get(v.dict) };
        if (type.tag === "ARRAY") return { type, data: (v.data as WireValue[]).map(fromWireValue) };
        return { type, data: v.data as VectorData };
      }),
    };
  }
}

/** A dictionary sent by a worker: values by key, keys by value built on first use. */
class ShippedDict implements SymbolDict {
  #keys: Map<string, number> | undefined;
  constructor(readonly values: (string | null)[]) {}

  get size(): number {
    return this.values.length;
  }

  valueOf(key: number): string | null {
    return key >= 0 && key < this.values.length ? this.values[key] : null;
  }

  keyOf(value: string): number | undefined {
    if (!this.#keys) {
      this.#keys = new Map();
      this.values.forEach((v, k) => v !== null && this.#keys!.set(v, k));
    }
    return this.#keys.get(value);
  }
}
