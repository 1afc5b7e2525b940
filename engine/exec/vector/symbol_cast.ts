/**
 * CAST of a SYMBOL column, batch at a time (issue #16): the cast runs once per dictionary code
 * (castValue, the row path's own conversion) and each row takes its code's value. The set
 * operations cast SYMBOL to STRING on both sides of a UNION (the common type of two symbols),
 * where a castValue per row cost more than the aggregation above it.
 *
 * A STRING/VARCHAR result remembers the codes and dictionary it came from (`textOrigin`), so
 * a hash key over it (key_ids.ts) can take ids per code instead of hashing every row's text.
 * The link is by the data array's identity: a gathered or copied vector has no origin and is
 * keyed by its texts, with the same ids.
 */
import type { ColumnType } from "../../base/types.ts";
import {
  type Batch,
  type SymbolDict,
  type Value,
  type Vector,
  writeValue,
  zeroedVectorData,
} from "../../base/values.ts";
import { castValue } from "../../functions/cast.ts";

/** Dictionaries larger than this are cast row by row (the table is a value per code). */
const TABLE_MAX = 1 << 20;

const origins = new WeakMap<Value[], { codes: Int32Array; dict: SymbolDict }>();

/** The codes and dictionary a text vector's data was cast from, when it was (see above). */
export function textOrigin(data: unknown): { codes: Int32Array; dict: SymbolDict } | undefined {
  return Array.isArray(data) ? origins.get(data) : undefined;
}

/** Marks `data` as texts of `codes` in `dict` (time_text.ts builds such vectors too). */
export function setTextOrigin(data: Value[], codes: Int32Array, dict: SymbolDict): void {
  origins.set(data, { codes, dict });
}

/**
 * CAST(column AS to) for a SYMBOL column `col`: answers the batch's vector, or undefined when
 * the batch's column has no dictionary, the dictionary is too large, or some code's text does
 * not convert (the caller then casts row by row, raising only the rows' errors).
 */
export function symbolCaster(col: number, from: ColumnType, to: ColumnType, pos: number) {
  // Per dictionary: the cast value of code k at k + 1, NULL's at 0; null when a code failed.
  const tables = new Map<SymbolDict, Value[] | null>();
  const text = to.tag === "STRING" || to.tag === "VARCHAR";
  return (b: Batch): Vector | undefined => {
    const v = b.columns[col];
    const dict = v?.dict;
    if (!dict || !(v.data instanceof Int32Array)) return undefined;
    let table = tables.get(dict);
    if (table === null || dict.size > TABLE_MAX) return undefined;
    if (!table || table.length !== dict.size + 1) {
      table = new Array<Value>(dict.size + 1);
      try {
        table[0] = castValue(null, from, to, { constant: false, pos });
        for (let k = 0; k < dict.size; k++) {
          table[k + 1] = castValue(dict.valueOf(k), from, to, { constant: false, pos });
        }
      } catch {
        tables.set(dict, null);
        return undefined;
      }
      tables.set(dict, table);
    }
    const codes = v.data, n = b.rowCount;
    if (text) {
      const data = new Array<Value>(n);
      for (let i = 0; i < n; i++) {
        const k = codes[i];
        data[i] = table[k < 0 ? 0 : k + 1];
      }
      origins.set(data, { codes: codes.length === n ? codes : codes.subarray(0, n), dict });
      return { type: to, data };
    }
    const data = zeroedVectorData(to, n);
    for (let i = 0; i < n; i++) {
      const k = codes[i];
      writeValue(to, data, i, table[k < 0 ? 0 : k + 1]);
    }
    return { type: to, data };
  };
}
