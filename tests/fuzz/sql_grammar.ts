/**
 * Grammar-based SQL for the fuzzer: random statements over the fixture tables (FIXTURE_SQL),
 * mostly well-typed so they reach the planner and executor, sometimes deliberately not.
 * Sources stay small (fixture tables, long_sequence up to 1000) so every statement is quick
 * when it is correct; anything slow is then a hang worth reporting.
 */
import type { Rng } from "./prng.ts";

export const FIXTURE_SQL = [
  "CREATE TABLE ft (ts TIMESTAMP, s SYMBOL, v DOUBLE, i INT, l LONG, b BOOLEAN, str STRING, vc VARCHAR, d DATE, " +
  "c CHAR, bt BYTE, sh SHORT, f FLOAT, u UUID, ip IPV4) TIMESTAMP(ts) PARTITION BY DAY",
  "INSERT INTO ft SELECT timestamp_sequence('2024-01-01', 864000000L) ts, rnd_symbol('a','b','c',null) s, " +
  "rnd_double(2) v, rnd_int(-100, 100, 2) i, rnd_long(-1000, 1000, 2) l, rnd_boolean() b, rnd_str(3,6,2) str, " +
  "rnd_varchar(3,6,2) vc, rnd_date() d, rnd_char() c, rnd_byte() bt, rnd_short() sh, rnd_float(2) f, " +
  "rnd_uuid4() u, rnd_ipv4() ip FROM long_sequence(500)",
  "CREATE TABLE fq (ts TIMESTAMP, s SYMBOL, bid DOUBLE) TIMESTAMP(ts) PARTITION BY HOUR",
  "INSERT INTO fq SELECT timestamp_sequence('2024-01-01', 1234567890L) ts, rnd_symbol('a','b','c') s, rnd_double() bid FROM long_sequence(300)",
  "CREATE TABLE fn (k INT, name STRING)",
  "INSERT INTO fn SELECT x::int k, 'n' || x FROM long_sequence(20)",
  "CREATE TABLE fw (ts TIMESTAMP, s SYMBOL, v LONG) TIMESTAMP(ts) PARTITION BY DAY",
];

const NUM_COLS = ["v", "i", "l", "bt", "sh", "f"];
const ALL_COLS = ["ts", "s", "v", "i", "l", "b", "str", "vc", "d", "c", "bt", "sh", "f", "u", "ip"];
const STR_COLS = ["s", "str", "vc"];
const NUM_FNS = ["abs", "round", "floor", "ceil", "sqrt", "ln", "log", "exp", "sign"];
const AGGS = [
  "sum",
  "avg",
  "min",
  "max",
  "count",
  "first",
  "last",
  "stddev_samp",
  "count_distinct",
  "ksum",
  "nsum",
  "var_pop",
];
const STR_FNS = [
  "upper",
  "lower",
  "length",
  "trim",
  "ltrim",
  "rtrim",
  "reverse",
  "left",
  "right",
  "substring",
  "concat",
  "replace",
  "strpos",
];
const TS_FNS = [
  "year",
  "month",
  "day",
  "hour",
  "minute",
  "second",
  "day_of_week",
  "to_str",
  "date_trunc",
  "dateadd",
  "datediff",
  "timestamp_floor",
  "extract",
];
const TYPES = [
  "int",
  "long",
  "double",
  "float",
  "short",
  "byte",
  "string",
  "varchar",
  "symbol",
  "timestamp",
  "date",
  "boolean",
  "char",
  "uuid",
  "ipv4",
  "long256",
  "binary",
];
const UNITS = ["s", "m", "h", "d", "M", "y", "w", "T", "U"];
const LITERALS = [
  "1",
  "0",
  "-1",
  "2.5",
  "1e10",
  "NaN",
  "null",
  "true",
  "false",
  "'a'",
  "'2024-01-02'",
  "''",
  "'x''y'",
  "9223372036854775807",
  "-2147483648",
  "0x1f",
  "'2024-01-01T00:00:00.000000Z'",
  "1_000",
  "$1",
];

export function genStatement(r: Rng): string {
  const k = r.int(100);
  if (k < 70) return genQuery(r, 0);
  if (k < 78) {
    return `INSERT INTO fw ${
      r.chance(0.5)
        ? genValues(r)
        : `SELECT ts, s, l FROM ft ${r.chance(0.5) ? "WHERE " + genBool(r, 1) : ""} LIMIT ${r.int(50)}`
    }`;
  }
  if (k < 84) {
    return `UPDATE fw SET v = ${genNum(r, 1)}${
      r.chance(0.7) ? " WHERE " + genBool(r, 1).replace(/\bi\b/g, "v") : ""
    }`;
  }
  if (k < 88) return `EXPLAIN ${genQuery(r, 0)}`;
  if (k < 92) {
    return r.pick([
      "SHOW TABLES",
      "SHOW COLUMNS FROM ft",
      "SHOW CREATE TABLE fq",
      "tables()",
      "table_columns('ft')",
      "table_partitions('ft')",
      "SELECT * FROM pg_catalog.pg_class",
      "SHOW PARAMETERS",
    ]);
  }
  if (k < 95) {
    return `ALTER TABLE fw ${
      r.pick([
        "ADD COLUMN x" + r.int(5) + " " + r.pick(TYPES),
        "DROP COLUMN x" + r.int(5),
        "DROP PARTITION WHERE ts < '2024-01-0" + (1 + r.int(9)) + "'",
        "ALTER COLUMN s ADD INDEX",
        "RENAME COLUMN x" + r.int(5) + " TO y" + r.int(5),
      ])
    }`;
  }
  return `WITH w AS (${genQuery(r, 1)}) SELECT * FROM w ${r.chance(0.5) ? "LIMIT " + r.int(10) : ""}`;
}

function genValues(r: Rng): string {
  const rows = Array.from(
    { length: 1 + r.int(4) },
    () =>
      `('2024-01-0${1 + r.int(9)}T0${r.int(10)}:00:00Z', ${r.pick(["'a'", "'b'", "null", "'zz'"])}, ${
        r.pick(["1", "-5", "null", "9223372036854775807", "2.5"])
      })`,
  );
  return "VALUES " + rows.join(", ");
}

export function genQuery(r: Rng, depth: number): string {
  const shape = r.int(12);
  if (shape === 0 && depth < 2) {
    return `(${genQuery(r, depth + 1)}) ${r.pick(["UNION", "UNION ALL", "EXCEPT", "INTERSECT"])} (${
      genQuery(r, depth + 1)
    })`;
  }
  if (shape === 1) return genSampleBy(r);
  if (shape === 2) {
    return `SELECT * FROM ft LATEST ON ts PARTITION BY ${r.pick(["s", "s, b", "i"])}${
      r.chance(0.5) ? " WHERE " + genBool(r, 1) : ""
    }`;
  }
  if (shape === 3) return genAsof(r);
  if (shape === 4) return genWindow(r);
  const from = genFrom(r, depth);
  const grouped = r.chance(0.35);
  const cols = grouped
    ? [
      r.pick(["s", "b", "i % 3", "str"]) + " k",
      ...Array.from({ length: 1 + r.int(3) }, () =>
        `${r.pick(AGGS)}(${r.pick(["*", ...NUM_COLS])})`.replace(
          /(count_distinct|ksum|nsum|var_pop|stddev_samp|sum|avg|first|last|min|max)\(\*\)/,
          "$1(v)",
        )),
    ]
    : Array.from(
      { length: 1 + r.int(4) },
      () => r.chance(0.3) ? r.pick(ALL_COLS) : genExpr(r, 2) + (r.chance(0.4) ? ` e${r.int(9)}` : ""),
    );
  let sql = `SELECT ${r.chance(0.08) ? "DISTINCT " : ""}${
    r.chance(0.05) ? "*" : cols.join(", ")
  } FROM ${from}`;
  if (r.chance(0.6)) sql += ` WHERE ${genBool(r, 2)}`;
  if (grouped && r.chance(0.5)) sql += " GROUP BY k";
  if (r.chance(0.4)) {
    sql += ` ORDER BY ${r.pick(["1", "1 DESC", grouped ? "k" : "ts", grouped ? "2 DESC" : "v DESC, i"])}`;
  }
  if (r.chance(0.4)) {
    sql += ` LIMIT ${r.pick([String(r.int(20)), `-${r.int(20)}`, `${r.int(5)}, ${r.int(20)}`])}`;
  }
  return sql;
}

function genFrom(r: Rng, depth: number): string {
  const k = r.int(10);
  if (k < 6) {
    return "ft" +
      (r.chance(0.2)
        ? ` WHERE ts IN '${r.pick(["2024-01-02", "2024-01-01T12;6h", "2024-01", "2024-01-03;2d;1d;3"])}'`
        : "").replace(" WHERE", "");
  }
  if (k === 6 && depth < 2) return `(SELECT * FROM ft WHERE ${genBool(r, 1)}) sub`;
  if (k === 7) return `ft JOIN fn ON ft.i = fn.k`;
  if (k === 8) {
    return `ft ${r.pick(["LEFT JOIN", "CROSS JOIN", "JOIN"])} (SELECT x::int i2 FROM long_sequence(${
      r.int(5)
    })) z${r.chance(0.5) ? " ON i = i2" : ""}`.replace(/CROSS JOIN (.*) ON i = i2/, "CROSS JOIN $1");
  }
  return `ft`;
}

function genSampleBy(r: Rng): string {
  const agg = `${r.pick(["sum", "avg", "min", "max", "first", "last", "count"])}(${
    r.pick(["v", "i", "l", "f"])
  })`;
  let sql = `SELECT ts, ${r.chance(0.5) ? "s, " : ""}${agg} a FROM ${r.pick(["ft", "fq"])}`;
  if (r.chance(0.3)) sql += ` WHERE ts IN '2024-01-0${1 + r.int(5)}'`;
  sql += ` SAMPLE BY ${1 + r.int(12)}${r.pick(UNITS.slice(0, 6))}`;
  if (r.chance(0.4)) sql += ` FILL(${r.pick(["NULL", "PREV", "LINEAR", "NONE", "0", "NULL, PREV"])})`;
  if (r.chance(0.3)) {
    sql += ` ALIGN TO ${
      r.pick([
        "FIRST OBSERVATION",
        "CALENDAR",
        "CALENDAR TIME ZONE 'Europe/Berlin'",
        "CALENDAR WITH OFFSET '00:30'",
      ])
    }`;
  }
  if (r.chance(0.2)) sql += ` FROM '2024-01-01' TO '2024-01-0${2 + r.int(4)}'`;
  return sql;
}

function genAsof(r: Rng): string {
  const kind = r.pick(["ASOF JOIN", "LT JOIN", "SPLICE JOIN", "ASOF JOIN", "LEFT JOIN"]);
  const on = r.chance(0.6) ? " ON (s)" : "";
  return `SELECT ft.ts, ft.s, v, bid FROM ft ${kind} fq${kind === "LEFT JOIN" ? " ON ft.s = fq.s" : on}${
    r.chance(0.3) ? " TOLERANCE 1h" : ""
  } LIMIT ${r.int(30)}`;
}

function genWindow(r: Rng): string {
  const fn = r.pick([
    "row_number()",
    "rank()",
    "dense_rank()",
    "sum(v)",
    "avg(v)",
    "first_value(v)",
    "lag(v)",
    "lead(i, 2)",
    "count(*)",
    "max(l)",
  ]);
  const over = [
    r.chance(0.6) ? "PARTITION BY s" : "",
    r.chance(0.7) ? "ORDER BY ts" : "",
    r.chance(0.3)
      ? r.pick([
        "ROWS BETWEEN 3 PRECEDING AND CURRENT ROW",
        "RANGE BETWEEN 1 hour PRECEDING AND CURRENT ROW",
        "ROWS UNBOUNDED PRECEDING",
      ])
      : "",
  ].filter(Boolean).join(" ");
  return `SELECT ts, s, ${fn} OVER (${over}) w FROM ft${
    r.chance(0.3) ? " WHERE " + genBool(r, 1) : ""
  } LIMIT ${r.int(40)}`;
}

export function genBool(r: Rng, depth: number): string {
  const k = r.int(depth > 0 ? 12 : 6);
  switch (k) {
    case 0:
      return `${r.pick(NUM_COLS)} ${r.pick(["<", ">", "=", "!=", "<=", ">="])} ${genNum(r, 0)}`;
    case 1:
      return `s ${r.pick(["=", "!="])} ${r.pick(["'a'", "'b'", "null", "'zz'"])}`;
    case 2:
      return `ts ${r.pick(["IN", "NOT IN"])} '${
        r.pick(["2024-01-02", "2024-01-01T10:00;2h", "2024", "2024-01-0[1-3]"])
      }'`;
    case 3:
      return `${r.pick(ALL_COLS)} IS ${r.pick(["NULL", "NOT NULL"])}`;
    case 4:
      return r.pick(["b", "NOT b", "true", "false"]);
    case 5:
      return `${r.pick(STR_COLS)} ${r.pick(["LIKE", "ILIKE", "~", "NOT LIKE"])} '${
        r.pick(["a%", "%b%", "_", "[", "(", "\\"])
      }'`;
    case 6:
      return `(${genBool(r, depth - 1)}) ${r.pick(["AND", "OR"])} (${genBool(r, depth - 1)})`;
    case 7:
      return `NOT (${genBool(r, depth - 1)})`;
    case 8:
      return `${r.pick(NUM_COLS)} BETWEEN ${genNum(r, 0)} AND ${genNum(r, 0)}`;
    case 9:
      return `${r.pick(["i", "s", "l"])} IN (${
        Array.from({ length: 1 + r.int(4) }, () => r.pick(LITERALS)).join(", ")
      })`;
    case 10:
      return `i IN (SELECT k FROM fn WHERE k < ${r.int(30)})`;
    default:
      return `ts ${r.pick(["<", ">", ">="])} ${
        r.pick(["'2024-01-03'", "now()", "dateadd('d', -1, now())", "'2024-01-02T12:00:00Z'::timestamp"])
      }`;
  }
}

export function genNum(r: Rng, depth: number): string {
  if (depth <= 0 || r.chance(0.4)) {
    return r.chance(0.5)
      ? r.pick(NUM_COLS)
      : r.pick(["1", "0", "-3", "2.5", "100", "1e300", "NaN", "null", "2147483647"]);
  }
  switch (r.int(5)) {
    case 0:
      return `${genNum(r, depth - 1)} ${r.pick(["+", "-", "*", "/", "%"])} ${genNum(r, depth - 1)}`;
    case 1:
      return `${r.pick(NUM_FNS)}(${genNum(r, depth - 1)})`;
    case 2:
      return `CASE WHEN ${genBool(r, 0)} THEN ${genNum(r, depth - 1)} ELSE ${genNum(r, depth - 1)} END`;
    case 3:
      return `coalesce(${genNum(r, depth - 1)}, ${genNum(r, 0)})`;
    default:
      return `${genNum(r, depth - 1)}::${r.pick(["int", "long", "double", "float", "short"])}`;
  }
}

function genExpr(r: Rng, depth: number): string {
  switch (r.int(6)) {
    case 0:
      return genNum(r, depth);
    case 1:
      return `${r.pick(STR_FNS)}(${r.pick(STR_COLS)}${
        r.chance(0.5) ? ", " + r.pick(["1", "2", "'a'", "-1"]) : ""
      })`;
    case 2:
      return `${r.pick(TS_FNS)}(${r.pick(["ts", "d", "now()"])})`.replace(
        /(to_str|date_trunc|dateadd|datediff|timestamp_floor|extract)\((.*)\)/,
        (_m, f, a) =>
          f === "to_str"
            ? `to_str(${a}, 'yyyy-MM-dd')`
            : f === "date_trunc"
            ? `date_trunc('${r.pick(["day", "hour", "month", "week"])}', ${a})`
            : f === "dateadd"
            ? `dateadd('${r.pick(UNITS)}', ${r.int(10) - 5}, ${a})`
            : f === "datediff"
            ? `datediff('${r.pick(UNITS)}', ${a}, ts)`
            : f === "extract"
            ? `extract(${r.pick(["year", "hour", "epoch", "dow"])} FROM ${a})`
            : `timestamp_floor('${r.pick(UNITS)}', ${a})`,
      );
    case 3:
      return `cast(${r.pick(ALL_COLS)} AS ${r.pick(TYPES)})`;
    case 4:
      return `${r.pick(ALL_COLS)}::${r.pick(TYPES)}`;
    default:
      return genBool(r, 1);
  }
}
