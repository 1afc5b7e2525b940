/**
 * Which per-group state serves each aggregate of the vectorized hash aggregation
 * (hash_aggregate.ts), decided from the plan alone so EXPLAIN can name the aggregates left on
 * row-at-a-time accumulators (`[vectorized hash, row accumulators: string_agg]`).
 */
import type { BoundExpr } from "../../plan/bound.ts";
import type { AggregateCall } from "../../plan/plan_node.ts";
import { isIntegral } from "../../base/types.ts";
import { type NativeFn, nativeFnOf } from "./agg_states.ts";
import { type PickFn, pickFnOf } from "./pick_states.ts";
import { type StatFn, statFnOf } from "./stat_states.ts";
import { type DoubleFn, doubleFnOf } from "./double_states.ts";
import { type CollectFn, collectFnOf } from "./collect_states.ts";
import { sketchBytes } from "../../functions/hyperloglog.ts";
import { type BigSumFn, bigSumFnOf } from "./big_sum_states.ts";
import { type ArrayFn, arrayFnOf } from "./array_states.ts";
import { percentileFraction } from "../../functions/aggregate_quantile.ts";

export type AggKind =
  | { kind: "native"; fn: NativeFn }
  | { kind: "pick"; fn: PickFn }
  | { kind: "stat"; fn: StatFn }
  | { kind: "double"; fn: DoubleFn }
  | {
    kind: "collect";
    fn: CollectFn;
    percentile?: { p: number; digits: number; integers: boolean; nearestRank?: boolean };
    delimiter?: string;
  }
  | { kind: "bigSum"; fn: BigSumFn }
  | { kind: "array"; fn: ArrayFn }
  | { kind: "row" };

/** Whether the call is a DISTINCT aggregate (aggregates.ts marks the binding). */
export function isDistinct(a: AggregateCall): boolean {
  return (a.binding as { distinct?: boolean }).distinct === true;
}

function constNumber(e: BoundExpr | undefined): number | undefined {
  return e?.kind === "const" && e.value !== null ? Number(e.value) : undefined;
}

/**
 * The state kind serving `call` in the hash aggregation. A DISTINCT aggregate other than
 * count(DISTINCT) runs on its plain form's state over the rows that bring a new (group,
 * arguments) pair (`dedupe`: distinct_rows.ts; constant arguments are left out of the tuple).
 */
export function aggKindOf(call: AggregateCall): AggKind & { dedupe?: boolean } {
  const kind = kindOf(call, isDistinct(call));
  if (kind.kind !== "row" || !isDistinct(call) || call.args.length === 0) return kind;
  const plain = kindOf(call, false);
  return plain.kind === "row" ? kind : { ...plain, dedupe: true };
}

function kindOf(call: AggregateCall, distinct: boolean): AggKind {
  const args = call.args;
  const native = nativeFnOf(call.name, args.length === 1 ? args[0].type : undefined, distinct);
  if (native && args.length <= 1) return { kind: "native", fn: native };
  if (call.name === "approx_count_distinct" && !distinct && (args.length === 1 || args[1].kind === "const")) {
    // Integer, IPv4 and time arguments: QuestDB's HyperLogLog++ estimate over each group's
    // distinct values (hyperloglog.ts), the precision in `digits`, 4-byte hashing in `integers`.
    // Other types count exactly, as count_distinct does.
    const bytes = sketchBytes(args[0].type.tag);
    if (!bytes) return { kind: "native", fn: "countDistinct" };
    const digits = args[0].type.tag === "IPV4" || args.length === 1 ? 14 : constNumber(args[1]);
    if (digits === undefined) return { kind: "row" };
    return {
      kind: "collect",
      fn: "approx_count_distinct",
      percentile: { p: 0, digits, integers: bytes === 4 },
    };
  }
  const pick = args.length === 1 ? pickFnOf(call.name, args[0].type, distinct) : undefined;
  if (pick) return { kind: "pick", fn: pick };
  const bigSum = args.length === 1 ? bigSumFnOf(call.name, args[0].type, distinct) : undefined;
  if (bigSum) return { kind: "bigSum", fn: bigSum };
  const array = args.length === 1 ? arrayFnOf(call.name, args[0].type, distinct) : undefined;
  if (array) return { kind: "array", fn: array };
  const tags = args.map((x) => x.type.tag);
  // approx_var_samp is the exact sample variance (aggregate_regression.ts).
  const stat = statFnOf(call.name === "approx_var_samp" ? "var_samp" : call.name, tags, distinct);
  if (stat) return { kind: "stat", fn: stat };
  const dbl = doubleFnOf(call.name, tags, distinct);
  if (dbl) return { kind: "double", fn: dbl };
  const collect = collectFnOf(call.name, args.map((x) => x.type), distinct);
  if (collect === "approx_percentile" || collect === "approx_median") {
    // The binding checked the constants; the batch form reads them as it did.
    const median = collect === "approx_median";
    // An ARRAY of percentiles (a DOUBLE[] result) runs row at a time (aggregate_collect.ts).
    const p = median ? 0.5 : args[1].type.tag === "ARRAY" ? undefined : constNumber(args[1]);
    const precisionAt = median ? 1 : 2;
    const digits = args.length > precisionAt ? constNumber(args[precisionAt]) : 1;
    if (p === undefined || digits === undefined) return { kind: "row" };
    return { kind: "collect", fn: collect, percentile: { p, digits, integers: isIntegral(args[0].type) } };
  }
  if (collect === "quantile_cont" || collect === "quantile_disc") {
    // An ARRAY of percentiles (a DOUBLE[] result) runs row at a time (aggregate_quantile.ts).
    const p = args[1].type.tag === "ARRAY" ? undefined : constNumber(args[1]);
    if (p === undefined) return { kind: "row" };
    return {
      kind: "collect",
      fn: collect,
      // percentile_disc picks index ceil(p * n) - 1, quantile_disc floor(p * (n - 1)) (aggregate_quantile.ts).
      percentile: {
        p: percentileFraction(p),
        digits: 0,
        integers: false,
        nearestRank: call.name.toLowerCase() === "percentile_disc",
      },
    };
  }
  if (collect === "string_agg" || collect === "string_distinct_agg") {
    const d = args[1];
    if (d.kind !== "const" || !(d.value === null || typeof d.value === "string")) return { kind: "row" };
    return { kind: "collect", fn: collect, delimiter: (d.value ?? "") as string };
  }
  if (collect) return { kind: "collect", fn: collect };
  return { kind: "row" };
}

/** The aggregates of `aggs` the hash aggregation feeds to row-at-a-time accumulators. */
export function rowAccumulatorAggs(aggs: AggregateCall[]): string[] {
  return aggs.filter((a) => aggKindOf(a).kind === "row").map((a) => a.name);
}
