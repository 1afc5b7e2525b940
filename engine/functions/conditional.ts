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

/** Numeric CASE branch types in widening order (CaseCommon's escalation map). */
const CASE_NUMBER_RANK: Record<string, number> = { BYTE: 1, SHORT: 2, INT: 3, LONG: 4, FLOAT: 5, DOUBLE: 6 };
const CASE_TEXT = new Set(["CHAR", "STRING", "VARCHAR", "SYMBOL"]);
/** Types whose CASE pairings QuestDB's escalation map lists; others keep `commonType`. */
const CASE_MAPPED = new Set([
  ...Object.keys(CASE_NUMBER_RANK),
  ...CASE_TEXT,
  "BOOLEAN",
  "DATE",
  "TIMESTAMP",
  "LONG256",
  "UUID",
  "IPV4",
  "BINARY",
]);

/**
 * The type accumulated CASE branches `acc` take on meeting a branch of type `next`, by QuestDB's
 * CaseCommon escalation map: numbers widen among themselves (LONG and FLOAT give FLOAT), text
 * kinds meet as VARCHAR if one is VARCHAR, else STRING (CHAR alone stays CHAR), STRING and
 * VARCHAR turn into UUID / IPv4 beside one, and every other type meets only itself. A pair the
 * map lacks is `inconvertible types: <next> -> <acc>` at the branch (SwitchFunctionFactoryTest
 * #testCastValueToLong256, #testCastValueToUuid1). Pairs involving a type the map predates
 * (DECIMAL, nanosecond timestamps, geohashes, arrays) and DATE beside TIMESTAMP keep cast.ts
 * `commonType`. Returns the accumulated type, or an error text.
 */
export function caseBranchType(acc: ColumnType, next: ColumnType): ColumnType | string {
  // Beside NULL a CHAR or SYMBOL branch gives STRING, as cast.ts commonType.
  const nullMet = (t: ColumnType) => (t.tag === "CHAR" || t.tag === "SYMBOL" ? T.STRING : t);
  if (acc.tag === "NULL") return nullMet(next);
  if (next.tag === "NULL") return nullMet(acc);
  const time = (t: ColumnType) => t.tag === "DATE" || t.tag === "TIMESTAMP";
  if (!CASE_MAPPED.has(acc.tag) || !CASE_MAPPED.has(next.tag) || (time(acc) && time(next))) {
    return commonType(acc, next);
  }
  if (acc.tag === next.tag) return acc.tag === "SYMBOL" ? T.STRING : acc;
  const ra = CASE_NUMBER_RANK[acc.tag], rn = CASE_NUMBER_RANK[next.tag];
  if (ra !== undefined && rn !== undefined) return ra >= rn ? acc : next;
  if (CASE_TEXT.has(acc.tag) && CASE_TEXT.has(next.tag)) {
    return acc.tag === "VARCHAR" || next.tag === "VARCHAR" ? T.VARCHAR : T.STRING;
  }
  const plain = (t: ColumnType) => t.tag === "STRING" || t.tag === "VARCHAR";
  for (const special of ["UUID", "IPV4"]) {
    if ((acc.tag === special && plain(next)) || (next.tag === special && plain(acc))) {
      return acc.tag === special ? acc : next;
    }
  }
  const from = typeName(next), to = typeName(acc);
  return `inconvertible types: ${from} -> ${to} [from=${from}, to=${to}]`;
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
