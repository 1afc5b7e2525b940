/**
 * Statements that operate the server rather than the data: CANCEL QUERY (engine/activity.ts),
 * CHECKPOINT CREATE | RELEASE and BACKUP TABLE | DATABASE (spec/sql.md §5.5).
 */
import type { BackupStmt, CancelQueryStmt, CheckpointStmt } from "./ast.ts";
import type { ParseState } from "./parse_state.ts";

/** `CANCEL QUERY id`; a negative id parses so that the engine can say why it is refused. */
export function parseCancelQuery(p: ParseState): CancelQueryStmt {
  const kw = p.next();
  p.expectWord("query");
  const idPos = p.peek().pos;
  const negative = p.acceptOp("-") !== undefined;
  const { value } = p.integer("query id");
  return { kind: "cancelQuery", pos: kw.pos, id: negative ? -value : value, idPos };
}

/**
 * `CHECKPOINT CREATE | RELEASE`, and the legacy `SNAPSHOT PREPARE | COMPLETE` spelling of the
 * same two actions. Both words are QuestDB keyword statements (SqlCompilerImpl
 * #compileCheckpoint / #compileLegacyCheckpoint): anything else after them is
 * `'create' or 'release' expected` (`'prepare' or 'complete'`) at that token or at the end.
 */
export function parseCheckpoint(p: ParseState): CheckpointStmt {
  const kw = p.next();
  const legacy = kw.text.toLowerCase() === "snapshot";
  const [open, close] = legacy ? ["prepare", "complete"] : ["create", "release"];
  const word = p.wordAt();
  if (word !== open && word !== close) throw p.expected(`'${open}' or '${close}'`);
  p.next();
  return { kind: "checkpoint", pos: kw.pos, action: word === open ? "create" : "release" };
}

/** `BACKUP TABLE t [, t2 ...]` or `BACKUP DATABASE` (the OSS form of §5.5). */
export function parseBackup(p: ParseState): BackupStmt {
  const kw = p.next();
  if (p.acceptWord("database")) return { kind: "backup", pos: kw.pos };
  if (!p.acceptWord("table")) throw p.expected("'table', 'materialized view' or 'database'");
  const tables = [p.tableName()];
  while (p.acceptOp(",")) tables.push(p.tableName());
  return { kind: "backup", pos: kw.pos, tables };
}
