/**
 * `FROM a, b, c WHERE a.x = b.y AND b.z = c.w AND ...` as `FROM a JOIN b ON a.x = b.y JOIN c
 * ON b.z = c.w WHERE ...` (issue #18; server/pg rewrote psqlODBC's catalog queries so): a
 * comma list is a cross product filtered afterwards, which for two pg_attribute scans — or two
 * tables — is far too large, while the same equalities in ON are planned as hash equi-joins.
 * Only conjuncts `q1.col = q2.col` whose qualifiers name the comma-joined source and one of the
 * sources before it move; for an inner join a condition in ON or in WHERE keeps the same rows,
 * and joins after it (LEFT, ASOF, ...) see each left row alone, so filtering earlier is the
 * same. Unqualified or ambiguous columns, LATERAL sources and other shapes stay as written.
 */
import { astConjuncts } from "./bind_join_on.ts";
import type * as A from "../sql/ast.ts";

/** The names a source is referred to by: its alias, else its (last dotted) name. */
function namesOf(s: A.Source): string[] {
  if (s.alias) return [s.alias.toLowerCase()];
  if (s.kind === "table") {
    const name = s.name.toLowerCase();
    return [name, name.slice(name.lastIndexOf(".") + 1)];
  }
  return [];
}

function andAll(list: A.Expr[]): A.Expr | undefined {
  return list.reduce<A.Expr | undefined>(
    (acc, e) => acc ? { kind: "binary", pos: e.pos, op: "and", left: acc, right: e } : e,
    undefined,
  );
}

/** The qualifier of `e` when it is a qualified column, lower-case. */
function qualifier(e: A.Expr): string | undefined {
  return e.kind === "column" && e.qualifier ? e.qualifier.toLowerCase() : undefined;
}

/** True when `c` is `q1.col = q2.col` with one qualifier among `own` and the other among `seen`. */
function links(c: A.Expr, own: Set<string>, seen: Set<string>): boolean {
  if (c.kind !== "binary" || c.op !== "=") return false;
  const l = qualifier(c.left), r = qualifier(c.right);
  if (l === undefined || r === undefined) return false;
  const mine = (q: string) => own.has(q) && !seen.has(q);
  const before = (q: string) => seen.has(q) && !own.has(q);
  return (mine(l) && before(r)) || (mine(r) && before(l));
}

/**
 * A plain comma list (`FROM a, b, c`, no explicit joins) in an order where each source after
 * the first is connected to those before it by an equality when one is, as psqlODBC's
 * `pg_attribute ta, pg_class ic, pg_index i` needs (ic and ta only meet through i). Only
 * without `*` in the select list, whose column order follows the FROM order.
 */
function connectedOrder(core: A.SelectCore, where: A.Expr[]): A.FromClause {
  const from = core.from!;
  const plain = from.joins.every((j) => j.implicit && j.kind === "cross" && !j.lateral);
  const star = (core.items ?? []).some((i) => i.expr.kind === "star");
  if (!plain || star || !core.items) return from;
  const pending = [...from.joins];
  const ordered: A.Join[] = [];
  const seen = new Set(namesOf(from.first));
  while (pending.length > 0) {
    let k = pending.findIndex((j) => where.some((c) => links(c, new Set(namesOf(j.source)), seen)));
    if (k < 0) k = 0;
    const [j] = pending.splice(k, 1);
    for (const n of namesOf(j.source)) seen.add(n);
    ordered.push(j);
  }
  return { ...from, joins: ordered };
}

/** `core` with the WHERE equalities that join its comma-listed sources moved into ON. */
export function commaJoinsAsEquiJoins(core: A.SelectCore): A.SelectCore {
  if (!core.from || !core.where) return core;
  if (!core.from.joins.some((j) => j.implicit && j.kind === "cross" && !j.lateral)) return core;
  let rest = astConjuncts(core.where);
  const from = connectedOrder(core, rest);
  const seen = new Set(namesOf(from.first));
  let moved = false;
  const joins = from.joins.map((j) => {
    const own = new Set(namesOf(j.source));
    let join = j;
    if (j.implicit && j.kind === "cross" && !j.lateral && own.size > 0) {
      const on = rest.filter((c) => links(c, own, seen));
      if (on.length > 0) {
        rest = rest.filter((c) => !links(c, own, seen));
        join = { ...j, kind: "inner", on: andAll(on) };
        moved = true;
      }
    }
    for (const n of own) seen.add(n);
    return join;
  });
  if (!moved) return core;
  return { ...core, from: { ...from, joins }, where: andAll(rest) };
}
