/**
 * PostgreSQL spellings driver and GUI catalog queries use, read by the engine's parser
 * (issue #18; these were text rewrites in server/pg before):
 * - `a OPERATOR(pg_catalog.~) b` is `a ~ b` (psql's \d);
 * - `expr COLLATE [pg_catalog.]name` is `expr` (one collation here);
 * - casts to PostgreSQL's catalog types: `::oid` is INT, `::name`, `::bpchar` and `::"char"`
 *   are VARCHAR (`::text` is the dialect's STRING already), `::pg_catalog.type` drops the
 *   schema, and the vector types `int2vector`/`oidvector` (text here) keep the
 *   value as it is, and so do `regconfig` (text search configurations are their names here);
 * - the parameterless SQL functions written without parentheses: `current_user`,
 *   `session_user`, `current_schema`, `current_catalog` (as current_database());
 * - `x = ANY (array)` (not a subquery) as pg_any_equal(x, array): catalog vectors are text
 *   (pg_index.indkey) and DOUBLE[] values are real arrays; pg_any_equal reads both;
 * - `substring(s FROM a [FOR b])` and `trim([BOTH] 'c' FROM s)` as substring(s, a[, b]) and
 *   btrim(s, 'c').
 */
import type { Expr, FunctionCall, TypeSpec } from "./ast.ts";

/** Dialect type a PostgreSQL catalog type name in a cast stands for; "" keeps the value as is. */
const CAST_TYPES: Record<string, string> = {
  oid: "INT",
  name: "VARCHAR",
  bpchar: "VARCHAR",
  char: "VARCHAR",
  int2vector: "",
  oidvector: "",
  regconfig: "",
};

/** `x::type` for a PostgreSQL catalog type name, or undefined for the dialect's own types. */
export function pgCatalogCast(x: Expr, type: TypeSpec, pos: number): Expr | undefined {
  if (type.arrayDims) return undefined;
  // `::"char"` is quoted (PostgreSQL's one-byte type); a bare `char` is the dialect's CHAR.
  const word = type.text.replaceAll('"', "").replace(/^pg_catalog\./i, "").toLowerCase();
  if (word === "char" && !type.text.startsWith('"')) return undefined;
  const to = CAST_TYPES[word];
  if (to === undefined) return undefined;
  if (to === "") return x;
  return { kind: "cast", pos, expr: x, type: { pos: type.pos, name: to, text: type.text }, syntax: "colon" };
}

/** SQL's parameterless functions, called without parentheses. */
const BARE_FUNCTIONS: Record<string, string> = {
  current_user: "current_user",
  session_user: "session_user",
  current_schema: "current_schema",
  current_catalog: "current_database",
};

/** The call a bare `current_user` (etc.) stands for, or undefined for another name. */
export function bareFunction(name: string, pos: number): FunctionCall | undefined {
  const fn = BARE_FUNCTIONS[name.toLowerCase()];
  if (fn === undefined) return undefined;
  return { kind: "call", pos, name: fn, args: [], distinct: false, star: false };
}

/**
 * `left = ANY (array)` as pg_any_equal(left, array), `left <> ALL (array)` as
 * pg_all_not_equal(left, array) (QuestDB's AllNotEqStrFunctionFactory); undefined otherwise.
 */
export function anyEquals(op: string, left: Expr, right: Expr, pos: number): Expr | undefined {
  if (right.kind !== "call" || right.args.length !== 1 || right.args[0].kind === "subquery") return undefined;
  const fn = right.name.toLowerCase();
  const name = op === "=" && fn === "any"
    ? "pg_any_equal"
    : (op === "<>" || op === "!=") && fn === "all"
    ? "pg_all_not_equal"
    : undefined;
  if (name === undefined) return undefined;
  return {
    kind: "call",
    pos,
    name,
    args: [left, right.args[0]],
    distinct: false,
    star: false,
  };
}
