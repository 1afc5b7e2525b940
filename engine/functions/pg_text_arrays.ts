/**
 * PostgreSQL text arrays, only as far as catalog queries of BI tools need them (issue #23):
 * Grafana's table and column lists split `current_setting('search_path')` with
 * `string_to_array`, walk it with `array_lower`/`array_upper` and `s[i]`, and split a table
 * name with `parse_ident`. The engine's only array type is DOUBLE[] (spec/sql.md §22), so a
 * text array is its PostgreSQL text form, `{a,"b c",NULL}`, in a STRING: what PostgreSQL
 * prints for it on the wire, what the catalog's vector columns already hold, and readable back
 * by `x[i]` (engine/plan/bind_array.ts), array_lower/array_upper/array_length/cardinality and
 * array_to_string. One dimension only; a string that is not such a literal is an error there.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { textOf, toBigInt } from "./_util.ts";
import { registerAggregate, registerScalar } from "./registry.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

/** An element written in an array literal: quoted when PostgreSQL's array_out would quote it. */
function formatElement(e: string | null): string {
  if (e === null) return "NULL";
  if (e === "" || /[{},"\\\s]/.test(e) || e.toUpperCase() === "NULL") {
    return '"' + e.replace(/["\\]/g, (c) => "\\" + c) + '"';
  }
  return e;
}

/** The text form of a one-dimensional text array. */
export function formatTextArray(elements: (string | null)[]): string {
  return "{" + elements.map(formatElement).join(",") + "}";
}

/**
 * The elements of a one-dimensional array literal `{a,"b c",NULL}` (PostgreSQL's array_in
 * rules: double quotes with backslash escapes, unquoted elements trimmed, unquoted NULL).
 */
export function parseTextArray(text: string): (string | null)[] {
  const malformed = () => new SqlError(`malformed array literal: "${text}"`, -1);
  const s = text.trim();
  if (!s.startsWith("{") || !s.endsWith("}")) throw malformed();
  const body = s.slice(1, -1);
  const out: (string | null)[] = [];
  if (body.trim() === "") return out;
  let i = 0;
  for (;;) {
    while (body[i] === " ") i++;
    let element: string | null;
    if (body[i] === '"') {
      let v = "";
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === "\\") i++;
        if (i < body.length) v += body[i++];
      }
      if (i >= body.length) throw malformed();
      i++;
      while (body[i] === " ") i++;
      element = v;
    } else {
      const start = i;
      while (i < body.length && body[i] !== ",") {
        if (body[i] === "{" || body[i] === "}" || body[i] === '"') throw malformed();
        i++;
      }
      const v = body.slice(start, i).trim();
      if (v === "") throw malformed();
      element = v.toUpperCase() === "NULL" ? null : v;
    }
    out.push(element);
    if (i >= body.length) return out;
    if (body[i] !== ",") throw malformed();
    i++;
  }
}

/** `a[n]` of a text array: 1-based, NULL outside the bounds (as PostgreSQL answers). */
export function textArrayElement(text: string, n: number): string | null {
  const elements = parseTextArray(text);
  return n >= 1 && n <= elements.length ? elements[n - 1] : null;
}

const isText = (a: BoundArg) => ["STRING", "VARCHAR", "SYMBOL", "CHAR", "NULL"].includes(a.type.tag);

/** Registers `name` and `pg_catalog.name`. */
function define(name: string, bind: (args: BoundArg[]) => ScalarBinding | string): void {
  registerScalar({ name, bind });
  registerScalar({ name: "pg_catalog." + name, bind });
}

/**
 * PostgreSQL's string_to_array(s, delimiter [, null string]): a NULL delimiter splits into
 * characters, an empty one gives the whole string, an empty string gives an empty array.
 */
function splitToArray(s: string, delimiter: string | null, nullString: string | null): string {
  let parts: string[];
  if (s === "") parts = [];
  else if (delimiter === null) parts = [...s];
  else if (delimiter === "") parts = [s];
  else parts = s.split(delimiter);
  return formatTextArray(parts.map((p) => (nullString !== null && p === nullString ? null : p)));
}

/**
 * PostgreSQL's parse_ident('a."B c".d'): the dotted name's parts, unquoted ones lower-cased.
 * Strict mode (the default) refuses anything after the last part.
 */
function parseIdent(text: string, strict: boolean): string {
  const parts: string[] = [];
  const bad = () => new SqlError(`string is not a valid identifier: "${text}"`, -1);
  let i = 0;
  for (;;) {
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] === '"') {
      let v = "";
      i++;
      for (;;) {
        if (i >= text.length) throw bad();
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        }
        v += text[i++];
      }
      i++;
      if (v === "") throw bad();
      parts.push(v);
    } else {
      const m = /^[\p{L}_][\p{L}\p{N}_$]*/u.exec(text.slice(i));
      if (!m) throw bad();
      parts.push(m[0].toLowerCase());
      i += m[0].length;
    }
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] !== ".") break;
    i++;
  }
  if (strict && i < text.length) throw bad();
  return formatTextArray(parts);
}

/** The elements of a text array argument, for the length functions; dimension 1 only. */
function lengthOf(a: Value, dim: Value): number | null {
  if (a === null || dim === null || Number(toBigInt(dim)) !== 1) return null;
  return parseTextArray(String(a)).length;
}

function registerAll(): void {
  define("string_to_array", (args) => {
    if (args.length < 2 || args.length > 3 || !args.every(isText)) {
      return "string_to_array expects (string, delimiter [, null string])";
    }
    return {
      returns: T.STRING,
      eval: (
        [s, d, n],
      ) => (s === null
        ? null
        : splitToArray(String(s), d === null ? null : String(d), n == null ? null : String(n))),
    };
  });
  define("parse_ident", (args) => {
    if (args.length < 1 || args.length > 2 || !isText(args[0])) {
      return "parse_ident expects (string [, strict])";
    }
    return {
      returns: T.STRING,
      eval: ([s, strict]) => (s === null ? null : parseIdent(String(s), strict !== false)),
    };
  });
  // Bounds and lengths of dimension 1; an empty array and other dimensions have none (NULL).
  const bounds: [string, (n: number) => number | null][] = [
    ["array_lower", (n) => (n === 0 ? null : 1)],
    ["array_upper", (n) => (n === 0 ? null : n)],
    ["array_length", (n) => (n === 0 ? null : n)],
  ];
  for (const [name, answer] of bounds) {
    define(name, (args) => {
      if (args.length !== 2 || !isText(args[0])) return `${name} expects (text array, dimension)`;
      return {
        returns: T.INT,
        eval: ([a, dim]) => {
          const n = lengthOf(a, dim);
          return n === null ? null : answer(n);
        },
      };
    });
  }
  define("cardinality", (args) => {
    if (args.length !== 1 || !isText(args[0])) return "cardinality expects (text array)";
    return { returns: T.INT, eval: ([a]) => (a === null ? null : parseTextArray(String(a)).length) };
  });
}

registerAll();

/**
 * pg_array_agg(x): the values of x, NULLs included, as a text array (`{a,b}`; `{}` over no
 * rows). `ARRAY(subquery)` is read as this aggregate over the subquery (sql/pg_array_subquery.ts):
 * psql's `\du` and `\d` build role and option lists so.
 */
registerAggregate({
  name: "pg_array_agg",
  bind: (args) => {
    if (args.length !== 1) return "pg_array_agg expects one argument";
    const type = args[0].type;
    return {
      returns: T.STRING,
      create: () => {
        const items: (string | null)[] = [];
        return {
          add: ([v]) => void items.push(textOf(v, type)),
          result: () => formatTextArray(items),
        };
      },
    };
  },
});
