/**
 * GRANT and REVOKE (security.md §3, §4.4): reading the permission list and the targets, the
 * grantor check (grant option at the same or a wider scope, T11), normalisation (a grant
 * covered by a wider one is not stored twice) and the split of a wider grant on a narrower
 * REVOKE (§3.7).
 */
import { SqlError } from "../../engine/mod.ts";
import { type AclData, covers, type Grant, sameName } from "./acl_store.ts";
import type { Words } from "./acl_words.ts";
import { allAt, grantableAt, type Level, readPermission } from "./permissions.ts";

/** Tables and their columns as they exist now (for `t(*)`, verification and revoke splits). */
export interface Catalog {
  tables(): string[];
  columns(table: string): string[] | undefined;
  /** The designated timestamp column (implicit permissions, §3.5). */
  timestamp?(table: string): string | undefined;
}

export interface GrantTarget {
  level: Level;
  table?: string;
  column?: string;
}

export interface GrantSpec {
  revoke: boolean;
  permissions: { name: string; pos: number }[];
  targets: GrantTarget[];
  entity: { name: string; pos: number };
  grantOption: boolean;
  verification: boolean;
}

/** Reads `perm, ... [ON ...] {TO|FROM} entity [WITH GRANT OPTION] [WITH VERIFICATION]`. */
export function parseGrant(w: Words, revoke: boolean, catalog: Catalog): GrantSpec {
  const permissions: GrantSpec["permissions"] = [];
  do {
    const pos = w.pos();
    const p = readPermission(w.keywords() as string[], 0);
    if (!p) throw w.error("permission expected");
    w.skip(p.length);
    permissions.push({ name: p.name, pos });
  } while (w.acceptOp(","));
  let targets: GrantTarget[] = [{ level: "database" }];
  if (w.accept("ON")) targets = w.accept("ALL", "TABLES") ? [{ level: "database" }] : parseTables(w, catalog);
  w.expect(revoke ? "FROM" : "TO");
  const entity = w.name("entity name");
  let grantOption = false, verification = false;
  while (!revoke && w.accept("WITH")) {
    if (w.accept("GRANT", "OPTION")) grantOption = true;
    else if (w.accept("VERIFICATION")) verification = true;
    else throw w.error("'GRANT OPTION' or 'VERIFICATION' expected");
  }
  w.expectEnd();
  return { revoke, permissions, targets, entity, grantOption, verification };
}

function parseTables(w: Words, catalog: Catalog): GrantTarget[] {
  const out: GrantTarget[] = [];
  do {
    const table = w.name("table name");
    if (!w.acceptOp("(")) {
      out.push({ level: "table", table: table.name });
      continue;
    }
    if (w.acceptOp("*")) {
      const existing = catalog.columns(table.name);
      if (!existing) throw new SqlError(`table does not exist [table=${table.name}]`, table.pos);
      const excluded: { name: string; pos: number }[] = [];
      if (w.accept("EXCLUDE")) {
        if (!w.acceptOp("(")) throw w.error("'(' expected");
        do excluded.push(w.name("column name")); while (w.acceptOp(","));
        if (!w.acceptOp(")")) throw w.error("')' expected");
        for (const e of excluded) {
          if (!existing.some((c) => sameName(c, e.name))) {
            throw new SqlError(`column does not exist [column=${e.name}]`, e.pos);
          }
        }
      }
      const kept = existing.filter((c) => !excluded.some((e) => sameName(c, e.name)));
      if (kept.length === 0) throw new SqlError("EXCLUDE cannot cover every column", table.pos);
      for (const c of kept) out.push({ level: "column", table: table.name, column: c });
    } else {
      do out.push({ level: "column", table: table.name, column: w.name("column name").name }); while (
        w.acceptOp(",")
      );
    }
    if (!w.acceptOp(")")) throw w.error("')' expected");
  } while (w.acceptOp(","));
  return out;
}

/** One permission at one target, after ALL is expanded. */
export interface GrantItem {
  permission: string;
  pos: number;
  target: GrantTarget;
}

/** Expands ALL (only to what the grantor may grant, T11) and checks granularity. */
export function grantItems(
  spec: GrantSpec,
  mayGrant: (permission: string, t: GrantTarget) => boolean,
): GrantItem[] {
  const items: GrantItem[] = [];
  for (const target of spec.targets) {
    for (const p of spec.permissions) {
      if (p.name === "ALL") {
        const names = allAt(target.level).filter((n) => mayGrant(n, target));
        for (const name of names) items.push({ permission: name, pos: p.pos, target });
        if (names.length === 0) items.push({ permission: "ALL", pos: p.pos, target });
        continue;
      }
      if (!grantableAt(p.name, target.level)) {
        throw new SqlError(
          `permission cannot be granted at ${target.level} level [permission=${p.name}]`,
          p.pos,
        );
      }
      items.push({ permission: p.name, pos: p.pos, target });
    }
  }
  return items;
}

/** Adds a grant to `data`, normalised (security.md §3.3, §3.6). */
export function addGrant(data: AclData, entity: string, item: GrantItem, grantOption: boolean): void {
  const { table, column } = item.target;
  const mine = data.grants.filter((g) => g.entity === entity && g.permission === item.permission);
  const wider = mine.find((g) => !sameLevel(g, table, column) && covers(g, item.permission, table, column));
  if (wider && (wider.grantOption || !grantOption)) return;
  data.grants = data.grants.filter((g) =>
    !(g.entity === entity && g.permission === item.permission && coveredBy(g, table, column) &&
      (grantOption || !g.grantOption || sameLevel(g, table, column)))
  );
  const g: Grant = { entity, permission: item.permission, grantOption };
  if (table !== undefined) g.table = table;
  if (column !== undefined) g.column = column;
  data.grants.push(g);
}

/** Removes a grant, splitting a wider one into what remains (security.md §3.7). */
export function removeGrant(data: AclData, entity: string, item: GrantItem, catalog: Catalog): void {
  const { table, column } = item.target;
  const affected = data.grants.filter((g) =>
    g.entity === entity && g.permission === item.permission &&
    (covers(g, item.permission, table, column) || coveredBy(g, table, column))
  );
  data.grants = data.grants.filter((g) => !affected.includes(g));
  for (const g of affected) {
    if (coveredBy(g, table, column)) continue; // narrower or equal: simply gone
    // g is wider than the revoked scope: keep the rest of it.
    if (g.table === undefined && table !== undefined) {
      for (const t of catalog.tables()) {
        if (!sameName(t, table)) {
          data.grants.push({ entity, permission: g.permission, table: t, grantOption: g.grantOption });
        }
      }
      if (column !== undefined) splitTable(data, g, table, column, catalog);
    } else if (g.table !== undefined && g.column === undefined && column !== undefined) {
      splitTable(data, g, g.table, column, catalog);
    }
  }
}

function splitTable(data: AclData, g: Grant, table: string, column: string, catalog: Catalog): void {
  for (const c of catalog.columns(table) ?? []) {
    if (!sameName(c, column)) {
      data.grants.push({
        entity: g.entity,
        permission: g.permission,
        table,
        column: c,
        grantOption: g.grantOption,
      });
    }
  }
}

function sameLevel(g: Grant, table?: string, column?: string): boolean {
  return (g.table === undefined) === (table === undefined) && sameName(g.table, table) &&
    (g.column === undefined) === (column === undefined) && sameName(g.column, column);
}

/** True when grant g is at the scope (table, column) or inside it. */
function coveredBy(g: Grant, table?: string, column?: string): boolean {
  if (table === undefined) return true;
  if (g.table === undefined || !sameName(g.table, table)) return false;
  if (column === undefined) return true;
  return g.column !== undefined && sameName(g.column, column);
}
