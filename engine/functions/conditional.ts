/**
 * Conditional and NULL-handling functions of spec/sql.md §15.3: coalesce, nullif and the
 * two-argument aliases ifnull / nvl / isnull. CASE itself is compiled by the binder (§7.11);
 * `caseResultType` gives it, and coalesce, the same branch-type unification.
 *
 * Arguments are brought to one common type through `argTypes`, so the binder inserts the
 * casts (and folds them for constants) with the same rules as everywhere else.
 */
import { type ColumnType, T } from "../base/types.ts";
import { noMatch, scalar } from "./_util.ts";
import { commonType } from "./cast.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { valuesEqual } from "./value_compare.ts";

/**
 * The type CASE branches or coalesce arguments unify to (§7.11: like set operations, INT and
 * DOUBLE give DOUBLE), folding cast.ts `commonType` so CASE and coalesce agree. NULL literals
 * adopt the others' type; all-NULL is STRING (§2.2).
 */
export function caseResultType(types: ColumnType[]): ColumnType {
  let acc: ColumnType | undefined;
  for (const t of types) {
    if (t.tag === "NULL") continue;
    acc = acc === undefined ? t : commonType(acc, t);
  }
  return acc ?? T.STRING;
}

/** `coalesce(a, b, …)`: the first non-NULL argument, all converted to a common type. */
function bindCoalesce(name: string, arity?: number) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length === 0 || (arity !== undefined && args.length !== arity)) return noMatch(name, args);
    const returns = caseResultType(args.map((a) => a.type));
    return {
      returns,
      argTypes: args.map(() => returns),
      eval: (vals) => {
        for (const v of vals) if (v !== null) return v;
        return null;
      },
    };
  };
}

/** `nullif(a, b)`: NULL when a = b (compared in their common type), otherwise a. */
function bindNullif(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2) return noMatch("nullif", args);
  const returns = caseResultType([args[0].type, args[1].type]);
  return {
    returns,
    argTypes: [returns, returns],
    eval: ([a, b]) => (a !== null && valuesEqual(a, b, returns) ? null : a),
  };
}

/** coalesce, nullif, ifnull, nvl, isnull. */
export const CONDITIONAL_FUNCTIONS: ScalarFunction[] = [
  scalar("coalesce", bindCoalesce("coalesce")),
  scalar("nullif", bindNullif),
  scalar("ifnull", bindCoalesce("ifnull", 2)),
  scalar("nvl", bindCoalesce("nvl", 2)),
  scalar("isnull", bindCoalesce("isnull", 2)),
];
