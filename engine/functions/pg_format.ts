/**
 * PostgreSQL's format(pattern, args...) (issue #23: Metabase's field sync builds type names
 * with `format('"%s"."%s"', schema, name)` and relation names with `format('%I.%I', ...)`):
 * `%s` as text (NULL as empty), `%I` quoted as an identifier when it needs to be, `%L` as a
 * literal (NULL as `NULL`), `%%` a percent sign; `%n$` picks argument n. Widths and `*` are
 * refused.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { formatValue } from "./format_value.ts";
import { registerScalar } from "./registry.ts";
import type { ScalarBinding } from "./registry_types.ts";

function quoteIdent(s: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(s) ? s : '"' + s.replaceAll('"', '""') + '"';
}

function format(pattern: string, args: Value[], types: ColumnType[]): string {
  let out = "";
  let next = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c !== "%") {
      out += c;
      continue;
    }
    const m = /^(?:(\d+)\$)?([sIL%])/.exec(pattern.slice(i + 1));
    if (!m) throw new SqlError(`unrecognized format() type specifier "${pattern[i + 1] ?? ""}"`, -1);
    i += m[0].length;
    if (m[2] === "%") {
      out += "%";
      continue;
    }
    const k = m[1] !== undefined ? Number(m[1]) - 1 : next;
    next = k + 1;
    if (k < 0 || k >= args.length) throw new SqlError("too few arguments for format()", -1);
    const v = args[k];
    const text = formatValue(v, types[k]);
    if (m[2] === "s") out += text ?? "";
    else if (m[2] === "L") out += text === null ? "NULL" : "'" + text.replaceAll("'", "''") + "'";
    else if (text === null) throw new SqlError("null values cannot be formatted as an SQL identifier", -1);
    else out += quoteIdent(text);
  }
  return out;
}

function bind(args: { type: ColumnType }[]): ScalarBinding | string {
  if (args.length < 1) return "format expects (pattern [, value ...])";
  const types = args.slice(1).map((a) => a.type);
  return {
    returns: T.STRING,
    eval: ([pattern, ...values]) => (pattern === null ? null : format(String(pattern), values, types)),
  };
}

registerScalar({ name: "format", bind });
registerScalar({ name: "pg_catalog.format", bind });
