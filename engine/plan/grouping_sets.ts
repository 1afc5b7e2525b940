/**
 * QuestDB's GROUP BY ROLLUP / CUBE / GROUPING SETS (query/sql/grouping-sets.md): one GROUP BY
 * per key set, combined with UNION ALL. In a set's branch a key the set leaves out reads NULL of
 * the key's type, GROUPING(col) is 1 for such a key and 0 otherwise, and GROUPING_ID(a, b, ...)
 * packs those bits with the last argument as bit 0. ORDER BY and LIMIT apply to the union.
 */
import type * as A from "../sql/ast.ts";
import { SqlError } from "../base/errors.ts";
import { isAggregateName } from "../functions/registry.ts";
import type { PlanContext } from "./plan_context.ts";
import { baseName } from "./column_names.ts";
import { planFrom } from "./plan_from.ts";
import type { PlanNode } from "./plan_node.ts";
import { planQuery } from "./plan_query.ts";
import type { Scope } from "./scope.ts";

/** Key types whose cast needs more than the type name (precision, dimensions): left as NULL. */
const PARAMETRIZED = new Set(["GEOHASH", "DECIMAL", "ARRAY", "INTERVAL", "NULL"]);

export function planGroupingSets(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  const sets = core.groupingSets!;
  const keys: A.Expr[] = [...(core.groupBy ?? [])];
  for (const set of sets) for (const e of set) if (!keys.some((k) => sameColumn(k, e))) keys.push(e);
  checkMixedQualification([core.groupBy ?? [], ...sets]);
  // grouping-sets.md: FILL(PREV) and FILL(LINEAR) are not supported with grouping sets.
  for (const f of core.sampleBy?.fill ?? []) {
    if (f.kind === "prev" || f.kind === "linear") {
      throw new SqlError(`FILL(${f.kind.toUpperCase()}) is not supported with grouping sets`, f.pos);
    }
  }
  if (core.latestOn) throw new SqlError("grouping sets are not supported with LATEST ON", core.pos);
  const scope = planFrom(core.from, pc).scope;
  let body: A.QueryBody | undefined;
  for (const set of sets) {
    const rolled = keys.filter((k) => !set.some((s) => sameColumn(s, k)));
    const map = (e: A.Expr) => rewrite(e, keys, rolled, scope);
    const branch: A.SelectCore = {
      ...core,
      groupingSets: undefined,
      groupBy: core.sampleBy || !set.length ? undefined : set,
      sampleBy: core.sampleBy ? { ...core.sampleBy, groupingSets: undefined } : undefined,
      items: core.items?.map((i) => {
        const expr = map(i.expr);
        if (expr === i.expr || i.alias) return { ...i, expr };
        const alias = baseName(i, pc.legacyNames);
        return { ...i, expr, alias };
      }),
      having: core.having ? map(core.having) : undefined,
    };
    body = body
      ? { kind: "setop", pos: core.pos, op: "union", all: true, left: body, right: branch }
      : branch;
  }
  // UNION ALL reads SYMBOL columns as STRING; a grouping-set key keeps its SYMBOL type.
  const symbolKeys = (core.items ?? []).map((i) =>
    i.expr.kind === "column" && keys.some((k) => sameColumn(k, i.expr)) &&
    scopeType(i.expr, scope) === "SYMBOL"
  );
  if (!symbolKeys.some(Boolean) || core.items!.some((i) => i.expr.kind === "star")) {
    return planQuery({ kind: "query", pos: core.pos, with: [], body: body!, orderBy, limit }, pc);
  }
  const union: A.Query = { kind: "query", pos: core.pos, with: [], body: body!, orderBy: [] };
  const names = planQuery(union, { ...pc, depth: pc.depth + 1 }).columns.map((c) => c.name);
  const outer: A.SelectCore = {
    kind: "select",
    pos: core.pos,
    distinct: false,
    windows: [],
    from: { first: { kind: "subquerySource", pos: core.pos, query: union }, joins: [] },
    items: names.map((name, i) => {
      const ref: A.Expr = { kind: "column", pos: core.pos, name };
      if (!symbolKeys[i]) return { expr: ref, alias: name };
      const type = { pos: core.pos, name: "SYMBOL", text: "SYMBOL" };
      return { expr: { kind: "cast", pos: core.pos, expr: ref, type, syntax: "cast" }, alias: name };
    }),
  };
  return planQuery({ kind: "query", pos: core.pos, with: [], body: outer, orderBy, limit }, pc);
}

function scopeType(c: A.ColumnRef, scope: Scope): string | undefined {
  const i = scope.find(c.name, c.qualifier, c.pos);
  return i === undefined ? undefined : scope.columns[i].type.tag;
}

/**
 * `ROLLUP(a, t.a)`: one column named both with and without its qualifier is refused at the later
 * of the two (grouping-sets.md "Limitations"; QuestDB's #testMixedQualificationRejectedInRollup).
 */
function checkMixedQualification(sets: A.Expr[][]): void {
  const refs = sets.flat().filter((e): e is A.ColumnRef => e.kind === "column").sort((a, b) => a.pos - b.pos);
  refs.forEach((r, i) => {
    if (
      refs.slice(0, i).some((q) =>
        sameColumn(q, r) && (q.qualifier === undefined) !== (r.qualifier === undefined)
      )
    ) {
      throw new SqlError("mixing qualified and unqualified references to the same column", r.pos);
    }
  });
}

function sameColumn(a: A.Expr, b: A.Expr): boolean {
  return a.kind === "column" && b.kind === "column" && a.name.toLowerCase() === b.name.toLowerCase();
}

/** `e` with rolled-up keys as typed NULLs and GROUPING()/GROUPING_ID() as constants. */
function rewrite(e: A.Expr, keys: A.Expr[], rolled: A.Expr[], scope: Scope): A.Expr {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const out = node.map(walk);
      return out.some((x, i) => x !== node[i]) ? out : node;
    }
    if (node === null || typeof node !== "object") return node;
    const n = node as A.Expr;
    if (n.kind === "column") {
      if (!rolled.some((r) => sameColumn(r, n))) return n;
      return typedNull(n, scope);
    }
    if (n.kind === "call") {
      const name = n.name.toLowerCase();
      if (name === "grouping" || name === "grouping_id") {
        if (name === "grouping" && n.args.length !== 1) {
          throw new SqlError("GROUPING() accepts exactly one column", n.pos);
        }
        let v = 0;
        for (const a of n.args) {
          if (!keys.some((k) => sameColumn(k, a))) {
            throw new SqlError(`${name.toUpperCase()}() argument must be a GROUP BY column`, a.pos);
          }
          v = v * 2 + (rolled.some((r) => sameColumn(r, a)) ? 1 : 0);
        }
        return { kind: "literal", pos: n.pos, type: "int", value: v, text: String(v) };
      }
      if (isAggregateName(name)) return n;
    }
    if (n.kind === "subquery" as string) return n;
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) {
      const w = walk(v);
      if (w !== v) changed = true;
      copy[k] = w;
    }
    return changed ? copy : n;
  };
  return walk(e) as A.Expr;
}

function typedNull(c: A.ColumnRef, scope: Scope): A.Expr {
  const nul: A.Expr = { kind: "literal", pos: c.pos, type: "null", value: null, text: "null" };
  const tag = scopeType(c, scope);
  if (!tag || PARAMETRIZED.has(tag)) return nul;
  return { kind: "cast", pos: c.pos, expr: nul, type: { pos: c.pos, name: tag, text: tag }, syntax: "cast" };
}
