/**
 * A statement prepared with Parse (spec/protocols.md §12.5): its text, tokens and kind, the
 * parameter types the client declared or that were inferred, and its result columns once
 * described. Named statements live until Close or DEALLOCATE; the unnamed one until the next
 * Parse replaces it.
 */
import type { ColumnMeta, ColumnType, Engine, Session, Value } from "../../engine/mod.ts";
import { DoubleArray } from "../../engine/mod.ts";
import { type ColumnLookup, inferParamTypes } from "./param_inference.ts";
import { OID, paramOidOf } from "./pg_types.ts";
import { paramCount, splitStatements } from "./sql_tokens.ts";
import { statementKind } from "./statement_kind.ts";
import type { StatementText } from "./run_statement.ts";

export interface PreparedStatement extends StatementText {
  name: string;
  /** OIDs from Parse (0 = unspecified), padded to the placeholder count. */
  declaredOids: number[];
  /** Effective OID per parameter: declared, else inferred, else varchar. Set on first use. */
  paramOids?: number[];
  /** Inferred dialect types, for describing with typed placeholder values. */
  paramTypes?: (ColumnType | undefined)[];
  /** Result columns (null: the statement returns no rows). Set on first Describe. */
  columns?: ColumnMeta[] | null;
  /**
   * Statements before the last when Parse carried several (`create ...; insert ...`): QuestDB
   * runs them all at Execute, in order, and answers with the last one's result.
   */
  before?: StatementText[];
}

/**
 * Builds a prepared statement from a Parse message. Several statements in one Parse are kept
 * as the last one plus `before` (QuestDB runs them all); placeholders count across them all.
 */
export function prepareStatement(name: string, sql: string, declaredOids: number[]): PreparedStatement {
  const parts = splitStatements(sql);
  const last = parts.at(-1);
  const tokens = last?.tokens ?? [];
  const end = tokens.length ? tokens[tokens.length - 1].pos + tokens[tokens.length - 1].text.length : 0;
  const count = Math.max(...parts.map((p) => paramCount(p.tokens)), declaredOids.length, 0);
  const oids = Array.from({ length: count }, (_, i) => declaredOids[i] ?? 0);
  const text = last ? last.text.slice(0, end) : "";
  const stmt: PreparedStatement = { name, text, tokens, kind: statementKind(tokens), declaredOids: oids };
  if (parts.length > 1) {
    stmt.before = parts.slice(0, -1).map((p) => ({
      text: p.text,
      tokens: p.tokens,
      kind: statementKind(p.tokens),
    }));
  }
  return stmt;
}

/** A column lookup for inference that asks the engine to describe `SELECT * FROM table`. */
export function engineLookup(engine: Engine, session: Session): ColumnLookup {
  return (table) => {
    try {
      const cols = engine.describe(`SELECT * FROM "${table.replaceAll('"', '""')}"`, session);
      return new Map(cols.map((c) => [c.name.toLowerCase(), c.type]));
    } catch {
      return undefined;
    }
  };
}

/**
 * Resolves (once) and returns the effective parameter OIDs: declared by Parse, else typed by
 * the engine's binder from the context (`engineTypes`, Engine.prepare), else guessed from the
 * tokens (param_inference.ts), else varchar.
 */
export function paramOidsOf(
  stmt: PreparedStatement,
  lookup: ColumnLookup,
  engineTypes: () => (ColumnType | undefined)[] = () => [],
): number[] {
  if (!stmt.paramOids) {
    const needs = stmt.declaredOids.some((o) => o === 0);
    const bound = needs ? engineTypes() : [];
    const guessed = needs ? inferParamTypes(stmt.tokens, stmt.declaredOids.length, lookup) : [];
    const inferred = stmt.declaredOids.map((_, i) => bound[i] ?? guessed[i]);
    stmt.paramTypes = inferred;
    stmt.paramOids = stmt.declaredOids.map((o, i) => {
      if (o !== 0) return o;
      const t = inferred[i];
      return t ? paramOidOf(t) : OID.VARCHAR;
    });
  }
  return stmt.paramOids;
}

/** A value of each parameter's type, so the planner can type placeholders while describing. */
export function placeholderValues(oids: number[]): Value[] {
  return oids.map((oid) => {
    switch (oid) {
      case OID.INT2:
      case OID.INT4:
        return 0;
      case OID.INT8:
      case OID.TIMESTAMP:
      case OID.TIMESTAMPTZ:
        return 0n;
      case OID.FLOAT4:
      case OID.FLOAT8:
      case OID.NUMERIC:
        return 0.5;
      case OID.BOOL:
        return false;
      case OID.FLOAT8_ARRAY:
        return DoubleArray.empty(1);
      default:
        return "";
    }
  });
}
