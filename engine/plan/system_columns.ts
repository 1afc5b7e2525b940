/**
 * PostgreSQL's system column `xmin` on the catalog relations (pg_class, pg_namespace,
 * pg_attribute, ...): DataGrip's introspector reads `N.xmin as state_number` from each relation
 * it lists. The catalog here is computed, not stored by transactions, so every row is written
 * by transaction 1 (txid_current() answers 1, age(xmin) 0). Like PostgreSQL's system columns it
 * is not among `*`; user tables have none, so `xmin` over a QuestDB table stays an error.
 */
import { T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import type { BoundExpr } from "./bound.ts";
import type { Scope } from "./scope.ts";

/** The transaction every catalog row reads as written by. */
const CATALOG_XMIN = 1;

/** `xmin` (or `q.xmin`) of a catalog relation in scope, when no column has that name. */
export function bindSystemColumn(e: A.ColumnRef, scope: Scope): BoundExpr | undefined {
  if (e.name.toLowerCase() !== "xmin" || scope.find(e.name, e.qualifier, e.pos) !== undefined) {
    return undefined;
  }
  const q = e.qualifier?.toLowerCase();
  const catalog = scope.columns.filter((c) =>
    c.catalog && (q === undefined || c.qualifiers.some((x) => x.toLowerCase() === q))
  );
  if (catalog.length === 0) return undefined;
  // Unqualified `xmin` over two catalog relations is as ambiguous as in PostgreSQL: left to the
  // scope's own error.
  if (q === undefined && new Set(catalog.map((c) => c.qualifiers.join("."))).size > 1) return undefined;
  return { kind: "const", type: T.INT, value: CATALOG_XMIN };
}
