/**
 * The exponential moving averages of window-functions/reference.md over one partition in ORDER
 * BY order: `avg(value, kind, param) OVER (...)` (EMA) and `avg(value, kind, param, volume)`
 * (VWEMA), planned as the `ema` call (plan_window.ts emaArgs). The frame clause does not apply:
 * each row's result folds every earlier row of its partition.
 *
 * - EMA: the first non-NULL value starts it; then EMA = α·x + (1 − α)·EMA. A NULL value keeps
 *   the previous EMA (NULL before the first value).
 * - VWEMA: numerator = α·x·v + (1 − α)·numerator, denominator = α·v + (1 − α)·denominator,
 *   result numerator / denominator; rows with a NULL or infinite value or volume, or a volume
 *   not above zero, are skipped.
 * - α is the 'alpha' parameter, 2 / (N + 1) for 'period', 1 − exp(−Δt / τ) for a time unit,
 *   Δt being the time since the previous row, skipped rows included; a row at the previous
 *   row's time (Δt = 0) takes α = 1 (EmaWindowFunctionTest#testEmaSameTimestamps,
 *   VwemaWindowFunctionTest#testVwemaTimeWeightedPartitionInvalidAfterValid). τ is the
 *   parameter's whole number of units.
 */
import type { Value } from "../base/values.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import type { PartitionInput } from "./window_functions.ts";

/** Time units of a time-weighted EMA's τ, in microseconds. */
export const EMA_UNITS: Record<string, bigint> = {
  microsecond: 1n,
  millisecond: 1_000n,
  second: 1_000_000n,
  minute: 60_000_000n,
  hour: 3_600_000_000n,
  day: 86_400_000_000n,
  week: 604_800_000_000n,
};

const num = (v: Value): number | null => (v === null || v === undefined ? null : Number(v));

/** Event-loop turns between rows of a large partition (window_functions.ts Turns). */
interface Pace {
  due(): boolean;
  turn(): Promise<void>;
}

export async function emaPartition(w: WindowCall, rows: number[], p: PartitionInput, t: Pace): Promise<void> {
  const [xs, , , vols] = p.args;
  const kind = (w.args[1] as { value: Value }).value as string;
  const param = Number((w.args[2] as { value: Value }).value);
  // τ in the ORDER BY timestamp's ticks (nanoseconds for TIMESTAMP_NS).
  const unit = EMA_UNITS[kind];
  const ns = w.orderBy[0]?.expr.type.tag === "TIMESTAMP_NS";
  const tau = unit === undefined ? 0 : Math.trunc(param) * Number(unit) * (ns ? 1000 : 1);
  const fixedAlpha = kind === "alpha" ? param : kind === "period" ? 2 / (param + 1) : undefined;
  let num0: number | null = null, den = 0, lastTs: number | null = null;
  for (const r of rows) {
    if (t.due()) await t.turn();
    const x = num(xs[r]);
    const v = vols ? num(vols[r]) : 1;
    const ts = unit !== undefined ? num(p.order?.[r] ?? null) : null;
    const usable = x !== null && Number.isFinite(x) && v !== null && Number.isFinite(v) &&
      (!vols || v > 0) && (unit === undefined || ts !== null);
    if (usable && num0 === null) {
      num0 = vols ? x * v : x;
      den = vols ? v : 1;
    } else if (usable) {
      let alpha = fixedAlpha;
      if (alpha === undefined) {
        const dt = (ts as number) - (lastTs ?? (ts as number));
        alpha = dt > 0 ? 1 - Math.exp(-dt / tau) : 1;
      }
      num0 = alpha * (vols ? x * v : x) + (1 - alpha) * num0!;
      den = vols ? alpha * v + (1 - alpha) * den : 1;
    }
    if (ts !== null) lastTs = ts;
    p.out[r] = num0 === null ? null : vols ? (den === 0 ? null : num0 / den) : num0;
  }
}
