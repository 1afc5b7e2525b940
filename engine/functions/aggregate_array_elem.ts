/**
 * `array_elem_min/max/sum/avg(a)` with one argument (spec/sql.md §22.6): aggregates that combine
 * a group's arrays element by element, with the NULL and shape rules of their several-argument
 * scalar forms (array_build.ts): the largest extent along each dimension, NULL arrays and NULL
 * elements skipped, a position no array reaches or only NULLs reach is NULL; no arrays, NULL.
 */
import { DoubleArray } from "../base/double_array.ts";
import { aggregate, noMatch } from "./_util.ts";
import { ELEMENT_WISE, elementWiseOf } from "./array_build.ts";
import type { AggregateFunction } from "./registry_types.ts";

/** Names whose one-argument calls are these aggregates and whose longer calls are scalars. */
export const ARRAY_ELEM_NAMES: ReadonlySet<string> = new Set(Object.keys(ELEMENT_WISE));

/**
 * Every aggregate name that also has a scalar form of two or more arguments: array_elem_* and
 * QuestDB's flat asum/aavg/amin/amax (DoubleArrayAsumFunctionFactory beside the group-by asum).
 */
export const SCALAR_OVERLOADED_AGGREGATES: ReadonlySet<string> = new Set([
  ...ARRAY_ELEM_NAMES,
  "asum",
  "aavg",
  "amin",
  "amax",
]);

export const ARRAY_ELEM_AGGREGATES: AggregateFunction[] = Object.entries(ELEMENT_WISE).map(([name, f]) =>
  aggregate(name, (args) => {
    if (args.length !== 1 || args[0].type.tag !== "ARRAY") return noMatch(name, args);
    return {
      returns: args[0].type,
      create: () => {
        const arrays: DoubleArray[] = [];
        return {
          add: ([v]) => {
            if (v instanceof DoubleArray) arrays.push(v);
          },
          result: () => elementWiseOf(arrays, f.combine, f.result),
        };
      },
    };
  })
);
