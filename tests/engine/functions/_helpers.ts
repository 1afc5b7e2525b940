/**
 * Test helpers for engine/functions: build bound arguments, bind and evaluate a function the
 * way the binder does (including the casts a binding asks for through `argTypes`), and run
 * an aggregate over rows.
 */
import { type ColumnType, T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { castValue } from "../../../engine/functions/cast.ts";
import { createRandom } from "../../../engine/functions/random_source.ts";
import type {
  AggregateBinding,
  AggregateFunction,
  BoundArg,
  EvalContext,
  ScalarBinding,
  ScalarFunction,
} from "../../../engine/functions/registry_types.ts";

/** A constant argument. */
export function c(type: ColumnType, value: Value): BoundArg {
  return { type, constant: true, value, pos: 0 };
}

/** A non-constant (column) argument of `type`. */
export function col(type: ColumnType): BoundArg {
  return { type, constant: false, pos: 0 };
}

/** A constant whose type follows the literal rules of spec/sql.md §1.3. */
export function lit(v: Value): BoundArg {
  if (v === null) return c(T.NULL, null);
  if (typeof v === "boolean") return c(T.BOOLEAN, v);
  if (typeof v === "bigint") return c(T.LONG, v);
  if (typeof v === "number") return c(Number.isInteger(v) && Math.abs(v) <= 2147483647 ? T.INT : T.DOUBLE, v);
  if (typeof v === "string") return c(T.STRING, v);
  throw new Error("unsupported literal");
}

export function testContext(): EvalContext {
  return { nowMicros: 1_700_000_000_000_000n, random: createRandom(1n, 2n), timeZone: "UTC", user: "admin" };
}

/** Finds the entry named `name` in a family list. */
export function find<F extends { name: string }>(list: F[], name: string): F {
  const f = list.find((x) => x.name === name);
  if (!f) throw new Error(`no function ${name}`);
  return f;
}

/** Binds `fn`; throws with the reason when the bind does not match. */
export function bind(fn: ScalarFunction, args: BoundArg[]): ScalarBinding {
  const b = fn.bind(args);
  if (typeof b === "string") throw new Error(b);
  return b;
}

/** Binds and evaluates with the given row values (defaults to the constants' values). */
export function call(fn: ScalarFunction, args: BoundArg[], values?: Value[], ctx = testContext()): Value {
  const b = bind(fn, args);
  const vals = (values ?? args.map((a) => a.value ?? null)).map((v, i) => {
    const to = b.argTypes?.[i];
    return to ? castValue(v, args[i].type, to, { constant: args[i].constant }) : v;
  });
  return b.eval(vals, ctx);
}

/** Binds and evaluates an all-literal call: `run(fn, 7, 2)`. */
export function run(fn: ScalarFunction, ...values: Value[]): Value {
  return call(fn, values.map(lit));
}

/** The result type of binding `fn` to `args`. */
export function returns(fn: ScalarFunction, args: BoundArg[]): string {
  return bind(fn, args).returns.tag;
}

/** The bind-time error of `fn` on `args` (fails the test if binding succeeds). */
export function bindError(fn: ScalarFunction, args: BoundArg[]): string {
  const b = fn.bind(args);
  if (typeof b !== "string") throw new Error("expected a bind error");
  return b;
}

/** Binds an aggregate and feeds it `rows` (argument tuples); returns the binding and result. */
export function aggregateOver(
  fn: AggregateFunction,
  args: BoundArg[],
  rows: Value[][],
  options = { distinct: false, star: false },
): { binding: AggregateBinding; result: Value } {
  const binding = fn.bind(args, options);
  if (typeof binding === "string") throw new Error(binding);
  const acc = binding.create();
  for (const r of rows) acc.add(r);
  return { binding, result: acc.result() };
}
