/**
 * Rows of a result batch as /exec JSON bytes: DOUBLE and LONG columns go to the engine's
 * `rowBytes` as values (formatted by WASM kernels), the others as their cell text
 * (column_text.ts), and the rows come back assembled. Undefined when the WASM memory has no
 * room for the slice: the caller renders it as text.
 */
import { type ColumnType, rowBytes, type RowColumn, type Vector } from "../../engine/mod.ts";
import { type CellFormat, columnCells } from "./column_text.ts";

/** Rows [lo, hi) of `vectors` as JSON rows, a comma before the first unless `first`. */
export function jsonRowBytes(
  vectors: Vector[],
  types: ColumnType[],
  lo: number,
  hi: number,
  first: boolean,
  format: CellFormat,
): Uint8Array<ArrayBuffer> | undefined {
  const columns: RowColumn[] = vectors.map((v, c) => {
    const d = v.data;
    if (types[c].tag === "DOUBLE" && d instanceof Float64Array) return { doubles: d.subarray(lo, hi) };
    // The kernel prints LONG_NULL as null: a NOT NULL column's sentinel goes as cell text.
    if (types[c].tag === "LONG" && d instanceof BigInt64Array && !v.notNull) {
      return { longs: d.subarray(lo, hi), quote: format.kind === "json" && format.quoteLargeNum };
    }
    const cells: string[] = [];
    columnCells(v, types[c], lo, hi, format, cells);
    return { cells };
  });
  return rowBytes(columns, hi - lo, first);
}
