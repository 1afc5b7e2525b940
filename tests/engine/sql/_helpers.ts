/**
 * Small helpers shared by the SQL front-end tests: parse one statement or expression, strip
 * positions from trees, and capture the SqlError a call throws.
 */
import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import type { Expr, Query, SelectCore, Statement } from "../../../engine/sql/ast.ts";
import { parseStatement } from "../../../engine/sql/parser.ts";

/** The tree without `pos` and `*Pos` fields, for comparing trees from different texts. */
export function stripPositions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripPositions);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== "pos" && !k.endsWith("Pos")) out[k] = stripPositions(x);
    return out;
  }
  return v;
}

/** Parses a query statement and returns it. */
export function query(sql: string): Query {
  const s = parseStatement(sql);
  assert.equal(s.kind, "query");
  return s as Query;
}

/** The SELECT block of a query whose body is one SELECT block. */
export function select(sql: string): SelectCore {
  const q = query(sql);
  assert.equal(q.body.kind, "select");
  return q.body as SelectCore;
}

/** Parses `SELECT <text>` and returns the first item's expression. */
export function expr(text: string): Expr {
  return select(`SELECT ${text}`).items![0].expr;
}

/** The SqlError thrown by `fn`; fails when nothing or something else is thrown. */
export function sqlError(fn: () => unknown): SqlError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SqlError, `expected SqlError, got ${e}`);
    return e;
  }
  assert.fail("expected an error");
}

/** The error of parsing `sql` as one statement. */
export function parseError(sql: string): SqlError {
  return sqlError(() => parseStatement(sql));
}

/** Narrows a statement to a kind, failing the test otherwise. */
export function as<K extends Statement["kind"]>(s: Statement, kind: K): Extract<Statement, { kind: K }> {
  assert.equal(s.kind, kind);
  return s as Extract<Statement, { kind: K }>;
}
