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

/** Rows converted between two chances for the caller to give the event loop a turn. */
const ROWS_PER_TURN = 65_536;

/**
 * Builds rows for `target` columns from batches whose column `j` feeds target column
 * `mapping[j]`; target columns not fed stay NULL. `convert`, when it gives a value, replaces
 * the assignment cast (INSERT's narrowing, insert_narrowing.ts). `yieldTurn` runs between
 * columns and every ROWS_PER_TURN converted rows: CREATE TABLE AS and INSERT ... SELECT of
 * millions of rows convert for seconds, and other statements must get turns (issue #17).
 */
export async function batchesToRows(
  batches: Batch[],
  target: StoredColumn[],
  mapping: number[],
  convert?: (v: Value, from: ColumnType, to: ColumnType) => Value | undefined,
  yieldTurn: () => Promise<void> = () => Promise.resolve(),
): Promise<RowsToWrite> {
  const rowCount = batches.reduce((n, b) => n + b.rowCount, 0);
  const columns: (VectorData | null)[] = target.map(() => null);
  for (const [j, t] of mapping.entries()) {
    const to = target[t].type;
    const sym = to.tag === "SYMBOL";
    const data = sym ? new Array<Value>(rowCount).fill(null) : allocVectorData(to, rowCount);
    let at = 0, converted = 0;
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
        converted += b.rowCount;
        if (converted >= ROWS_PER_TURN) {
          converted = 0;
          await yieldTurn();
        }
      }
      at += b.rowCount;
    }
    columns[t] = data;
    if (rowCount >= ROWS_PER_TURN) await yieldTurn();
  }
  return { rowCount, columns };
}

export function typesOf(cols: StoredColumn[]): ColumnType[] {
  return cols.map((c) => c.type);
}
