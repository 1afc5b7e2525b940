/**
 * Permission checks the engine runs before a statement (security.md §2): what each DDL/DML
 * statement needs, and SELECT on every column a query's scans read (subqueries included).
 * With access control off the principal has no `can` and every check passes.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { Storage } from "../storage/api.ts";
import type { Session } from "../session.ts";

/** The SHOWs that access control answers (security.md §4.6). */
export const ACL_SHOWS = new Set(["users", "groups", "user", "group", "permissions", "serviceAccounts", "serviceAccount"]);

/** `Access denied for <user> [<what>]` (security.md §6.6), an error of kind "permission". */
function denied(session: Session, what: string, pos: number): SqlError {
  return new SqlError(`Access denied for ${session.principal.name} [${what}]`, pos, "permission");
}

/** Throws unless the principal holds `permission` (at the table or column when given). */
function requirePermission(session: Session, permission: string, pos: number, table?: string, column?: string): void {
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
      return ["RENAME COLUMN", [a.from.name]];
    case "alterColumnType":
      return ["ALTER COLUMN TYPE", [a.column.name]];
    case "addIndex":
      return ["ADD INDEX", [a.column.name]];
    case "dropIndex":
      return ["DROP INDEX", [a.column.name]];
    case "symbolCache":
      return ["ALTER COLUMN CACHE", [a.column.name]];
    case "dropPartition":
      return ["DROP PARTITION", []];
    case "detachPartition":
      return ["DETACH PARTITION", []];
    case "attachPartition":
      return ["ATTACH PARTITION", []];
    case "dedupEnable":
      return ["DEDUP ENABLE", []];
    case "dedupDisable":
      return ["DEDUP DISABLE", []];
    case "setParam":
    case "setTtl":
      return ["SET TABLE PARAM", []];
    case "setType":
      return ["SET TABLE TYPE", []];
    case "noop":
      return undefined;
  }
}

/**
 * The permissions a statement needs before it runs, other than reading (checkReads covers
 * that); nothing when access control is off (no `can`). security.md §2.2.
 */
export function checkStatement(stmt: A.Statement, session: Session, storage: Storage): void {
  if (!session.principal.can) return;
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
      return requirePermission(session, "INSERT", stmt.table.pos, name(stmt.table.name));
    case "update":
      for (const s of stmt.set) requirePermission(session, "UPDATE", s.pos, name(stmt.table.name), s.column);
      return;
  }
}

/**
 * SELECT on every column a plan reads, subquery plans included (security.md T14). Holding
 * SELECT on any column of a table implies it on the designated timestamp (§3.5), which is
 * also what a scan reading no column (count(*)) needs.
 */
export function checkReads(plan: PlanNode, session: Session, storage: Storage, pos: number): void {
  const can = session.principal.can;
  if (!can) return;
  for (const scan of scansOf(plan)) {
    const meta = storage.table(scan.table)?.meta;
    if (!meta) continue;
    const read = scan.columnIndexes.filter((i) => i !== meta.timestampIndex);
    for (const i of read) requirePermission(session, "SELECT", pos, meta.name, meta.columns[i].name);
    if (read.length > 0) continue;
    const any = can.call(session.principal, "SELECT", meta.name) ||
      meta.columns.some((c) => can.call(session.principal, "SELECT", meta.name, c.name));
    if (!any) throw denied(session, `SELECT on ${meta.name}`, pos);
  }
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
    if (o.kind === "scan" && typeof o.table === "string" && Array.isArray(o.columnIndexes)) out.push(o as unknown as ScanNode);
    for (const k in o) stack.push(o[k]);
  }
  return out;
}
