/**
 * Runs one statement for a connection: the session statements drivers send are answered
 * here (SET, DEALLOCATE, DISCARD, SHOW of a setting, and a clear 0A000 for cursors;
 * spec/protocols.md §12.12), everything else goes to the engine, transaction statements
 * included (they act on the session's Transaction, §12.10).
 * The result is rows to stream or a finished command tag (§12.6).
 */
import {
  type Batch,
  classifyStatement,
  type ColumnMeta,
  CURSOR_MESSAGE,
  type Engine,
  type NoopStmt,
  type ParsedStatement,
  type PreparedStatement,
  type Session,
  showSettingName,
  type StatementKind,
  T,
  type Transaction,
  type Value,
} from "../../engine/mod.ts";
import { type CopySpec, copySpec } from "./copy_statement.ts";
import { showSetting } from "./server_settings.ts";
import { DEFAULT_TIME_ZONE, parseSessionTimeZone, withSessionZone } from "./time_zone.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";

export type StatementResult =
  | {
    kind: "rows";
    columns: ColumnMeta[];
    batches: AsyncIterable<Batch>;
    tag: "SELECT" | "EXPLAIN" | "INSERT 0";
  }
  | { kind: "command"; tag: string };

/**
 * A statement as the wire layer keeps it: its text, and its kind and parse from the engine
 * (engine/script.ts splitScript, classifyStatement); the wire reads no SQL text itself.
 */
export interface StatementText {
  text: string;
  kind: StatementKind;
  /** The engine's parse (a session statement's name and value, a SHOW's setting, COPY's options). */
  statement?: ParsedStatement;
  /** The engine's prepared statement (extended protocol): run without parsing or planning again. */
  prepared?: PreparedStatement;
  /**
   * Run through the engine's query cache (simple query, pg.select.cache.enabled): `text` is
   * the whole script, one query, and `statement` its parse.
   */
  cached?: boolean;
}

/** One statement's text with its kind, as the engine's parser reads it (issue #18). */
export function statementText(text: string): StatementText {
  const { kind, statement } = classifyStatement(text);
  return statement ? { text, kind, statement } : { text, kind };
}

/** What a statement may read and change of its connection. */
export interface ConnectionState {
  engine: Engine;
  /** The connection's transaction (the engine buffers inserts of a block in it, §12.10). */
  transaction: Transaction;
  /** Startup parameters and SET values (lower-case names). */
  settings: Map<string, string>;
  /** DEALLOCATE name / ALL: drops prepared statements. */
  deallocate(name: string | null): void;
  /** Sends ParameterStatus (a SET of a reported setting such as TimeZone). */
  parameterStatus?(name: string, value: string): void;
  /** Runs the COPY sub-protocol (CopyIn/CopyOut messages); returns the command tag. */
  copy?(spec: CopySpec, session: Session): Promise<string>;
}

async function* oneBatch(values: Value[]): AsyncGenerator<Batch> {
  yield { rowCount: 1, columns: values.map((v) => ({ type: T.STRING, data: [v] })) };
}

function constantRow(name: string, value: string): StatementResult {
  return { kind: "rows", columns: [{ name, type: T.STRING }], batches: oneBatch([value]), tag: "SELECT" };
}

/** SET name = value (the engine's parse, NoopStmt): kept in the session's settings. */
function setStatement(state: ConnectionState, stmt: NoopStmt): StatementResult {
  const value = stmt.value ?? "";
  if (stmt.name === "timezone") setTimeZone(state, parseSessionTimeZone(value));
  else if (stmt.name) state.settings.set(stmt.name, value);
  return { kind: "command", tag: "SET" };
}

/** Sets (null: resets) the session zone and tells the client, as Postgres does with ParameterStatus. */
function setTimeZone(state: ConnectionState, zone: string | null): void {
  if (zone === null) state.settings.delete("timezone");
  else state.settings.set("timezone", zone);
  state.parameterStatus?.("TimeZone", zone ?? DEFAULT_TIME_ZONE);
}

/** Executes one statement with bound parameter values. */
export async function runStatement(
  state: ConnectionState,
  stmt: StatementText,
  session: Session,
): Promise<StatementResult> {
  const { kind } = stmt;
  // The statements answered here obey a failed block too; the engine checks its own.
  if (kind !== "commit" && kind !== "rollback") state.transaction.checkNotFailed();
  const noop = stmt.statement?.kind === "noop" ? stmt.statement : undefined;
  switch (kind) {
    case "set":
      if (noop) return setStatement(state, noop);
      break;
    case "deallocate": {
      const all = !noop?.name || noop.name.toLowerCase() === "all";
      state.deallocate(all ? null : noop!.name!);
      return { kind: "command", tag: all ? "DEALLOCATE ALL" : "DEALLOCATE" };
    }
    case "discard": {
      // RESET ALL / RESET TIME ZONE / DISCARD ALL put the session zone back.
      const what = noop?.name?.toLowerCase();
      if ((what === "all" || what === "timezone") && state.settings.has("timezone")) setTimeZone(state, null);
      return { kind: "command", tag: noop?.what === "reset" ? "RESET" : "DISCARD ALL" };
    }
    case "cursor":
      throw new PgError(SQLSTATE.FEATURE_NOT_SUPPORTED, CURSOR_MESSAGE, 0);
    case "copy": {
      if (stmt.statement?.kind !== "copy") break; // does not parse: the engine reports why
      const spec = copySpec(stmt.statement, stmt.text);
      if (!state.copy) throw new PgError(SQLSTATE.FEATURE_NOT_SUPPORTED, "COPY is not supported here", 0);
      return { kind: "command", tag: await state.copy(spec, session) };
    }
    case "show": {
      const setting = wireSetting(stmt, state.settings);
      if (setting) return constantRow(setting[0], setting[1]);
      if (stmt.statement?.kind === "show" && showSettingName(stmt.statement) === "all") {
        throw new PgError(SQLSTATE.FEATURE_NOT_SUPPORTED, "SHOW ALL is not supported", 5);
      }
      break;
    }
  }
  // Parsed once: the engine runs the parse the statement's kind came from.
  const outcome = await state.engine.execute(
    stmt.prepared ?? stmt.text,
    session,
    stmt.statement,
    stmt.cached,
  );
  switch (outcome.kind) {
    case "rows": {
      const zone = state.settings.get("timezone") ?? DEFAULT_TIME_ZONE;
      const columns = withSessionZone(outcome.columns, zone);
      return { kind: "rows", columns, batches: outcome.batches, tag: rowsTag(kind) };
    }
    case "insert":
      return { kind: "command", tag: `INSERT 0 ${outcome.inserted}` };
    case "dml":
      return { kind: "command", tag: `${outcome.command ?? "UPDATE"} ${outcome.updated}` };
    case "ddl":
      // BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE run in the engine's transaction (§12.10).
      return { kind: "command", tag: outcome.command ?? "OK" };
  }
}

/** A SHOW of a session setting, answered here (name, value); undefined for the engine's SHOWs. */
export function wireSetting(
  stmt: StatementText,
  settings: Map<string, string>,
): [string, string] | undefined {
  if (stmt.statement?.kind !== "show") return undefined;
  const name = showSettingName(stmt.statement);
  return name === undefined ? undefined : showSetting(name, settings);
}

/** The command tag before the row count: `INSERT 0 n` for INSERT ... RETURNING (§12.6). */
function rowsTag(kind: StatementKind): "SELECT" | "EXPLAIN" | "INSERT 0" {
  return kind === "explain" ? "EXPLAIN" : kind === "insertReturning" ? "INSERT 0" : "SELECT";
}
