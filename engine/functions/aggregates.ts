/**
 * Every aggregate function of spec/sql.md §13.1 and §13.2, gathered for the registry, with
 * `DISTINCT` handled once for all of them: `agg(DISTINCT x)` feeds the accumulator only the
 * first occurrence of each argument tuple, so `count(DISTINCT x)` counts distinct non-NULL x.
 */
import { aggregate } from "./_util.ts";
import { BASIC_AGGREGATES } from "./aggregate_basic.ts";
import { COLLECT_AGGREGATES } from "./aggregate_collect.ts";
import { QUANTILE_AGGREGATES } from "./aggregate_quantile.ts";
import { REGRESSION_AGGREGATES } from "./aggregate_regression.ts";
import { STATS_AGGREGATES } from "./aggregate_stats.ts";
import { MOMENT_AGGREGATES } from "./aggregate_moments.ts";
import { ARRAY_ELEM_AGGREGATES } from "./aggregate_array_elem.ts";
import type { Accumulator, AggregateBinding, AggregateFunction } from "./registry_types.ts";
import { hashKey } from "./value_compare.ts";

/** Wraps an accumulator so that repeated argument tuples are ignored. */
function distinctOnly(inner: Accumulator): Accumulator {
  const seen = new Set<string>();
  return {
    add: (args) => {
      const k = hashKey(args);
      if (seen.has(k)) return;
      seen.add(k);
      inner.add(args);
    },
    result: () => inner.result(),
  };
}

function withDistinct(fn: AggregateFunction): AggregateFunction {
  return aggregate(fn.name, (args, options) => {
    const b = fn.bind(args, options);
    if (typeof b === "string" || !options.distinct) return b;
    if (options.star) return `DISTINCT * is not supported [function=${fn.name}]`;
    const create = b.create;
    // `distinct` tells the executor's own aggregate operators (engine/exec/vector) to dedupe.
    const wrapped: AggregateBinding & { distinct: true } = {
      ...b,
      create: () => distinctOnly(create()),
      distinct: true,
    };
    return wrapped;
  }, fn.signature);
}

/** The aggregate functions, DISTINCT-aware. */
export const AGGREGATE_FUNCTIONS: AggregateFunction[] = [
  ...BASIC_AGGREGATES,
  ...STATS_AGGREGATES,
  ...MOMENT_AGGREGATES,
  ...COLLECT_AGGREGATES,
  ...QUANTILE_AGGREGATES,
  ...REGRESSION_AGGREGATES,
  ...ARRAY_ELEM_AGGREGATES,
].map(withDistinct);
