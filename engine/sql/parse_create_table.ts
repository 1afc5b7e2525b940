/**
 * CREATE TABLE in its three forms (spec/sql.md §5.1, §5.2): a column list, AS (query) with
 * `, CAST(...)` and `, INDEX(...)`, and (LIKE other); then the table clauses in any order.
 * Column definitions are shared with ALTER TABLE.
 */
import { syntaxError } from "../base/errors.ts";
import type { ColumnDef, CreateTableStmt, Expr, PartitionUnit } from "./ast.ts";
import type { Token } from "./lexer.ts";
import { splitAmountUnit } from "./literal.ts";
import { parseExpr } from "./parse_expr.ts";
import { parseQuery } from "./parse_query.ts";
import type { NamePos, ParseState } from "./parse_state.ts";
import { parquetEncodingError, parseParquetOptions } from "./parse_parquet_options.ts";
import { parseType } from "./parse_type.ts";
import { expectMicros } from "./interval_qualifier.ts";

const PARTITION_UNITS = new Set(["NONE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"]);
const TTL_LETTERS: Record<string, string> = { h: "HOUR", d: "DAY", w: "WEEK", m: "MONTH", y: "YEAR" };

/** The cursor on CREATE; the next word is TABLE, ATOMIC or BATCH, maybe after OR REPLACE (parser.ts). */
export function parseCreateTable(p: ParseState): CreateTableStmt {
  const kw = p.next();
  p.acceptWords("or", "replace");
  if (!p.acceptWord("atomic") && p.acceptWord("batch")) {
    p.integer("batch size");
    if (p.acceptWord("o3maxlag")) {
      // The lag is read as QuestDB's SqlUtil.expectMicros, errors placed from its first token
      // (SqlParserTest#testInsertAsSelectNegativeLag: `-4s` fails at the 4); quotes are dropped.
      const lag = p.next();
      expectMicros(lag.value, lag.pos);
    }
  }
  p.expectWord("table");
  const ifNotExists = readIfNotExists(p);
  const name = createTableName(p);
  const stmt: CreateTableStmt = {
    kind: "createTable",
    pos: kw.pos,
    name: name.name,
    namePos: name.pos,
    ifNotExists,
    columns: [],
    casts: [],
    indexes: [],
    withParams: [],
  };
  if (p.isOp("(")) {
    const open = p.next();
    if (p.acceptWord("like")) stmt.like = createTableName(p);
    else do stmt.columns.push(parseColumnDef(p, true)); while (p.acceptOp(","));
    p.closeParen(open);
    // `(LIKE t)` takes no CAST or INDEX list: QuestDB stops at the comma
    // (SqlParserTest#testCreateLikeTableInvalidSyntax).
    if (stmt.like) {
      parseTableClauses(p, stmt);
      return stmt;
    }
  } else if (p.acceptWord("as")) {
    const open = p.acceptOp("(");
    stmt.asSelect = parseQuery(p);
    if (open) p.closeParen(open);
  } else {
    throw p.expected("'(' or 'as'");
  }
  // After the column list or the query only `, CAST(...)` and `, INDEX(...)` may follow a comma:
  // another word is an unexpected token there (SqlParserTest#testCreateTableUnexpectedToken2),
  // and CAST needs a query to cast (#testCreateTableMisplacedCastDef).
  while (p.acceptOp(",")) {
    if (p.isWord("cast")) {
      if (!stmt.asSelect) {
        throw syntaxError("cast is only supported in 'create table as ...' context", p.peek().pos);
      }
      readCastClause(p, stmt);
    } else if (p.isWord("index")) readIndexClause(p, stmt);
    else throw p.unexpected();
  }
  parseTableClauses(p, stmt);
  return stmt;
}

/**
 * `IF NOT EXISTS` after CREATE TABLE: once IF is read the other two words must follow, as
 * QuestDB's SqlParser (SqlParserTest#testCreateTableIf*): 'not' or 'exists' expected at the end
 * of the text, 'if not exists' expected at any other word.
 */
function readIfNotExists(p: ParseState): boolean {
  if (!p.isWord("if")) return false;
  p.next();
  for (const word of ["not", "exists"]) {
    if (p.atEnd()) throw p.expected(`'${word}'`);
    if (!p.acceptWord(word)) throw p.expected("'if not exists'");
  }
  return true;
}

/**
 * The name CREATE TABLE makes or copies (LIKE): one identifier, no dotted parts; QuestDB
 * reports the dot (SqlParserTest#testCreateNameWithDot, #testCreateLikeTableNameWithDot).
 * `public.t` stays `t`, the schema GUI tools and ORMs qualify names with.
 */
function createTableName(p: ParseState): NamePos {
  const t = p.peek();
  if (t.kind === "word" && p.isOp(".", 1) && t.text.toLowerCase() !== "public") {
    throw p.unexpected(p.peek(1));
  }
  return p.tableName();
}

/** `name type [CAPACITY n] [CACHE | NOCACHE] [INDEX [CAPACITY n]] [[NOT] NULL]`. */
export function parseColumnDef(p: ParseState, inCreateTable = false): ColumnDef {
  if (inCreateTable) p.refuseKeyword();
  const name = p.anyName("column name");
  const typePos = p.peek().pos;
  const def: ColumnDef = { name: name.name, pos: name.pos, type: parseType(p, inCreateTable) };
  // `arr double]`, `arr double[]]`: CREATE TABLE reports the column name
  // (CreateTableTest#testCreateTableArrayWithMismatchedBrackets), ALTER TABLE ADD COLUMN the type
  // (AlterTableAddColumnTest#testAlterTableAddArrayColumnWithMismatchedBrackets).
  if (p.isOp("]")) {
    throw syntaxError(
      `${name.name} has an unmatched \`]\` - were you trying to define an array?`,
      inCreateTable ? name.pos : typePos,
    );
  }
  // CREATE TABLE reads the symbol options after SYMBOL only: `b BYTE INDEX` stops at INDEX
  // (SqlParserTest#testCreateTableIndexUnsupportedColumnType).
  if (inCreateTable && def.type.name !== "SYMBOL" && SYMBOL_OPTIONS.has(p.wordAt() ?? "")) {
    throw p.expected("',' or ')'");
  }
  readColumnOptions(p, def);
  return def;
}

const SYMBOL_OPTIONS = new Set(["capacity", "cache", "nocache", "index"]);

/** The symbol, index and nullability options after a column type. */
export function readColumnOptions(p: ParseState, def: ColumnDef): void {
  // QuestDB TableUtils.validateSymbolCapacityCached (AlterTableAddColumnTest
  // #testAddSymbolExpectCapacityTooHigh2): a cached symbol holds at most 2^25 values, reported at
  // CACHE when written, else at the capacity.
  let cachePos = -1;
  for (;;) {
    if (p.acceptWords("not", "null")) def.notNull = true;
    // A bare NULL is the default nullability, accepted as PostgreSQL does.
    else if (p.acceptWord("null")) def.notNull = false;
    else if (p.isWord("capacity")) {
      p.next();
      if (cachePos < 0) cachePos = p.peek().pos;
      def.symbolCapacity = symbolCapacity(p);
    } else if (p.isWord("cache")) {
      cachePos = p.next().pos;
      def.symbolCache = true;
    } else if (p.acceptWord("nocache")) def.symbolCache = false;
    else if (p.acceptWord("index")) readColumnIndex(p, def);
    else if (p.isWord("parquet") && p.isOp("(", 1)) def.parquet = columnParquet(p, def);
    // QuestDB has no computed columns (its grammar knows no GENERATED): say so plainly rather
    // than "')' expected" at the GENERATED keyword.
    else if (p.isWord("generated")) throw syntaxError("generated columns are not supported", p.peek().pos);
    else break;
  }
  if (def.symbolCache !== false && (def.symbolCapacity ?? 0) > SYMBOL_CAPACITY_CACHED_MAX) {
    throw syntaxError(`max cached symbol capacity is ${SYMBOL_CAPACITY_CACHED_MAX}`, cachePos);
  }
}

const SYMBOL_CAPACITY_CACHED_MAX = 33554432;

/** A column's `PARQUET(...)` encoding options, from the PARQUET word, checked against its type. */
function columnParquet(p: ParseState, def: ColumnDef): ColumnDef["parquet"] {
  p.next();
  const options = parseParquetOptions(p);
  const error = parquetEncodingError(options.encoding, def.type.name + "[]".repeat(def.type.arrayDims ?? 0));
  if (error) throw error;
  return options.text;
}

function readColumnIndex(p: ParseState, def: ColumnDef): void {
  def.indexed = true;
  readIndexType(p);
  if (p.acceptWord("capacity")) {
    // `index capacity a0`: QuestDB AlterTableAddColumnTest#testAddSymbolInvalidIndexCapacity.
    const t = p.peek();
    if (!p.atEnd() && t.kind !== "number" && !p.isOp("-")) {
      throw syntaxError("numeric capacity expected", t.pos);
    }
    def.indexCapacity = indexCapacity(p);
  }
}

/**
 * An index's optional `TYPE POSTING [DELTA|EF] [INCLUDE(...)]` (also after ALTER COLUMN ... ADD
 * INDEX, QuestDB's posting-index page), read as a plain index (§5.1, P2).
 */
export function readIndexType(p: ParseState): void {
  if (p.acceptWord("type")) {
    p.anyName("index type");
    if (p.isWord("delta") || p.isWord("ef")) p.next();
    if (p.isWord("include") && p.isOp("(", 1)) skipParenthesised(p);
  }
}

const INDEX_CAPACITY_MIN = 4;
const INDEX_CAPACITY_MAX = 8388608;

/**
 * The number after an index's CAPACITY, checked as QuestDB's TableUtils.validateIndexValueBlockSize
 * (4 up to 2^23; SqlParserTest#testCreateTableInPlaceIndexCapacity*): a range error points at
 * the number or its minus sign, a missing number after the sign is a 'bad integer' there.
 */
function indexCapacity(p: ParseState): number {
  const start = p.peek();
  const neg = p.acceptOp("-");
  const t = p.peek();
  if (neg && (t.kind !== "number" || !/^\d[\d_]*$/.test(t.text))) throw syntaxError("bad integer", t.pos);
  const value = (neg ? -1 : 1) * p.integer("index capacity").value;
  if (value < INDEX_CAPACITY_MIN) {
    throw syntaxError(`min index block capacity is ${INDEX_CAPACITY_MIN}`, start.pos);
  }
  if (value > INDEX_CAPACITY_MAX) {
    throw syntaxError(`max index block capacity is ${INDEX_CAPACITY_MAX}`, start.pos);
  }
  return value;
}

const SYMBOL_CAPACITY_MAX = 1073741824;

/**
 * The number after a column's `CAPACITY`, checked as QuestDB does while parsing
 * (AlterTableAddColumnTest#testAddSymbolExpectCapacity*): 2 up to 2^30.
 */
function symbolCapacity(p: ParseState): number {
  const start = p.peek();
  const neg = p.isOp("-");
  if (neg) p.next();
  if (p.atEnd()) throw p.expected("symbol capacity");
  const t = p.peek();
  const m = t.kind === "number" ? /^(-?)(\d[\d_]*)$/.exec(t.text) : null;
  if (!m) throw syntaxError("numeric capacity expected", start.pos);
  p.next();
  const value = (neg || m[1] ? -1 : 1) * Number(m[2].replaceAll("_", ""));
  if (value < 2) throw syntaxError("min symbol capacity is 2", start.pos);
  if (value > SYMBOL_CAPACITY_MAX) {
    throw syntaxError(`max symbol capacity is ${SYMBOL_CAPACITY_MAX}`, start.pos);
  }
  return value;
}

/** Skips `word ( ... )` with balanced parentheses: options stored nowhere yet. */
function skipParenthesised(p: ParseState): void {
  p.next();
  const open = p.next();
  let depth = 1;
  while (depth > 0) {
    if (p.atEnd()) throw syntaxError("missing closing ')'", open.pos);
    const t = p.next();
    if (t.kind === "op" && t.text === "(") depth++;
    if (t.kind === "op" && t.text === ")") depth--;
  }
}

function readCastClause(p: ParseState, stmt: CreateTableStmt): void {
  p.next();
  const open = p.expectOp("(");
  const column = p.anyName("column name");
  // SqlParserTest#testCreateTableDuplicateCast: the second cast of a column, at its name.
  if (stmt.casts.some((c) => c.column.toLowerCase() === column.name.toLowerCase())) {
    throw syntaxError("duplicate cast", column.pos);
  }
  p.expectWord("as");
  const def: ColumnDef = { name: column.name, pos: column.pos, type: parseType(p) };
  // `cast(c as symbol capacity 16 nocache)`: the symbol options, after SYMBOL only
  // (SqlParserTest#testCreateTableMisplacedCastCapacity: `')' expected` at CAPACITY).
  if (def.type.name === "SYMBOL") readColumnOptions(p, def);
  stmt.casts.push({
    column: column.name,
    pos: column.pos,
    type: def.type,
    ...(def.symbolCapacity !== undefined ? { symbolCapacity: def.symbolCapacity } : {}),
    ...(def.symbolCache !== undefined ? { symbolCache: def.symbolCache } : {}),
  });
  p.closeParen(open);
}

function readIndexClause(p: ParseState, stmt: CreateTableStmt): void {
  p.next();
  const open = p.expectOp("(");
  const column = p.anyName("column name");
  const index: CreateTableStmt["indexes"][number] = { column: column.name, pos: column.pos };
  // `INDEX(col TYPE POSTING)` (QuestDB's create-table page) is read as a plain index, as inline.
  if (p.acceptWord("type")) {
    p.anyName("index type");
    if (p.isWord("delta") || p.isWord("ef")) p.next();
  }
  if (p.acceptWord("capacity")) index.capacity = indexCapacity(p);
  stmt.indexes.push(index);
  p.closeParen(open);
}

/** TIMESTAMP, PARTITION BY, TTL, FORMAT, [BYPASS] WAL, DEDUP, WITH, IN VOLUME, OWNED BY. */
function parseTableClauses(p: ParseState, stmt: CreateTableStmt): void {
  const seen = new Set<string>();
  const once = (clause: string, t: Token) => {
    if (seen.has(clause)) throw p.unexpected(t);
    seen.add(clause);
  };
  for (;;) {
    const t = p.peek();
    if (p.isWord("timestamp") && p.isOp("(", 1)) {
      once("timestamp", t);
      p.next();
      const open = p.next();
      stmt.timestamp = p.anyName("column name");
      p.closeParen(open);
    } else if (p.acceptWords("partition", "by")) {
      once("partition", t);
      stmt.partitionBy = parsePartitionUnit(p);
    } else if (p.acceptWord("ttl")) {
      once("ttl", t);
      // QuestDB reports TTL errors at the value (SqlParser: ttlValuePos).
      const valuePos = p.peek().pos;
      stmt.ttl = { ...parseTtl(p), pos: valuePos };
    } else if (p.acceptWord("format")) {
      once("format", t);
      stmt.format = { value: partitionFormat(p), pos: t.pos };
    } else if (p.acceptWord("wal") || p.acceptWords("bypass", "wal")) {
      once("wal", t);
      stmt.wal = t.text.toLowerCase() === "wal";
      if (stmt.wal) stmt.walPos = t.pos;
    } else if (p.isWord("bypass")) {
      // BYPASS not followed by WAL: QuestDB AlterTableWalEnabledTest#testInvalidWalWord,
      // #testWalEnabledMissingWalKeyword report the word in its place (or the end).
      p.next();
      const next = p.peek();
      const found = p.atEnd() ? "BYPASS" : `BYPASS ${next.text}`;
      throw syntaxError(`invalid syntax, should be BYPASS WAL but was ${found}`, next.pos);
    } else if (p.acceptWord("dedup") || p.acceptWord("deduplicate")) {
      once("dedup", t);
      // QuestDB reports a non-WAL table at the token after the word (CreateTableDedupTest).
      stmt.dedupPos = p.peek().pos;
      stmt.dedupKeys = parseDedupKeys(p, "");
    } else if (p.acceptWord("with")) {
      once("with", t);
      stmt.withParams = parseParams(p);
    } else if (p.isWord("in") && !p.isOp("(", 1)) {
      once("volume", t);
      p.next();
      // SqlParserTest#testCreateTableInVolumeSyntaxError: "expected 'volume'" just past the word
      // read in its place.
      if (!p.acceptWord("volume")) {
        throw syntaxError("expected 'volume'", p.atEnd() ? p.peek().pos : p.peek().end);
      }
      stmt.volume = p.tableName("volume name").name;
    } else if (p.acceptWords("owned", "by")) {
      once("owner", t);
      stmt.ownedBy = p.tableName("owner name").name;
    } else {
      return;
    }
  }
}

/** `NATIVE | PARQUET`, any case (CREATE TABLE ... FORMAT, ALTER TABLE ... SET FORMAT). */
export function partitionFormat(p: ParseState): "native" | "parquet" {
  const word = (p.wordAt() ?? "").toLowerCase();
  if (word !== "native" && word !== "parquet") throw p.expected("'native' or 'parquet'");
  p.next();
  return word;
}

/** `NONE | HOUR | DAY | WEEK | MONTH | YEAR`, any case, returned in upper case. */
export function parsePartitionUnit(p: ParseState): { unit: PartitionUnit; pos: number } {
  const t = p.next();
  const unit = t.text.toUpperCase();
  if (t.kind !== "word" || !PARTITION_UNITS.has(unit)) {
    throw syntaxError("'NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH' or 'YEAR' expected", t.pos);
  }
  return { unit: unit as PartitionUnit, pos: t.pos };
}

/**
 * `n HOUR[S] | DAY[S] | WEEK[S] | MONTH[S] | YEAR[S]` or the shorthand `3H`, `2M`, read as QuestDB's
 * SqlParser.parseTtlHoursOrMonths with its messages and positions (TtlTest#test{Alter,Create}SyntaxInvalid,
 * #testSyntaxOutOfRange): the value must fit an INT, and in hours (months) once converted.
 */
export function parseTtl(p: ParseState): { amount: number; unit: string } {
  const t = p.peek();
  if (p.atEnd()) {
    throw syntaxError("missing argument, should be <number> <unit> or <number_with_unit>", t.pos);
  }
  p.next();
  const tok = t.text;
  let unit: string | undefined;
  let digits = tok;
  const last = tok[tok.length - 1];
  if (tok.length > 1 && /\p{L}/u.test(last)) {
    unit = TTL_LETTERS[last.toLowerCase()];
    digits = tok.slice(0, -1);
    if (!unit) {
      if (!/^\d[\d_]*$/.test(digits)) {
        throw syntaxError("invalid argument, should be <number> <unit> or <number_with_unit>", t.pos);
      }
      throw syntaxError(
        `invalid time unit, expecting 'H', 'D', 'W', 'M' or 'Y', but was '${last}'`,
        t.pos + tok.length - 1,
      );
    }
  }
  if (!/^\d[\d_]*$/.test(digits)) {
    throw syntaxError(`invalid syntax, should be <number> <unit> but was ${tok}`, t.pos);
  }
  const value = Number(digits.replaceAll("_", ""));
  if (value > INT_MAX) throw syntaxError(`value out of range: ${value}. Max value: ${INT_MAX}`, t.pos);
  if (!unit) {
    const u = p.peek();
    if (u.kind === "eof") {
      throw syntaxError(
        "missing unit, 'HOUR(S)', 'DAY(S)', 'WEEK(S)', 'MONTH(S)' or 'YEAR(S)' expected",
        u.pos,
      );
    }
    const word = u.text.toLowerCase();
    unit = TTL_LETTERS[word] ??
      (TTL_WORDS.has(word.replace(/s$/, "")) ? word.replace(/s$/, "").toUpperCase() : undefined);
    if (!unit) {
      throw syntaxError(
        `invalid unit, expected 'HOUR(S)', 'DAY(S)', 'WEEK(S)', 'MONTH(S)' or 'YEAR(S)', but was '${u.text}'`,
        u.pos,
      );
    }
    p.next();
  }
  // CommonUtils.toHoursOrMonths: DAY, WEEK and YEAR must still fit an INT of hours (months).
  const per: Record<string, [number, string]> = {
    DAY: [24, "days"],
    WEEK: [168, "weeks"],
    YEAR: [12, "years"],
  };
  const limit = per[unit];
  if (limit && value > Math.floor(INT_MAX / limit[0])) {
    throw syntaxError(
      `value out of range: ${value} ${limit[1]}. Max value: ${Math.floor(INT_MAX / limit[0])} ${limit[1]}`,
      t.pos,
    );
  }
  return { amount: value, unit };
}

const INT_MAX = 2147483647;
const TTL_WORDS = new Set(["hour", "day", "week", "month", "year"]);

/**
 * `UPSERT KEYS (a, b ...)` after DEDUP / DEDUPLICATE, as QuestDB reads it (SqlParser for CREATE
 * TABLE, SqlCompilerImpl.alterTableDedupEnable for ALTER; CreateTableDedupTest): a missing word
 * is an error at the token in its place, the list's absence just past that token, commas between
 * keys are optional, a key that is not a name is "literal expected" and an unclosed list
 * "')' expected" at the end. `what` prefixes the missing-list message ("deduplicate key " for ALTER).
 */
export function parseDedupKeys(p: ParseState, what: string): NamePos[] {
  if (!p.acceptWord("upsert")) throw syntaxError("expected 'upsert'", p.peek().pos);
  if (!p.acceptWord("keys")) throw syntaxError("expected 'keys'", p.peek().pos);
  if (!p.acceptOp("(")) {
    const t = p.peek();
    throw syntaxError(`${what}column list expected`, t.kind === "eof" ? t.pos : t.end);
  }
  const keys: NamePos[] = [];
  while (!p.acceptOp(")")) {
    const t = p.peek();
    if (t.kind === "eof") throw syntaxError("')' expected", t.pos);
    if (t.kind !== "word" && t.kind !== "quoted") throw syntaxError("literal expected", t.pos);
    p.next();
    keys.push({ name: t.value, pos: t.pos });
    p.acceptOp(",");
  }
  return keys;
}

/** `name = value [, ...]` for WITH and SET PARAM. */
export function parseParams(p: ParseState): { name: string; value: Expr; pos: number }[] {
  const params: { name: string; value: Expr; pos: number }[] = [];
  for (;;) {
    const name = p.anyName("parameter name");
    const eq = p.expectOp("=");
    // `o3MaxLag=` at the end: the '=' lacks its value (SqlParserTest#testCreateTableWithPartialParameter1).
    if (p.atEnd()) throw syntaxError("too few arguments for '=' [found=1,expected=2]", eq.pos);
    params.push({ name: name.name, value: parseParamValue(p), pos: name.pos });
    const comma = p.peek();
    if (!p.acceptOp(",")) return params;
    // A trailing comma is refused at the comma (SqlParserTest#testCreateTableWithPartialParameter3).
    if (p.atEnd()) throw p.unexpected(comma);
  }
}

/** A parameter value; durations such as `600s` stay text for the binder to read. */
function parseParamValue(p: ParseState): Expr {
  const t = p.peek();
  if (splitAmountUnit(t)) {
    p.next();
    return { kind: "literal", pos: t.pos, type: "string", value: t.text, text: t.text };
  }
  return parseExpr(p);
}
