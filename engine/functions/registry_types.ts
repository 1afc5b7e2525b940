/**
 * The contract every function family implements (ARCHITECTURE.md "engine/functions is the
 * registry of scalar, aggregate and window functions, each declaring its signatures, result
 * type and implementation").
 *
 * Binding happens once per query: the binder hands a function the types of its arguments
 * (and the values of constant ones); the function answers with its result type, the types it
 * wants its arguments converted to (the binder inserts the casts), and an evaluator. A bind
 * that does not match returns a string: the reason, which the binder turns into an error at
 * the call's position.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage } from "../storage/api.ts";

export interface BoundArg {
  type: ColumnType;
  /** True when the argument is a constant expression; `value` then holds it (scalar form). */
  constant: boolean;
  value?: Value;
  /** Offset of the argument in the SQL text, for errors. */
  pos: number;
  /** True for a bind variable: constant for the run, though not at bind time. */
  param?: boolean;
  /** True for a scalar subquery `(SELECT ...)`: one value for the run, read when it starts. */
  subquery?: boolean;
  /** True when the argument may differ from row to row: it reads a column or a random function. */
  perRow?: boolean;
}

/** Per-query context functions may read: the query clock, the random source, settings. */
export interface EvalContext {
  /** now(): fixed for the whole query, microseconds since epoch. */
  nowMicros: bigint;
  /** A seeded PRNG for rnd_* functions (long_sequence(n, s0, s1) reseeds it). */
  random: RandomSource;
  /** Session time zone (pgwire SET TIME ZONE), IANA name or offset; "UTC" by default. */
  timeZone: string;
  /** The authenticated principal's name, for current_user(). */
  user: string;
  /**
   * cancel_query(id): stops a running statement as the session's principal (engine/activity.ts
   * tryCancel); absent where no session is at hand.
   */
  cancelQuery?: (id: number, pos: number) => boolean;
  /** Whether a table exists (wait_wal_table); absent where no catalog is at hand. */
  tableExists?: (name: string) => boolean;
  /** The tables, for reg* casts naming relations by oid and oid by name (engine/plan/reg_types.ts). */
  catalog?: Storage;
  /** flush_query_cache(): empties the engine's query cache (engine/query_cache.ts). */
  flushQueryCache?: () => void;
}

export interface RandomSource {
  /** Uniform in [0, 1). */
  nextDouble(): number;
  /** Uniform 64-bit signed. */
  nextLong(): bigint;
  /** Uniform int in [0, bound). */
  nextInt(bound: number): number;
  reseed(s0: bigint, s1: bigint): void;
}

export interface ScalarBinding {
  returns: ColumnType;
  /** Types the binder converts each argument to before calling `eval` (omit = as given). */
  argTypes?: ColumnType[];
  /** Evaluates one row. Receives arguments in scalar form (null = NULL). */
  eval(args: Value[], ctx: EvalContext): Value;
  /**
   * False for functions whose value changes per call with the same arguments (rnd_*,
   * systimestamp): the planner then never folds them into constants.
   */
  deterministic?: boolean;
  /**
   * Called once per execution before the first row, projection columns left to right, as
   * QuestDB's `Function.init`: rnd_symbol(count, lo, hi, nullRate) draws its pool here, so the
   * draws that follow are the rows' draws QuestDB's seeds give.
   */
  init?(ctx: EvalContext): void;
  /**
   * The function on numbers when its value is exactly this for non-NULL numeric arguments read
   * as doubles (NULL for any NULL argument, non-finite results NULL): the batch expression loops
   * call it per row without boxing (exec/vector/batch_expr.ts). Returns DOUBLE.
   */
  numeric?: (...xs: number[]) => number;
}

export interface ScalarFunction {
  /** Lower-case name; aliases are registered as separate entries sharing the bind. */
  name: string;
  bind(args: BoundArg[]): ScalarBinding | string;
}

/** One group's running state of an aggregate. */
export interface Accumulator {
  /** Adds one input row (arguments in scalar form, in the order of the call). */
  add(args: Value[]): void;
  result(): Value;
}

export interface AggregateBinding {
  returns: ColumnType;
  argTypes?: ColumnType[];
  /** Creates the state for a new group. Constant arguments (delimiters, percentiles) are bound here. */
  create(): Accumulator;
}

export interface AggregateFunction {
  name: string;
  /** Declared argument types, for QuestDB's arity errors (`function `f` requires arguments: f(DOUBLE)`). */
  signature?: string[];
  bind(args: BoundArg[], options: { distinct: boolean; star: boolean }): AggregateBinding | string;
}
