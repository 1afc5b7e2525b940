/**
 * Bound expressions: names resolved to input column indexes, functions resolved to their
 * bindings, types known. Produced by `bind_expr.ts`, turned into evaluators by
 * `engine/exec/compile_expr.ts`. Immutable once built (STYLE.md "Plans are values").
 */
import type { ColumnType } from "../base/types.ts";
import { DoubleArray, type Interval, type Value } from "../base/values.ts";
import type { ScalarBinding } from "../functions/registry_types.ts";
import type { PlanNode } from "./plan_node.ts";

export type BoundExpr =
  /**
   * `runtime`: folded from now() and friends, QuestDB's "runtime constants": text from them that
   * does not parse as a timestamp is NULL, not a compile error (TimestampQueryTest).
   */
  | { kind: "const"; type: ColumnType; value: Value; runtime?: boolean }
  | { kind: "column"; type: ColumnType; index: number }
  | { kind: "call"; type: ColumnType; name: string; binding: ScalarBinding; args: BoundExpr[] }
  /**
   * `implicit`: a function argument's cast (not CAST/::). Per row, text that does not read as the
   * number is an error there, as QuestDB's StrFunction.getDouble/getInt/getLong
   * (SqlUtil.implicitCastStrAsDouble: 'inconvertible value: `abc` [STRING -> DOUBLE]').
   */
  | { kind: "cast"; type: ColumnType; from: ColumnType; arg: BoundExpr; pos: number; implicit?: true }
  | { kind: "case"; type: ColumnType; whens: { cond: BoundExpr; then: BoundExpr }[]; otherwise: BoundExpr }
  | { kind: "and" | "or"; type: ColumnType; args: BoundExpr[] }
  | { kind: "not"; type: ColumnType; arg: BoundExpr }
  | { kind: "isNull"; type: ColumnType; arg: BoundExpr; not: boolean }
  | { kind: "inSet"; type: ColumnType; arg: BoundExpr; keys: Set<unknown>; hasNull: boolean; not: boolean }
  | { kind: "inIntervals"; type: ColumnType; arg: BoundExpr; intervals: Interval[]; not: boolean }
  /**
   * A bind variable; with `outer`, a reference from a correlated subquery to a column of the
   * enclosing query: slot `outer` of the values the subquery is run with (constant per run).
   */
  | { kind: "param"; type: ColumnType; index: number; pos: number; outer?: number }
  /**
   * Subqueries. `outer`, when not empty, makes them correlated: the enclosing row's values
   * of these expressions are the subquery's outer slots (see engine/exec/correlated.ts).
   */
  | {
    kind: "subquery";
    type: ColumnType;
    plan: PlanNode;
    pos: number;
    outer?: BoundExpr[];
  }
  | {
    kind: "inSubquery";
    type: ColumnType;
    arg: BoundExpr;
    plan: PlanNode;
    not: boolean;
    outer?: BoundExpr[];
  }
  | { kind: "exists"; type: ColumnType; plan: PlanNode; outer?: BoundExpr[] };

export function isConst(
  e: BoundExpr,
): e is { kind: "const"; type: ColumnType; value: Value; runtime?: boolean } {
  return e.kind === "const";
}

/** A constant folded from a runtime constant such as now() (see `runtime` above). */
export function isRuntimeConst(
  e: BoundExpr,
): e is { kind: "const"; type: ColumnType; value: Value; runtime: true } {
  return e.kind === "const" && e.runtime === true;
}

/** Calls `visit` on `e` and every sub-expression (not into subquery plans). */
export function walkBound(e: BoundExpr, visit: (x: BoundExpr) => void): void {
  visit(e);
  switch (e.kind) {
    case "call":
    case "and":
    case "or":
      for (const a of e.args) walkBound(a, visit);
      break;
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      walkBound(e.arg, visit);
      break;
    case "inSubquery":
      walkBound(e.arg, visit);
      for (const o of e.outer ?? []) walkBound(o, visit);
      break;
    case "subquery":
    case "exists":
      for (const o of e.outer ?? []) walkBound(o, visit);
      break;
    case "case":
      for (const w of e.whens) {
        walkBound(w.cond, visit);
        walkBound(w.then, visit);
      }
      walkBound(e.otherwise, visit);
      break;
  }
}

/** A normalized key for Set/Map lookups of scalar values (bigint and number kept apart by type). */
export function valueKey(v: Value): unknown {
  if (v === null) return null;
  if (typeof v === "bigint") return `b${v}`;
  if (v instanceof Uint8Array) return `x${Array.from(v).join(",")}`;
  if (v instanceof DoubleArray) return `a${v.shape.join("x")}:${Array.from(v.data).join(",")}`;
  if (typeof v === "object") return `i${v.lo}:${v.hi}`;
  return v;
}
