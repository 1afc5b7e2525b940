/**
 * A column of a Parquet partition decoded through hyparquet, for the columns the direct decoder
 * (engine/parquet/fast_decode.ts) does not take: strings, booleans, LONG256 and the rest. Runs
 * on the main thread (remote files, small columns, SYMBOL columns re-keyed through the table's
 * dictionary) or on a decode worker (parquet_decode_worker.ts) with the same bytes out.
 *
 * A row group at a time, its values converted and encoded a slice at a time with a `turn`
 * between: a column of a million strings decoded in one piece held the event loop ~0.4 s
 * (issue #17).
 */
import { type AsyncBuffer, type FileMetaData, parquetRead } from "hyparquet";
import { SqlError } from "../base/errors.ts";
import { allocVectorData, writeValue } from "../base/values.ts";
import type { StoredColumn } from "./api.ts";
import { decompressors } from "../parquet/codecs.ts";
import { PARQUET_PARSERS, parquetValue } from "../parquet/reader.ts";
import { encodeChunk } from "./append.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { joinChunks } from "./column_rewrite.ts";
import type { SymbolTable } from "./symbol_dict.ts";

/** Rows converted from hyparquet's values and encoded between two turns: ~10 ms of strings. */
const DECODE_SLICE_ROWS = 16_384;

/** Column `at` (a leaf index of the file) as the `n` rows of `col` in native form. */
export async function decodeGeneric(
  bytes: ArrayBuffer | AsyncBuffer,
  metadata: FileMetaData,
  at: number,
  n: number,
  col: StoredColumn,
  dict: SymbolTable | undefined,
  turn: () => Promise<void>,
): Promise<ColumnChunk> {
  const name = metadata.schema[at + 1].name;
  const pieces: ColumnChunk[] = [];
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    const values = new Array<unknown>(rows);
    await parquetRead({
      file: bytes,
      metadata,
      columns: [name],
      rowStart,
      rowEnd: rowStart + rows,
      compressors: decompressors,
      parsers: PARQUET_PARSERS as never,
      utf8: false,
      onChunk: (chunk) => {
        const got = chunk.columnData as ArrayLike<unknown>;
        for (let i = 0; i < got.length; i++) values[chunk.rowStart - rowStart + i] = got[i];
      },
    });
    await turn();
    for (let from = 0; from < rows; from += DECODE_SLICE_ROWS) {
      const to = Math.min(rows, from + DECODE_SLICE_ROWS);
      const data = allocVectorData(col.type, to - from);
      for (let r = from; r < to; r++) writeValue(col.type, data, r - from, parquetValue(col.type, values[r]));
      pieces.push(encodeChunk(col, data, to - from, dict));
      await turn();
    }
    rowStart += rows;
  }
  if (rowStart !== n) {
    throw new SqlError(
      `parquet partition has ${rowStart} rows, ${n} committed [column=${col.name}]`,
      -1,
      "io",
    );
  }
  if (pieces.length === 0) return encodeChunk(col, allocVectorData(col.type, 0), 0, dict);
  return pieces.length === 1 ? pieces[0] : joinChunks(pieces);
}
