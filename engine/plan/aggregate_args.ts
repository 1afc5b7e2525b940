/**
 * Checks QuestDB makes on an aggregate call before its arguments are typed: the argument
 * count against the function's declared signature, with QuestDB's texts
 * (``function `corr` requires arguments: corr(DOUBLE, DOUBLE)``, ``wrong number of arguments
 * for function `VAR_SAMP`; expected: 1, provided: 3``), then no aggregate inside an argument.
 * The function name is shown as written.
 */
import { SqlError } from "../base/errors.ts";
import type { Accumulator, AggregateBinding, AggregateFunction } from "../functions/registry_types.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { someExpr } from "../sql/expr_walk.ts";
import { isAggregateCall } from "./bind_expr.ts";

/**
 * Where an aggregate's argument is reported: an `ARRAY[...]` literal at its `[`, as QuestDB's
 * parser places that node (MultiPercentileDiscDoubleGroupByFunctionFactoryTest
 * #testInvalidPercentileInArray1: `ARRAY[0.98, 1.1]` fails at 39, its bracket).
 */
export function argPosition(call: A.FunctionCall, i: number): number {
  const a = call.args[i];
  if (!a) return call.pos;
  return a.kind === "array" && a.bracket !== undefined ? a.bracket : a.pos;
}

/**
 * Aggregates that take a NULL input as a value: QuestDB lowers FILTER to a CASE that nulls
 * non-matching rows, which would change their answer, so it refuses FILTER on them
 * (GroupByFunctionTest#testFilterRejectedForNullPreservingAggregates; isOrdered and twap from the
 * docs' query/sql/filter.md list).
 */
const FILTER_REFUSED = new Set([
  "first",
  "last",
  "array_agg",
  "bool_and",
  "bool_or",
  "mode",
  "isordered",
  "twap",
]);

export function checkAggregateArgs(call: A.FunctionCall, fn: AggregateFunction): void {
  const sig = fn.signature;
  const n = call.args.length;
  if (sig && !call.star && n !== sig.length) {
    if (n === 0) {
      throw new SqlError(
        `function \`${call.name}\` requires arguments: ${call.name}(${sig.join(", ")})`,
        call.pos,
      );
    }
    throw new SqlError(
      `wrong number of arguments for function \`${call.name}\`; expected: ${sig.length}, provided: ${n}`,
      call.pos,
    );
  }
  checkFilterRefused(call);
  for (const a of call.args) {
    const nested = someExpr(a, (x) => (x.kind === "call" && isAggregateCall(x) ? true : undefined));
    if (nested) throw new SqlError("Aggregate function cannot be passed as an argument", a.pos);
  }
}

/** FILTER on an aggregate that takes NULL as a value (docs query/sql/filter.md's text). */
export function checkFilterRefused(call: A.FunctionCall): void {
  if (call.filter && FILTER_REFUSED.has(call.name.toLowerCase())) {
    throw new SqlError(
      `FILTER is not supported for '${call.name.toLowerCase()}', filter rows in a subquery instead`,
      call.pos,
    );
  }
}

/**
 * An aggregate's running state fails at the call: an error its accumulator raises without a
 * position (a DECIMAL sum leaving 76 digits) is placed at the function name, as QuestDB's
 * group-by functions report theirs (SumDecimalGroupByFunctionFactoryTest#testSumOverflow: 7).
 */
export function atCall(binding: AggregateBinding, pos: number): AggregateBinding {
  return { ...binding, create: () => new PlacedAccumulator(binding.create(), pos) };
}

/** One object per group (not closures): keyed row paths create one per group and aggregate. */
class PlacedAccumulator implements Accumulator {
  constructor(private readonly acc: Accumulator, private readonly pos: number) {}

  add(args: Value[]): void {
    try {
      this.acc.add(args);
    } catch (err) {
      throw this.placed(err);
    }
  }

  result(): Value {
    try {
      return this.acc.result();
    } catch (err) {
      throw this.placed(err);
    }
  }

  private placed(err: unknown): unknown {
    return err instanceof SqlError && err.position < 0 ? new SqlError(err.message, this.pos, err.kind) : err;
  }
}
