/**
 * The small statements: EXPLAIN, DECLARE, the session no-ops drivers send (SET, BEGIN,
 * COMMIT, ROLLBACK, DISCARD, DEALLOCATE, RESET, CLOSE), COPY, and the access-control
 * statements, which keep their words for the binder (spec/sql.md §19).
 */
import { syntaxError } from "../base/errors.ts";
import type { AclStmt, CopyStmt, DeclareStmt, ExplainStmt, NoopStmt, Query, Statement } from "./ast.ts";
import { stdioCopyOptions } from "./parse_copy_stdio.ts";
import type { Token } from "./lexer.ts";
import { parseExpr } from "./parse_expr.ts";
import { parseQuery } from "./parse_query.ts";
import type { NamePos, ParseState } from "./parse_state.ts";

/** `EXPLAIN [ANALYZE] [VERBOSE] [(options)] statement`. */
export function parseExplain(p: ParseState, parseBody: (p: ParseState) => Statement): ExplainStmt {
  const kw = p.next();
  p.acceptWord("analyze");
  p.acceptWord("verbose");
  if (p.isOp("(") && p.isWord("format", 1)) {
    const open = p.next();
    p.next();
    // SqlParserTest#testExplainWithBadFormat / #testExplainWithMissingFormat: TEXT or JSON only.
    const format = p.peek();
    if (!p.isWord("text") && !p.isWord("json")) {
      throw syntaxError("unexpected explain format found", format.pos);
    }
    while (!p.isOp(")") && !p.atEnd()) p.next();
    p.closeParen(open);
  }
  p.enter(kw);
  const statement = parseBody(p);
  p.leave();
  return { kind: "explain", pos: kw.pos, statement };
}

/** `DECLARE @v := expr [, @w := expr] statement`. */
export function parseDeclare(p: ParseState, parseBody: (p: ParseState) => Statement): DeclareStmt {
  const kw = p.next();
  const vars = parseDeclareVars(p);
  p.enter(kw);
  const statement = parseBody(p);
  p.leave();
  return { kind: "declare", pos: kw.pos, vars, statement };
}

/**
 * The `@v := expr` list after DECLARE, with QuestDB's texts (DeclareTest): OVERRIDABLE before a
 * variable is read and ignored (it lets a bind value replace the default); a comma may end the
 * list; one DECLARE per query.
 */
export function parseDeclareVars(p: ParseState): DeclareStmt["vars"] {
  const vars: DeclareStmt["vars"] = [];
  for (;;) {
    const overridable = p.acceptWord("overridable");
    const v = p.peek();
    if (v.kind !== "variable") {
      if (overridable) throw syntaxError("variable name expected after OVERRIDABLE", v.pos);
      throw p.expected("variable (@name)");
    }
    p.next();
    if (!p.isOp(":=")) throw syntaxError("expected variable assignment operator `:=`", p.peek().pos);
    p.next();
    const value = parseExpr(p);
    // `@v := ('a', 'b')` parses as a row: DECLARE holds single values (testDeclareVariableWithBracketedExpression).
    if (value.kind === "call" && value.name === "row" && p.sql[value.pos] === "(") {
      throw syntaxError("value list is not allowed here", value.pos);
    }
    vars.push({ name: v.text, pos: v.pos, value });
    if (!p.acceptOp(",")) return vars;
    if (p.isWord("declare")) {
      throw syntaxError(
        "unexpected token [DECLARE] - Multiple DECLARE statements are not allowed. " +
          "Use single DECLARE block: DECLARE @a := 1, @b := 1, @c := 1",
        p.peek().pos,
      );
    }
    if (p.peek().kind !== "variable" && !p.isWord("overridable")) return vars;
  }
}

/**
 * `SET [SESSION | LOCAL] name {= | TO} value`, `SET TIME ZONE value` (name "timezone"), or
 * `SET name words...`. Names are lower case; a value written as one string is unquoted.
 */
export function parseSet(p: ParseState): NoopStmt {
  const kw = p.next();
  if (!p.isOp("=", 1) && !p.isWord("to", 1)) {
    if (!p.acceptWord("session")) p.acceptWord("local");
  }
  let name: string;
  if (p.acceptWords("time", "zone")) {
    name = "timezone";
  } else {
    const first = p.peek();
    if (first.kind !== "word" && first.kind !== "quoted") throw p.expected("parameter name");
    name = p.next().value;
    while (p.acceptOp(".")) name += "." + p.anyName("parameter name").name;
    name = name.toLowerCase();
    if (!p.acceptOp("=")) p.acceptWord("to");
  }
  const stmt: NoopStmt = { kind: "noop", pos: kw.pos, what: "set", name };
  const value = restValue(p);
  if (value !== undefined) stmt.value = value;
  return stmt;
}

/** The rest of the statement: one string's content, or the text as written. */
function restValue(p: ParseState): string | undefined {
  const t = p.peek();
  if (t.kind === "string" && (p.peek(1).kind === "eof" || p.isOp(";", 1))) {
    p.next();
    return t.value;
  }
  const text = p.restText();
  return text === "" ? undefined : text;
}

/**
 * BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK, ABORT, SAVEPOINT, RELEASE [SAVEPOINT],
 * ROLLBACK TO [SAVEPOINT], DISCARD, DEALLOCATE, RESET, CLOSE.
 */
export function parseNoop(p: ParseState): NoopStmt {
  const kw = p.next();
  const word = kw.text.toLowerCase();
  const noop = (what: NoopStmt["what"], name?: string): NoopStmt =>
    name === undefined ? { kind: "noop", pos: kw.pos, what } : { kind: "noop", pos: kw.pos, what, name };
  switch (word) {
    case "begin":
    case "start":
      p.restText();
      return noop("begin");
    case "commit":
    case "end":
      p.restText();
      return noop("commit");
    case "rollback":
    case "abort":
      // ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name
      if (word === "rollback") {
        if (!p.acceptWord("work")) p.acceptWord("transaction");
        if (p.acceptWord("to")) {
          p.acceptWord("savepoint");
          return noop("rollbackTo", nameWord(p));
        }
      }
      p.restText();
      return noop("rollback");
    case "savepoint":
      return noop("savepoint", nameWord(p));
    case "release":
      p.acceptWord("savepoint");
      return noop("release", nameWord(p));
    case "discard":
    case "reset":
      if (p.acceptWords("time", "zone")) return noop(word, "timezone");
      return noop(word, nameWord(p).toLowerCase());
    case "deallocate":
      if (p.atEnd()) throw syntaxError("statement name expected", p.peek().pos);
      if (p.isWord("prepare") && !p.atEnd() && p.peek(1).kind !== "eof" && !p.isOp(";", 1)) p.next();
      return noop("deallocate", nameWord(p));
    default:
      return noop("close", nameWord(p));
  }
}

function nameWord(p: ParseState): string {
  const t = p.peek();
  if (t.kind !== "word" && t.kind !== "quoted") throw p.expected("name");
  p.next();
  return t.value;
}

/**
 * QuestDB's `REINDEX TABLE t [COLUMN c] [PARTITION 'p'] LOCK EXCLUSIVE`: checked as QuestDB's
 * parser checks it (SqlCompilerImplTest#testReindexSyntaxError, errors just past the last word
 * read), then nothing to do, as no index is built here (docs/storage.md).
 */
export function parseReindex(p: ParseState): NoopStmt {
  const kw = p.next();
  const past = () => {
    const t = p.peek();
    return t.kind === "eof" || p.isOp(";") ? t.pos : t.pos + t.text.length;
  };
  if (!p.acceptWord("table")) throw syntaxError("TABLE expected", p.peek().pos);
  const name = p.peek();
  if (name.kind !== "word" && name.kind !== "quoted") throw syntaxError("table name expected", name.pos);
  p.next();
  const table = { name: name.value, pos: name.pos };
  if (p.acceptWord("column")) {
    const col = p.peek();
    if (col.kind !== "word" && col.kind !== "quoted") throw syntaxError("column name expected", past());
    p.next();
  }
  if (p.acceptWord("partition")) {
    if (p.peek().kind !== "string") throw syntaxError("partition name expected", past());
    p.next();
  }
  if (!p.acceptWord("lock") || !p.acceptWord("exclusive")) {
    throw syntaxError("LOCK EXCLUSIVE expected", past());
  }
  if (!p.atEnd()) throw syntaxError("EOF expected", past());
  return { kind: "noop", pos: kw.pos, what: "other", table };
}

/**
 * QuestDB's `VACUUM TABLE t` (and the older `VACUUM PARTITIONS t`): the name is checked as a
 * table name (a keyword must be quoted: KeywordAsTableNameTest#testVacuum) and must exist; there
 * are no stale column or partition versions to remove here, so nothing else is done.
 */
export function parseVacuum(p: ParseState): NoopStmt {
  const kw = p.next();
  if (!p.acceptWord("table") && !p.acceptWord("partitions")) {
    throw p.atEnd()
      ? syntaxError("'table' expected", p.peek().pos)
      : syntaxError("'partitions' expected", p.peek().pos);
  }
  const name = p.peek();
  if (name.kind !== "word" && name.kind !== "quoted") throw syntaxError("table name expected", name.pos);
  p.refuseKeyword(name);
  p.next();
  if (!p.atEnd()) throw syntaxError("end of line or ';' expected", p.peek().pos);
  return { kind: "noop", pos: kw.pos, what: "other", table: { name: name.value, pos: name.pos } };
}

/** `COPY t [(cols)] FROM STDIN | 'file' [WITH] [options]`, `COPY (query) | t TO STDOUT [...]`. */
export function parseCopy(p: ParseState): CopyStmt {
  const kw = p.next();
  let query: Query | undefined;
  let table: NamePos | undefined;
  let columns: NamePos[] | undefined;
  let queryEnd: number | undefined;
  if (p.isOp("(")) {
    const open = p.next();
    query = parseQuery(p);
    queryEnd = p.closeParen(open).pos;
  } else {
    table = p.tableName();
    if (p.isOp("(")) {
      const open = p.next();
      columns = [p.anyName("column name")];
      while (p.acceptOp(",")) columns.push(p.anyName("column name"));
      p.closeParen(open);
    }
  }
  const direction = p.acceptWord("from") ? "from" : p.acceptWord("to") ? "to" : undefined;
  if (!direction) throw p.expected("'from' or 'to'");
  const targetPos = p.peek().pos;
  const target = copyTarget(p);
  // STDIN/STDOUT are pgwire's COPY sub-protocol, with PostgreSQL's options (parse_copy_stdio.ts).
  const options = typeof target === "string"
    ? stdioCopyOptions(p)
    : (p.acceptWord("with"), p.isOp("(") ? parenOptions(p) : bareOptions(p));
  const stmt: CopyStmt = { kind: "copy", pos: kw.pos, direction, target, targetPos, options };
  if (query) stmt.query = query;
  if (queryEnd !== undefined) stmt.queryEnd = queryEnd;
  if (table) stmt.table = table;
  if (columns) stmt.columns = columns;
  return stmt;
}

/** STDIN, STDOUT or a 'file name'. */
function copyTarget(p: ParseState): CopyStmt["target"] {
  const t = p.next();
  if (t.kind === "string") return { file: t.value };
  const word = t.kind === "word" ? t.text.toLowerCase() : "";
  if (word === "stdin" || word === "stdout") return word;
  throw p.expected("'stdin', 'stdout' or a file name", t);
}

/** `(name [value], ...)`. */
function parenOptions(p: ParseState): CopyStmt["options"] {
  const open = p.next();
  const options: CopyStmt["options"] = [];
  do {
    const n = p.anyName("option name");
    const name = n.name.toLowerCase();
    if (p.isOp(",") || p.isOp(")")) options.push({ name, pos: n.pos });
    else {
      const v = p.next();
      options.push({ name, value: v.value, pos: n.pos, valuePos: v.pos });
    }
  } while (p.acceptOp(","));
  p.closeParen(open);
  return options;
}

/** Options whose value is a bare word (`FORMAT PARQUET`, `COMPRESSION_CODEC zstd`, `PARTITION_BY DAY`). */
const WORD_VALUED = new Set([
  "partition_by",
  "format",
  "compression_codec",
  "compression_level",
  "row_group_size",
  "data_page_size",
  "parquet_version",
  "statistics_enabled",
  "raw_array_encoding",
  "size_limit",
]);

/** QuestDB's `WITH HEADER true FORMAT csv PARTITION BY DAY ...`; flags such as `CSV` have no value. */
function bareOptions(p: ParseState): CopyStmt["options"] {
  const options: CopyStmt["options"] = [];
  while (!p.atEnd()) {
    const n = p.anyName("option name");
    let name = n.name.toLowerCase();
    if (name === "partition" && p.acceptWord("by")) name = "partition_by";
    const v = p.peek();
    if (v.kind === "op" && v.text === "-" && p.peek(1).kind === "number") {
      p.next(); // a negative number (`ROW_GROUP_SIZE -1`)
      options.push({ name, value: "-" + p.next().value, pos: n.pos, valuePos: v.pos });
      continue;
    }
    const valued = v.kind === "string" || v.kind === "number" ||
      ["true", "false", "on", "off"].includes(p.wordAt() ?? "") ||
      (WORD_VALUED.has(name) && (v.kind === "word" || v.kind === "quoted"));
    if (valued) options.push({ name, value: p.next().value, pos: n.pos, valuePos: v.pos });
    else options.push({ name, pos: n.pos });
  }
  return options;
}

/** The verbs of the access-control statements, matched on their leading words. */
const ACL_VERBS = [
  ["create", "service", "account"],
  ["alter", "service", "account"],
  ["drop", "service", "account"],
  ["assume", "service", "account"],
  ["exit", "service", "account"],
  ["create", "user"],
  ["create", "group"],
  ["alter", "user"],
  ["alter", "group"],
  ["drop", "user"],
  ["drop", "group"],
  ["add", "user"],
  ["remove", "user"],
  ["grant"],
  ["revoke"],
];

/** The first words of ACL_VERBS: most statements (SELECT, INSERT...) are ruled out by one lookup. */
const ACL_FIRST_WORDS = new Set(ACL_VERBS.map((words) => words[0]));

/** The verb words ahead when the statement is an access-control one. */
export function aclVerbAhead(p: ParseState): string[] | undefined {
  const first = p.wordAt();
  if (first === undefined || !ACL_FIRST_WORDS.has(first)) return undefined;
  return ACL_VERBS.find((words) => words.every((w, k) => p.isWord(w, k)));
}

/** An access-control statement: its verb, then every remaining token as a word. */
export function parseAcl(p: ParseState, verb: string[]): AclStmt {
  const first = p.peek();
  p.index += verb.length;
  const words: AclStmt["words"] = [];
  while (!p.atEnd()) {
    const t: Token = p.next();
    const quoted = t.kind === "string" || t.kind === "quoted";
    words.push({ text: quoted ? t.value : t.text, pos: t.pos, quoted });
  }
  return { kind: "acl", pos: first.pos, verb: verb.join(" "), words };
}
