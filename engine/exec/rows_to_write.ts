/** Converts query batches into storage's RowsToWrite, applying assignment conversions (§3.4). */
import type { ColumnType } from "../base/types.ts";
import { sameType } from "../base/types.ts";
import {
  allocVectorData,
  type Batch,
  readValue,
  type Value,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import { castValue } from "../functions/cast.ts";
import type { RowsToWrite, StoredColumn } from "../storage/api.ts";

/**
 * Builds rows for `target` columns from batches whose column `j` feeds target column
 * `mapping[j]`; target columns not fed stay NULL. `convert`, when it gives a value, replaces
 * the assignment cast (INSERT's narrowing, insert_narrowing.ts).
 */
export function batchesToRows(
  batches: Batch[],
  target: StoredColumn[],
  mapping: number[],
  convert?: (v: Value, from: ColumnType, to: ColumnType) => Value | undefined,
): RowsToWrite {
  const rowCount = batches.reduce((n, b) => n + b.rowCount, 0);
  const columns: (VectorData | null)[] = target.map(() => null);
  mapping.forEach((t, j) => {
    const to = target[t].type;
    const sym = to.tag === "SYMBOL";
    const data = sym ? new Array<Value>(rowCount).fill(null) : allocVectorData(to, rowCount);
    let at = 0;
    for (const b of batches) {
      const v = b.columns[j];
      const from = v.type;
      if (!sym && sameType(from, to) && !Array.isArray(v.data) && !Array.isArray(data)) {
        // deno-lint-ignore no-explicit-any
        (data as any).set(v.data.subarray(0, b.rowCount) as any, at);
      } else {
        for (let i = 0; i < b.rowCount; i++) {
          const x = readValue(v, i);
          const y = sameType(from, to) || (sym && typeof x === "string")
            ? x
            : convert?.(x, from, to) ?? castValue(x, from, to, { constant: false, pos: -1 });
          if (sym) (data as Value[])[at + i] = y;
          else writeValue(to, data, at + i, y);
        }
      }
      at += b.rowCount;
    }
    columns[t] = data;
  });
  return { rowCount, columns };
}

export function typesOf(cols: StoredColumn[]): ColumnType[] {
  return cols.map((c) => c.type);
}
