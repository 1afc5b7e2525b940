/**
 * Decorrelation of the common correlated subqueries (issue 10): when every outer value is
 * used only in an equality `inner_expr = outer` of the subquery's top WHERE, the subquery can
 * run once for all outer rows, grouped by those inner expressions, instead of once per
 * distinct outer value (a hash semi-join for EXISTS and IN, a grouped aggregate for scalar
 * aggregates). Shapes handled, bottom up: filter, optionally an ungrouped aggregate (scalar
 * only), optionally a projection. Anything else runs per outer value (correlated_prefetch.ts).
 */
import { type ColumnType, T } from "../base/types.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { walkBound } from "../plan/bound.ts";
import { andAll, conjuncts } from "../plan/intervals_from_where.ts";
import { type LimitSpec, type PlanNode, shape } from "../plan/plan_node.ts";
import { remap } from "../plan/prune_columns.ts";
import type { CorrelatedExpr } from "./correlated.ts";
import { nodeExprs } from "./subqueries.ts";

export interface Decorrelated {
  /** Output: the key columns (in outer slot order), then the value column (IN and scalar). */
  plan: PlanNode;
  keyCount: number;
  /**
   * Scalar over an aggregate: a key without inner rows still has a value, the aggregate of no
   * rows, which this plan (the subquery with its WHERE made false) computes.
   */
  emptyPlan?: PlanNode;
}

export function decorrelate(s: CorrelatedExpr): Decorrelated | undefined {
  const slots = s.outer!.length;
  let top = s.plan;
  // EXISTS (... LIMIT 1) and EXISTS (... ORDER BY ...) ask the same as without them.
  while (s.kind === "exists" && (top.kind === "sort" || (top.kind === "limit" && positiveLimit(top.limit)))) {
    top = top.input;
  }
  const project = top.kind === "project" ? top : undefined;
  if (project) top = project.input;
  const aggregate = top.kind === "aggregate" ? top : undefined;
  if (aggregate) {
    if (s.kind !== "subquery" || aggregate.keys.length || !project) return undefined;
    if (nodeExprs(aggregate).some(usesOuter)) return undefined;
    top = aggregate.input;
  }
  if (top.kind !== "filter" || subtreeUsesOuter(top.input)) return undefined;
  // EXISTS ignores its select list; IN and scalar read it.
  if (s.kind !== "exists" && project && (project.exprs.length !== 1 || project.exprs.some(usesOuter))) {
    return undefined;
  }
  if (s.kind !== "exists" && !project && top.columns.length !== 1) return undefined;

  const keys: BoundExpr[] = new Array(slots);
  const rest: BoundExpr[] = [];
  for (const c of conjuncts(top.predicate)) {
    if (!usesOuter(c)) {
      rest.push(c);
      continue;
    }
    const eq = outerEquality(c);
    if (!eq || keys[eq.slot]) return undefined;
    keys[eq.slot] = eq.inner;
  }
  for (let k = 0; k < slots; k++) if (!keys[k]) return undefined;
  const rows = andAll(rest);
  const input: PlanNode = rows ? { ...top, predicate: rows } : top.input;
  const keyColumns = keys.map((k, i) => ({ name: `\u0000key${i}`, type: k.type }));
  const col = (type: ColumnType, index: number): BoundExpr => ({ kind: "column", type, index });

  if (aggregate && project) {
    // The aggregate grouped by the keys; the select item moves past the key columns.
    const grouped: PlanNode = { ...aggregate, ...shape([...keyColumns, ...aggregate.columns]), input, keys };
    const shift = grouped.columns.map((_, i) => i + slots);
    const value = remap(project.exprs[0], shift);
    const exprs = [...keys.map((k, i) => col(k.type, i)), value];
    const plan: PlanNode = {
      ...shape([...keyColumns, project.columns[0]]),
      kind: "project",
      input: grouped,
      exprs,
    };
    const none: PlanNode = { ...top, predicate: { kind: "const", type: T.BOOLEAN, value: false } };
    const emptyPlan: PlanNode = { ...project, input: { ...aggregate, input: none } };
    return { plan, keyCount: slots, emptyPlan };
  }
  const value = s.kind === "exists" ? [] : project ? [project.exprs[0]] : [col(top.columns[0].type, 0)];
  const valueColumns = s.kind === "exists" ? [] : [project ? project.columns[0] : top.columns[0]];
  const plan: PlanNode = {
    ...shape([...keyColumns, ...valueColumns]),
    kind: "project",
    input,
    exprs: [...keys, ...value],
  };
  return { plan, keyCount: slots };
}

/** `inner = outer slot` (either side), when hashing the two sides gives equal keys exactly when `=` holds. */
function outerEquality(c: BoundExpr): { slot: number; inner: BoundExpr } | undefined {
  if (c.kind !== "call" || c.name !== "=" || c.args.length !== 2) return undefined;
  const [a, b] = c.args;
  const [param, inner] = a.kind === "param" && a.outer !== undefined ? [a, b] : [b, a];
  if (param.kind !== "param" || param.outer === undefined || usesOuter(inner)) return undefined;
  if (domain(param.type) === undefined || domain(param.type) !== domain(inner.type)) return undefined;
  return { slot: param.outer, inner };
}

/** Types whose values hash alike (value_compare.ts keyPart) when they compare equal. */
function domain(t: ColumnType): string | undefined {
  switch (t.tag) {
    case "BYTE":
    case "SHORT":
    case "INT":
    case "LONG":
    case "FLOAT":
    case "DOUBLE":
      return "number";
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return "text";
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
    case "DATE":
    case "BOOLEAN":
    case "UUID":
    case "IPV4":
      return t.tag;
    default:
      return undefined;
  }
}

function usesOuter(e: BoundExpr): boolean {
  let found = false;
  walkBound(e, (x) => {
    if (x.kind === "param" && x.outer !== undefined) found = true;
  });
  return found;
}

/**
 * Any outer slot reference below `n`, found by walking the plain plan objects, so no node kind
 * is missed. Slots of nested subqueries count too: a false alarm only skips decorrelation.
 */
function subtreeUsesOuter(n: unknown): boolean {
  if (typeof n !== "object" || n === null || n instanceof Set || ArrayBuffer.isView(n)) return false;
  const o = n as { kind?: unknown; outer?: unknown };
  if (o.kind === "param" && o.outer !== undefined) return true;
  return Object.values(o).some(subtreeUsesOuter);
}

/** `LIMIT n` with a constant n > 0: keeps a row whenever there is one. */
function positiveLimit(l: LimitSpec): boolean {
  const lo = l.lo;
  return !l.hi && !l.offset && !l.comma && lo?.kind === "const" && lo.value !== null && Number(lo.value) > 0;
}
