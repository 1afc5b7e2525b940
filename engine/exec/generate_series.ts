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

const UNIT_MICROS: Record<string, bigint> = {
  n: 0n,
  U: 1n,
  u: 1n,
  T: 1_000n,
  s: 1_000_000n,
  m: 60_000_000n,
  h: 3_600_000_000n,
  d: 86_400_000_000n,
  w: 604_800_000_000n,
};

export interface Series {
  type: ColumnType;
  start: number | bigint;
  end: number | bigint;
  step: number | bigint;
}

function asTimestamp(v: Value, pos: number): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(Math.trunc(v));
  const t = typeof v === "string" ? parseTimestamp(v, "us") : undefined;
  if (t === undefined) throw new SqlError(`invalid timestamp [value=${String(v)}]`, pos);
  return t;
}

/** Resolves the arguments (constants, with their types) to a series description. */
export function seriesOf(args: { value: Value; type: ColumnType }[], pos: number): Series {
  if (args.length < 2 || args.length > 3) throw new SqlError("generate_series expects 2 or 3 arguments", pos);
  const [a, b] = args;
  const step = args[2];
  const isTs = [a, b].some((x) =>
    x.type.tag === "TIMESTAMP" || x.type.tag === "STRING" || x.type.tag === "VARCHAR" || x.type.tag === "DATE"
  );
  if (isTs) {
    let s = 1n;
    if (step) {
      if (typeof step.value === "string") {
        const m = /^(-?\d+)([a-zA-Z])$/.exec(step.value.trim());
        if (!m || UNIT_MICROS[m[2]] === undefined || UNIT_MICROS[m[2]] === 0n) {
          throw new SqlError(`invalid step [step=${step.value}]`, pos);
        }
        s = BigInt(m[1]) * UNIT_MICROS[m[2]];
      } else if (step.value !== null) s = BigInt(step.value as number | bigint);
    }
    return { type: T.TIMESTAMP, start: asTimestamp(a.value, pos), end: asTimestamp(b.value, pos), step: s };
  }
  const double = args.some((x) => x.type.tag === "DOUBLE" || x.type.tag === "FLOAT");
  if (double) {
    return {
      type: T.DOUBLE,
      start: Number(a.value),
      end: Number(b.value),
      step: step ? Number(step.value) : 1,
    };
  }
  return {
    type: T.LONG,
    start: BigInt(a.value as number | bigint),
    end: BigInt(b.value as number | bigint),
    step: step ? BigInt(step.value as number | bigint) : 1n,
  };
}

export function* runSeries(s: Series): Generator<Batch> {
  if (s.step === 0 || s.step === 0n) throw new SqlError("generate_series step must not be zero", -1);
  // deno-lint-ignore no-explicit-any
  const lo: any = s.start < s.end ? s.start : s.end, hi: any = s.start < s.end ? s.end : s.start;
  const up = s.step > 0;
  // deno-lint-ignore no-explicit-any
  let cur: any = up ? lo : hi;
  const bigint = typeof cur === "bigint";
  while (up ? cur <= hi : cur >= lo) {
    const n = BATCH_ROWS_MAX;
    const data = bigint ? new BigInt64Array(n) : new Float64Array(n);
    let k = 0;
    while (k < n && (up ? cur <= hi : cur >= lo)) {
      data[k++] = cur;
      cur = cur + s.step;
    }
    yield { rowCount: k, columns: [{ type: s.type, data: data.subarray(0, k) }] };
  }
}
