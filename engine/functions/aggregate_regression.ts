/**
 * QuestDB 9 statistics aggregates: the linear-regression family regr_*(y, x) over pairs with
 * neither value NULL (PostgreSQL's definitions), weighted_stddev_rel / weighted_stddev_freq
 * (x, weight) with reliability and frequency weights, and approx_var_samp (computed exactly:
 * the sample variance). All return DOUBLE.
 */
import type { Value } from "../base/values.ts";
import { CoMoments, doubleAggregate, welford } from "./aggregate_stats.ts";
import type { Accumulator, AggregateFunction } from "./registry_types.ts";

type RegrKind = "slope" | "intercept" | "count" | "r2" | "avgx" | "avgy" | "sxx" | "syy" | "sxy";

function num(v: Value): number | null {
  if (v === null) return null;
  const x = Number(v);
  return Number.isNaN(x) ? null : x;
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** regr_* over the streaming means and co-moments of (y, x) pairs that corr and covar use too. */
function regression(kind: RegrKind): () => Accumulator {
  return () => {
    const m = new CoMoments();
    return {
      add: ([yv, xv]) => {
        const y = num(yv), x = num(xv);
        if (x === null || y === null) return;
        m.add(y, x);
      },
      result: () => {
        const { n, meanX, meanY, sxy, sxx, syy } = m;
        if (kind === "count") return n;
        if (n === 0) return null;
        switch (kind) {
          case "avgx":
            return finite(meanX);
          case "avgy":
            return finite(meanY);
          case "sxx":
            return finite(sxx);
          case "syy":
            return finite(syy);
          case "sxy":
            return finite(sxy);
          case "slope":
            return sxx === 0 ? null : finite(sxy / sxx);
          case "intercept":
            return sxx === 0 ? null : finite(meanY - (sxy / sxx) * meanX);
          case "r2":
            if (sxx === 0) return null;
            return syy === 0 ? 1 : finite((sxy * sxy) / (sxx * syy));
        }
      },
    };
  };
}

/**
 * Weighted standard deviation over (x, w) pairs with finite x and finite, non-zero w: Σw(x-m)²
 * divided by V1 - V2/V1 (reliability weights) or V1 - 1 (frequency weights); NULL when V1 is 0
 * or that divisor is not positive. A negative weight makes the whole group NULL, as in QuestDB,
 * whatever order the rows come in (WeightedStdDevParallelGroupByTest: weights 10, -3, -6, 6 give
 * NULL; WeightedStdDevRelGroupByFunctionFactoryTest#testWeightedStddevRelZeroAndNegativeWeight).
 */
function weightedStddev(frequency: boolean): () => Accumulator {
  return () => {
    let v1 = 0, v2 = 0, mean = 0, s = 0, negative = false;
    return {
      add: ([xv, wv]) => {
        const x = num(xv), w = num(wv);
        if (x === null || w === null || !Number.isFinite(x) || !Number.isFinite(w) || w === 0) return;
        if (w < 0) negative = true;
        if (negative) return;
        // West's weighted incremental update.
        v1 += w;
        v2 += w * w;
        const old = mean;
        mean += (w / v1) * (x - old);
        s += w * (x - old) * (x - mean);
      },
      result: () => {
        const d = frequency ? v1 - 1 : v1 - v2 / v1;
        return negative || v1 === 0 || !(d > 0) ? null : finite(Math.sqrt(s / d));
      },
    };
  };
}

/** The aggregates of this file. */
export const REGRESSION_AGGREGATES: AggregateFunction[] = [
  ...(["slope", "intercept", "count", "r2", "avgx", "avgy", "sxx", "syy", "sxy"] as RegrKind[]).map((k) =>
    doubleAggregate(`regr_${k}`, 2, regression(k))
  ),
  doubleAggregate("weighted_stddev_rel", 2, weightedStddev(false)),
  doubleAggregate("weighted_stddev", 2, weightedStddev(false)),
  doubleAggregate("weighted_stddev_freq", 2, weightedStddev(true)),
  doubleAggregate("approx_var_samp", 1, welford("var_samp")),
];
