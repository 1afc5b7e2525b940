/**
 * INSERT ... ON CONFLICT (issue 10) mapped onto DEDUP UPSERT KEYS: the conflict target must
 * be the key set (or omitted for DO NOTHING), and DO UPDATE may set non-key columns to the
 * proposed row's value (`col = EXCLUDED.col`). Storage applies it while merging, under the
 * table's write lock, so the check for an existing row and the write are one step.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { OnConflict, Table } from "../storage/api.ts";
import { columnIndex } from "./ddl.ts";

export function bindOnConflict(t: Table, oc: NonNullable<A.InsertStmt["onConflict"]>): OnConflict {
  const keys = t.meta.dedupKeys.map((k) => k.toLowerCase());
  if (keys.length === 0) {
    throw new SqlError(`ON CONFLICT requires a table with DEDUP UPSERT KEYS [table=${t.meta.name}]`, oc.pos);
  }
  const keyList = t.meta.dedupKeys.join(", ");
  if (oc.target.length === 0 && oc.action === "update") {
    throw new SqlError(
      `ON CONFLICT DO UPDATE requires a conflict target: the DEDUP UPSERT KEYS (${keyList})`,
      oc.pos,
    );
  }
  if (oc.target.length > 0) {
    const target = new Set<string>();
    for (const c of oc.target) {
      columnIndex(t, c.name, c.pos); // an unknown column is reported as such
      const name = c.name.toLowerCase();
      if (!keys.includes(name) || target.has(name)) {
        throw new SqlError(
          `ON CONFLICT target must be the DEDUP UPSERT KEYS (${keyList}) [column=${c.name}]`,
          c.pos,
        );
      }
      target.add(name);
    }
    if (target.size !== keys.length) {
      throw new SqlError(`ON CONFLICT target must be the DEDUP UPSERT KEYS (${keyList})`, oc.target[0].pos);
    }
  }
  if (oc.action === "nothing") return { action: "nothing" };
  const columns: number[] = [];
  for (const a of oc.set) {
    const i = columnIndex(t, a.column, a.pos);
    const name = t.meta.columns[i].name;
    if (keys.includes(name.toLowerCase())) {
      throw new SqlError(`DEDUP UPSERT KEY column cannot be updated [column=${name}]`, a.pos);
    }
    if (columns.includes(i)) throw new SqlError(`Duplicate column [name=${a.column}] in SET clause`, a.pos);
    const e = a.expr;
    // The merge happens in storage, row by row without an evaluator: only the proposed value fits.
    if (
      e.kind !== "column" || e.qualifier?.toLowerCase() !== "excluded" ||
      e.name.toLowerCase() !== name.toLowerCase()
    ) {
      throw new SqlError(`ON CONFLICT DO UPDATE supports only SET ${name} = EXCLUDED.${name}`, e.pos);
    }
    columns.push(i);
  }
  return { action: "update", columns };
}
