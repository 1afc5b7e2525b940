/**
 * SHOW PERMISSIONS rows (security.md §4.6): `permission`, `table_name`, `column_name`,
 * `grant_option`, `origin`. A user's effective permissions are its own grants (origin `G`)
 * plus those inherited from its groups (origin = the group's name [design: the spec leaves
 * the inherited marker open]) plus the implicit designated-timestamp rows of §3.5 (origin
 * `I`). A row already shown at the same scope is not repeated.
 */
import { type ColumnType, T } from "../../engine/mod.ts";
import { covers, type Grant, sameName } from "./acl_store.ts";

export interface PermissionRows {
  columns: { name: string; type: ColumnType }[];
  rows: unknown[][];
}

/** The table's designated timestamp column, if it has one and exists. */
export type TimestampOf = (table: string) => string | undefined;

/**
 * `own`: the entity's direct grants; `inherited`: group name → that group's grants (empty for
 * groups and service accounts, which never inherit).
 */
export function permissionRows(
  own: Grant[],
  inherited: Map<string, Grant[]>,
  timestampOf: TimestampOf,
): PermissionRows {
  const rows: unknown[][] = [];
  const seen = new Set<string>();
  const all = [...own, ...[...inherited.values()].flat()];
  const add = (
    g: { permission: string; table?: string; column?: string },
    origin: string,
    implied?: boolean,
  ) => {
    const key = `${g.permission}\u0000${g.table?.toLowerCase() ?? ""}\u0000${g.column?.toLowerCase() ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    // The grant option of a row is held when any grant covering it carries it.
    const grantOption = implied ??
      all.some((x) =>
        x.grantOption && (x.permission === "DATABASE ADMIN" || covers(x, g.permission, g.table, g.column))
      );
    rows.push([g.permission, g.table ?? null, g.column ?? null, grantOption, origin]);
  };
  for (const g of own) add(g, "G");
  for (const [group, grants] of inherited) for (const g of grants) add(g, group);
  // §3.5: SELECT/UPDATE on some column implies it on the designated timestamp, unless a
  // table- or database-level grant of the same permission already covers the timestamp.
  for (const g of all) {
    if (
      (g.permission !== "SELECT" && g.permission !== "UPDATE") || g.table === undefined ||
      g.column === undefined
    ) continue;
    const ts = timestampOf(g.table);
    if (ts === undefined || sameName(ts, g.column)) continue;
    if (all.some((x) => covers(x, g.permission, g.table, ts))) continue;
    // Implied with the grant option of the column grant it comes from.
    add({ permission: g.permission, table: g.table, column: ts }, "I", g.grantOption);
  }
  return {
    columns: [
      { name: "permission", type: T.STRING },
      { name: "table_name", type: T.STRING },
      { name: "column_name", type: T.STRING },
      { name: "grant_option", type: T.BOOLEAN },
      { name: "origin", type: T.STRING },
    ],
    rows,
  };
}
