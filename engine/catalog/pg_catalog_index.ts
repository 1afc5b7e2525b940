/**
 * Indexes as pg_catalog describes them (spec/protocols.md §12.12). A built index would be one
 * single-column, non-unique bitmap index named `<table>_<column>_idx`, with a pg_class row
 * (relkind 'i', access method `bitmap` of pg_am), a pg_index row (indkey is the column's attnum
 * as int2vector text, `'3'`) and a pg_indexes row; pg_get_indexdef() answers from here.
 * No index is built yet (symbol_index.ts), so these relations list none: a deliberate deviation
 * from QuestDB, which reports every declared SYMBOL index.
 */
import type { Value } from "../base/values.ts";
import type { Storage, TableMeta } from "../storage/api.ts";
import { hasBuiltIndex } from "./symbol_index.ts";
import { catalogStorage } from "./pg_catalog_define.ts";

/** pg_am oid of the bitmap access method (PostgreSQL has none; outside its fixed range). */
export const BITMAP_AM_OID = 16000;
/** Index oids: base + table id × 10 000 + column id, above table and function oids. */
const INDEX_OID_BASE = 100_000_000;
/** First oid of user tables (PostgreSQL's FirstNormalObjectId); table oid = base + table id. */
export const TABLE_OID_BASE = 16384;

export interface IndexInfo {
  oid: number;
  name: string;
  table: TableMeta;
  tableOid: number;
  column: string;
  /** 1-based position of the column (pg_attribute.attnum). */
  attnum: number;
}

/** The built indexes of one table, in column order. */
export function tableIndexes(m: TableMeta): IndexInfo[] {
  const out: IndexInfo[] = [];
  m.columns.forEach((c, i) => {
    if (!hasBuiltIndex(c)) return;
    out.push({
      oid: INDEX_OID_BASE + m.id * 10_000 + c.id,
      name: `${m.name}_${c.name}_idx`,
      table: m,
      tableOid: TABLE_OID_BASE + m.id,
      column: c.name,
      attnum: i + 1,
    });
  });
  return out;
}

export function allIndexes(storage: Storage): IndexInfo[] {
  return storage.tables().flatMap(tableIndexes);
}

/** `CREATE INDEX name ON public.t USING bitmap (col)`, as pg_get_indexdef and pg_indexes print it. */
export function indexDefinition(ix: IndexInfo): string {
  return `CREATE INDEX ${ix.name} ON public.${ix.table.name} USING bitmap (${ix.column})`;
}

/**
 * pg_get_indexdef(oid [, column, pretty]): the definition, or with column n > 0 the name of
 * the n-th key column; NULL for an oid that is not an index (or before any catalog read,
 * see catalogStorage).
 */
export function indexDefinitionByOid(oid: number, column = 0): string | null {
  const storage = catalogStorage();
  const ix = storage ? allIndexes(storage).find((x) => x.oid === oid) : undefined;
  if (!ix) return null;
  if (column === 0) return indexDefinition(ix);
  return column === 1 ? ix.column : "";
}

// PostgreSQL 15's columns, indnullsnotdistinct included, as QuestDB's (PgIndexFunctionFactoryTest).
export const PG_INDEX_COLUMNS =
  `indexrelid:INT indrelid:INT indnatts:SHORT indnkeyatts:SHORT indisunique:BOOLEAN indnullsnotdistinct:BOOLEAN
  indisprimary:BOOLEAN indisexclusion:BOOLEAN indimmediate:BOOLEAN indisclustered:BOOLEAN
  indisvalid:BOOLEAN indcheckxmin:BOOLEAN indisready:BOOLEAN indislive:BOOLEAN indisreplident:BOOLEAN
  indkey:INT2VECTOR indcollation:OIDVECTOR indclass:OIDVECTOR indoption:INT2VECTOR indexprs indpred`;

export function pgIndexRows(storage: Storage): Value[][] {
  return allIndexes(storage).map((ix) => [
    ix.oid,
    ix.tableOid,
    1,
    1,
    false,
    false,
    false,
    false,
    true,
    false,
    true,
    false,
    true,
    true,
    false,
    String(ix.attnum),
    "0",
    "0",
    "0",
    null,
    null,
  ]);
}

export function pgIndexesRows(storage: Storage): Value[][] {
  return allIndexes(storage).map((ix) => ["public", ix.table.name, ix.name, null, indexDefinition(ix)]);
}
