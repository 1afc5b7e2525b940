/**
 * skewness / kurtosis aggregates from the third and fourth central moments, as QuestDB's
 * Skewness* / Kurtosis* group-by functions compute them: Pebay's one-pass update of the mean and
 * M2..M4 over the non-NULL finite values, then the sample forms
 *   skewness_samp = n·√(n−1)/(n−2) · M3 / M2^1.5            (NULL below 3 values)
 *   kurtosis_samp = (n−1)/((n−2)(n−3)) · ((n+1)·g2 + 6),     g2 = n·M4/M2² − 3 (NULL below 4)
 * and NULL when every value is equal (M2 = 0). The plain names are the sample forms and the
 * _pop forms are the biased ones (√n·M3/M2^1.5, n·M4/M2² − 3): both unconfirmed beyond the
 * names QuestDB registers.
 */
import type { Value } from "../base/values.ts";
import { doubleAggregate } from "./aggregate_stats.ts";
import type { Accumulator, AggregateFunction } from "./registry_types.ts";

type MomentKind = "skewness_samp" | "skewness_pop" | "kurtosis_samp" | "kurtosis_pop";

function moments(kind: MomentKind): () => Accumulator {
  return () => {
    let n = 0, mean = 0, m2 = 0, m3 = 0, m4 = 0;
    return {
      add: ([v]: Value[]) => {
        if (v === null) return;
        const x = Number(v);
        if (!Number.isFinite(x)) return;
        const n1 = n;
        n++;
        const delta = x - mean;
        const dn = delta / n;
        const dn2 = dn * dn;
        const term1 = delta * dn * n1;
        mean += dn;
        m4 += term1 * dn2 * (n * n - 3 * n + 3) + 6 * dn2 * m2 - 4 * dn * m3;
        m3 += term1 * dn * (n - 2) - 3 * dn * m2;
        m2 += term1;
      },
      result: () => {
        if (n === 0 || m2 === 0) return null;
        let r: number;
        switch (kind) {
          case "skewness_samp":
            if (n < 3) return null;
            r = (n * Math.sqrt(n - 1) / (n - 2)) * m3 / (m2 * Math.sqrt(m2));
            break;
          case "skewness_pop":
            r = Math.sqrt(n) * m3 / (m2 * Math.sqrt(m2));
            break;
          case "kurtosis_samp": {
            if (n < 4) return null;
            const g2 = n * m4 / (m2 * m2) - 3;
            r = ((n - 1) / ((n - 2) * (n - 3))) * ((n + 1) * g2 + 6);
            break;
          }
          case "kurtosis_pop":
            r = n * m4 / (m2 * m2) - 3;
            break;
        }
        return Number.isFinite(r) ? r : null;
      },
    };
  };
}

/** The aggregates of this file. */
export const MOMENT_AGGREGATES: AggregateFunction[] = [
  doubleAggregate("skewness", 1, moments("skewness_samp")),
  doubleAggregate("skewness_samp", 1, moments("skewness_samp")),
  doubleAggregate("skewness_pop", 1, moments("skewness_pop")),
  doubleAggregate("kurtosis", 1, moments("kurtosis_samp")),
  doubleAggregate("kurtosis_samp", 1, moments("kurtosis_samp")),
  doubleAggregate("kurtosis_pop", 1, moments("kurtosis_pop")),
];
