/**
 * The parts of an INSERT beyond the rows (issue 10): ON CONFLICT and RETURNING, both bound
 * before anything is written so that a mistake in either fails the statement cleanly.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { BindContext } from "../plan/bind_expr.ts";
import type { Scope } from "../plan/scope.ts";
import type { Storage } from "../storage/api.ts";
import { requireTable } from "./ddl.ts";
import type { InsertExtras } from "./dml.ts";
import { bindOnConflict } from "./insert_conflict.ts";
import { bindReturning, type Returning } from "./returning.ts";

export function insertExtras(
  s: A.InsertStmt,
  storage: Storage,
  bind: (scope: Scope) => BindContext,
  legacyNames: boolean,
): { extras: InsertExtras; returning?: Returning } {
  if (!s.onConflict && !s.returning) return { extras: {} };
  const t = requireTable(storage, s.table.name, s.table.pos);
  const extras: InsertExtras = {};
  if (s.onConflict) extras.onConflict = bindOnConflict(t, s.onConflict);
  if (!s.returning) return { extras };
  if (extras.onConflict?.action === "update") {
    // The row a conflict leaves behind is only known inside storage's merge.
    throw new SqlError("RETURNING is not supported with ON CONFLICT DO UPDATE", s.returning[0].expr.pos);
  }
  extras.written = [];
  return { extras, returning: bindReturning(t, s.returning, bind, legacyNames) };
}
