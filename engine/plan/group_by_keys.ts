/**
 * Resolves the entries of an explicit GROUP BY to key expressions: a 1-based position or a
 * select-item alias stands for that item's expression, anything else is an expression over the
 * FROM columns. QuestDB refuses keys that hold an aggregate or a window function, pointing at
 * the GROUP BY entry that brought them in (GroupByTest#test2FailOnAggregateFunctionAliasInGroupByClause1,
 * #test2FailOnWindowFunctionColumnIndexInGroupByClause).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { someExpr } from "../sql/expr_walk.ts";
import { exprKey } from "../sql/printer.ts";
import { isAggregateCall, WINDOW_ONLY_FUNCTIONS } from "./bind_expr.ts";
import { SCALAR_OVERLOADED_AGGREGATES } from "../functions/aggregate_array_elem.ts";
import type { Scope } from "./scope.ts";

/** The first window call in `e` (with OVER, or a function that exists only with OVER). */
function firstWindowCall(e: A.Expr): A.FunctionCall | undefined {
  let found: A.FunctionCall | undefined;
  someExpr(e, (x) => {
    if (x.kind !== "call") return undefined;
    if (x.over !== undefined || WINDOW_ONLY_FUNCTIONS.has(x.name.toLowerCase())) {
      found = x;
      return true;
    }
    return undefined;
  });
  return found;
}

/** The first aggregate call in `e`, outside window calls and subqueries. */
function firstAggregateCall(e: A.Expr): A.FunctionCall | undefined {
  let found: A.FunctionCall | undefined;
  someExpr(e, (x) => {
    if (x.kind !== "call") return undefined;
    if (x.over) return false;
    if (isAggregateCall(x)) {
      found = x;
      return true;
    }
    return undefined;
  });
  return found;
}

/** Throws when `e` may not be a grouping key; `pos` overrides the offending call's offset. */
function checkKey(e: A.Expr, pos?: number): void {
  const w = firstWindowCall(e);
  if (w) throw new SqlError("window functions are not allowed in GROUP BY", pos ?? w.pos);
  const a = firstAggregateCall(e) ?? firstArrayElemCall(e);
  if (a) throw new SqlError("aggregate functions are not allowed in GROUP BY", pos ?? a.pos);
}

/**
 * The first array_elem_sum/avg/min/max call of any arity: QuestDB classifies GROUP BY keys by
 * function name (ArrayElementTest: `GROUP BY array_elem_sum(a, b)` is refused).
 */
function firstArrayElemCall(e: A.Expr): A.FunctionCall | undefined {
  let found: A.FunctionCall | undefined;
  someExpr(e, (x) => {
    if (x.kind !== "call" || x.over) return x.kind === "call" ? false : undefined;
    if (SCALAR_OVERLOADED_AGGREGATES.has(x.name.toLowerCase())) {
      found = x;
      return true;
    }
    return undefined;
  });
  return found;
}

/**
 * The keys of an implicit GROUP BY: every item without an aggregate, then each FROM column an
 * aggregate-holding item reads outside its aggregates (`x + avg(y)` groups by `x`, as QuestDB's
 * GroupByTest#test2SuccessOnSelectWithoutExplicitGroupBy).
 */
export function implicitKeyAsts(exprs: readonly A.Expr[], scope: Scope): A.Expr[] {
  const hasAggregate = (e: A.Expr) => firstAggregateCall(e) !== undefined;
  const keys = exprs.filter((e) => !hasAggregate(e));
  const texts = new Set(keys.map(exprKey));
  for (const e of exprs) {
    if (!hasAggregate(e)) continue;
    someExpr(e, (x) => {
      if (x.kind === "call" && (x.over || isAggregateCall(x))) return false;
      if (x.kind !== "column" || scope.find(x.name, x.qualifier, x.pos) === undefined) return undefined;
      const text = exprKey(x);
      if (!texts.has(text)) {
        texts.add(text);
        keys.push(x);
      }
      return false;
    });
  }
  return keys;
}

/** The key expressions of `groupBy`, with positions and aliases replaced by their items. */
export function groupByKeyAsts(
  groupBy: readonly A.Expr[],
  items: readonly { ast: A.SelectItem }[],
  scope: Scope,
): A.Expr[] {
  return groupBy.map((g) => {
    // A bind variable is no key (NoOpGroupByTest#testNoopGroupByBindVariable: `GROUP BY x.id,
    // :var` fails 'literal expected' at `:var`).
    if (g.kind === "param") throw new SqlError("literal expected", g.pos);
    if (g.kind === "literal" && g.type === "int") {
      const item = items[(g.value as number) - 1];
      if (!item) throw new SqlError(`GROUP BY position ${g.value} is not in select list`, g.pos);
      checkKey(item.ast.expr, g.pos);
      return item.ast.expr;
    }
    // A bare name that a select item is aliased to is that item, before any input column of
    // the name (QuestDB's SqlBinder.resolveGroupBy; NoOpGroupByTest
    // #testNoopGroupByWithCrossJoinAndFilterOnSymbolColumn: `checkpoint.minutestamp AS ts ...
    // FROM x AS T, (...) checkpoint GROUP BY ts` groups by minutestamp, not T.ts).
    const aliased = g.kind === "column" && !g.qualifier
      ? items.find((i) => i.ast.alias?.toLowerCase() === g.name.toLowerCase())
      : undefined;
    if (aliased) {
      checkKey(aliased.ast.expr, g.pos);
      return aliased.ast.expr;
    }
    if (g.kind === "column" && !g.qualifier && scope.find(g.name, undefined, g.pos) === undefined) {
      throw new SqlError(`Invalid column: ${g.name}`, g.pos);
    }
    checkKey(g);
    return g;
  });
}
