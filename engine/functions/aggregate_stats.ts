/**
 * Numeric statistics aggregates (spec/sql.md §13.1, §13.2): ksum, nsum, stddev / variance and
 * their sample and population forms, covar_pop, covar_samp, corr, geomean, weighted_avg, twap,
 * vwap and haversine_dist_deg. All return DOUBLE and skip NULL inputs.
 *
 * Variance uses Welford's streaming update in QuestDB's exact operation order
 * (mean += (x - mean) / n; m2 += (x - mean') * (x - mean)) so results agree to the last bit.
 */
import { isNumeric, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { aggregate, noMatch } from "./_util.ts";
import type { Accumulator, AggregateBinding, AggregateFunction, BoundArg } from "./registry_types.ts";

function num(v: Value): number | null {
  return v === null ? null : Number(v);
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** Binds an aggregate of `arity` numeric (or timestamp, where allowed) arguments returning DOUBLE. */
export function doubleAggregate(name: string, arity: number, create: () => Accumulator, timeArg = -1) {
  const signature = Array.from({ length: arity }, (_, i) => (i === timeArg ? "TIMESTAMP" : "DOUBLE"));
  return aggregate(name, (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== arity) return noMatch(name, args);
    for (let i = 0; i < arity; i++) {
      const t = args[i].type;
      const ok = isNumeric(t) || t.tag === "NULL" ||
        (i === timeArg && (t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS" || t.tag === "DATE"));
      if (!ok) return noMatch(name, args);
    }
    return { returns: T.DOUBLE, create };
  }, signature);
}

/** Kahan-compensated sum. */
function kahan(): Accumulator {
  let sum = 0, c = 0, n = 0;
  return {
    add: ([v]) => {
      const x = num(v);
      if (x === null) return;
      n++;
      const y = x - c;
      const t = sum + y;
      c = (t - sum) - y;
      sum = t;
    },
    result: () => (n === 0 ? null : finite(sum)),
  };
}

/** Neumaier-compensated sum (Kahan that also handles terms larger than the running sum). */
function neumaier(): Accumulator {
  let sum = 0, c = 0, n = 0;
  return {
    add: ([v]) => {
      const x = num(v);
      if (x === null) return;
      n++;
      const t = sum + x;
      c += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
    },
    result: () => (n === 0 ? null : finite(sum + c)),
  };
}

type VarianceKind = "var_pop" | "var_samp" | "stddev_pop" | "stddev_samp";

/** Welford variance; sample forms need two values, population forms one (§13.1). */
export function welford(kind: VarianceKind): () => Accumulator {
  const sample = kind === "var_samp" || kind === "stddev_samp";
  const root = kind === "stddev_pop" || kind === "stddev_samp";
  return () => {
    let n = 0, mean = 0, m2 = 0;
    return {
      add: ([v]) => {
        const x = num(v);
        if (x === null) return;
        n++;
        const old = mean;
        mean += (x - mean) / n;
        m2 += (x - mean) * (x - old);
      },
      result: () => {
        if (n === 0 || (sample && n < 2)) return null;
        const variance = m2 / (sample ? n - 1 : n);
        return finite(root ? Math.sqrt(variance) : variance);
      },
    };
  };
}

/** Streaming means and co-moments of (y, x) pairs: corr and covar_* here, regr_* in aggregate_regression.ts. */
export class CoMoments {
  n = 0;
  meanX = 0;
  meanY = 0;
  sxy = 0;
  sxx = 0;
  syy = 0;

  add(y: number, x: number): void {
    this.n++;
    const dx = x - this.meanX;
    const oldY = this.meanY;
    this.meanX += dx / this.n;
    this.meanY += (y - this.meanY) / this.n;
    this.sxy += dx * (y - this.meanY);
    this.sxx += dx * (x - this.meanX);
    this.syy += (y - oldY) * (y - this.meanY);
  }
}

type CoKind = "covar_pop" | "covar_samp" | "corr";

/** Co-moment of pairs (y, x) with a NULL in either skipped; corr is NULL when a variance is 0. */
function comoment(kind: CoKind): () => Accumulator {
  return () => {
    const m = new CoMoments();
    return {
      add: ([yv, xv]) => {
        const y = num(yv), x = num(xv);
        if (x === null || y === null) return;
        m.add(y, x);
      },
      result: () => {
        const { n, sxy: c, sxx: m2x, syy: m2y } = m;
        if (kind === "covar_pop") return n === 0 ? null : finite(c / n);
        if (n < 2) return null;
        if (kind === "covar_samp") return finite(c / (n - 1));
        return m2x === 0 || m2y === 0 ? null : finite(c / Math.sqrt(m2x * m2y));
      },
    };
  };
}

/** geomean(x) = exp(avg(ln x)); any x ≤ 0 makes the result NULL (§13.2). */
function geomean(): Accumulator {
  let sumLn = 0, n = 0, invalid = false;
  return {
    add: ([v]) => {
      const x = num(v);
      if (x === null) return;
      if (x <= 0) invalid = true;
      else sumLn += Math.log(x);
      n++;
    },
    result: () => (n === 0 || invalid ? null : finite(Math.exp(sumLn / n))),
  };
}

/** Σ w·v / Σ w over rows with non-NULL v and non-NULL, non-zero w (§13.2). */
function weightedAvg(): Accumulator {
  let sumWv = 0, sumW = 0;
  return {
    add: ([vv, wv]) => {
      const v = num(vv), w = num(wv);
      if (v === null || w === null || w === 0) return;
      sumWv += w * v;
      sumW += w;
    },
    result: () => (sumW === 0 ? null : finite(sumWv / sumW)),
  };
}

/** vwap(price, volume) = Σ p·v / Σ v (unconfirmed signature, §13.2). */
function vwap(): Accumulator {
  let sumPv = 0, sumV = 0;
  return {
    add: ([pv, vv]) => {
      const p = num(pv), v = num(vv);
      if (p === null || v === null) return;
      sumPv += p * v;
      sumV += v;
    },
    result: () => (sumV === 0 ? null : finite(sumPv / sumV)),
  };
}

/**
 * twap(price, ts): each price holds until the next row's timestamp, so
 * Σ p_i·(t_{i+1} − t_i) / (t_n − t_1); when all timestamps are equal, the plain mean (§13.2).
 */
function twap(): Accumulator {
  let first: number | null = null, prevT = 0, prevP = 0, weighted = 0, sum = 0, n = 0;
  return {
    add: ([pv, tv]) => {
      const p = num(pv), t = num(tv);
      if (p === null || t === null) return;
      if (first === null) first = t;
      else weighted += prevP * (t - prevT);
      prevT = t;
      prevP = p;
      sum += p;
      n++;
    },
    result: () => {
      if (first === null) return null;
      const span = prevT - first;
      return finite(span === 0 ? sum / n : weighted / span);
    },
  };
}

const EARTH_RADIUS_KM = 6371.088;
const DEG_TO_RAD = Math.PI / 180;

/** Great-circle distance in km between two points given in degrees (haversine formula, §13.1). */
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * DEG_TO_RAD, p2 = lat2 * DEG_TO_RAD;
  const dLat = (lat2 - lat1) * DEG_TO_RAD, dLon = (lon2 - lon1) * DEG_TO_RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dLon / 2) ** 2;
  return EARTH_RADIUS_KM * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/**
 * haversine_dist_deg(lat, lon, ts): total distance along the points in scan order; 0.0 with fewer
 * than two points, all-NULL input included (HaversineDistDegreeGroupByFunctionFactoryTest#testAllNull:
 * QuestDB's function starts every group at distance 0).
 */
function haversineDist(): Accumulator {
  let prevLat = 0, prevLon = 0, points = 0, total = 0;
  return {
    add: ([la, lo]) => {
      const lat = num(la), lon = num(lo);
      if (lat === null || lon === null) return;
      if (points > 0) total += haversineKm(prevLat, prevLon, lat, lon);
      prevLat = lat;
      prevLon = lon;
      points++;
    },
    result: () => finite(total),
  };
}

/** The aggregates of this file. */
export const STATS_AGGREGATES: AggregateFunction[] = [
  doubleAggregate("ksum", 1, kahan),
  doubleAggregate("nsum", 1, neumaier),
  doubleAggregate("stddev", 1, welford("stddev_samp")),
  doubleAggregate("stddev_samp", 1, welford("stddev_samp")),
  doubleAggregate("stddev_pop", 1, welford("stddev_pop")),
  doubleAggregate("variance", 1, welford("var_samp")),
  doubleAggregate("var_samp", 1, welford("var_samp")),
  doubleAggregate("var_pop", 1, welford("var_pop")),
  doubleAggregate("covar_pop", 2, comoment("covar_pop")),
  doubleAggregate("covar_samp", 2, comoment("covar_samp")),
  doubleAggregate("corr", 2, comoment("corr")),
  doubleAggregate("geomean", 1, geomean),
  doubleAggregate("weighted_avg", 2, weightedAvg),
  doubleAggregate("vwap", 2, vwap),
  doubleAggregate("twap", 2, twap, 1),
  doubleAggregate("haversine_dist_deg", 3, haversineDist, 2),
];
