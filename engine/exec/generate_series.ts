/**
 * generate_series(start, end [, step]) (spec/sql.md §16.1): an inclusive arithmetic series of
 * LONG, DOUBLE or TIMESTAMP values, streamed in batches. A positive step walks up from the
 * smaller bound, a negative one down from the larger bound.
 */
import { SqlError } from "../base/errors.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { type ColumnType, T } from "../base/types.ts";
import type { Batch, Value } from "../base/values.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { timeUnitOf } from "../functions/cast.ts";
import { addMonths, NANOS_PER_TICK, type TimeUnit } from "../functions/datetime_calendar.ts";
import { FIXED_NANOS } from "../functions/datetime_units.ts";
import { hasNanoFraction } from "../functions/datetime_args.ts";

export interface Series {
  type: ColumnType;
  start: number | bigint;
  end: number | bigint;
  /** The step in the result's units; for a calendar step, its sign. */
  step: number | bigint;
  /** A calendar step (`'8M'`, `'-2y'`): months per step, signed. */
  months?: number;
}

/** A series argument: its constant value, type and position in the SQL text. */
export interface SeriesArg {
  value: Value;
  type: ColumnType;
  pos?: number;
}

const ARG_NAMES = ["start", "end", "step"];

/** TIMESTAMP_NS when a bound is one (QuestDB widens to nanoseconds), else TIMESTAMP, DOUBLE or LONG. */
export function seriesType(types: ColumnType[]): ColumnType {
  const [a, b, step] = types;
  const time = (t: ColumnType) => timeUnitOf(t) !== undefined || t.tag === "STRING" || t.tag === "VARCHAR";
  // A period step (text; one letter is a CHAR literal) makes a timestamp series of any bounds.
  if (time(a) || time(b) || (step && (step.tag === "CHAR" || time(step)))) {
    return a.tag === "TIMESTAMP_NS" || b.tag === "TIMESTAMP_NS" ? T.TIMESTAMP_NS : T.TIMESTAMP;
  }
  return types.some((t) => t.tag === "DOUBLE" || t.tag === "FLOAT") ? T.DOUBLE : T.LONG;
}

/** A bound or step as ticks of `unit`: timestamps convert between units, text parses, numbers are ticks. */
function asTicks(arg: SeriesArg, unit: TimeUnit): bigint {
  const from = timeUnitOf(arg.type);
  const v = arg.value;
  if (typeof v === "string") {
    const t = parseTimestamp(v, unit);
    if (t === undefined) throw new SqlError(`invalid timestamp [value=${v}]`, arg.pos ?? -1);
    return t;
  }
  const n = typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
  if (!from || from === unit) return n;
  const ratio = BigInt(NANOS_PER_TICK[from]);
  const per = BigInt(NANOS_PER_TICK[unit]);
  return ratio >= per ? n * (ratio / per) : n / (per / ratio);
}

/**
 * A period step (`'5d'`, `'-2U'`, `'y'`): an optional sign and count and one unit letter, in the
 * result's ticks or as calendar months. QuestDB's errors: `invalid period` for text that is not
 * one, `step cannot be zero` for a zero count.
 */
function periodStep(text: string, unit: TimeUnit, pos: number): { step: bigint; months?: number } {
  const m = /^(-?)(\d*)([yMwdhHmsTUun])$/.exec(text);
  if (!m) throw new SqlError(`invalid period [period=${text}]`, pos);
  const count = BigInt(m[2] === "" ? 1 : m[2]) * (m[1] ? -1n : 1n);
  if (count === 0n) throw new SqlError("step cannot be zero", pos);
  const letter = m[3] === "H" ? "h" : m[3];
  if (letter === "M" || letter === "y") {
    const months = Number(count) * (letter === "y" ? 12 : 1);
    return { step: count < 0n ? -1n : 1n, months };
  }
  const nanos = FIXED_NANOS[letter] * count;
  const per = BigInt(NANOS_PER_TICK[unit]);
  const step = nanos / per;
  if (step === 0n) throw new SqlError("step cannot be zero", pos);
  return { step };
}

/**
 * Resolves the arguments (constants, with their types and positions) to a series description,
 * with QuestDB's errors at the argument they concern.
 */
export function seriesOf(args: SeriesArg[], pos: number): Series {
  if (args.length < 2 || args.length > 3) throw new SqlError("generate_series expects 2 or 3 arguments", pos);
  args.forEach((a, i) => {
    if (a.value === null) {
      throw new SqlError(
        `${ARG_NAMES[i]} argument must be a non-null constant or bind variable constant`,
        a.pos ?? pos,
      );
    }
  });
  const [a, b] = args;
  const step = args[2];
  const stepPos = step?.pos ?? pos;
  // A bound written with nanoseconds makes a TIMESTAMP_NS series (timestamp-generator.md:
  // `generate_series('2025-01-01', '2025-02-01T00:00:00.000000000Z', '1s')`).
  const nanoText = [a, b].some((x) => typeof x.value === "string" && hasNanoFraction(x.value));
  const type = nanoText && seriesType(args.map((x) => x.type)).tag === "TIMESTAMP"
    ? T.TIMESTAMP_NS
    : seriesType(args.map((x) => x.type));
  const unit = timeUnitOf(type);
  if (unit) {
    const period = step && typeof step.value === "string"
      ? periodStep(step.value.trim(), unit, stepPos)
      : undefined;
    const s = period?.step ?? (step ? asTicks(step, unit) : 1n);
    if (s === 0n) throw new SqlError("step cannot be zero", stepPos);
    return { type, start: asTicks(a, unit), end: asTicks(b, unit), step: s, months: period?.months };
  }
  if (type.tag === "DOUBLE") {
    const s = step ? Number(step.value) : 1;
    if (s === 0) throw new SqlError("step cannot be zero", stepPos);
    return { type, start: Number(a.value), end: Number(b.value), step: s };
  }
  const s = step ? BigInt(step.value as number | bigint) : 1n;
  if (s === 0n) throw new SqlError("step cannot be zero", stepPos);
  return {
    type,
    start: BigInt(a.value as number | bigint),
    end: BigInt(b.value as number | bigint),
    step: s,
  };
}

export function* runSeries(s: Series): Generator<Batch> {
  if (s.step === 0 || s.step === 0n) throw new SqlError("step cannot be zero", -1);
  if (typeof s.start === "number") return yield* runDoubleSeries(s.start, s.end as number, s.step as number);
  // deno-lint-ignore no-explicit-any
  const lo: any = s.start < s.end ? s.start : s.end, hi: any = s.start < s.end ? s.end : s.start;
  const up = s.step > 0;
  const first = up ? lo : hi;
  const bigint = typeof first === "bigint";
  // A calendar step counts months from the first value, so day clamping does not drift.
  const unit = timeUnitOf(s.type);
  const at = s.months !== undefined && unit
    ? (k: number) => addMonths(first as bigint, k * s.months!, unit)
    : undefined;
  // deno-lint-ignore no-explicit-any
  let cur: any = first;
  let k = 0;
  while (up ? cur <= hi : cur >= lo) {
    const n = BATCH_ROWS_MAX;
    const data = bigint ? new BigInt64Array(n) : new Float64Array(n);
    let filled = 0;
    while (filled < n && (up ? cur <= hi : cur >= lo)) {
      data[filled++] = cur;
      k++;
      cur = at ? at(k) : cur + s.step;
    }
    yield { rowCount: filled, columns: [{ type: s.type, data: data.subarray(0, filled) }] };
  }
}

/**
 * A DOUBLE series adds the step with Kahan (compensated) summation, as QuestDB's
 * GenerateSeriesDoubleRecordCursorFactory does: `generate_series(1.0, 2.0, 0.1)` reaches 2.0
 * exactly (11 values, not 1.9000000000000008 and 10), and past 2^53, where one addition of a
 * small step is lost to rounding, the carried remainder still moves the series on. It stops at a
 * NaN or infinite value, as QuestDB stops at a NULL double.
 */
function* runDoubleSeries(start: number, end: number, step: number): Generator<Batch> {
  // The bounds swap so that the step walks from one towards the other.
  if ((start <= end && step < 0) || (start >= end && step > 0)) [start, end] = [end, start];
  let cur = start, carry = 0;
  const add = (x: number) => {
    const y = x - carry, t = cur + y;
    carry = t - cur - y;
    cur = t;
  };
  add(-step);
  let done = false;
  while (!done) {
    const data = new Float64Array(BATCH_ROWS_MAX);
    let filled = 0;
    while (filled < BATCH_ROWS_MAX) {
      add(step);
      if (!Number.isFinite(cur) || (step >= 0 ? cur > end : cur < end)) {
        done = true;
        break;
      }
      data[filled++] = cur;
    }
    if (filled > 0) yield { rowCount: filled, columns: [{ type: T.DOUBLE, data: data.subarray(0, filled) }] };
  }
}
