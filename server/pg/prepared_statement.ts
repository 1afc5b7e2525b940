/**
 * A statement prepared with Parse (spec/protocols.md §12.5): its text and kind from the
 * engine's parser (the wire answers SET, DEALLOCATE, DISCARD, COPY and setting SHOWs itself), the parameter types
 * the client declared, and the engine's prepared statement (Engine.prepare: parsed once,
 * parameter types inferred by the binder, result columns known without running it, plan
 * reused across executions). Named statements live until Close or DEALLOCATE; the unnamed one
 * until the next Parse replaces it.
 */
import {
  type Engine,
  type PreparedStatement as EnginePrepared,
  type Session,
  splitScript,
} from "../../engine/mod.ts";
import { OID, paramOidOf } from "./pg_types.ts";
import { type StatementText, statementText } from "./run_statement.ts";

export interface PreparedStatement extends StatementText {
  name: string;
  /** OIDs from Parse (0 = unspecified), padded to the placeholder count. */
  declaredOids: number[];
  /** Effective OID per parameter: declared, else inferred by the engine, else varchar. */
  paramOids?: number[];
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
  const parts = splitScript(sql);
  const count = Math.max(...parts.map((p) => p.paramCount), declaredOids.length, 0);
  const oids = Array.from({ length: count }, (_, i) => declaredOids[i] ?? 0);
  const text = (s: { text: string; kind: StatementText["kind"]; statement?: StatementText["statement"] }) =>
    s.statement ? { text: s.text, kind: s.kind, statement: s.statement } : { text: s.text, kind: s.kind };
  const last = parts.at(-1);
  const stmt: PreparedStatement = { name, ...(last ? text(last) : statementText("")), declaredOids: oids };
  if (parts.length > 1) stmt.before = parts.slice(0, -1).map(text);
  return stmt;
}

/** Kinds the wire answers itself (run_statement.ts); everything else is the engine's. */
const WIRE_KINDS = new Set(["set", "deallocate", "discard", "cursor", "copy"]);

/** True when the engine runs the statement (and so prepares it). */
export function forEngine(stmt: StatementText): boolean {
  return stmt.text !== "" && !WIRE_KINDS.has(stmt.kind);
}

/**
 * The engine's prepared statement for `stmt`, made on first use and kept on it (the engine
 * also caches it per connection by text). Undefined for statements the wire answers. After
 * leading statements (several in one Parse) the last may read a table they create: then it
 * is prepared at Execute, after they ran.
 */
export function enginePrepared(
  stmt: StatementText,
  engine: Engine,
  session: Session,
): EnginePrepared | undefined {
  if (!forEngine(stmt)) return undefined;
  if (stmt.prepared && engine.isCurrent(stmt.prepared)) return stmt.prepared;
  stmt.prepared = engine.prepare(stmt.prepared?.sql ?? stmt.text, session);
  return stmt.prepared;
}

/** Resolves (once) and returns the effective parameter OIDs: declared, else inferred, else varchar. */
export function paramOidsOf(stmt: PreparedStatement, inferred: () => EnginePrepared | undefined): number[] {
  if (!stmt.paramOids) {
    const needs = stmt.declaredOids.some((o) => o === 0);
    const types = needs ? inferred()?.paramTypes ?? [] : [];
    stmt.paramOids = stmt.declaredOids.map((o, i) => {
      if (o !== 0) return o;
      const t = types[i];
      return t ? paramOidOf(t) : OID.VARCHAR;
    });
  }
  return stmt.paramOids;
}
