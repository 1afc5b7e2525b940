/**
 * The metadata file `_meta.<version>`: schema, designated timestamp, partitioning, dedup keys,
 * WAL flag, params and the next column id, as JSON (docs/storage.md "Metadata").
 *
 * A metadata file is written once and never changed; the transaction file names the version
 * in force, so a schema change and the data change it implies commit in one rename.
 */
import { arrayType, type ColumnType, decimalType, geohashType, typeOf, type TypeTag } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import type { StoredColumn, TableMeta } from "./api.ts";

const FORMAT = 1;

/** What a metadata file holds: the table's meta and the id the next added column gets. */
export interface MetaRecord {
  readonly meta: TableMeta;
  readonly columnIdNext: number;
}

/** Serializes a metadata record. */
export function encodeMeta(record: MetaRecord): Uint8Array {
  const m = record.meta;
  const json = {
    format: FORMAT,
    columnIdNext: record.columnIdNext,
    meta: {
      ...m,
      columns: m.columns.map((c) => ({ ...c, type: encodeType(c.type) })),
      o3MaxLagMicros: String(m.o3MaxLagMicros),
    },
  };
  return new TextEncoder().encode(JSON.stringify(json, null, 1));
}

/** Parses a metadata file; a malformed one is an io error (it was written whole and fsynced). */
export function decodeMeta(bytes: Uint8Array, path: string): MetaRecord {
  let json;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new SqlError(`corrupt metadata file [file=${path}]`, -1, "io", { cause: e });
  }
  if (json.format !== FORMAT) throw new SqlError(`unsupported metadata format [file=${path}]`, -1, "io");
  const m = json.meta;
  const meta: TableMeta = {
    ...m,
    columns: m.columns.map((c: StoredColumn & { type: StoredType }) => ({
      ...c,
      type: decodeType(c.type),
    })),
    o3MaxLagMicros: BigInt(m.o3MaxLagMicros),
  };
  return { meta: freezeMeta(meta), columnIdNext: json.columnIdNext };
}

/** A column type as the metadata JSON holds it; the parameterised types add their parameters. */
interface StoredType {
  tag: TypeTag;
  geoBits: number;
  dims?: number;
  precision?: number;
  scale?: number;
}

function encodeType(t: ColumnType): StoredType {
  if (t.tag === "ARRAY") return { tag: t.tag, geoBits: 0, dims: t.dims };
  if (t.tag === "DECIMAL") return { tag: t.tag, geoBits: 0, precision: t.precision, scale: t.scale };
  return { tag: t.tag, geoBits: t.geoBits };
}

function decodeType(t: StoredType): ColumnType {
  if (t.tag === "ARRAY") return arrayType(t.dims ?? 1);
  if (t.tag === "DECIMAL") return decimalType(t.precision ?? 18, t.scale ?? 3);
  return t.tag === "GEOHASH" ? geohashType(t.geoBits) : typeOf(t.tag);
}

/** A deep-frozen meta: snapshots and callers share it, so nobody may change it in place. */
export function freezeMeta(meta: TableMeta): TableMeta {
  for (const c of meta.columns) Object.freeze(c);
  Object.freeze(meta.columns);
  Object.freeze(meta.dedupKeys);
  if (meta.ttl) Object.freeze(meta.ttl);
  return Object.freeze(meta);
}

/** A mutable copy of a meta (types stay the shared frozen instances). */
export function cloneMeta(meta: TableMeta): TableMeta {
  return {
    ...meta,
    columns: meta.columns.map((c) => ({ ...c })),
    dedupKeys: [...meta.dedupKeys],
    ttl: meta.ttl ? { ...meta.ttl } : undefined,
  };
}

/** Index of the column called `name` (case-insensitive), or -1. */
export function columnIndexOf(meta: TableMeta, name: string): number {
  const lower = name.toLowerCase();
  return meta.columns.findIndex((c) => c.name.toLowerCase() === lower);
}
