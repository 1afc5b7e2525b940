/**
 * Conjuncts QuestDB moves into one base table's scan as a bare column. QuestDB's optimiser pushes a
 * WHERE (or inner-join ON) conjunct that reads one table into that table's own filter, and on the
 * way rewrites a qualified column `a.v` into an unqualified literal that has lost its position: a
 * conjunct that is only such a non-boolean column fails 'boolean expression expected' (or the AND
 * it then stands in) at position 0, while the same column of an outer join's slave, a subquery, a
 * CTE or an unqualified name keeps its own position
 * (BindTimePredicateErrorTest#testNonBooleanSourceConjuncts: `FROM x a WHERE a.v` at 0,
 * `x a LEFT JOIN x b ON ... WHERE b.v` at b.v, `UPDATE x ... FROM x b WHERE ... AND x.v` at 0).
 */
import type * as A from "../sql/ast.ts";
import { astConjuncts } from "./bind_join_on.ts";

/** The conjuncts of `where` (or of join `on`'s ON) that report at 0; empty when none. */
export function pushedColumnConjuncts(
  where: A.Expr,
  opts: { from: A.FromClause | undefined; ctes: ReadonlyMap<string, unknown>; on?: A.Join },
): Set<A.Expr> {
  const found = new Set<A.Expr>();
  const { from, ctes, on } = opts;
  if (!from || (on && on.kind !== "inner")) return found;
  const outer = from.joins.some((j) => j.kind === "right" || j.kind === "full");
  const pushable: A.TableSource[] = [];
  const baseTable = (s: A.Source) => s.kind === "table" && !ctes.has(s.name.toLowerCase());
  if (!outer && baseTable(from.first)) pushable.push(from.first as A.TableSource);
  for (const j of from.joins) {
    if ((j.kind === "inner" || j.kind === "cross") && baseTable(j.source)) {
      pushable.push(j.source as A.TableSource);
    }
  }
  for (const c of astConjuncts(where)) {
    if (c.kind !== "column" || c.qualifier === undefined) continue;
    const q = c.qualifier.toLowerCase();
    if (pushable.some((t) => (t.alias ?? t.name).toLowerCase() === q)) found.add(c);
  }
  return found;
}
