/**
 * PIVOT and UNPIVOT after a source (QuestDB 9, https://questdb.com/docs/query/sql/pivot/):
 * they hang on the SubquerySource that carries the source they reshape, so every walker that
 * visits subqueries still reaches the source; plan_pivot.ts rewrites them into plain queries.
 */
import type { Expr, Limit, OrderItem, Query } from "./ast.ts";

/** `PIVOT (aggregates FOR expr IN (...) [expr IN (...)]... [GROUP BY ...] [ORDER BY ...] [LIMIT ...])`. */
export interface PivotClause {
  pos: number;
  aggregates: PivotAggregate[];
  fors: PivotFor[];
  groupBy: Expr[];
  /** ORDER BY and LIMIT written inside the parentheses apply to the pivoted rows (UnpivotTest). */
  orderBy?: OrderItem[];
  limit?: Limit;
}

export interface PivotAggregate {
  expr: Expr;
  alias?: string;
}

/**
 * One `expr IN (...)`: a constant list with optional aliases, or a query run before planning
 * (pivot_lists.ts replaces it by the list of its values, as QuestDB runs it at compile time).
 */
export interface PivotFor {
  pos: number;
  expr: Expr;
  values?: PivotValue[];
  query?: Query;
}

export interface PivotValue {
  expr: Expr;
  alias?: string;
}

/** `UNPIVOT [INCLUDE | EXCLUDE NULLS] (value FOR name IN (col [AS alias], ...))`. */
export interface UnpivotClause {
  pos: number;
  valueColumn: string;
  nameColumn: string;
  columns: { name: string; pos: number; alias?: string }[];
  includeNulls: boolean;
}
