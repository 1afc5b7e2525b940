/**
 * Permission checks the engine runs before a statement (security.md §2): what each DDL/DML
 * statement needs, and SELECT on every column a query's scans read (subqueries included).
 * With access control off the principal has no `can` and every check passes.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { type BoundExpr, walkBound } from "../plan/bound.ts";
import { pruneColumns } from "../plan/prune_columns.ts";
import type { Storage } from "../storage/api.ts";
import type { Session } from "../session.ts";

/** The SHOWs that access control answers (security.md §4.6). */
export const ACL_SHOWS = new Set([
  "users",
  "groups",
  "user",
  "group",
  "permissions",
  "serviceAccounts",
  "serviceAccount",
]);

/** `Access denied for <user> [<what>]` (security.md §6.6), an error of kind "permission". */
function denied(session: Session, what: string, pos: number): SqlError {
  return new SqlError(`Access denied for ${session.principal.name} [${what}]`, pos, "permission");
}

/** Throws unless the principal holds `permission` (at the table or column when given). */
function requirePermission(
  session: Session,
  permission: string,
  pos: number,
  table?: string,
  column?: string,
): void {
  const can = session.principal.can;
  if (!can || can.call(session.principal, permission, table, column)) return;
  const on = table === undefined ? "" : column === undefined ? ` on ${table}` : ` on ${table}.${column}`;
  throw denied(session, permission + on, pos);
}

/** The permission an ALTER TABLE action needs and the columns it touches (security.md §2.2). */
function alterPermission(a: A.AlterAction): [string, string[]] | undefined {
  switch (a.kind) {
    case "addColumn":
      return ["ADD COLUMN", []];
    case "dropColumn":
      return ["DROP COLUMN", a.names.map((n) => n.name)];
    case "renameColumn":
      return ["RENAME COLUMN", a.pairs.map((r) => r.from.name)];
    case "alterColumnType":
      return ["ALTER COLUMN TYPE", [a.column.name]];
    case "addIndex":
      return ["ADD INDEX", [a.column.name]];
    case "dropIndex":
      return ["DROP INDEX", [a.column.name]];
    case "symbolCache":
      return ["ALTER COLUMN CACHE", [a.column.name]];
    // The catalogue has no permission of its own for the constraint: it changes the column's
    // definition, as a type change does.
    case "columnNotNull":
    case "columnParquet":
      return ["ALTER COLUMN TYPE", [a.column.name]];
    case "dropPartition":
      return ["DROP PARTITION", []];
    case "detachPartition":
      return ["DETACH PARTITION", []];
    // The catalogue has no CONVERT PARTITION; it needed SET TABLE PARAM while unsupported, and
    // still does, so granting it does not change what a user may do.
    case "convertPartition":
      return ["SET TABLE PARAM", []];
    case "attachPartition":
      return ["ATTACH PARTITION", []];
    case "dedupEnable":
      return ["DEDUP ENABLE", []];
    case "dedupDisable":
      return ["DEDUP DISABLE", []];
    case "setParam":
    case "setTtl":
    case "setFormat":
    case "storagePolicy":
      return ["SET TABLE PARAM", []];
    case "setType":
      return ["SET TABLE TYPE", []];
    // QuestDB: suspending and resuming share one authorization.
    case "suspendWal":
    case "resumeWal":
      return ["RESUME WAL", []];
    // The catalogue has no SQUASH permission; squashing is physical upkeep of a table's files,
    // like VACUUM TABLE (docs/alter_table.md).
    case "squashPartitions":
      return ["VACUUM TABLE", []];
    case "symbolCapacity":
      return ["ALTER COLUMN TYPE", [a.column.name]];
    // A form we do not implement still needs the permission its QuestDB form would, so the
    // "not supported" answer tells nobody more than an access error would.
    case "invalid":
      throw a.error;
    case "unsupported":
      return [a.what.startsWith("REFRESH") ? "REFRESH MATERIALIZED VIEW" : "SET TABLE PARAM", []];
  }
}

/**
 * The permissions a statement needs before it runs, other than reading (checkReads covers
 * that); nothing when access control is off (no `can`). security.md §2.2.
 */
export function checkStatement(stmt: A.Statement, session: Session, storage: Storage): void {
  if (!session.principal.can) return;
  const principal = session.principal;
  if (principal.active && !principal.active.call(principal)) {
    throw denied(session, "user is disabled", stmt.pos);
  }
  const name = (t: string) => storage.table(t)?.meta.name ?? t;
  switch (stmt.kind) {
    case "createTable":
      return requirePermission(session, "CREATE TABLE", stmt.pos);
    case "dropTable":
      if (stmt.all) return requirePermission(session, "DROP TABLE", stmt.pos);
      for (const t of stmt.names) requirePermission(session, "DROP TABLE", t.pos, name(t.name));
      return;
    case "truncateTable":
      for (const t of stmt.names) requirePermission(session, "TRUNCATE TABLE", t.pos, name(t.name));
      return;
    case "renameTable":
      return requirePermission(session, "RENAME TABLE", stmt.from.pos, name(stmt.from.name));
    case "alterTable": {
      const need = alterPermission(stmt.action);
      if (!need) return;
      const table = name(stmt.table.name);
      if (need[1].length === 0) return requirePermission(session, need[0], stmt.table.pos, table);
      for (const c of need[1]) requirePermission(session, need[0], stmt.action.pos, table, c);
      return;
    }
    case "insert":
      requirePermission(session, "INSERT", stmt.table.pos, name(stmt.table.name));
      // An upsert's DO UPDATE SET changes columns like UPDATE does.
      if (stmt.onConflict?.action === "update") {
        for (const s of stmt.onConflict.set) {
          requirePermission(session, "UPDATE", s.pos, name(stmt.table.name), s.column);
        }
      }
      return;
    case "update":
      for (const s of stmt.set) requirePermission(session, "UPDATE", s.pos, name(stmt.table.name), s.column);
      return;
    case "delete":
      // No DELETE permission exists (security.md §2.2): removing rows is what TRUNCATE grants.
      return requirePermission(session, "TRUNCATE TABLE", stmt.table.pos, name(stmt.table.name));
  }
}

/**
 * A write that arrives outside SQL (ILP lines, CSV import, pgwire COPY FROM) through the
 * engine's ingest door (engine/ingest/ingest_handle.ts).
 */
export interface IngestWrite {
  table: string;
  /** The write creates the table. */
  createsTable: boolean;
  /** Columns the write adds to the existing table. */
  addsColumns: string[];
  /** CSV import `overwrite=true`: the existing table is dropped and created again (T16). */
  overwrites?: boolean;
}

/**
 * The permissions of an ingest write, as SQL would need them for the same change
 * (security.md §2.2, T15, T16): DROP TABLE to overwrite, CREATE TABLE to create (the creator
 * then owns the table, §3.4), else INSERT on the table and ADD COLUMN for each new column.
 * Errors have no position: there is no statement text.
 */
export function checkIngestWrite(session: Session, write: IngestWrite): void {
  const principal = session.principal;
  if (!principal.can) return;
  if (principal.active && !principal.active.call(principal)) throw denied(session, "user is disabled", -1);
  if (write.overwrites) requirePermission(session, "DROP TABLE", -1, write.table);
  if (write.createsTable) return requirePermission(session, "CREATE TABLE", -1);
  requirePermission(session, "INSERT", -1, write.table);
  for (const c of write.addsColumns) {
    // ADD COLUMN is a table permission (as ALTER TABLE ADD COLUMN checks it); the message names the column.
    if (!principal.can.call(principal, "ADD COLUMN", write.table)) {
      throw denied(session, `ADD COLUMN on ${write.table}.${c}`, -1);
    }
  }
}

/**
 * What an UPDATE reads, as a query: `SELECT <set expressions> FROM t [alias] WHERE <where>`.
 * Planning it and running checkReads (with empty scans allowed, so `SET a = 1` needs no
 * SELECT) asks SELECT on every column the statement reads, subqueries included (T14).
 */
export function updateReads(stmt: A.UpdateStmt): A.Query {
  const core: A.SelectCore = {
    kind: "select",
    pos: stmt.pos,
    distinct: false,
    items: stmt.set.map((s) => ({ expr: s.expr })),
    from: {
      first: { kind: "table", pos: stmt.table.pos, name: stmt.table.name, alias: stmt.alias },
      // UPDATE ... FROM reads its sources too: they join the target as `FROM t, source ...`.
      joins: stmt.from
        ? [
          { kind: "cross", pos: stmt.from.first.pos, source: stmt.from.first, implicit: true },
          ...stmt.from.joins,
        ]
        : [],
    },
    where: stmt.where,
    windows: [],
  };
  return { kind: "query", pos: stmt.pos, with: [], body: core, orderBy: [] }; // the CTEs are in the plan context
}

/**
 * What an INSERT reads back (T14): RETURNING items as `SELECT <items> FROM t`, and the
 * ON CONFLICT DO UPDATE expressions, which read the existing row (`excluded.c` is the new
 * row's value, not a read); undefined when it reads nothing of the table.
 */
export function insertReads(stmt: A.InsertStmt): A.Query | undefined {
  const items: A.SelectItem[] = [...(stmt.returning ?? [])];
  if (stmt.onConflict?.action === "update") {
    for (const s of stmt.onConflict.set) {
      if (readsExisting(s.expr)) items.push({ expr: withoutExcluded(s.expr) as A.Expr });
    }
  }
  if (items.length === 0) return undefined;
  const core: A.SelectCore = {
    kind: "select",
    pos: stmt.pos,
    distinct: false,
    items,
    from: { first: { kind: "table", pos: stmt.table.pos, name: stmt.table.name }, joins: [] },
    windows: [],
  };
  return { kind: "query", pos: stmt.pos, with: [], body: core, orderBy: [] };
}

/** True when an expression names a column of the existing row (anything but `excluded.c`). */
function readsExisting(e: unknown): boolean {
  if (e === null || typeof e !== "object") return false;
  if (Array.isArray(e)) return e.some(readsExisting);
  const o = e as Record<string, unknown>;
  if (o.kind === "column") return (o.qualifier as string | undefined)?.toLowerCase() !== "excluded";
  return Object.values(o).some(readsExisting);
}

/** A copy with `excluded.c` (the proposed row, readable by the writer) as NULL, so the rest plans against the table. */
function withoutExcluded(e: unknown): unknown {
  if (e === null || typeof e !== "object") return e;
  if (Array.isArray(e)) return e.map(withoutExcluded);
  const o = e as Record<string, unknown>;
  if (o.kind === "column" && (o.qualifier as string | undefined)?.toLowerCase() === "excluded") {
    return { kind: "literal", pos: o.pos, type: "null", value: null, text: "null" };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withoutExcluded(v)]));
}

/**
 * SELECT on every column a plan reads, subquery plans included (security.md T14). Holding
 * SELECT on any column of a table implies it on the designated timestamp (§3.5), which is
 * also what a scan reading no column (count(*)) needs.
 */
export function checkReads(
  plan: PlanNode,
  session: Session,
  storage: Storage,
  pos: number,
  emptyScanNeedsSelect = true,
): void {
  const can = session.principal.can;
  if (!can) return;
  for (const scan of scansOf(plan)) {
    const meta = storage.table(scan.table)?.meta;
    if (!meta) continue;
    const read = scan.columnIndexes.filter((i) => i !== meta.timestampIndex);
    for (const i of read) requirePermission(session, "SELECT", pos, meta.name, meta.columns[i].name);
    if (read.length > 0 || !emptyScanNeedsSelect) continue;
    const any = can.call(session.principal, "SELECT", meta.name) ||
      meta.columns.some((c) => can.call(session.principal, "SELECT", meta.name, c.name));
    if (!any) throw denied(session, `SELECT on ${meta.name}`, pos);
  }
}

/**
 * SELECT on what the subqueries inside loose expressions read (INSERT ... VALUES, which has no
 * plan of its own), as checkReads does for a query's plan.
 */
export function checkExprReads(exprs: BoundExpr[], session: Session, storage: Storage, pos: number): void {
  if (!session.principal.can) return;
  for (const e of exprs) {
    walkBound(e, (x) => {
      if (x.kind === "subquery" || x.kind === "inSubquery" || x.kind === "exists") {
        checkReads(pruneColumns(x.plan), session, storage, pos);
      }
    });
  }
}

/**
 * The storage catalog listings read (tables(), SHOW TABLES, table_columns(), pg_catalog,
 * information_schema): tables the principal has no permission on at all are absent, as if
 * they did not exist. The storage itself when access control is off.
 */
export function visibleStorage(storage: Storage, session: Session): Storage {
  const principal = session.principal;
  if (!principal.sees) return storage;
  const sees = (name: string) => principal.sees!.call(principal, name);
  return new Proxy(storage, {
    get(target, key) {
      if (key === "tables") return () => target.tables().filter((m) => sees(m.name));
      if (key === "table") {
        return (name: string) => {
          const t = target.table(name);
          return t && sees(t.meta.name) ? t : undefined;
        };
      }
      const v = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** Every scan of a plan, found by walking its plain objects (subquery plans sit inside expressions). */
function scansOf(root: PlanNode): ScanNode[] {
  const out: ScanNode[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) continue;
    const o = v as Record<string, unknown>;
    if (o.kind === "scan" && typeof o.table === "string" && Array.isArray(o.columnIndexes)) {
      out.push(o as unknown as ScanNode);
    }
    for (const k in o) stack.push(o[k]);
  }
  return out;
}
