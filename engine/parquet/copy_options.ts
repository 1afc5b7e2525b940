/**
 * The options of `COPY ... TO 'dest' WITH FORMAT PARQUET ...` (spec/sql.md §26.4), validated
 * with QuestDB's error texts and positions (its CopyExportTest): the format must be named and
 * be PARQUET, codecs and levels are checked per codec, and unknown options are refused.
 */
import type { CompressionCodec } from "hyparquet";
import { SqlError } from "../base/errors.ts";
import type { CopyStmt, PartitionUnit } from "../sql/ast.ts";
import type { ParquetWriteOptions } from "./writer.ts";

export interface CopyExportOptions {
  write: ParquetWriteOptions;
  /** undefined: the default (the table's partitioning, NONE for a query). */
  partitionBy?: PartitionUnit;
}

const CODECS: Record<string, CompressionCodec> = {
  uncompressed: "UNCOMPRESSED",
  snappy: "SNAPPY",
  gzip: "GZIP",
  brotli: "BROTLI",
  zstd: "ZSTD",
  lz4_raw: "LZ4_RAW",
};

const UNITS: readonly PartitionUnit[] = ["NONE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"];

/** The codec levels QuestDB accepts (ZSTD 1–22, GZIP 0–9, BROTLI 0–11). */
const LEVELS: Partial<Record<CompressionCodec, [string, number, number]>> = {
  ZSTD: ["ZSTD", 1, 22],
  GZIP: ["GZIP", 0, 9],
  BROTLI: ["Brotli", 0, 11],
};

type Option = CopyStmt["options"][number];

function integer(o: Option): number {
  const v = o.value ?? "";
  const n = Number(v);
  if (v === "" || !Number.isInteger(n)) {
    throw new SqlError(`found [tok='${v}', len=${v.length}] bad integer`, o.valuePos ?? o.pos ?? 0);
  }
  return n;
}

function boolean(o: Option): boolean {
  const v = (o.value ?? "").toLowerCase();
  if (v !== "true" && v !== "false") {
    throw new SqlError(
      `invalid boolean value [option=${o.name}, value=${o.value ?? ""}]`,
      o.valuePos ?? o.pos ?? 0,
    );
  }
  return v === "true";
}

/** Reads COPY TO's options over the server's export defaults (cairo.parquet.export.*). */
export function copyExportOptions(stmt: CopyStmt, defaults: ParquetWriteOptions): CopyExportOptions {
  const write = { ...defaults };
  let partitionBy: PartitionUnit | undefined;
  let format = false;
  let level: Option | undefined;
  for (const o of stmt.options) {
    const at = o.pos ?? 0;
    const valueAt = o.valuePos ?? at;
    switch (o.name) {
      case "format":
        if ((o.value ?? "").toLowerCase() !== "parquet") {
          throw new SqlError("unsupported format, only 'parquet' is supported", valueAt);
        }
        format = true;
        break;
      case "partition_by": {
        const unit = (o.value ?? "").toUpperCase() as PartitionUnit;
        if (!UNITS.includes(unit)) {
          throw new SqlError(`invalid partition by option: ${o.value ?? ""}`, valueAt);
        }
        partitionBy = unit;
        break;
      }
      case "compression_codec": {
        const codec = CODECS[(o.value ?? "").toLowerCase()];
        if (!codec) {
          throw new SqlError(
            `invalid compression codec[${o.value ?? ""}], expected one of: ${Object.keys(CODECS).join(", ")}`,
            valueAt,
          );
        }
        write.codec = codec;
        break;
      }
      case "compression_level":
        write.level = integer(o);
        level = o;
        break;
      case "row_group_size": {
        // QuestDB takes 0 and negative sizes as "the default".
        const n = integer(o);
        if (n > 0) write.rowGroupSize = Math.min(n, 10_000_000);
        break;
      }
      case "data_page_size": {
        const n = integer(o);
        if (n > 0) write.dataPageSize = Math.max(n, 1024);
        break;
      }
      case "statistics_enabled":
        write.statistics = boolean(o);
        break;
      case "parquet_version": {
        const n = integer(o);
        // Pages are always data page v2 (docs/parquet.md); every current reader reads both.
        if (n !== 1 && n !== 2) throw new SqlError(`invalid parquet version: ${n}, expected 1 or 2`, valueAt);
        break;
      }
      case "raw_array_encoding":
        boolean(o); // there are no array columns to encode
        break;
      case "size_limit":
        throw new SqlError("size limit is not yet supported", at);
      case "bloom_filter_columns":
      case "bloom_filter_fpp":
        throw new SqlError("parquet bloom filters are not supported", at);
      default:
        throw new SqlError(`unrecognised option [option=${o.name}]`, at);
    }
  }
  if (!format) throw new SqlError("export format must be specified, supported formats: 'parquet'", 0);
  const range = LEVELS[write.codec];
  if (level && range && (write.level < range[1] || write.level > range[2])) {
    throw new SqlError(
      `${range[0]} compression level must be between ${range[1]} and ${range[2]}`,
      level.valuePos ?? level.pos ?? 0,
    );
  }
  return { write, partitionBy };
}
