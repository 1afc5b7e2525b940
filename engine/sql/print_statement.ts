/**
 * Prints any statement back to SQL that parses to the same tree (used by round-trip tests and
 * handy in logs). Formatting is plain: one line, upper-case clause keywords.
 */
import type { AlterAction, ColumnDef, CreateTableStmt, Cte, ShowStmt, Statement } from "./ast.ts";
import { exprToSql as x, nameToText, quoteString } from "./printer.ts";
import { aliasToText, fromToText, queryToText, tableNameToText as tn } from "./print_query.ts";

/** SQL text of a statement that parses back to the same tree (positions aside). */
export function statementToText(s: Statement): string {
  switch (s.kind) {
    case "query":
      return queryToText(s);
    case "createTable":
      return createTableToText(s);
    case "dropTable":
      if (s.all) return "DROP ALL TABLES";
      return `DROP TABLE ${s.ifExists ? "IF EXISTS " : ""}${s.names.map((n) => tn(n.name)).join(", ")}`;
    case "truncateTable":
      return `TRUNCATE TABLE ${s.ifExists ? "IF EXISTS " : ""}${s.names.map((n) => tn(n.name)).join(", ")}`;
    case "renameTable":
      return `RENAME TABLE ${tn(s.from.name)} TO ${tn(s.to.name)}`;
    case "alterTable":
      return `ALTER TABLE ${tn(s.table.name)} ${alterActionToText(s.action)}`;
    case "insert": {
      let text = `${withToText(s.with)}INSERT INTO ${tn(s.table.name)}`;
      if (s.columns) text += ` (${s.columns.map((c) => nameToText(c.name)).join(", ")})`;
      if (s.values) text += ` VALUES ${s.values.map((r) => `(${r.map(x).join(", ")})`).join(", ")}`;
      if (s.query) text += ` ${queryToText(s.query)}`;
      if (s.onConflict) {
        const c = s.onConflict;
        text += " ON CONFLICT";
        if (c.target.length > 0) text += ` (${c.target.map((t) => nameToText(t.name)).join(", ")})`;
        text += c.action === "nothing" ? " DO NOTHING" : ` DO UPDATE SET ${assignments(c.set)}`;
      }
      if (s.returning) {
        text += ` RETURNING ${
          s.returning.map((
            i,
          ) => (i.alias === undefined ? x(i.expr) : `${x(i.expr)} AS ${nameToText(i.alias)}`)).join(", ")
        }`;
      }
      return text;
    }
    case "update": {
      let text = `${withToText(s.with)}UPDATE ${tn(s.table.name)}`;
      if (s.alias !== undefined) text += aliasToText(s.alias);
      text += ` SET ${assignments(s.set)}`;
      if (s.from) text += ` FROM ${fromToText(s.from)}`;
      if (s.where) text += ` WHERE ${x(s.where)}`;
      return text;
    }
    case "delete":
      return `DELETE FROM ${tn(s.table.name)}${s.alias !== undefined ? aliasToText(s.alias) : ""}${
        s.where ? ` WHERE ${x(s.where)}` : ""
      }`;
    case "show":
      return showToText(s);
    case "explain":
      return `EXPLAIN ${statementToText(s.statement)}`;
    case "declare":
      return `DECLARE ${s.vars.map((v) => `${v.name} := ${x(v.value)}`).join(", ")} ${
        statementToText(s.statement)
      }`;
    case "noop":
      return noopToText(s);
    case "copy": {
      let text = `COPY ${s.query ? `(${queryToText(s.query)})` : tn(s.table!.name)}`;
      if (s.columns) text += ` (${s.columns.map((c) => nameToText(c.name)).join(", ")})`;
      text += ` ${s.direction.toUpperCase()} ${
        typeof s.target === "string" ? s.target.toUpperCase() : quoteString(s.target.file)
      }`;
      if (s.options.length > 0) {
        const opts = s.options.map((
          o,
        ) => (o.value === undefined ? nameToText(o.name) : `${nameToText(o.name)} ${quoteString(o.value)}`));
        text += ` WITH (${opts.join(", ")})`;
      }
      return text;
    }
    case "cancelQuery":
      return `CANCEL QUERY ${s.id}`;
    case "checkpoint":
      return `CHECKPOINT ${s.action.toUpperCase()}`;
    case "backup":
      return s.tables ? `BACKUP TABLE ${s.tables.map((t) => tn(t.name)).join(", ")}` : "BACKUP DATABASE";
    case "acl":
      return [s.verb.toUpperCase(), ...s.words.map((w) => (w.quoted ? quoteString(w.text) : w.text))].join(
        " ",
      );
  }
}

function withToText(ctes: Cte[]): string {
  if (ctes.length === 0) return "";
  return `WITH ${ctes.map((c) => `${nameToText(c.name)} AS (${queryToText(c.query)})`).join(", ")} `;
}

function assignments(set: { column: string; expr: Parameters<typeof x>[0] }[]): string {
  return set.map((a) => `${nameToText(a.column)} = ${x(a.expr)}`).join(", ");
}

function createTableToText(s: CreateTableStmt): string {
  let text = `CREATE TABLE ${s.ifNotExists ? "IF NOT EXISTS " : ""}${tn(s.name)}`;
  if (s.like) text += ` (LIKE ${tn(s.like.name)})`;
  else if (s.asSelect) text += ` AS (${queryToText(s.asSelect)})`;
  else text += ` (${s.columns.map(columnDefToText).join(", ")})`;
  for (const c of s.casts) {
    const capacity = c.symbolCapacity !== undefined ? ` CAPACITY ${c.symbolCapacity}` : "";
    const cache = c.symbolCache === undefined ? "" : c.symbolCache ? " CACHE" : " NOCACHE";
    text += `, CAST(${nameToText(c.column)} AS ${c.type.text}${capacity}${cache})`;
  }
  for (const i of s.indexes) {
    text += `, INDEX(${nameToText(i.column)}${i.capacity !== undefined ? ` CAPACITY ${i.capacity}` : ""})`;
  }
  if (s.timestamp) text += ` TIMESTAMP(${nameToText(s.timestamp.name)})`;
  if (s.partitionBy) text += ` PARTITION BY ${s.partitionBy.unit}`;
  if (s.ttl) text += ` TTL ${s.ttl.amount} ${s.ttl.unit}`;
  if (s.format) text += ` FORMAT ${s.format.value.toUpperCase()}`;
  if (s.wal !== undefined) text += s.wal ? " WAL" : " BYPASS WAL";
  if (s.dedupKeys) text += ` DEDUP UPSERT KEYS(${s.dedupKeys.map((k) => nameToText(k.name)).join(", ")})`;
  if (s.withParams.length > 0) text += ` WITH ${params(s.withParams)}`;
  if (s.volume !== undefined) text += ` IN VOLUME ${tn(s.volume)}`;
  if (s.ownedBy !== undefined) text += ` OWNED BY ${tn(s.ownedBy)}`;
  return text;
}

function params(list: { name: string; value: Parameters<typeof x>[0] }[]): string {
  return list.map((p) => `${nameToText(p.name)} = ${x(p.value)}`).join(", ");
}

function columnDefToText(c: ColumnDef): string {
  return `${nameToText(c.name)} ${c.type.text}${columnOptions(c)}`;
}

function columnOptions(c: ColumnDef): string {
  let text = "";
  if (c.symbolCapacity !== undefined) text += ` CAPACITY ${c.symbolCapacity}`;
  if (c.symbolCache !== undefined) text += c.symbolCache ? " CACHE" : " NOCACHE";
  if (c.indexed) text += " INDEX";
  if (c.indexed && c.indexCapacity !== undefined) text += ` CAPACITY ${c.indexCapacity}`;
  if (c.notNull) text += " NOT NULL";
  return text;
}

function alterActionToText(a: AlterAction): string {
  const names = (list: { name: string }[]) => list.map((n) => nameToText(n.name)).join(", ");
  const partitions = (list: { name: string }[]) => list.map((n) => quoteString(n.name)).join(", ");
  switch (a.kind) {
    case "addColumn":
      return `ADD COLUMN ${a.ifNotExists ? "IF NOT EXISTS " : ""}${
        a.columns.map(columnDefToText).join(", ")
      }`;
    case "dropColumn":
      return `DROP COLUMN ${names(a.names)}`;
    case "renameColumn":
      return `RENAME COLUMN ${
        a.pairs.map((r) => `${nameToText(r.from.name)} TO ${nameToText(r.to.name)}`).join(", ")
      }`;
    case "alterColumnType":
      return `ALTER COLUMN ${nameToText(a.column.name)} TYPE ${a.def.type.text}${columnOptions(a.def)}`;
    case "addIndex":
      return `ALTER COLUMN ${nameToText(a.column.name)} ADD INDEX${
        a.capacity !== undefined ? ` CAPACITY ${a.capacity}` : ""
      }`;
    case "dropIndex":
      return `ALTER COLUMN ${nameToText(a.column.name)} DROP INDEX`;
    case "symbolCache":
      return `ALTER COLUMN ${nameToText(a.column.name)} ${a.cache ? "CACHE" : "NOCACHE"}`;
    case "columnNotNull":
      return `ALTER COLUMN ${nameToText(a.column.name)} SET ${a.notNull ? "NOT NULL" : "NULL"}`;
    case "columnParquet":
      return `ALTER COLUMN ${nameToText(a.column.name)} SET PARQUET(${a.options})`;
    case "dropPartition":
      return a.where
        ? `DROP PARTITION WHERE ${x(a.where)}`
        : `DROP PARTITION LIST ${partitions(a.list ?? [])}`;
    case "convertPartition":
      return `CONVERT PARTITION TO ${a.format.toUpperCase()} ${
        a.where ? `WHERE ${x(a.where)}` : `LIST ${partitions(a.list ?? [])}`
      }`;
    case "detachPartition":
      return `DETACH PARTITION LIST ${partitions(a.list)}`;
    case "attachPartition":
      return `ATTACH PARTITION LIST ${partitions(a.list)}`;
    case "dedupEnable":
      return `DEDUP ENABLE UPSERT KEYS(${names(a.keys)})`;
    case "dedupDisable":
      return "DEDUP DISABLE";
    case "setParam":
      return `SET PARAM ${params(a.params)}`;
    case "setTtl":
      return `SET TTL ${a.amount} ${a.unit}`;
    case "storagePolicy": {
      if (a.op !== "set") return `${a.op.toUpperCase()} STORAGE POLICY`;
      const names = { toParquet: "TO PARQUET", dropNative: "DROP NATIVE", dropLocal: "DROP LOCAL" };
      const parts = Object.entries(a.settings ?? {}).map(([k, v]) =>
        `${names[k as keyof typeof names]} ${v.amount} ${v.unit}`
      );
      return `SET STORAGE POLICY(${parts.join(", ")})`;
    }
    case "setFormat":
      return `SET FORMAT ${a.format.toUpperCase()}`;
    case "setType":
      return `SET TYPE ${a.wal ? "" : "BYPASS "}WAL`;
    case "suspendWal":
      return "SUSPEND WAL";
    case "resumeWal":
      return a.fromTxn ? `RESUME WAL FROM TRANSACTION ${a.fromTxn.value}` : "RESUME WAL";
    case "squashPartitions":
      return "SQUASH PARTITIONS";
    case "symbolCapacity":
      return `ALTER COLUMN ${nameToText(a.column.name)} SYMBOL CAPACITY ${a.capacity.value}`;
    case "unsupported":
      return a.what;
    case "invalid":
      throw a.error;
  }
}

const SHOW_WORDS: Record<ShowStmt["what"], string> = {
  tables: "TABLES",
  columns: "COLUMNS FROM",
  createTable: "CREATE TABLE",
  partitions: "PARTITIONS FROM",
  serverVersion: "SERVER_VERSION",
  parameters: "PARAMETERS",
  timeZone: "TIME ZONE",
  transactionIsolation: "TRANSACTION ISOLATION LEVEL",
  maxIdentifierLength: "max_identifier_length",
  standardConformingStrings: "standard_conforming_strings",
  searchPath: "search_path",
  dateStyle: "datestyle",
  users: "USERS",
  groups: "GROUPS",
  user: "USER",
  group: "GROUP",
  permissions: "PERMISSIONS",
  serviceAccounts: "SERVICE ACCOUNTS",
  serviceAccount: "SERVICE ACCOUNT",
  other: "",
};

/** `SHOW ...` as text. */
export function showToText(s: ShowStmt): string {
  if (s.what === "other") return `SHOW ${s.text ?? ""}`;
  return `SHOW ${SHOW_WORDS[s.what]}${s.target ? ` ${tn(s.target.name)}` : ""}`;
}

function noopToText(s: Statement & { kind: "noop" }): string {
  switch (s.what) {
    case "set": {
      const name = /^[a-z_][a-z0-9_.]*$/.test(s.name ?? "") ? s.name! : nameToText(s.name ?? "");
      return s.value === undefined ? `SET ${name}` : `SET ${name} = ${quoteString(s.value)}`;
    }
    case "discard":
    case "deallocate":
    case "reset":
    case "close":
    case "savepoint":
    case "release":
      return `${s.what.toUpperCase()} ${nameToText(s.name ?? "")}`;
    case "rollbackTo":
      return `ROLLBACK TO SAVEPOINT ${nameToText(s.name ?? "")}`;
    default:
      return s.what.toUpperCase();
  }
}
