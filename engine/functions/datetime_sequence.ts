/**
 * Row-stateful timestamp generators (spec/sql.md §16.1, §14.2): timestamp_sequence,
 * timestamp_sequence_ns and timestamp_shuffle.
 *
 * timestamp_sequence keeps its running value in the binding's closure. A new EvalContext means
 * a new execution of the query, so the sequence restarts when it sees one; that keeps a reused
 * plan from continuing where the previous run stopped.
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { fn, intOf, isIntArg, noMatch, timeArg } from "./datetime_args.ts";
import type { BoundArg, EvalContext, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/**
 * timestamp_sequence(start, step): the first row is `start`, each later row the previous value
 * plus `step` (re-evaluated per row, so it may be random). A NULL step adds nothing.
 */
function sequence(name: string, returns: ColumnType): ScalarFunction {
  return fn(name, (args): ScalarBinding | string => {
    // The start converts to the result type: text parses, integers are ticks of the result.
    if (args.length !== 2 || !isIntArg(args[1]) || !timeArg(args[0])) return noMatch(name, args);
    // A TIMESTAMP_NS start makes a nanosecond sequence (EqTimestampFunctionFactoryTest
    // #testMixedMicrosAndNanos: `timestamp_sequence(0::timestamp_ns, 2000000000)` steps 2s).
    // So does a text start written with more than six fractional digits
    // (SampleByNanoTimestampTest#testSampleByRewriteMaintainTimestamp: '2021-03-25T23:30:00.00000000Z').
    const type = args[0].type.tag === "TIMESTAMP_NS" || nanoText(args[0]) ? T.TIMESTAMP_NS : returns;
    let next: bigint | null | undefined;
    let owner: EvalContext | undefined;
    return {
      returns: type,
      argTypes: [type, args[1].type],
      deterministic: false,
      eval: ([start, step], ctx) => {
        if (owner !== ctx) {
          owner = ctx;
          next = undefined;
        }
        if (next === undefined) next = start as bigint | null;
        const current = next;
        if (current !== null) next = current + BigInt(intOf(step) ?? 0);
        return current;
      },
    };
  });
}

/** A constant text timestamp with sub-microsecond digits (`...:00.1234567`). */
function nanoText(arg: BoundArg): boolean {
  return arg.constant && typeof arg.value === "string" && /T\d\d:\d\d:\d\d\.\d{7,}/.test(arg.value);
}

/** timestamp_shuffle(a, b) (§14.2, P2): a random instant in [a, b] (bounds in either order). */
function bindShuffle(args: BoundArg[]): ScalarBinding | string {
  const a = args.length === 2 ? timeArg(args[0]) : undefined;
  const b = args.length === 2 ? timeArg(args[1]) : undefined;
  if (!a || !b) return noMatch("timestamp_shuffle", args);
  const type = a.unit === "ns" || b.unit === "ns" ? T.TIMESTAMP_NS : T.TIMESTAMP;
  return {
    returns: type,
    argTypes: [type, type],
    deterministic: false,
    eval: ([x, y], ctx): Value => {
      if (x === null || y === null) return null;
      const lo = (x as bigint) < (y as bigint) ? (x as bigint) : (y as bigint);
      const hi = (x as bigint) < (y as bigint) ? (y as bigint) : (x as bigint);
      const span = hi - lo + 1n;
      return lo + BigInt.asUintN(64, ctx.random.nextLong()) % span;
    },
  };
}

/** §16.1 sequences and §14.2 timestamp_shuffle. */
export const SEQUENCE_FUNCTIONS: ScalarFunction[] = [
  sequence("timestamp_sequence", T.TIMESTAMP),
  sequence("timestamp_sequence_ns", T.TIMESTAMP_NS),
  fn("timestamp_shuffle", bindShuffle),
];
