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
 * - `depth_chart(bids[], asks[] [, width])` and `depth_chart_labels(...)`: as QuestDB's
 *   DepthChartFunctionFactory, the cumulative volumes of each side (bids right to left, a `╎`,
 *   asks left to right) as `▁`…`█` of their log1p between the smallest and largest of both sides.
 *   A width (at least 3) splits into width / 2 ask and the rest less one bid characters: a longer
 *   side is averaged in equal buckets, a shorter one padded with zero depth at its far end. NULL
 *   or empty arrays → NULL; a negative or non-finite volume (or running total) is an error at its
 *   array. The labels form appends ` bb:<best bid> ba:<best ask> tb:<bid total> ta:<ask total>`.
 * - `ohlc_bar(open, high, low, close, min, max [, width = 40])` and `ohlc_bar_labels(...)`: as
 *   QuestDB's OhlcBarFunctionFactory, each price at round((price − min) / (max − min) · (width − 1))
 *   (the middle when min = max), `⠀` outside low..high, `─` wick, the open..close body `█` when
 *   close >= open else `░`, a single `│` when open = close. NULL when a price is NULL; low > high,
 *   a NULL bound and min > max are errors (the page names no text or position: these are ours,
 *   at the offending argument). The labels form appends ` O:<open> H:<high> L:<low> C:<close>`.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { DoubleArray } from "../base/double_array.ts";
import { formatDouble } from "./double_format.ts";
import type { Value } from "../base/values.ts";
import { aggregate, isIntArg, isNullType, isNumArg, noMatch, scalar, toDouble } from "./_util.ts";
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

/**
 * One side's cumulative volumes in `chars` slots: one a level (zero-padded past the last) when
 * the side fits, else the mean of the running totals in each of `chars` equal buckets.
 */
function cumulativeDepth(
  name: string,
  vols: Float64Array,
  chars: number,
  pos: number,
): { out: number[]; total: number } {
  const bad = () => new SqlError(`${name}() volume must be finite and non-negative`, pos);
  const cum = new Array<number>(vols.length);
  let sum = 0;
  for (let i = 0; i < vols.length; i++) {
    const v = vols[i];
    if (!Number.isFinite(v) || v < 0) throw bad();
    sum += v;
    if (!Number.isFinite(sum)) throw bad();
    cum[i] = sum;
  }
  if (chars >= vols.length) {
    return { out: [...cum, ...new Array<number>(chars - vols.length).fill(0)], total: sum };
  }
  const out = new Array<number>(chars);
  for (let j = 0; j < chars; j++) {
    const from = Math.trunc(j * vols.length / chars), to = Math.trunc((j + 1) * vols.length / chars);
    let s = 0;
    for (let i = from; i < to; i++) s += cum[i];
    out[j] = s / (to - from);
  }
  return { out, total: sum };
}

/** sparkChar, except that a flat chart of zero depth is all lowest blocks. */
function depthChar(v: number, min: number, range: number): string {
  return range === 0 && !(min > 0) ? SPARK_CHARS[0] : sparkChar(v, min, range);
}

function bindDepthChart(name: string, labels: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 2 && args.length !== 3) return noMatch(name, args);
    for (const a of args.slice(0, 2)) {
      if (a.type.tag !== "ARRAY" && !isNullType(a.type)) return noMatch(name, args);
      if (a.type.tag === "ARRAY" && a.type.dims !== 1) {
        throw new SqlError("not a one-dimensional array", a.pos);
      }
    }
    if (args.length === 3 && !isIntArg(args[2].type)) return noMatch(name, args);
    const [bidPos, askPos] = [args[0].pos, args[1].pos];
    const widthPos = args.length === 3 ? args[2].pos : bidPos;
    return {
      returns: T.VARCHAR,
      eval: ([b, a, w]) => {
        if (b === null || a === null) return null;
        const bids = (b as DoubleArray).data, asks = (a as DoubleArray).data;
        if (bids.length === 0 || asks.length === 0) return null;
        let bidChars = bids.length, askChars = asks.length;
        if (args.length === 3) {
          const width = w === null ? 0 : Number(w);
          if (width < 3) throw new SqlError("width must be at least 3", widthPos);
          if (width > MAX_CHARS) {
            throw new SqlError(
              `breached memory limit set for ${name} [maxWidth=${MAX_CHARS}, requestedWidth=${width}]`,
              widthPos,
            );
          }
          askChars = Math.trunc(width / 2);
          bidChars = width - 1 - askChars;
        } else if (bidChars + 1 + askChars > MAX_CHARS) {
          throw new SqlError(
            `breached memory limit set for ${name} [maxWidth=${MAX_CHARS}, actualWidth=${
              bidChars + 1 + askChars
            }]`,
            bidPos,
          );
        }
        const bid = cumulativeDepth(name, bids, bidChars, bidPos);
        const ask = cumulativeDepth(name, asks, askChars, askPos);
        const logs = [bid.out.map(Math.log1p), ask.out.map(Math.log1p)];
        let min = Infinity, max = -Infinity;
        for (const v of [...logs[0], ...logs[1]]) {
          if (v < min) min = v;
          if (v > max) max = v;
        }
        const range = max - min;
        let s = "";
        for (let i = bidChars - 1; i >= 0; i--) s += depthChar(logs[0][i], min, range);
        s += "╎";
        for (const v of logs[1]) s += depthChar(v, min, range);
        if (labels) {
          s += ` bb:${formatDouble(bids[0])} ba:${formatDouble(asks[0])} tb:${formatDouble(bid.total)} ta:${
            formatDouble(ask.total)
          }`;
        }
        return s;
      },
    };
  };
}

function ohlcPosition(v: number, min: number, range: number, width: number): number {
  if (range === 0) return Math.trunc(width / 2);
  return Math.max(0, Math.min(width - 1, Math.floor((v - min) / range * (width - 1) + 0.5)));
}

function bindOhlcBar(name: string, labels: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 6 && args.length !== 7) return noMatch(name, args);
    if (!args.slice(0, 6).every((a) => isNumArg(a.type)) || (args.length === 7 && !isIntArg(args[6].type))) {
      return noMatch(name, args);
    }
    const minPos = args[4].pos, widthPos = args.length === 7 ? args[6].pos : 0;
    // Labels take up to 120 bytes of QuestDB's string buffer.
    const maxWidth = labels ? Math.max(1, Math.trunc((MAX_CHARS * 3 - 120) / 3)) : MAX_CHARS;
    return {
      returns: T.VARCHAR,
      eval: (vals) => {
        const [open, high, low, close, min, max] = vals.slice(0, 6).map((x) => toDouble(x) ?? NaN);
        if ([open, high, low, close].some(Number.isNaN)) return null;
        // The page's validation order (visualization.md): NULL prices, low > high, NULL bounds, min > max.
        if (low > high) {
          throw new SqlError(
            `${name}() low must not exceed high [low=${formatDouble(low)}, high=${formatDouble(high)}]`,
            args[2].pos,
          );
        }
        if (Number.isNaN(min) || Number.isNaN(max)) {
          throw new SqlError(
            `${name}() min and max must not be null`,
            Number.isNaN(min) ? minPos : args[5].pos,
          );
        }
        if (min > max) {
          throw new SqlError(
            `${name}() min must not exceed max [min=${formatDouble(min)}, max=${formatDouble(max)}]`,
            minPos,
          );
        }
        let width = 40;
        if (args.length === 7) {
          width = vals[6] === null ? 0 : Number(vals[6]);
          if (width < 1) throw new SqlError("width must be a positive integer", widthPos);
        }
        if (width > maxWidth) {
          throw new SqlError(
            `breached memory limit set for ${name} [maxWidth=${maxWidth}, requestedWidth=${width}]`,
            widthPos,
          );
        }
        return renderOhlc([open, high, low, close], min, max, width, labels, open === close);
      },
    };
  };
}

/**
 * The candle of [open, high, low, close] between min and max in `width` characters, each price
 * at its ohlcPosition: `⠀` outside low..high, `─` wick, the open..close body `█` (close >= open)
 * or `░`, `│` at the body's start for a doji; the labels form appends the four prices.
 */
function renderOhlc(
  prices: number[],
  min: number,
  max: number,
  width: number,
  labels: boolean,
  doji: boolean,
): string {
  const [open, high, low, close] = prices;
  const range = max - min;
  const [lowPos, highPos, openPos, closePos] = [low, high, open, close].map((v) =>
    ohlcPosition(v, min, range, width)
  );
  const [from, to] = [Math.min(openPos, closePos), Math.max(openPos, closePos)];
  let s = "";
  for (let i = 0; i < width; i++) {
    if (i < lowPos || i > highPos) s += "\u2800";
    else if (doji && i === from) s += "│";
    else if (i >= from && i <= to) s += close >= open ? "█" : "░";
    else s += "─";
  }
  if (labels) {
    s += ` O:${formatDouble(open)} H:${formatDouble(high)} L:${formatDouble(low)} C:${formatDouble(close)}`;
  }
  return s;
}

/** Calls of ohlc_bar with more arguments than this are the scalar form (open, high, low, close, ...). */
export const OHLC_AGGREGATE_ARITY_MAX = 4;

/**
 * `ohlc_bar(price, min, max [, width])` and `ohlc_bar_labels(...)` as aggregates, QuestDB's
 * OhlcBarGroupByFunction: open and close are the group's first and last non-NULL prices in row
 * order, low and high their extremes. The bounds are read on every row (a column or a lateral
 * join's may vary): a NULL bound or min > max is an error at the bound, and the candle is drawn
 * between the smallest min and the largest max seen. A doji is an open and close on the same
 * character. No price → NULL.
 */
function bindOhlcBarAggregate(name: string, labels: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 3 && args.length !== 4) return noMatch(name, args);
    if (!args.slice(0, 3).every((a) => isNumArg(a.type)) || (args.length === 4 && !isIntArg(args[3].type))) {
      return noMatch(name, args);
    }
    const [, minArg, maxArg, widthArg] = args;
    let width = 40;
    if (widthArg) {
      const w = constNum(widthArg);
      if (w === undefined) return `${name}() width must be a constant`;
      if (!(w >= 1)) throw new SqlError("width must be a positive integer", widthArg.pos);
      width = Math.trunc(w);
    }
    const maxWidth = labels ? Math.max(1, Math.trunc((MAX_CHARS * 3 - 120) / 3)) : MAX_CHARS;
    if (width > maxWidth) {
      throw new SqlError(
        `breached memory limit set for ${name} [maxWidth=${maxWidth}, requestedWidth=${width}]`,
        widthArg.pos,
      );
    }
    const checkBounds = (min: number, max: number) => {
      if (Number.isNaN(min) || Number.isNaN(max)) {
        throw new SqlError(
          `${name}() bounds must not be NULL [min=${formatDouble(min)}, max=${formatDouble(max)}]`,
          Number.isNaN(min) ? minArg.pos : maxArg.pos,
        );
      }
      if (min > max) {
        throw new SqlError(
          `${name}() min must not exceed max [min=${formatDouble(min)}, max=${formatDouble(max)}]`,
          minArg.pos,
        );
      }
    };
    return {
      returns: T.VARCHAR,
      create: () => {
        let open = NaN, close = NaN, low = NaN, high = NaN;
        let scaleMin = NaN, scaleMax = NaN;
        return {
          add: ([v, lo, hi]: Value[]) => {
            const min = toDouble(lo) ?? NaN, max = toDouble(hi) ?? NaN;
            checkBounds(min, max);
            if (Number.isNaN(scaleMin) || min < scaleMin) scaleMin = min;
            if (Number.isNaN(scaleMax) || max > scaleMax) scaleMax = max;
            const x = toDouble(v);
            if (x === null || Number.isNaN(x)) return;
            if (Number.isNaN(open)) [open, low, high] = [x, x, x];
            close = x;
            if (x < low) low = x;
            if (x > high) high = x;
          },
          result: () => {
            if (Number.isNaN(open)) return null;
            const range = scaleMax - scaleMin;
            const doji =
              ohlcPosition(open, scaleMin, range, width) === ohlcPosition(close, scaleMin, range, width);
            return renderOhlc([open, high, low, close], scaleMin, scaleMax, width, labels, doji);
          },
        };
      },
    };
  };
}

export const VISUALIZATION_FUNCTIONS: ScalarFunction[] = [
  scalar("ohlc_bar", bindOhlcBar("ohlc_bar", false)),
  scalar("ohlc_bar_labels", bindOhlcBar("ohlc_bar_labels", true)),
  scalar("bar", bindBar),
  scalar("depth_chart", bindDepthChart("depth_chart", false)),
  scalar("depth_chart_labels", bindDepthChart("depth_chart_labels", true)),
];
export const VISUALIZATION_AGGREGATES: AggregateFunction[] = [
  aggregate("sparkline", bindSparkline),
  aggregate("ohlc_bar", bindOhlcBarAggregate("ohlc_bar", false)),
  aggregate("ohlc_bar_labels", bindOhlcBarAggregate("ohlc_bar_labels", true)),
];
