/**
 * `SELECT DISTINCT ON (a, b) ...` (issue 10, Postgres semantics): the first row of each
 * (a, b) group in ORDER BY order, or in input order without ORDER BY. As in Postgres the
 * DISTINCT ON expressions must be the leftmost ORDER BY expressions (in any order).
 *
 * Planned from existing operators rather than a new one: keys that are not output columns
 * are computed as hidden columns, the rows are sorted by ORDER BY, a window operator numbers
 * the rows of each key (row_number() keeps input order within a partition), rows numbered 1
 * are kept, and the hidden columns are dropped.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { exprKey } from "../sql/printer.ts";
import { bindExpr, normKey } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import type { PlanContext } from "./plan_context.ts";
import { type OutputColumn, type PlanNode, shape } from "./plan_node.ts";
import { bindContext, finishQuery } from "./plan_select.ts";
import { Scope } from "./scope.ts";

type Source = { input: PlanNode; scope: Scope; exprs: BoundExpr[] };

const col = (type: OutputColumn["type"], index: number): BoundExpr => ({ kind: "column", type, index });

export function planDistinctOn(
  node: PlanNode,
  scope: Scope,
  distinctOn: A.Expr[],
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
  source?: Source,
): PlanNode {
  const width = node.columns.length;
  checkOrderBy(distinctOn, orderBy, scope, width);

  // 1. Each key: an output column, or an expression over the output, or over the select's input.
  const onInput: BoundExpr[] = [];
  const onOutput: BoundExpr[] = [];
  const slots = distinctOn.map((d): { at: "col"; index: number } | { at: "in" | "out"; k: number } => {
    const index = outputIndex(d, scope, width);
    if (index !== undefined) return { at: "col", index };
    try {
      const b = bindExpr(d, bindContext(scope, pc, "DISTINCT ON"));
      if (b.kind === "column") return { at: "col", index: b.index };
      onOutput.push(b);
      return { at: "out", k: onOutput.length - 1 };
    } catch (err) {
      if (!source || node.kind !== "project") throw err;
      onInput.push(bindExpr(d, bindContext(source.scope, pc, "DISTINCT ON")));
      return { at: "in", k: onInput.length - 1 };
    }
  });
  const hidden = (e: BoundExpr, i: number) => ({ name: `\u0000distinct${i}`, type: e.type });
  let widened = node;
  if (onInput.length && node.kind === "project") {
    widened = {
      ...shape([...node.columns, ...onInput.map(hidden)], node.timestampIndex),
      kind: "project",
      input: node.input,
      exprs: [...node.exprs, ...onInput],
    };
  }
  const inWidth = widened.columns.length;
  if (onOutput.length) {
    const identity = widened.columns.map((c, i) => col(c.type, i));
    widened = {
      ...shape(
        [...widened.columns, ...onOutput.map((e, i) => hidden(e, onInput.length + i))],
        widened.timestampIndex,
      ),
      kind: "project",
      input: widened,
      exprs: [...identity, ...onOutput],
    };
  }
  const keyIndexes = slots.map((
    s,
  ) => (s.at === "col" ? s.index : s.at === "in" ? width + s.k : inWidth + s.k));

  // 2. ORDER BY over the widened rows; its input-side keys still work when no outer layer was added.
  const wScope = new Scope([
    ...scope.columns,
    ...widened.columns.slice(width).map((c) => ({ name: c.name, type: c.type, qualifiers: [] })),
  ], scope.timestampIndex);
  const wSource = source && !onOutput.length && widened.kind === "project"
    ? { ...source, exprs: widened.exprs }
    : undefined;
  const sorted = orderBy.length
    ? finishQuery(widened, wScope, orderBy, undefined, pc, false, wSource)
    : widened;

  // 3. Number the rows of each key, keep the first.
  const rn = sorted.columns.length;
  const numbered: PlanNode = {
    ...shape([...sorted.columns, { name: "\u0000rn", type: T.LONG }], sorted.timestampIndex),
    kind: "window",
    input: sorted,
    windows: [{
      name: "row_number",
      args: [],
      partitionBy: keyIndexes.map((i) => col(sorted.columns[i].type, i)),
      orderBy: [],
      frame: {
        unit: "rows",
        start: { kind: "unboundedPreceding" },
        end: { kind: "unboundedFollowing" },
        excludeCurrent: false,
      },
      ignoreNulls: false,
      type: T.LONG,
    }],
  };
  const first: BoundExpr = {
    kind: "inSet",
    type: T.BOOLEAN,
    arg: col(T.LONG, rn),
    keys: new Set([normKey(1n)]),
    hasNull: false,
    not: false,
  };
  const kept: PlanNode = {
    ...shape(numbered.columns, numbered.timestampIndex),
    kind: "filter",
    input: numbered,
    predicate: first,
  };
  const back = node.columns.map((c, i) => col(c.type, i));
  const ts = sorted.timestampIndex < width ? sorted.timestampIndex : -1;
  const out: PlanNode = { ...shape(node.columns, ts), kind: "project", input: kept, exprs: back };
  return finishQuery(out, scope, [], limit, pc, false);
}

/** Index of an output column named or numbered by `e`, if it is one. */
function outputIndex(e: A.Expr, scope: Scope, width: number): number | undefined {
  if (e.kind === "literal" && e.type === "int") {
    const k = (e.value as number) - 1;
    if (k < 0 || k >= width) throw new SqlError("DISTINCT ON position is out of range", e.pos);
    return k;
  }
  if (e.kind === "column") {
    return scope.find(e.name, e.qualifier, e.pos) ??
      (e.qualifier ? scope.find(e.name, undefined, e.pos) : undefined);
  }
  return undefined;
}

/** Postgres: the leading ORDER BY items must all be DISTINCT ON expressions. */
function checkOrderBy(distinctOn: A.Expr[], orderBy: A.OrderItem[], scope: Scope, width: number): void {
  if (!orderBy.length) return;
  const id = (e: A.Expr) => {
    const i = outputIndex(e, scope, width);
    return i !== undefined ? `#${i}` : exprKey(e);
  };
  const keys = distinctOn.map(id);
  const leading = orderBy.slice(0, distinctOn.length).map((o) => id(o.expr));
  if (leading.every((l) => keys.includes(l))) return;
  const missing = distinctOn.find((_, i) => !leading.includes(keys[i])) ?? distinctOn[0];
  throw new SqlError("SELECT DISTINCT ON expressions must match initial ORDER BY expressions", missing.pos);
}
