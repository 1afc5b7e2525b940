/**
 * QuestDB's visualization functions (functions/visualization.md), rendered as its
 * BarFunctionFactory and SparklineGroupByFunction render them:
 *
 * - `bar(value, min, max, width)`: VARCHAR of full blocks `█` for the whole part of
 *   (value − min) / (max − min) · width and one of `▏▎▍▌▋▊▉` for the eighths left over; the
 *   value is clamped to [min, max]. NULL when value, min or max is not finite, width < 1 or
 *   min >= max.
 * - `sparkline(value [, min, max, width])`: aggregate, one of `▁▂▃▄▅▆▇█` per non-NULL value in
 *   input order, scaled between min and max (each NULL bound is the values' own extreme); more
 *   values than `width` are averaged in `width` equal buckets. No values → NULL; all equal → `█`.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { aggregate, isIntArg, isNumArg, noMatch, scalar, toDouble } from "./_util.ts";
import type {
  AggregateBinding,
  AggregateFunction,
  BoundArg,
  ScalarBinding,
  ScalarFunction,
} from "./registry_types.ts";

const BAR_CHARS = "▏▎▍▌▋▊▉█";
const SPARK_CHARS = "▁▂▃▄▅▆▇█";
/** QuestDB's cairo.sql.string.function.buffer.max.size (1 MiB) in 3-byte characters. */
const MAX_CHARS = Math.floor(1_048_576 / 3);

function renderBar(value: number, min: number, max: number, width: number): string | null {
  if (!Number.isFinite(value) || !Number.isFinite(min) || !Number.isFinite(max) || width <= 0 || min >= max) {
    return null;
  }
  const filled = (Math.max(min, Math.min(max, value)) - min) / (max - min) * width;
  const whole = Math.trunc(filled);
  let s = BAR_CHARS[7].repeat(whole);
  if (whole < width) {
    const eighths = Math.trunc((filled - whole) * 8);
    if (eighths > 0) s += BAR_CHARS[eighths - 1];
  }
  return s;
}

function bindBar(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 4 || !args.slice(0, 3).every((a) => isNumArg(a.type)) || !isIntArg(args[3].type)) {
    return noMatch("bar", args);
  }
  const widthPos = args[3].pos;
  return {
    returns: T.VARCHAR,
    eval: ([v, lo, hi, w]) => {
      const [value, min, max] = [v, lo, hi].map((x) => toDouble(x) ?? NaN);
      const width = w === null ? 0 : Number(w);
      if (width > MAX_CHARS) {
        throw new SqlError(
          `breached memory limit set for bar(DDDI) [maxWidth=${MAX_CHARS}, requestedWidth=${width}]`,
          widthPos,
        );
      }
      return renderBar(value, min, max, width);
    },
  };
}

function sparkChar(v: number, min: number, range: number): string {
  if (range === 0) return SPARK_CHARS[7];
  const clamped = Math.max(min, Math.min(min + range, v));
  return SPARK_CHARS[Math.min(Math.trunc((clamped - min) / range * 7), 7)];
}

/** The sparkline of `values` (non-empty) between the bounds, at most `width` characters. */
export function renderSparkline(values: number[], userMin: number, userMax: number, width: number): string {
  let min = userMin, max = userMax;
  if (Number.isNaN(min) || Number.isNaN(max)) {
    let lo = values[0], hi = values[0];
    for (const v of values) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (Number.isNaN(min)) min = lo;
    if (Number.isNaN(max)) max = hi;
  }
  const range = max - min;
  if (width >= values.length) return values.map((v) => sparkChar(v, min, range)).join("");
  const bucket = values.length / width;
  let s = "";
  for (let i = 0; i < width; i++) {
    const from = Math.trunc(i * bucket), to = Math.trunc((i + 1) * bucket);
    let sum = 0;
    for (let j = from; j < to; j++) sum += values[j];
    s += sparkChar(sum / (to - from), min, range);
  }
  return s;
}

/** A constant DOUBLE bound (NULL = from the data) or width; undefined when not constant. */
function constNum(a: BoundArg): number | undefined {
  if (!a.constant) return undefined;
  return toDouble(a.value ?? null) ?? NaN;
}

function bindSparkline(args: BoundArg[]): AggregateBinding | string {
  if (args.length !== 1 && args.length !== 4) return noMatch("sparkline", args);
  if (!isNumArg(args[0].type) || !args.slice(1).every((a) => isNumArg(a.type))) {
    return noMatch("sparkline", args);
  }
  let min = NaN, max = NaN, width = Infinity;
  if (args.length === 4) {
    const [lo, hi, w] = args.slice(1).map(constNum);
    if (lo === undefined || hi === undefined || w === undefined) {
      return "sparkline() bounds and width must be constants";
    }
    if (!(w >= 1)) throw new SqlError("width must be a positive integer", args[3].pos);
    if (!Number.isNaN(lo) && !Number.isNaN(hi) && lo > hi) {
      return `sparkline() min must not exceed max [min=${lo}, max=${hi}]`;
    }
    [min, max, width] = [lo, hi, Math.trunc(w)];
  }
  return {
    returns: T.VARCHAR,
    create: () => {
      const values: number[] = [];
      return {
        add: ([v]: Value[]) => {
          const x = toDouble(v);
          if (x === null || Number.isNaN(x)) return;
          if (values.length >= MAX_CHARS) {
            throw new SqlError(`sparkline() result exceeds max size of ${MAX_CHARS * 3} bytes`);
          }
          values.push(x);
        },
        result: () => (values.length === 0 ? null : renderSparkline(values, min, max, width)),
      };
    },
  };
}

export const VISUALIZATION_FUNCTIONS: ScalarFunction[] = [scalar("bar", bindBar)];
export const VISUALIZATION_AGGREGATES: AggregateFunction[] = [aggregate("sparkline", bindSparkline)];
