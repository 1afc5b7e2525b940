/**
 * Conditional and NULL-handling functions of spec/sql.md §15.3: coalesce, nullif and the
 * two-argument aliases ifnull / nvl / isnull. CASE itself is compiled by the binder (§7.11);
 * `caseResultType` gives it, and coalesce, the same branch-type unification.
 *
 * Arguments are brought to one common type through `argTypes`, so the binder inserts the
 * casts (and folds them for constants) with the same rules as everywhere else.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T, typeName } from "../base/types.ts";
import { isText, noMatch, scalar } from "./_util.ts";
import { commonType, parseText } from "./cast.ts";
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

/**
 * QuestDB's coalesce of an IPv4 or UUID value with text constants stays IPv4 / UUID, refusing
 * a constant that does not parse at the constant (CoalesceFunctionFactoryTest
 * #testCoalesceIPv4StringLiteral, #testCoalesceIPv4InvalidStringLiteral, #testCoalesceUuid*);
 * a DECIMAL does not meet text at all (#testCoalesceDecimalInvalidType).
 */
function coalesceType(args: BoundArg[]): ColumnType {
  const special = args.find((a) => a.type.tag === "IPV4" || a.type.tag === "UUID")?.type;
  if (special) {
    const textConsts = args.filter((a) => isText(a.type) && a.constant);
    const others = args.filter((a) => a.type.tag !== special.tag && a.type.tag !== "NULL");
    if (others.length > 0 && others.length === textConsts.length) {
      for (const a of textConsts) {
        const text = (a.value ?? null) as string | null;
        if (text !== null && text !== "" && parseText(text, special) === undefined) {
          throw new SqlError(`invalid ${special.tag === "IPV4" ? "IPv4" : "UUID"} constant`, a.pos);
        }
      }
      return special;
    }
  }
  const decimal = args.find((a) => a.type.tag === "DECIMAL");
  const text = decimal && args.find((a) => isText(a.type));
  if (decimal && text) {
    throw new SqlError(`inconvertible types: ${typeName(text.type)} -> ${typeName(decimal.type)}`, text.pos);
  }
  return caseResultType(args.map((a) => a.type));
}

/** `coalesce(a, b, …)`: the first non-NULL argument, all converted to a common type. */
function bindCoalesce(name: string, arity?: number) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length === 0 || (arity !== undefined && args.length !== arity)) return noMatch(name, args);
    // CoalesceFunctionFactoryTest#testFailsWithSingleArg, #testFailsWithUnsupportedType
    if (args.length < 2) return `${name} can be used with 2 or more arguments`;
    if (args.some((a) => a.type.tag === "BINARY")) return `${name} cannot be used with BINARY arguments`;
    const returns = coalesceType(args);
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
