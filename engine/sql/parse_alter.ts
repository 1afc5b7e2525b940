/**
 * ALTER TABLE with every action of spec/sql.md §5.3. QuestDB forms this server does not
 * implement (SET FORMAT, ...) parse as `unsupported`, so the executor can
 * check the table and the permission before failing with "not supported".
 */
import type { AlterAction, AlterTableStmt, ColumnDef, StoragePolicyStage } from "./ast.ts";
import { SqlError, syntaxError } from "../base/errors.ts";
import type { Token } from "./lexer.ts";
import {
  parseColumnDef,
  parseDedupKeys,
  parseParams,
  parseTtl,
  partitionFormat,
  readColumnOptions,
  readIndexType,
} from "./parse_create_table.ts";
import { parseExpr } from "./parse_expr.ts";
import { parseParquetOptions } from "./parse_parquet_options.ts";
import type { NamePos, ParseState } from "./parse_state.ts";
import { parseType } from "./parse_type.ts";

/** The cursor on ALTER; the next word is TABLE. */
export function parseAlterTable(p: ParseState): AlterTableStmt {
  const kw = p.next();
  p.expectWord("table");
  const table = p.tableName();
  return { kind: "alterTable", pos: kw.pos, table, action: parseActionOrDefer(p) };
}

/**
 * QuestDB checks that the table exists before it reads the action (SqlCompilerImpl.alterTable),
 * so `alter table missing <anything>` names the table: a syntax error in the action is kept
 * and raised by the executor once the table is found.
 */
function parseActionOrDefer(p: ParseState): AlterAction {
  const pos = p.peek().pos;
  // ALTER COLUMN names its column before its action: QuestDB reports a missing column first
  // (AlterTableChangeColumnTypeTest#testColumnDoesNotExist: `alter column non_existing` at 27).
  const name = p.isWord("alter") && p.isWord("column", 1) ? p.peek(2) : undefined;
  const column = name && (name.kind === "word" || name.kind === "quoted")
    ? { name: name.value, pos: name.pos }
    : undefined;
  // RENAME COLUMN too: `rename column y yy` is "Invalid column: y" (AlterTableRenameColumnTest#testInvalidColumn).
  const old = p.isWord("rename") && p.isWord("column", 1) ? p.peek(2) : undefined;
  const renamed = old && (old.kind === "word" || old.kind === "quoted")
    ? { name: old.value, pos: old.pos }
    : undefined;
  try {
    return parseAction(p);
  } catch (e) {
    if (!(e instanceof SqlError)) throw e;
    // The statement fails: what follows, even past a `;`, is not read
    // (AlterTableRenameColumnTest#testRenameWithSemicolonHalfWay: `rename column l; to b` is "'to' expected").
    while (p.peek().kind !== "eof") p.next();
    return { kind: "invalid", pos, error: e, ...(column ? { column } : {}), ...(renamed ? { renamed } : {}) };
  }
}

/** QuestDB's error for a word after a complete ALTER COLUMN form. */
function trailingToken(p: ParseState, what: string): SqlError | undefined {
  if (p.atEnd()) return undefined;
  const t = p.peek();
  return syntaxError(`unexpected token [${t.text}] while trying to change ${what}`, t.pos);
}

function parseAction(p: ParseState): AlterAction {
  const t = p.peek();
  const pos = t.pos;
  if (p.acceptWord("add")) {
    p.acceptWord("column");
    // QuestDB AlterTableAddColumnTest: `if exists` is "'not' expected" at `exists`, and
    // `if not <other>` names the token that is not `exists`.
    if (p.isWord("if") && p.isWord("exists", 1)) throw p.expected("'not'", p.peek(1));
    if (p.isWord("if") && p.isWord("not", 1) && !p.isWord("exists", 2)) {
      const t = p.peek(2);
      throw syntaxError(`unexpected token '${t.text}' for if not exists`, t.pos);
    }
    const ifNotExists = p.acceptWords("if", "not", "exists");
    const columns = [parseColumnDef(p)];
    while (p.acceptOp(",")) {
      p.acceptWord("column");
      columns.push(parseColumnDef(p));
    }
    return { kind: "addColumn", pos, columns, ifNotExists };
  }
  if (p.acceptWords("drop", "column")) {
    const list = names(p);
    // Anything after the names, even past a `;`, wants another comma
    // (AlterTableDropColumnTest#testBadSyntax, #testInvalidSeparator).
    const after = p.isOp(";") ? p.peek(1) : p.peek();
    if (after.kind !== "eof") throw syntaxError("',' expected", after.pos);
    return { kind: "dropColumn", pos, names: list };
  }
  // `FORCE DROP PARTITION LIST ...` repairs a table whose partition directory is gone; here it
  // drops like DROP PARTITION LIST (QuestDB AlterTableDropPartitionTest#testForceDropPartitionExpect*).
  if (p.acceptWord("force")) {
    if (!p.acceptWord("drop")) throw p.expected("'drop'");
    if (!p.acceptWord("partition")) throw p.expected("'partition'");
    if (!p.acceptWord("list")) throw p.expected("'list'");
    return { kind: "dropPartition", pos, list: partitionNames(p) };
  }
  if (p.isWord("drop") && p.isWord("partition", 1)) {
    p.next();
    // "table is not partitioned" is reported at PARTITION (AlterTableDropPartitionTest
    // #testDropPartitionsUsingWhereClauseForTableWithoutDesignatedTimestamp).
    const pos = p.next().pos;
    const where = p.acceptWord("where");
    if (where) {
      // AlterTableDropPartitionTest#testDropPartitionWhereExpressionMissing: `where ` alone is
      // reported just past WHERE.
      if (p.atEnd()) throw syntaxError("boolean expression expected", where.end);
      const wherePos = p.peek().pos;
      const expr = parseExpr(p);
      // The condition ends at an unbalanced `)`; QuestDB reads no further
      // (AlterTableDropPartitionTest#testSimpleWhere: `where timestamp < to_timestamp('2020', 'yyyy')) `).
      if (p.isOp(")")) p.restText();
      return { kind: "dropPartition", pos, where: expr, wherePos };
    }
    if (!p.isWord("list")) throw p.expected("'list' or 'where'");
    p.expectWord("list");
    return { kind: "dropPartition", pos, list: partitionNames(p) };
  }
  if (p.acceptWords("convert", "partition")) {
    p.expectWord("to");
    const format = p.acceptWord("parquet")
      ? "parquet"
      : p.acceptWord("native")
      ? "native"
      : p.acceptWord("remote")
      ? "remote"
      : undefined;
    if (!format) throw p.expected("'parquet', 'native' or 'remote'");
    if (p.acceptWord("where")) return { kind: "convertPartition", pos, format, where: parseExpr(p) };
    p.expectWord("list");
    return { kind: "convertPartition", pos, format, list: partitionNames(p) };
  }
  if (p.acceptWords("detach", "partition") || p.acceptWords("attach", "partition")) {
    const kind = t.text.toLowerCase() === "detach" ? "detachPartition" : "attachPartition";
    p.expectWord("list");
    return { kind, pos, list: partitionNames(p) };
  }
  if (p.acceptWords("rename", "column")) {
    const pairs = [];
    do {
      const from = p.anyName("column name");
      p.expectWord("to");
      // `to //`, `to -`: QuestDB AlterTableRenameColumnTest#testRenameColumnWithBadName2..7.
      if (!p.atEnd() && !p.atName()) {
        throw syntaxError("new column name contains invalid characters", p.peek().pos);
      }
      pairs.push({ from, to: p.anyName("new column name") });
    } while (p.acceptOp(","));
    // `to z/ssd`, `to a.`: QuestDB wants the next pair's comma (#testRenameColumnWithBadName, 4),
    // also at a `;` with more text after it (#testRenameWithSemicolonHalfWay2).
    if (!p.atEnd() || (p.isOp(";") && p.peek(1).kind !== "eof")) throw p.expected("','");
    return { kind: "renameColumn", pos, pairs };
  }
  if (p.acceptWords("alter", "column")) return parseAlterColumn(p, t);
  // DEDUP or DEDUPLICATE, then DISABLE or [ENABLE] UPSERT KEYS (QuestDB SqlCompilerImpl.alterTable).
  if (p.acceptWord("dedup") || p.acceptWord("deduplicate")) {
    if (p.atEnd()) throw p.expected("'dedup columns'");
    if (p.acceptWord("disable")) return { kind: "dedupDisable", pos };
    p.acceptWord("enable");
    return { kind: "dedupEnable", pos, keys: parseDedupKeys(p, "deduplicate key ") };
  }
  if (p.acceptWords("set", "param")) return { kind: "setParam", pos, params: parseParams(p) };
  if (p.acceptWords("set", "ttl")) return { kind: "setTtl", pos, valuePos: p.peek().pos, ...parseTtl(p) };
  if (p.acceptWords("set", "storage", "policy")) return parseStoragePolicy(p, pos);
  for (const op of ["enable", "disable", "drop"] as const) {
    if (p.acceptWords(op, "storage", "policy")) return { kind: "storagePolicy", pos, op };
  }
  if (p.acceptWords("set", "format")) return { kind: "setFormat", pos, format: partitionFormat(p) };
  if (p.acceptWords("set", "type")) {
    const bypass = p.acceptWord("bypass") !== undefined;
    p.expectWord("wal");
    return { kind: "setType", pos, wal: !bypass };
  }
  if (p.acceptWords("suspend", "wal")) return { kind: "suspendWal", pos };
  if (p.acceptWords("resume", "wal")) {
    const action: AlterAction = { kind: "resumeWal", pos };
    if (p.acceptWord("from")) {
      if (!p.acceptWord("transaction") && !p.acceptWord("txn")) throw p.expected("'transaction' or 'txn'");
      action.fromTxn = p.integer("transaction number");
    }
    return action;
  }
  if (p.acceptWords("squash", "partitions")) return { kind: "squashPartitions", pos };
  // QuestDB AlterTableAlterColumnTest#testAlterExpectColumnKeyword, AlterTableDropColumnTest#testDropExpectColumnKeyword.
  if (p.isWord("alter")) throw p.expected("'column'", p.peek(1));
  if (p.isWord("drop")) throw p.expected("'column' or 'partition'", p.peek(1));
  if (p.isWord("rename")) throw p.expected("'column'", p.peek(1));
  // AlterTableO3MaxLagTest#setO3MaxLagWrongSetSyntax: `set o3MaxLag = ...` wants PARAM.
  if (p.isWord("set") && !["param", "ttl", "type", "storage", "format"].includes(p.wordAt(1) ?? "")) {
    throw p.expected("'param', 'ttl' or 'type'", p.peek(1));
  }
  // AddIndexTest#testAlterTableAttachPartitionSyntaxError1: `attach bucket`.
  if (p.isWord("attach") || p.isWord("detach")) throw p.expected("'partition'", p.peek(1));
  const word = p.wordAt() ?? "";
  // QuestDB SqlCompilerImpl.ALTER_TABLE_EXPECTED_TOKEN_DESCR (AlterTableRenameColumnTest#testExpectActionKeyword).
  if (!UNSUPPORTED_WORDS.has(word)) throw p.expected(ALTER_ACTIONS);
  // The rest of an unsupported form is not read: it fails as a whole, after the table checks.
  const what = `${word} ${p.wordAt(1) ?? ""}`.trim().toUpperCase();
  p.restText();
  return { kind: "unsupported", pos, what };
}

/**
 * First words of QuestDB ALTER TABLE forms this server does not implement (spec/sql.md §5.3,
 * §26): `REFRESH`, `REBASE WAL`, other `SET` forms. They parse so that the error is "not supported", not a
 * syntax error.
 */
const UNSUPPORTED_WORDS = new Set(["convert", "set", "refresh", "rebase"]);

const ALTER_ACTIONS =
  "'add', 'alter', 'attach', 'detach', 'drop', 'convert', 'resume', 'rename', 'set' or 'squash'";

/** `ALTER COLUMN c` then TYPE, ADD INDEX, DROP INDEX, CACHE or NOCACHE. */
function parseAlterColumn(p: ParseState, start: Token): AlterAction {
  const pos = start.pos;
  const column = p.anyName("column name");
  if (p.acceptWord("type")) {
    // AlterTableChangeColumnTypeTest#testNewTypeMissing.
    if (p.atEnd()) throw syntaxError("column type expected", p.peek().pos);
    const def: ColumnDef = { name: column.name, pos: column.pos, type: parseType(p) };
    readColumnOptions(p, def);
    const trailing = trailingToken(p, "column type");
    if (trailing) throw trailing;
    // QuestDB reports type errors at the last token read (SqlCompilerImpl: lastTokenPosition).
    const lastPos = p.tokens[p.index - 1].pos;
    return { kind: "alterColumnType", pos, column, def, lastPos };
  }
  if (p.acceptWords("add", "index")) {
    const action: AlterAction = { kind: "addIndex", pos, column };
    // ADD INDEX TYPE POSTING [INCLUDE (...)]: QuestDB's symbol.md / posting-index.md.
    readIndexType(p);
    // QuestDB AlterTableAlterColumnTest#testAlterExpectCapacity*.
    if (p.atEnd()) return action;
    if (!p.acceptWord("capacity")) throw p.expected("'capacity'");
    if (p.atEnd()) throw p.expected("capacity value");
    const t = p.peek();
    if (t.kind !== "number" || !/^\d[\d_]*$/.test(t.text) || Number(t.text.replaceAll("_", "")) <= 0) {
      throw syntaxError("positive integer literal expected as index capacity", t.pos);
    }
    action.capacity = p.integer("index capacity").value;
    return action;
  }
  if (p.acceptWords("drop", "index")) return { kind: "dropIndex", pos, column };
  // `DROP` or `ADD` without INDEX: QuestDB DropIndexTest#testDropIndexSyntaxErrors1.
  if (p.isWord("drop") || p.isWord("add")) throw p.expected("'index'", p.peek(1));
  if (p.acceptWord("cache")) return { kind: "symbolCache", pos, column, cache: true };
  if (p.acceptWord("nocache")) return { kind: "symbolCache", pos, column, cache: false };
  if (p.acceptWords("symbol", "capacity")) {
    const capacity = p.integer("symbol capacity");
    const trailing = trailingToken(p, "symbol capacity");
    if (trailing) throw trailing;
    return { kind: "symbolCapacity", pos, column, capacity };
  }
  // SET NOT NULL / SET NULL: the constraint's metadata flip (spec/sql.md §5.3).
  if (p.acceptWords("set", "not", "null")) return { kind: "columnNotNull", pos, column, notNull: true };
  if (p.acceptWords("set", "null")) return { kind: "columnNotNull", pos, column, notNull: false };
  // QuestDB AlterTableAlterColumnTest#testSetInvalidKeyword, #testSetParquetNotOpenParen.
  if (p.isWord("set") && !p.isWord("parquet", 1)) throw p.expected("'parquet'", p.peek(1));
  if (p.isWord("set")) {
    if (!p.isOp("(", 2)) throw p.expected("'('", p.peek(2));
    p.next();
    p.next();
    const options = parseParquetOptions(p);
    return { kind: "columnParquet", pos, column, options: options.text, encoding: options.encoding };
  }
  throw p.expected("'type', 'add index', 'drop index', 'cache', 'nocache', 'symbol capacity' or 'set'");
}

function names(p: ParseState): NamePos[] {
  const list = [p.anyName("column name")];
  while (p.acceptOp(",")) list.push(p.anyName("column name"));
  return list;
}

/** Partition names: `'2024-01-01'` strings (or bare words), comma-separated. */
function partitionNames(p: ParseState): NamePos[] {
  const list: NamePos[] = [];
  do {
    const t: Token = p.peek();
    if (t.kind !== "string" && t.kind !== "word" && t.kind !== "quoted" && t.kind !== "number") {
      throw p.expected("partition name");
    }
    p.next();
    list.push({ name: t.value, pos: t.pos });
  } while (p.acceptOp(","));
  return list;
}

/** `(TO PARQUET ttl, DROP NATIVE ttl, DROP LOCAL ttl)`, each optional, in any order. */
function parseStoragePolicy(p: ParseState, pos: number): AlterAction {
  const open = p.expectOp("(");
  const settings: Partial<Record<StoragePolicyStage, { amount: number; unit: string }>> = {};
  do {
    const at = p.peek().pos;
    let stage: StoragePolicyStage;
    if (p.acceptWords("to", "parquet")) stage = "toParquet";
    else if (p.acceptWords("drop", "native")) stage = "dropNative";
    else if (p.acceptWords("drop", "local")) stage = "dropLocal";
    else if (p.acceptWords("drop", "remote")) throw syntaxError("'DROP REMOTE' is not supported yet", at);
    else throw p.expected("'TO PARQUET', 'DROP NATIVE' or 'DROP LOCAL'");
    if (settings[stage]) throw syntaxError("duplicate storage policy setting", at);
    const ttlAt = p.peek().pos;
    const ttl = parseTtl(p);
    if (ttl.amount <= 0) throw syntaxError("storage policy TTL must be positive", ttlAt);
    settings[stage] = ttl;
  } while (p.acceptOp(","));
  p.closeParen(open);
  return { kind: "storagePolicy", pos, op: "set", settings };
}
