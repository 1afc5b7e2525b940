/**
 * DDL statements (spec/sql.md §5): CREATE TABLE (plain, AS SELECT, LIKE), DROP, TRUNCATE,
 * RENAME and ALTER TABLE. Validation happens before storage is touched, so a rejected
 * statement changes nothing.
 */
import { SqlError } from "../base/errors.ts";
import { TABLE_COLUMNS_MAX } from "../base/limits.ts";
import { type ColumnType, isTimestamp, sameType, T, typeName } from "../base/types.ts";
import type { Batch, Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { castValue } from "../functions/cast.ts";
import { parseTimestampDetailed } from "../functions/timestamp_parse.ts";
import { partitionNameOf, partitionRange } from "../storage/partition_name.ts";
import { typeFromSpec } from "../plan/bind_expr.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { Storage, StoredColumn, Table, TableDefinition } from "../storage/api.ts";
import { checkColumnName, checkTableName } from "./names.ts";
import { batchesToRows } from "./rows_to_write.ts";
import { expectMicros } from "../sql/interval_qualifier.ts";
import { parquetEncodingError } from "../sql/parse_parquet_options.ts";

/**
 * The stored form of a column definition. `added` marks ALTER TABLE ADD COLUMN: QuestDB records
 * its default index value block size (256) for every added column, and for a SYMBOL column of
 * CREATE TABLE, indexed or not; other created columns have 0 (table_columns().indexBlockCapacity
 * in CreateTableDedupTest, KeywordAsTableNameTest#testAlterTable).
 */
export function storedColumn(def: A.ColumnDef, type?: ColumnType, added = false): Omit<StoredColumn, "id"> {
  const t = type ?? columnTypeFromSpec(def.type);
  checkColumnName(def.name, def.pos);
  if (def.indexed && t.tag !== "SYMBOL") {
    throw new SqlError("indexes are supported only for SYMBOL columns", def.pos);
  }
  return {
    name: def.name,
    type: t,
    symbolCapacity: def.symbolCapacity ?? 256,
    symbolCache: def.symbolCache ?? true,
    indexed: def.indexed ?? false,
    indexCapacity: def.indexCapacity !== undefined
      ? ceilPow2(def.indexCapacity)
      : def.indexed || added || t.tag === "SYMBOL"
      ? 256
      : 0,
    ...(def.notNull ? { notNull: true } : {}),
    ...(def.parquet && def.parquet.toLowerCase() !== "default" ? { parquet: def.parquet } : {}),
  };
}

/** QuestDB stores an index value block size rounded up to a power of two (Numbers.ceilPow2). */
function ceilPow2(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

/**
 * A column's type: an unknown name is QuestDB's DDL message, `unsupported column type: x`
 * (SqlParser.toColumnType; AlterTableChangeColumnTypeTest#testNewTypeInvalid).
 */
function columnTypeFromSpec(spec: A.TypeSpec): ColumnType {
  try {
    return typeFromSpec(spec);
  } catch (e) {
    if (e instanceof SqlError && e.message.startsWith("unsupported type: ")) {
      throw new SqlError(`unsupported column type: ${spec.text}`, spec.pos);
    }
    throw e;
  }
}

function checkUnique(cols: { name: string }[], positions: number[]): void {
  const seen = new Set<string>();
  cols.forEach((c, i) => {
    const k = c.name.toLowerCase();
    if (seen.has(k)) throw new SqlError(`Duplicate column [name=${c.name}]`, positions[i]);
    seen.add(k);
  });
}

/** Builds and validates a definition; `columns` are the final columns (from the list, a query or LIKE). */
export function tableDefinition(
  s: A.CreateTableStmt,
  columns: Omit<StoredColumn, "id">[],
  positions: number[],
  walDefault: boolean,
): TableDefinition {
  checkTableName(s.name, s.namePos);
  if (columns.length > TABLE_COLUMNS_MAX) throw new SqlError("too many columns", s.pos, "limit");
  checkUnique(columns, positions);
  for (const ix of s.indexes) {
    const c = columns.find((x) => x.name.toLowerCase() === ix.column.toLowerCase());
    if (!c) throw new SqlError(`Invalid column: ${ix.column}`, ix.pos);
    if (c.type.tag !== "SYMBOL") {
      // CREATE TABLE AS names the column and points at the statement (CreateTableTest
      // #testCreateTableAsSelectIndexUnsupportedColumnType).
      if (s.asSelect) throw new SqlError(`indexes are supported only for SYMBOL columns: ${c.name}`, s.pos);
      throw new SqlError("indexes are supported only for SYMBOL columns", ix.pos);
    }
    c.indexed = true;
    c.indexCapacity = ceilPow2(ix.capacity ?? 256);
  }
  let timestampIndex = -1;
  if (s.timestamp) {
    timestampIndex = columns.findIndex((c) => c.name.toLowerCase() === s.timestamp!.name.toLowerCase());
    if (timestampIndex < 0) throw new SqlError(`Invalid column: ${s.timestamp.name}`, s.timestamp.pos);
    if (!isTimestamp(columns[timestampIndex].type)) {
      throw new SqlError(
        `TIMESTAMP column expected [actual=${columns[timestampIndex].type.tag}]`,
        s.timestamp.pos,
      );
    }
  }
  const partitionBy = s.partitionBy?.unit ?? "NONE";
  if (partitionBy !== "NONE" && timestampIndex < 0) {
    throw new SqlError(
      "partitioning is possible only on tables with designated timestamps",
      s.partitionBy!.pos,
    );
  }
  if (s.wal === true && partitionBy === "NONE") {
    // At the WAL keyword (AlterTableWalEnabledTest#testWalEnabledNonPartitionedTable).
    throw new SqlError("WAL Write Mode can only be used on partitioned tables", s.walPos ?? s.pos);
  }
  const wal = partitionBy !== "NONE" && (s.wal ?? walDefault);
  const dedupKeys: string[] = [];
  if (s.dedupKeys) {
    if (!wal) {
      throw new SqlError("deduplication is possible only on WAL tables", s.dedupPos ?? s.pos);
    }
    for (const k of s.dedupKeys) {
      const c = columns.find((x) => x.name.toLowerCase() === k.name.toLowerCase());
      if (!c) throw new SqlError(`deduplicate key column not found [column=${k.name}]`, k.pos);
      if (dedupKeys.includes(c.name)) throw new SqlError(`duplicate dedup column [column=${k.name}]`, k.pos);
      refuseArrayDedupKey(c.name, c.type, k.pos);
      dedupKeys.push(c.name);
    }
    if (!dedupKeys.some((k) => k.toLowerCase() === columns[timestampIndex].name.toLowerCase())) {
      throw new SqlError(
        "deduplicate key list must include dedicated timestamp column",
        s.dedupKeys[0]?.pos ?? s.pos,
      );
    }
  }
  if (s.ttl) {
    if (partitionBy === "NONE") throw new SqlError("TTL is possible only on partitioned tables", s.ttl.pos);
    validateTtlGranularity(partitionBy, s.ttl.amount, s.ttl.unit, s.ttl.pos);
  }
  const parquetFormat = s.format?.value === "parquet";
  if (parquetFormat && !wal) throw new SqlError(PARQUET_FORMAT_TABLES, s.format!.pos);
  let maxUncommittedRows: number | undefined;
  let o3MaxLagMicros: bigint | undefined;
  for (const p of s.withParams) {
    const v = p.value.kind === "literal" ? p.value.value : undefined;
    if (p.name.toLowerCase() === "maxuncommittedrows") maxUncommittedRows = Number(v);
    else if (p.name.toLowerCase() === "o3maxlag") o3MaxLagMicros = parseDurationMicros(String(v ?? ""));
    else {
      // QuestDB's SqlParser knows these two only, and reports another past its value
      // (SqlParserTest#testCreateTableWithInvalidParameter1).
      const end = p.value.kind === "literal" ? p.value.pos + p.value.text.length : p.value.pos;
      throw new SqlError(`unrecognized ${p.name} after WITH`, end);
    }
  }
  return {
    name: s.name,
    columns,
    timestampIndex,
    partitionBy,
    wal,
    dedupKeys,
    maxUncommittedRows,
    o3MaxLagMicros,
    ttl: s.ttl ? { amount: s.ttl.amount, unit: s.ttl.unit.toUpperCase().replace(/S$/, "") } : undefined,
    parquetFormat: parquetFormat || undefined,
  };
}

/** QuestDB's documented rule for FORMAT PARQUET (the exact error text is unconfirmed). */
const PARQUET_FORMAT_TABLES = "FORMAT PARQUET is only supported on partitioned WAL tables";

/** `600s`, `10m`, `500ms`, `100us` → microseconds (WITH o3MaxLag). */
export function parseDurationMicros(text: string): bigint | undefined {
  const m = /^(\d+)\s*(us|ms|s|m|h|d)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = BigInt(m[1]);
  const unit: Record<string, bigint> = {
    us: 1n,
    ms: 1000n,
    s: 1_000_000n,
    m: 60_000_000n,
    h: 3_600_000_000n,
    d: 86_400_000_000n,
  };
  return n * unit[(m[2] ?? "us").toLowerCase()];
}

export async function createTable(
  s: A.CreateTableStmt,
  storage: Storage,
  opts: {
    walDefault: boolean;
    planQuery: (q: A.Query) => PlanNode;
    runQuery: (p: PlanNode) => AsyncIterable<Batch>;
    /** A turn for other statements while rows are converted (exec_context.ts pace). */
    yieldTurn?: () => Promise<void>;
  },
): Promise<void> {
  if (storage.table(s.name)) {
    if (s.ifNotExists) return;
    throw new SqlError(`table already exists [table=${s.name}]`, s.namePos);
  }
  if (s.like) {
    const src = storage.table(s.like.name);
    if (!src) throw new SqlError(`table does not exist [table=${s.like.name}]`, s.like.pos);
    const m = src.meta;
    await storage.createTable({
      name: s.name,
      columns: m.columns.map(({ id: _id, ...rest }) => ({ ...rest })),
      timestampIndex: m.timestampIndex,
      partitionBy: m.partitionBy,
      wal: m.wal,
      dedupKeys: [...m.dedupKeys],
      maxUncommittedRows: m.maxUncommittedRows,
      o3MaxLagMicros: m.o3MaxLagMicros,
      ttl: m.ttl,
      parquetFormat: m.parquetFormat !== undefined || undefined,
    });
    return;
  }
  if (!s.asSelect) {
    const columns = s.columns.map((c) => storedColumn(c));
    await storage.createTable(tableDefinition(s, columns, s.columns.map((c) => c.pos), opts.walDefault));
    return;
  }
  const plan = opts.planQuery(s.asSelect);
  const columns = plan.columns.map((c) => ({
    name: c.name,
    type: c.type.tag === "NULL" ? T.STRING : c.type,
    symbolCapacity: 256,
    symbolCache: true,
    indexed: false,
    indexCapacity: 0,
  }));
  for (const cast of s.casts) {
    const c = columns.find((x) => x.name.toLowerCase() === cast.column.toLowerCase());
    if (!c) throw new SqlError(`Invalid column: ${cast.column}`, cast.pos);
    c.type = typeFromSpec(cast.type);
    if (cast.symbolCapacity !== undefined) c.symbolCapacity = cast.symbolCapacity;
    if (cast.symbolCache !== undefined) c.symbolCache = cast.symbolCache;
  }
  checkNoNullColumn(s, columns);
  const timestamp = s.timestamp ?? inheritedTimestamp(plan, columns, s.asSelect.pos);
  const def = tableDefinition(
    { ...s, timestamp },
    columns,
    columns.map(() => s.asSelect!.pos),
    opts.walDefault,
  );
  // Run the query before creating the table, so a failing query leaves nothing behind.
  const batches: Batch[] = [];
  for await (const b of opts.runQuery(plan)) batches.push(b);
  const table = await storage.createTable(def);
  try {
    const mapping = columns.map((_, i) => i);
    const rows = await batchesToRows(batches, table.meta.columns, mapping, undefined, opts.yieldTurn);
    if (rows.rowCount > 0) await table.append(rows, { yieldTurn: opts.yieldTurn });
  } catch (err) {
    await storage.dropTable(def.name);
    throw err;
  }
}

/**
 * Without TIMESTAMP(...), CREATE TABLE AS keeps the query's designated timestamp when the query
 * returns it in ascending order (QuestDB's CreateTableOperationImpl.validateAndUpdateMetadataFromSelect:
 * `select * from t` of a table with one, or `(...) timestamp(ts)`; `order by ts desc` does not),
 * unless a CAST clause made it another type.
 */
function inheritedTimestamp(
  plan: PlanNode,
  columns: { name: string; type: ColumnType }[],
  pos: number,
): { name: string; pos: number } | undefined {
  const c = plan.timestampIndex >= 0 ? columns[plan.timestampIndex] : undefined;
  return c && isTimestamp(c.type) ? { name: c.name, pos } : undefined;
}

/**
 * A bare NULL (or NaN) select item has no type to store: QuestDB refuses it unless a CAST
 * clause gives one (CreateTableTest#testCreateNullColumn, #testCreateNaNColumn).
 */
function checkNoNullColumn(s: A.CreateTableStmt, columns: { name: string }[]): void {
  const body = s.asSelect!.body;
  const items = body.kind === "select" ? body.items : undefined;
  if (!items || items.some((it) => it.expr.kind === "star")) return;
  items.forEach((it, j) => {
    const name = columns[j]?.name.toLowerCase();
    const cast = s.casts.some((c) => c.column.toLowerCase() === name);
    if (it.expr.kind === "literal" && it.expr.type === "null" && !cast) {
      throw new SqlError("cannot create NULL-type column, please use type cast, e.g. x::type", s.pos);
    }
  });
}

export async function dropTable(s: A.DropTableStmt, storage: Storage): Promise<void> {
  if (s.all) {
    for (const m of storage.tables()) await storage.dropTable(m.name);
    return;
  }
  for (const n of s.names) {
    if (!storage.table(n.name)) {
      if (s.ifExists) continue;
      throw new SqlError(`table does not exist [table=${n.name}]`, n.pos);
    }
    await storage.dropTable(n.name);
  }
}

export async function truncateTable(s: A.TruncateTableStmt, storage: Storage): Promise<void> {
  for (const n of s.names) {
    const t = storage.table(n.name);
    if (!t) {
      if (s.ifExists) continue;
      throw new SqlError(`table does not exist [table=${n.name}]`, n.pos);
    }
    await t.truncate();
  }
}

export async function renameTable(s: A.RenameTableStmt, storage: Storage): Promise<void> {
  if (!storage.table(s.from.name)) {
    throw new SqlError(`table does not exist [table=${s.from.name}]`, s.from.pos);
  }
  checkTableName(s.to.name, s.to.pos);
  if (storage.table(s.to.name) && s.to.name.toLowerCase() !== s.from.name.toLowerCase()) {
    throw new SqlError(`table already exists [table=${s.to.name}]`, s.to.pos);
  }
  await storage.renameTable(s.from.name, s.to.name);
}

export function requireTable(storage: Storage, name: string, pos: number): Table {
  const t = storage.table(name);
  if (!t) throw new SqlError(`table does not exist [table=${name}]`, pos);
  return t;
}

/** The column of an ALTER COLUMN form, with QuestDB's message when it is missing. */
function alterColumnIndex(t: Table, column: { name: string; pos: number }): number {
  const i = t.meta.columns.findIndex((c) => c.name.toLowerCase() === column.name.toLowerCase());
  if (i < 0) {
    throw new SqlError(`column '${column.name}' does not exist in table '${t.meta.name}'`, column.pos);
  }
  return i;
}

/**
 * Whether ALTER COLUMN TYPE converts `from` into `to`. QuestDB refuses arrays and BINARY on
 * either side (AlterTableChangeColumnTypeTest#testConversionsFromArray, #testChangeStringToBinary)
 * and, from a BOOLEAN, the types that do not hold a number or text (CHAR, LONG256, GEOHASH,
 * UUID, IPv4, DECIMAL).
 */
function changesColumnType(from: ColumnType, to: ColumnType): boolean {
  const opaque = (c: ColumnType) => c.tag === "ARRAY" || c.tag === "BINARY";
  if (opaque(from) || opaque(to)) return false;
  const structured = ["CHAR", "LONG256", "GEOHASH", "UUID", "IPV4", "DECIMAL"];
  return !(from.tag === "BOOLEAN" && structured.includes(to.tag));
}

export function columnIndex(t: Table, name: string, pos: number): number {
  const i = t.meta.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
  if (i < 0) throw new SqlError(`Invalid column: ${name}`, pos);
  return i;
}

/**
 * ALTER TABLE SET | ENABLE | DISABLE | DROP STORAGE POLICY (QuestDB Enterprise; docs/storage.md
 * "Cold storage"): kept in the table's metadata, run by the cold-storage task. SET changes only
 * the stages it names; a new policy starts enabled.
 */
async function storagePolicy(t: Table, a: Extract<A.AlterAction, { kind: "storagePolicy" }>): Promise<void> {
  if (t.meta.partitionBy === "NONE" || t.meta.timestampIndex < 0) {
    throw new SqlError("storage policy requires a partitioned table with a designated timestamp", a.pos);
  }
  const old = t.meta.storagePolicy;
  if (a.op !== "set" && !old) throw new SqlError(`table has no storage policy [table=${t.meta.name}]`, a.pos);
  await t.alterMeta((m) => {
    if (a.op === "drop") delete m.storagePolicy;
    else if (a.op === "set") {
      const units = Object.fromEntries(
        Object.entries(a.settings ?? {}).map((
          [k, v],
        ) => [k, { amount: v.amount, unit: v.unit.toUpperCase() }]),
      );
      m.storagePolicy = { ...(old ?? { enabled: true }), ...units };
    } else m.storagePolicy = { ...old!, enabled: a.op === "enable" };
  });
}

/**
 * CONVERT PARTITION TO PARQUET | NATIVE (docs/alter_table.md): LIST names must all exist;
 * WHERE picks the partitions whose timestamp matches, as DROP PARTITION WHERE does. The
 * active (newest) partition is left native, as QuestDB does: it takes the appends.
 */
async function convertPartitions(
  t: Table,
  a: Extract<A.AlterAction, { kind: "convertPartition" }>,
  opts: { dropPartitionsWhere: (t: Table, where: A.Expr) => Promise<string[]> },
): Promise<void> {
  if (t.meta.partitionBy === "NONE") throw new SqlError("table is not partitioned", a.pos);
  const snap = t.snapshot();
  const all = snap.partitions.map((p) => p.name);
  snap.release();
  const active = all[all.length - 1];
  let names: string[];
  if (a.list) {
    for (const n of a.list) {
      if (!all.includes(n.name)) {
        throw new SqlError(`could not convert partition [table=${t.meta.name}, partition=${n.name}]`, n.pos);
      }
      if (a.format !== "native" && n.name === active) {
        throw new SqlError(
          `cannot convert the active partition [table=${t.meta.name}, partition=${n.name}]`,
          n.pos,
        );
      }
    }
    names = a.list.map((n) => n.name);
  } else {
    names = (await opts.dropPartitionsWhere(t, a.where!)).filter((n) =>
      a.format === "native" || n !== active
    );
  }
  if (a.format === "remote") {
    // Checked first (moves nothing), so that a server without a cold store converts nothing.
    await t.movePartitionsRemote([]).catch((e) => {
      throw new SqlError((e as Error).message, a.pos);
    });
    if (!names.length) return;
    await t.convertPartitions(names, "parquet");
    await t.movePartitionsRemote(names);
    return;
  }
  if (names.length) await t.convertPartitions(names, a.format);
}

export async function alterTable(
  s: A.AlterTableStmt,
  storage: Storage,
  opts: { dropPartitionsWhere: (t: Table, where: A.Expr) => Promise<string[]> },
): Promise<void> {
  const t = requireTable(storage, s.table.name, s.table.pos);
  const a = s.action;
  switch (a.kind) {
    case "addColumn": {
      const existing = new Set(t.meta.columns.map((c) => c.name.toLowerCase()));
      const defs = a.columns.map((c) => storedColumn(c, undefined, true));
      defs.forEach((d, i) => {
        if (existing.has(d.name.toLowerCase()) && !a.ifNotExists) {
          throw new SqlError(`Duplicate column [name=${d.name}]`, a.columns[i].pos);
        }
        // IF NOT EXISTS skips a column of the same type only (AlterTableAddColumnTest
        // #testAddDuplicateColumnIfNotExists): another type is an error at the type.
        const current = t.meta.columns.find((c) => c.name.toLowerCase() === d.name.toLowerCase());
        if (current && !sameType(current.type, d.type)) {
          throw new SqlError(
            `column already exists with a different column type [current type=${
              typeName(current.type)
            }, requested type=${typeName(d.type)}]`,
            a.columns[i].type.pos,
          );
        }
      });
      // A NOT NULL column may be added to a table with rows (spec/sql.md §5.3): they are not
      // back-filled; only later writes are checked. The rows it predates hold the NULL sentinel,
      // which such a column prints as its raw value (spec/sql.md §5.1; AlterTableAddColumnTest
      // #testAddColumnWithQuotedColumnName: -2147483648 for INT).
      for (const d of defs) {
        if (existing.has(d.name.toLowerCase())) continue;
        await t.addColumn(d.notNull ? { ...d, nullsStored: true } : d);
        existing.add(d.name.toLowerCase());
      }
      return;
    }
    case "dropColumn":
      for (const n of a.names) {
        const i = columnIndex(t, n.name, n.pos);
        if (i === t.meta.timestampIndex) throw new SqlError("cannot drop designated timestamp column", n.pos);
      }
      for (const n of a.names) await t.dropColumn(n.name);
      return;
    case "renameColumn": {
      // QuestDB SqlCompilerImpl.alterTableRenameColumn checks every pair against the table as it
      // is before renaming any: the old name must exist, the new one differ from it exactly and
      // name no column, in any case (a case-only rename is " column already exists").
      for (const { from, to } of a.pairs) {
        columnIndex(t, from.name, from.pos);
        if (to.name === from.name) {
          throw new SqlError("new column name is identical to existing name", to.pos);
        }
        if (t.meta.columns.some((c) => c.name.toLowerCase() === to.name.toLowerCase())) {
          throw new SqlError(" column already exists", to.pos);
        }
        checkColumnName(to.name, to.pos);
      }
      for (const { from, to } of a.pairs) await t.renameColumn(from.name, to.name);
      return;
    }
    case "alterColumnType": {
      const i = alterColumnIndex(t, a.column);
      if (i === t.meta.timestampIndex) {
        throw new SqlError("cannot change type of designated timestamp column", a.column.pos);
      }
      const from = t.meta.columns[i].type;
      const def = storedColumn({ ...a.def, name: t.meta.columns[i].name });
      const at = a.lastPos ?? a.def.type.pos;
      if (def.type.tag === from.tag && def.type.geoBits === from.geoBits) {
        throw new SqlError(`column '${a.column.name}' type is already '${from.tag}'`, at);
      }
      if (!changesColumnType(from, def.type)) {
        throw new SqlError(
          `incompatible column type change [existing=${typeName(from)}, new=${typeName(def.type)}]`,
          at,
        );
      }
      await t.convertColumn(
        t.meta.columns[i].name,
        def,
        (v: Value) => castValue(v, from, def.type, { constant: false, pos: -1 }),
      );
      return;
    }
    case "addIndex":
    case "dropIndex":
    case "symbolCache": {
      const i = alterColumnIndex(t, a.column);
      const c = t.meta.columns[i];
      if (c.type.tag !== "SYMBOL") {
        // QuestDB SqlCompilerImpl.alterTableColumnAddIndex / DropIndex / CacheFlag.
        const what = a.kind === "symbolCache" ? "cache is" : "indexes are";
        throw new SqlError(
          `${what} only supported for symbol type [column=${a.column.name}, type=${typeName(c.type)}]`,
          a.column.pos,
        );
      }
      // QuestDB AddIndexTest#testAddIndexToIndexedColumn: reported at the table name.
      if (a.kind === "addIndex" && c.indexed) {
        throw new SqlError(`column is already indexed [column=${a.column.name}]`, s.table.pos);
      }
      // QuestDB DropIndexTest#testDropIndexOfNonIndexedColumnShouldFail: reported at the column.
      if (a.kind === "dropIndex" && !c.indexed) {
        throw new SqlError(`column is not indexed [column=${a.column.name}]`, a.column.pos);
      }
      await t.alterMeta((m) => {
        const c = m.columns[i];
        if (a.kind === "addIndex") {
          c.indexed = true;
          c.indexCapacity = ceilPow2(a.capacity ?? 256);
        } else if (a.kind === "dropIndex") {
          // The block size stays in QuestDB's metadata (CreateTableDedupTest#testAddIndexOnDeduplicatedColumn).
          c.indexed = false;
        } else c.symbolCache = a.cache;
      });
      return;
    }
    case "columnParquet": {
      // Per-column Parquet options (spec/sql.md §26.5): kept in the column's metadata and shown
      // by SHOW CREATE TABLE; `default` alone resets them. No query result depends on them.
      const i = alterColumnIndex(t, a.column);
      const error = parquetEncodingError(a.encoding, typeName(t.meta.columns[i].type));
      if (error) throw error;
      await t.alterMeta((m) => {
        if (a.options.toLowerCase() === "default") delete m.columns[i].parquet;
        else m.columns[i].parquet = a.options;
      });
      return;
    }
    case "columnNotNull": {
      // Metadata only (spec/sql.md §5.3): SET NOT NULL does not scan the rows already stored;
      // later writes are checked. SET NULL drops the constraint.
      const i = alterColumnIndex(t, a.column);
      await t.alterMeta((m) => {
        const c = m.columns[i];
        if (a.notNull) {
          // Rows stored while it was nullable may hold NULL sentinels (plan/not_null_columns.ts).
          if (!c.notNull) c.nullsStored = true;
          c.notNull = true;
        } else {
          delete c.notNull;
          delete c.nullsStored;
        }
      });
      return;
    }
    case "dropPartition": {
      if (t.meta.partitionBy === "NONE") throw new SqlError("table is not partitioned", a.pos);
      if (a.list) {
        const snap = t.snapshot();
        const names = new Set(snap.partitions.map((p) => p.name));
        snap.release();
        const drop: string[] = [];
        for (const n of a.list) {
          const name = names.has(n.name) ? n.name : listedPartitionName(t.meta.partitionBy, n);
          if (!names.has(name)) {
            throw new SqlError(
              `could not remove partition [table=${t.meta.name}, partition=${n.name}]`,
              n.pos,
            );
          }
          drop.push(name);
        }
        await t.dropPartitions(drop);
      } else if (a.where) {
        const names = await opts.dropPartitionsWhere(t, a.where);
        // QuestDB AlterTableDropActivePartitionTest#testDropAllPartitionsButThereAreNoPartitions:
        // a WHERE that selects nothing is an error at the predicate, not a silent no-op.
        if (!names.length) {
          throw new SqlError("no partitions matched WHERE clause", a.wherePos ?? a.where.pos);
        }
        await t.dropPartitions(names);
      }
      return;
    }
    case "dedupEnable": {
      if (!t.meta.wal) throw new SqlError("deduplication is only supported for WAL tables", s.table.pos);
      // QuestDB SqlCompilerImpl.alterTableDedupEnable (CreateTableDedupTest): an unknown key and
      // a list without the designated timestamp are reported at the key, at the list's first token.
      const keys = a.keys.map((k) => {
        const i = t.meta.columns.findIndex((c) => c.name.toLowerCase() === k.name.toLowerCase());
        if (i < 0) throw new SqlError(`deduplicate key column not found [column=${k.name}]`, k.pos);
        const c = t.meta.columns[i];
        refuseArrayDedupKey(c.name, c.type, k.pos);
        return c.name;
      });
      const ts = t.meta.columns[t.meta.timestampIndex]?.name;
      if (!keys.some((k) => k.toLowerCase() === ts?.toLowerCase())) {
        throw new SqlError(
          "deduplicate key list must include dedicated timestamp column",
          a.keys[0]?.pos ?? a.pos,
        );
      }
      await t.alterMeta((m) => {
        m.dedupKeys = keys;
      });
      return;
    }
    case "dedupDisable":
      await t.alterMeta((m) => {
        m.dedupKeys = [];
      });
      return;
    case "setParam":
      // QuestDB AlterTableO3MaxLagTest#setUnknownParameter, #setMaxUncommittedRowsNegativeValue:
      // both are reported at the parameter's name; the invalid value shows its first token.
      for (const p of a.params) {
        const name = p.name.toLowerCase();
        if (name !== "maxuncommittedrows" && name !== "o3maxlag") {
          throw new SqlError(`unknown parameter '${p.name}'`, p.pos);
        }
        const v = p.value;
        const token = v.kind === "unary"
          ? v.op
          : v.kind === "literal"
          ? v.text
          : v.kind === "column"
          ? v.name
          : "";
        if (name === "maxuncommittedrows" && !(v.kind === "literal" && v.type === "int")) {
          throw new SqlError(`invalid value [value=${token},parameter=${p.name}]`, p.pos);
        }
        if (name === "o3maxlag") expectMicros(token, p.pos);
      }
      await t.alterMeta((m) => {
        for (const p of a.params) {
          const v = p.value.kind === "literal" ? p.value.value : undefined;
          if (p.name.toLowerCase() === "maxuncommittedrows") m.maxUncommittedRows = Number(v);
          if (p.name.toLowerCase() === "o3maxlag") m.o3MaxLagMicros = expectMicros(String(v), p.pos);
        }
      });
      return;
    case "setTtl":
      // A zero TTL (removing it) is accepted on any table (TtlTest#testAlterTableNotPartitioned).
      if (a.amount !== 0) validateTtlGranularity(t.meta.partitionBy, a.amount, a.unit, a.valuePos);
      await t.alterMeta((m) => {
        m.ttl = { amount: a.amount, unit: a.unit.toUpperCase().replace(/S$/, "") };
      });
      return;
    case "setType":
      // MergeAppendLagGuardTest#testWalTableIsAlwaysPartitioned: at the table name.
      if (a.wal && t.meta.partitionBy === "NONE") {
        throw new SqlError("Cannot convert non-partitioned table", s.table.pos);
      }
      await t.alterMeta((m) => {
        m.wal = a.wal;
      });
      return;
    case "setFormat":
      return await setFormat(t, a);
    case "convertPartition":
      return await convertPartitions(t, a, opts);
    case "storagePolicy":
      return await storagePolicy(t, a);
    case "detachPartition":
    case "attachPartition":
      throw new SqlError(
        `${a.kind === "detachPartition" ? "DETACH" : "ATTACH"} PARTITION is not supported`,
        a.pos,
      );
    case "suspendWal":
    case "resumeWal":
      return await suspendOrResume(t, a);
    case "squashPartitions":
      // Storage never splits a partition (docs/storage.md), so every partition is already whole:
      // there is nothing to squash, and table_partitions() shows one row per partition.
      return;
    case "symbolCapacity": {
      const i = alterColumnIndex(t, a.column);
      if (t.meta.columns[i].type.tag !== "SYMBOL") {
        throw new SqlError(`column is not a symbol [column=${t.meta.columns[i].name}]`, a.column.pos);
      }
      if (a.capacity.value < 2) throw new SqlError("min symbol capacity is 2", a.capacity.pos);
      if (a.capacity.value > SYMBOL_CAPACITY_MAX) {
        throw new SqlError(`max symbol capacity is ${SYMBOL_CAPACITY_MAX}`, a.capacity.pos);
      }
      await t.alterMeta((m) => {
        // QuestDB rounds the capacity up to a power of two (AlterTableChangeColumnTypeTest
        // #testChangeSymbolCapacity: 1000 shows as 1024).
        m.columns[i].symbolCapacity = 2 ** Math.ceil(Math.log2(a.capacity.value));
      });
      return;
    }
    case "unsupported":
      throw new SqlError(`${a.what} is not supported`, a.pos);
    case "invalid":
      if (a.column) alterColumnIndex(t, a.column);
      if (a.renamed) columnIndex(t, a.renamed.name, a.renamed.pos);
      throw a.error;
  }
}

/**
 * SET FORMAT PARQUET | NATIVE: as QuestDB, the format applies to partitions written afterwards
 * and converts nothing now. PARQUET remembers where the active partition starts: it and
 * partitions written after it become Parquet once no longer active (storage, on the append
 * that ends them); older ones keep their format. NATIVE stops that; Parquet partitions stay.
 */
async function setFormat(t: Table, a: Extract<A.AlterAction, { kind: "setFormat" }>): Promise<void> {
  if (a.format === "native") {
    if (t.meta.parquetFormat) await t.alterMeta((m) => void delete m.parquetFormat);
    return;
  }
  if (t.meta.parquetFormat) return;
  if (!t.meta.wal) throw new SqlError(PARQUET_FORMAT_TABLES, a.pos);
  const snap = t.snapshot();
  const active = snap.partitions.at(-1);
  snap.release();
  await t.alterMeta((m) => {
    m.parquetFormat = active ? { fromTs: String(active.minTs) } : {};
  });
}

/** QuestDB's symbol capacity ceiling (`SYMBOL CAPACITY` beyond it is an error there too). */
const SYMBOL_CAPACITY_MAX = 1 << 30;

/**
 * SUSPEND WAL / RESUME WAL [FROM TRANSACTION n]: the table's `suspended` flag, kept in its
 * metadata. While it is set storage refuses writes (docs/alter_table.md explains why we refuse
 * rather than queue them as QuestDB's WAL does).
 */
async function suspendOrResume(
  t: Table,
  a: Extract<A.AlterAction, { kind: "suspendWal" | "resumeWal" }>,
): Promise<void> {
  if (!t.meta.wal) throw new SqlError(`${t.meta.name} is not a WAL table`, a.pos);
  if (a.kind === "resumeWal" && a.fromTxn) {
    // Every committed transaction is applied here, so the next one is the only place to resume from.
    const next = t.txn + 1;
    if (a.fromTxn.value > next) {
      throw new SqlError(
        `resume txn is higher than next available transaction [resumeFromTxn=${a.fromTxn.value}, nextTxn=${next}]`,
        a.fromTxn.pos,
      );
    }
  }
  const suspended = a.kind === "suspendWal";
  if ((t.meta.suspended ?? false) === suspended) return;
  await t.alterMeta((m) => {
    m.suspended = suspended;
  });
}

/** QuestDB keeps arrays out of dedup keys (ArrayTest#testDudupArrayAsKey). */
/**
 * QuestDB's PartitionBy.validateTtlGranularity: HOUR/DAY/WEEK TTLs count hours, MONTH/YEAR
 * months; a DAY (WEEK) partition needs whole days (weeks) or any months, a MONTH partition months,
 * a YEAR partition whole years of months (TtlTest#testGranularityInvalid*: MONTH rejects 30 DAY and
 * 4 WEEK, YEAR rejects 365 DAY and 13 MONTH, WEEK accepts 7 DAY). Errors point at the TTL value.
 */
function validateTtlGranularity(partitionBy: string, amount: number, unit: string, pos: number): void {
  if (partitionBy === "NONE") throw new SqlError("cannot set TTL on a non-partitioned table", pos);
  const u = unit.toUpperCase().replace(/S$/, "");
  const months = u === "MONTH" ? amount : u === "YEAR" ? amount * 12 : undefined;
  const hours = u === "HOUR" ? amount : u === "DAY" ? amount * 24 : u === "WEEK" ? amount * 168 : undefined;
  const ok = partitionBy === "HOUR" ||
    (partitionBy === "DAY" && (months !== undefined || hours! % 24 === 0)) ||
    (partitionBy === "WEEK" && (months !== undefined || hours! % 168 === 0)) ||
    (partitionBy === "MONTH" && months !== undefined) ||
    (partitionBy === "YEAR" && months !== undefined && months % 12 === 0);
  if (!ok) throw new SqlError("TTL value must be an integer multiple of partition size", pos);
}

function refuseArrayDedupKey(name: string, type: ColumnType, pos: number): void {
  if (type.tag === "ARRAY") {
    throw new SqlError(
      `dedup key columns cannot include ARRAY [column=${name}, type=${typeName(type)}]`,
      pos,
    );
  }
}

const PARTITION_FORMATS: Record<A.PartitionUnit, string> = {
  NONE: "default",
  HOUR: "yyyy-MM-ddTHH",
  DAY: "yyyy-MM-dd",
  WEEK: "YYYY-Www",
  MONTH: "yyyy-MM",
  YEAR: "yyyy",
};
const PRECISION_RANK: Record<string, number> = {
  year: 0,
  month: 1,
  day: 2,
  hour: 3,
  minute: 4,
  second: 5,
  fraction: 6,
};
const UNIT_RANK: Record<A.PartitionUnit, number> = { NONE: 0, YEAR: 0, MONTH: 1, WEEK: 2, DAY: 2, HOUR: 3 };

/**
 * The partition a DROP PARTITION LIST name that is not a partition's exact name stands for
 * (QuestDB AlterTableDropPartitionTest#testDropPartitionListWithOneItem1,
 * #testDropPartitionListWithMixedWeekDayFormats): a timestamp text at least as precise as the
 * partition unit names the partition holding it (`'2018-01-05T23'` of a DAY table is 2018-01-05,
 * `'2023-12-05T23:47:21.038145Z'` of a WEEK table is 2023-W49). A coarser or malformed text is
 * "'yyyy-MM-dd' expected, found [ts=2017-01]" (#testDropMalformedPartition1, #testDropPartitionNameMissing2).
 */
function listedPartitionName(unit: A.PartitionUnit, n: { name: string; pos: number }): string {
  const parsed = unit === "NONE" ? undefined : parseTimestampDetailed(n.name, "us");
  if (!parsed || PRECISION_RANK[parsed.precision] < UNIT_RANK[unit]) {
    if (partitionRange(unit, n.name)) return n.name;
    throw new SqlError(`'${PARTITION_FORMATS[unit]}' expected, found [ts=${n.name}]`, n.pos);
  }
  return partitionNameOf(unit, parsed.value);
}
