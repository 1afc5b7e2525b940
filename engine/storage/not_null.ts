/**
 * NOT NULL columns (CREATE TABLE `c type NOT NULL`): storage refuses a write that would put
 * NULL into one, whatever path the rows came by (INSERT, INSERT AS SELECT, UPDATE, ILP, COPY).
 * Types without a NULL (BOOLEAN, BYTE, SHORT) can never hold one and need no check.
 */
import { SqlError } from "../base/errors.ts";
import { INT_NULL, LONG_NULL, type VectorData } from "../base/values.ts";
import type { StoredColumn } from "./api.ts";

/** Throws when `data` (vector layout; null = all NULL) holds a NULL among its first `rowCount` rows. */
export function checkNotNull(column: StoredColumn, data: VectorData | null, rowCount: number): void {
  if (!column.notNull || rowCount === 0) return;
  if (data === null || firstNull(column, data, rowCount) >= 0) {
    // QuestDB's wording (spec/sql.md §5.1).
    throw new SqlError(`NOT NULL constraint violation [column=${column.name}]`);
  }
}

function firstNull(column: StoredColumn, data: VectorData, rowCount: number): number {
  if (Array.isArray(data)) {
    for (let i = 0; i < rowCount; i++) if (data[i] === null || data[i] === undefined) return i;
    return -1;
  }
  switch (column.type.tag) {
    case "BOOLEAN":
    case "BYTE":
    case "SHORT":
      return -1;
    case "CHAR":
    case "IPV4":
      return (data as Uint16Array | Int32Array).subarray(0, rowCount).indexOf(0);
    case "INT":
      return (data as Int32Array).subarray(0, rowCount).indexOf(INT_NULL);
    case "SYMBOL":
      return (data as Int32Array).subarray(0, rowCount).findIndex((k) => k < 0);
    case "FLOAT":
    case "DOUBLE":
      return (data as Float64Array).subarray(0, rowCount).findIndex((x) => !Number.isFinite(x));
    default:
      if (data instanceof BigInt64Array) return data.subarray(0, rowCount).indexOf(LONG_NULL);
      return -1;
  }
}
