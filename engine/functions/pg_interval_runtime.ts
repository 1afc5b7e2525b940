/**
 * PostgreSQL intervals known only when the query runs (issue #23): `ts > now() - $1::interval`
 * with the parameter '5 minutes' (Grafana and Metabase bind relative ranges so), `ts +
 * col::interval`, and `interval '1 hour' * qty` scaled by a column or a parameter. The parser
 * (engine/sql/pg_interval.ts) folds literals itself and leaves these to two functions:
 *
 * - pg_interval_add(ts, text, sign): ts plus (sign 1) or minus (sign -1) the PostgreSQL interval
 *   text, months first (day clamped to the month), then days, then time, as PostgreSQL adds them;
 *   text that is no interval is an error at the interval, NULL stays NULL.
 * - pg_interval_scale(text, factor): the interval text times a number (a number's text too, as
 *   an untyped parameter arrives), fractions spilling down as in PostgreSQL, as interval text.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import { parsePgDuration, type PgDuration, scaleDuration } from "../sql/pg_interval.ts";
import { addMonths, TICKS_PER_DAY, TICKS_PER_SECOND } from "./datetime_calendar.ts";
import { fn, isIntArg, isTextArg, noMatch, timeArg } from "./datetime_args.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

function duration(text: string, pos: number): PgDuration {
  const d = parsePgDuration(text);
  if (!d) {
    throw new SqlError(
      `invalid interval: '${text}' (expected PostgreSQL interval text such as '5 minutes')`,
      pos,
    );
  }
  return d;
}

function bindAdd(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !isTextArg(args[1]) || !isIntArg(args[2])) return noMatch("pg_interval_add", args);
  const ta = timeArg(args[0]);
  if (!ta || isTextArg(args[0])) return noMatch("pg_interval_add", args);
  const unit = ta.unit;
  // A DATE arrives as TIMESTAMP (argTypes): ticks are µs or ns.
  const perMicro = TICKS_PER_SECOND[unit] / 1_000_000n;
  return {
    returns: ta.type,
    argTypes: [ta.type, args[1].type, args[2].type],
    eval: ([t, text, sign]) => {
      if (t === null || text === null || sign === null) return null;
      const d = duration(String(text), args[1].pos);
      const s = Number(sign) < 0 ? -1 : 1;
      let x = addMonths(t as bigint, s * d.months, unit);
      x += BigInt(s * d.days) * TICKS_PER_DAY[unit];
      return x + BigInt(s) * d.micros * perMicro;
    },
  };
}

function bindScale(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0])) return noMatch("pg_interval_scale", args);
  return {
    returns: T.STRING,
    eval: ([text, factor]) => {
      if (text === null || factor === null) return null;
      const n = Number(factor);
      if (!Number.isFinite(n)) {
        throw new SqlError(`invalid number to scale an interval by: '${factor}'`, args[1].pos);
      }
      return scaleDuration(duration(String(text), args[0].pos), n);
    },
  };
}

export const PG_INTERVAL_FUNCTIONS: ScalarFunction[] = [
  fn("pg_interval_add", bindAdd),
  fn("pg_interval_scale", bindScale),
];
