/**
 * Reads a type name as written in CAST, `::`, a prefix literal or a column definition
 * (spec/sql.md §2.1, §3.1): `int`, `DOUBLE`, `geohash(8c)`, `decimal(10,2)`, `double[]`,
 * `double precision`, `varchar(255)`.
 */
import { syntaxError } from "../base/errors.ts";
import { parseTypeName } from "../base/types.ts";
import type { TypeSpec } from "./ast.ts";
import type { Token } from "./lexer.ts";
import type { ParseState } from "./parse_state.ts";

/** Canonical upper-case name of a base type word; unknown words are upper-cased as written. */
export function canonicalTypeName(word: string): string {
  const lower = word.toLowerCase();
  if (lower === "decimal" || lower === "numeric") return "DECIMAL";
  if (lower === "geohash") return "GEOHASH";
  return parseTypeName(lower)?.tag ?? word.toUpperCase();
}

/** Parses a type starting at the current token. */
export function parseType(p: ParseState, inCreateTable = false): TypeSpec {
  const first = p.peek();
  if (first.kind === "variable") {
    // A DECLARE variable naming the type, put in when the variables are (sql/declare_vars.ts).
    p.next();
    return { pos: first.pos, name: first.text, text: first.text, variable: first.text };
  }
  if (first.kind !== "word" && first.kind !== "quoted") throw p.expected("type name");
  p.next();
  const spec: TypeSpec = { pos: first.pos, name: canonicalTypeName(first.value), text: "" };
  const lower = first.value.toLowerCase();
  // `array`, `array[]`, `array[double]`: QuestDB names its element-typed form, at the word
  // (ArraySyntaxBrutalTest#testCreateTableInvalidSyntax).
  if (lower === "array" && first.kind === "word") {
    throw syntaxError(
      "the system supports type-safe arrays, e.g. `type[]`. Supported types are: DOUBLE",
      first.pos,
    );
  }
  if (lower === "double" && p.isWord("precision")) p.next();
  // PostgreSQL's spelled-out `timestamp with time zone` / `timestamp without time zone` (BI
  // tools' casts): both are TIMESTAMP here; `timestamp_ns with time zone` is TIMESTAMP_NS
  // (QuestDB's ExpressionParser takes WITH TIME ZONE after either keyword).
  const withZone = p.isWord("with") || (lower === "timestamp" && p.isWord("without"));
  if (
    (lower === "timestamp" || lower === "timestamp_ns") && withZone && p.wordAt(1) === "time" &&
    p.wordAt(2) === "zone"
  ) {
    p.next();
    p.next();
    p.next();
  }
  // `GEOHASH[]` has no precision: the binder refuses it as an array element type.
  if (spec.name === "GEOHASH" && !(p.isOp("[") && p.isOp("]", 1))) {
    readGeohashPrecision(p, spec, inCreateTable);
  } else if (spec.name === "DECIMAL") readDecimalPrecision(p, spec);
  else if ((spec.name === "VARCHAR" || spec.name === "STRING") && p.isOp("(")) skipLength(p);
  let dims = 0;
  for (;;) {
    if (!p.isOp("[")) break;
    // `double []`, `double[] []`: brackets must touch the type (ArraySyntaxBrutalTest), at the `[`.
    const prev = p.tokens[p.index - 1], open = p.peek();
    if (open.pos !== prev.end) {
      throw syntaxError("array type requires no whitespace between type and brackets", open.pos);
    }
    // `double[1]`: no sizes, at the number (ArraySyntaxBrutalTest#testCreateTableInvalidSyntax).
    const inner = p.tokens[p.index + 1];
    if (inner?.kind === "number") {
      throw syntaxError("arrays do not have a fixed size, remove the number", inner.pos);
    }
    if (!p.isOp("]", 1)) break;
    p.next();
    p.next();
    dims++;
  }
  // `double[)`: QuestDB names the array type it expected and the text it found, at the `[`
  // (CreateTableTest#testCreateTableArrayWithMismatchedBrackets).
  if (p.isOp("[")) {
    const open = p.next();
    const found = p.textFrom(first);
    p.next();
    throw syntaxError(
      `syntax error at column type definition, expected array type: '${spec.name}${
        "[]".repeat(dims + 1)
      }...', but found: '${found}${p.tokens[p.index - 1].text}'`,
      open.pos,
    );
  }
  if (dims > 0) spec.arrayDims = dims;
  spec.text = p.textFrom(first);
  return spec;
}

/**
 * `GEOHASH(8c)` is 8 chars of 5 bits; `GEOHASH(40b)` is 40 bits (1..60). CREATE TABLE's column
 * list reports a bad size at the `(` (SqlParserTest#testCreateTableWithGeoHashWrongSize1), ALTER
 * TABLE and casts at the size itself.
 */
function readGeohashPrecision(p: ParseState, spec: TypeSpec, atParen: boolean): void {
  // QuestDB's messages (GeoHashQueryTest#testAlterTableAddGeoHashBitsColumnInvalidSyntax*):
  // `geohash` and `geohash()` miss the precision, `geohash(1)` is too short to hold a unit,
  // `geohash(11)` has a bad unit, all at the token that is missing or wrong.
  if (!p.isOp("(") || p.isOp(")", 1)) {
    if (p.isOp("(")) p.next();
    throw syntaxError("missing GEOHASH precision", p.peek().pos);
  }
  const open = p.expectOp("(");
  const t = p.next();
  const at = atParen ? open.pos : t.pos;
  const m = /^(\d+)([cCbB])$/.exec(t.text);
  if (!m) {
    const units = t.text.length >= 2 && /^\d+$/.test(t.text.slice(0, -1));
    throw syntaxError(
      units
        ? "invalid GEOHASH size units, must be 'c', 'C' for chars, or 'b', 'B' for bits"
        : "invalid GEOHASH size, must be number followed by 'C' or 'B' character",
      at,
    );
  }
  const n = Number(m[1]);
  const bits = m[2].toLowerCase() === "c" ? n * 5 : n;
  if (bits < 1 || bits > 60) {
    throw syntaxError(`invalid GEOHASH type precision range, must be [1, 60] bits, provided=${bits}`, at);
  }
  spec.geoBits = bits;
  // QuestDB reports a missing `)` at the end of the precision (GeoHashQueryTest
  // #testAlterTableAddGeoHashBitsColumnInvalidSyntax5: `geohash(11c` fails at 36).
  if (p.atEnd()) throw syntaxError("invalid GEOHASH type literal, expected ')'", t.pos + t.text.length);
  if (!p.isOp(")")) {
    const found = p.peek();
    throw syntaxError(`invalid GEOHASH type literal, expected ')' found='${found.text}'`, found.pos);
  }
  p.closeParen(open);
}

/** `DECIMAL`, `DECIMAL(p)`, `DECIMAL(p, s)`; bounds are checked by the binder. */
function readDecimalPrecision(p: ParseState, spec: TypeSpec): void {
  const open = p.acceptOp("(");
  if (!open) return;
  spec.precision = p.integer("decimal precision").value;
  if (p.acceptOp(",")) spec.scale = p.integer("decimal scale").value;
  p.closeParen(open);
}

/** `VARCHAR(255)`: pg clients write a length; the dialect has none, so it is read and dropped. */
function skipLength(p: ParseState): void {
  const open: Token = p.next();
  p.integer("length");
  p.closeParen(open);
}
