/**
 * The operators of spec/sql.md §1.4 as scalar functions registered under their symbols, so
 * the binder resolves `a + b` as the function "+" with two arguments. Unary minus is "neg";
 * "~" is bitwise NOT with one argument and regex find with two. The families live in
 * operators_*.ts; this file gathers them and adds the boolean connectives and `||`.
 *
 * Also re-exports the value order and identity helpers (value_compare.ts) that sorting,
 * grouping and joins use.
 */
import { T } from "../base/types.ts";
import { noMatchOp, scalar } from "./_util.ts";
import { ARITHMETIC_OPERATORS } from "./operators_arith.ts";
import { bindBitNot, BITWISE_OPERATORS } from "./operators_bitwise.ts";
import { COMPARISON_OPERATORS } from "./operators_compare.ts";
import { GEOHASH_OPERATORS } from "./operators_geohash.ts";
import { IPV4_OPERATORS } from "./operators_ipv4.ts";
import { bindRegexMatch, PATTERN_OPERATORS } from "./operators_pattern.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { bindConcat } from "./text.ts";

export { compareValues, hashKey, keyPart, valuesEqual } from "./value_compare.ts";

function isBoolArg(a: BoundArg): boolean {
  return a.type.tag === "BOOLEAN" || a.type.tag === "NULL";
}

/**
 * not / and / or over BOOLEAN. BOOLEAN has no NULL (§4), so a NULL literal operand reads as
 * false. The binder compiles these itself; the entries serve direct calls and completeness.
 */
function logical(name: "not" | "and" | "or"): ScalarFunction {
  return scalar(name, (args): ScalarBinding | string => {
    const arity = name === "not" ? 1 : 2;
    if (args.length !== arity || !args.every(isBoolArg)) return noMatchOp(name, args);
    if (name === "not") return { returns: T.BOOLEAN, eval: ([a]) => a !== true };
    if (name === "and") return { returns: T.BOOLEAN, eval: ([a, b]) => a === true && b === true };
    return { returns: T.BOOLEAN, eval: ([a, b]) => a === true || b === true };
  });
}

/** Every operator function. */
export const OPERATOR_FUNCTIONS: ScalarFunction[] = [
  ...ARITHMETIC_OPERATORS,
  ...BITWISE_OPERATORS,
  scalar("~", (args) => (args.length === 1 ? bindBitNot(args) : bindRegexMatch(args))),
  ...COMPARISON_OPERATORS,
  ...PATTERN_OPERATORS,
  ...IPV4_OPERATORS,
  ...GEOHASH_OPERATORS,
  scalar("||", (args) => (args.length === 2 ? bindConcat(args) : noMatchOp("||", args))),
  logical("not"),
  logical("and"),
  logical("or"),
];
