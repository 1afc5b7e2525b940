/**
 * Guesses the types of `$n` placeholders from their context, for ParameterDescription and for
 * decoding untyped (OID 0) values (spec/protocols.md §12.5, §12.7: "OID 0 lets the compiler
 * infer"). The engine's binder types placeholders from the values it is given, so the wire
 * layer must decide what a value is before it binds it. Recognised contexts:
 * `$1::type` / `CAST($1 AS type)`, `INSERT INTO t (cols) VALUES ($1, ...)`, `UPDATE t SET c = $1`,
 * `col <op> $1`, `$1 <op> col`, `col IN ($1, ...)`, `col BETWEEN $1 AND $2`, `LIMIT $1`.
 * TODO(#4): replace with the engine's own inference once the binder exposes it.
 */
import { type ColumnType, T } from "../../engine/mod.ts";
import type { SqlToken } from "./sql_tokens.ts";

/** Columns of a table by lower-case name, or undefined when the table is unknown. */
export type ColumnLookup = (table: string) => Map<string, ColumnType> | undefined;

const CAST_TYPES: Record<string, ColumnType> = {
  boolean: T.BOOLEAN,
  bool: T.BOOLEAN,
  byte: T.BYTE,
  short: T.SHORT,
  smallint: T.SHORT,
  int2: T.SHORT,
  int: T.INT,
  integer: T.INT,
  int4: T.INT,
  long: T.LONG,
  bigint: T.LONG,
  int8: T.LONG,
  float: T.FLOAT,
  real: T.FLOAT,
  float4: T.FLOAT,
  double: T.DOUBLE,
  float8: T.DOUBLE,
  numeric: T.DOUBLE,
  decimal: T.DOUBLE,
  timestamp: T.TIMESTAMP,
  timestamptz: T.TIMESTAMP,
  date: T.DATE,
  symbol: T.SYMBOL,
  string: T.STRING,
  text: T.STRING,
  varchar: T.VARCHAR,
  char: T.CHAR,
  uuid: T.UUID,
  binary: T.BINARY,
  bytea: T.BINARY,
  ipv4: T.IPV4,
  long256: T.LONG256,
};

const COMPARISONS = new Set(["=", "==", "<>", "!=", "<", ">", "<=", ">=", "like", "ilike", "~", "!~"]);
const ARITHMETIC = new Set(["+", "-", "*", "/", "%"]);

/** The type of a numeric literal token: LONG for integers, DOUBLE otherwise. */
function literalType(t: SqlToken | undefined): ColumnType | undefined {
  if (t?.kind !== "number") return undefined;
  return /^\d+$/.test(t.text) ? T.LONG : T.DOUBLE;
}

function paramIndex(t: SqlToken | undefined): number {
  return t?.kind === "param" ? Number(t.text.slice(1)) : 0;
}

function isName(t: SqlToken | undefined): boolean {
  return t?.kind === "word" || t?.kind === "quoted";
}

/** Table names after FROM / JOIN / INTO / UPDATE (with an optional schema prefix dropped). */
function referencedTables(tokens: SqlToken[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const w = tokens[i].kind === "word" ? tokens[i].lower : "";
    if (w !== "from" && w !== "join" && w !== "into" && w !== "update") continue;
    let j = i + 1;
    if (!isName(tokens[j])) continue;
    if (tokens[j + 1]?.text === "." && isName(tokens[j + 2])) j += 2;
    out.push(tokens[j].lower);
  }
  return out;
}

/** The column a name token at `i` refers to (the last part of `a.b`), lower case. */
function columnName(tokens: SqlToken[], i: number): string | undefined {
  const t = tokens[i];
  if (!isName(t)) return undefined;
  return t.kind === "quoted" ? t.lower.toLowerCase() : t.lower;
}

function inferInsert(tokens: SqlToken[], lookup: ColumnLookup, out: (ColumnType | undefined)[]): void {
  const into = tokens.findIndex((t) => t.kind === "word" && t.lower === "into");
  if (into < 0 || !isName(tokens[into + 1])) return;
  const table = tokens[into + 1].lower;
  const columns = lookup(table);
  if (!columns) return;
  let i = into + 2;
  let names: string[] = [...columns.keys()];
  if (tokens[i]?.text === "(") {
    names = [];
    for (i++; i < tokens.length && tokens[i].text !== ")"; i++) {
      const n = columnName(tokens, i);
      if (n) names.push(n);
    }
    i++;
  }
  if (tokens[i]?.kind !== "word" || tokens[i].lower !== "values") return;
  let col = 0, depth = 0, start = true;
  for (i++; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === "(") {
      if (depth++ === 0) col = 0;
      start = true;
      continue;
    }
    if (t.text === ")") {
      depth--;
      continue;
    }
    if (depth === 1 && t.text === ",") {
      col++;
      start = true;
      continue;
    }
    const n = paramIndex(t);
    const next = tokens[i + 1]?.text;
    if (depth === 1 && start && n > 0 && (next === "," || next === ")")) {
      out[n - 1] ??= columns.get(names[col] ?? "");
    }
    start = false;
  }
}

/** Infers the types of `count` placeholders; undefined where the context says nothing. */
export function inferParamTypes(
  tokens: SqlToken[],
  count: number,
  lookup: ColumnLookup,
): (ColumnType | undefined)[] {
  const out: (ColumnType | undefined)[] = new Array(count).fill(undefined);
  if (count === 0) return out;
  const set = (n: number, t: ColumnType | undefined) => {
    if (n > 0 && n <= count && t && out[n - 1] === undefined) out[n - 1] = t;
  };
  // Explicit casts win over anything the context suggests.
  for (let i = 0; i < tokens.length; i++) {
    const n = paramIndex(tokens[i]);
    if (n && tokens[i + 1]?.text === "::") set(n, CAST_TYPES[tokens[i + 2]?.lower ?? ""]);
    if (
      n && tokens[i - 1]?.text === "(" && tokens[i - 2]?.lower === "cast" && tokens[i + 1]?.lower === "as"
    ) {
      set(n, CAST_TYPES[tokens[i + 2]?.lower ?? ""]);
    }
  }
  const first = tokens[0]?.lower;
  if (first === "insert") inferInsert(tokens, lookup, out);
  const columns = new Map<string, ColumnType>();
  for (const table of referencedTables(tokens)) {
    for (const [k, v] of lookup(table) ?? []) if (!columns.has(k)) columns.set(k, v);
  }
  for (let i = 0; i < tokens.length; i++) {
    const n = paramIndex(tokens[i]);
    if (!n) continue;
    const prev = tokens[i - 1], next = tokens[i + 1];
    if (prev?.kind === "word" && (prev.lower === "limit" || prev.lower === "offset")) set(n, T.LONG);
    if (prev?.text === "," && tokens[i - 3]?.lower === "limit") set(n, T.LONG);
    if (prev && COMPARISONS.has(prev.lower)) set(n, columns.get(columnName(tokens, i - 2) ?? ""));
    if (next && COMPARISONS.has(next.lower)) set(n, columns.get(columnName(tokens, i + 2) ?? ""));
    // `$1 % 10`, `2 * $1`, `price + $1`: the other operand's type.
    if (prev && (ARITHMETIC.has(prev.text) || COMPARISONS.has(prev.lower))) {
      set(n, literalType(tokens[i - 2]) ?? columns.get(columnName(tokens, i - 2) ?? ""));
    }
    if (next && (ARITHMETIC.has(next.text) || COMPARISONS.has(next.lower))) {
      set(n, literalType(tokens[i + 2]) ?? columns.get(columnName(tokens, i + 2) ?? ""));
    }
    // col IN ($1, $2) and col BETWEEN $1 AND $2: walk back to the column before IN/BETWEEN.
    for (let j = i - 1; j >= 0 && j >= i - 64; j--) {
      const w = tokens[j].lower;
      if (tokens[j].kind === "word" && (w === "in" || w === "between")) {
        set(n, columns.get(columnName(tokens, j - 1) ?? ""));
        break;
      }
      if (!(tokens[j].kind === "param" || tokens[j].text === "," || tokens[j].text === "(" || w === "and")) {
        break;
      }
    }
  }
  return out;
}
