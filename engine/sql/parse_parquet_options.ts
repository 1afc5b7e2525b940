/**
 * A column's `PARQUET(...)` options (spec/sql.md §26.5), read with QuestDB's grammar
 * (SqlUtil.parseParquetConfig): `PARQUET(BLOOM_FILTER)` or
 * `PARQUET(encoding [, codec[(level)]] [, BLOOM_FILTER])`, where BLOOM_FILTER comes last. The
 * result is the options as SHOW CREATE TABLE prints them back, in lower case
 * (`delta_binary_packed, zstd(3), bloom_filter`); `default` alone means "no options". Whether
 * the encoding suits the column's type is checked where the type is known (parquetEncodingError).
 */
import { type SqlError, syntaxError } from "../base/errors.ts";
import type { ParseState } from "./parse_state.ts";
import type { Token } from "./lexer.ts";

const ENCODINGS = [
  "default",
  "plain",
  "rle_dictionary",
  "delta_length_byte_array",
  "delta_binary_packed",
  "byte_stream_split",
];

/** Codecs in QuestDB's ParquetCompression order; `default` is LZ4_RAW. */
const CODECS = ["uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4_raw"];

/** Level ranges of the codecs that take one (ParquetCompression.validateCompressionLevel). */
const LEVELS: Record<string, [string, number, number]> = {
  gzip: ["GZIP", 0, 9],
  brotli: ["Brotli", 0, 11],
  zstd: ["ZSTD", 1, 22],
};

/** The options as printed back, and the encoding as written with its position. */
export interface ParquetOptions {
  text: string;
  encoding?: { text: string; pos: number };
}

/** Reads `( ... )`, the cursor on `(`. */
export function parseParquetOptions(p: ParseState): ParquetOptions {
  const encodingToken = p.peek(1);
  const text = optionText(p);
  const encoding = text === "bloom_filter" ? undefined : { text: encodingToken.text, pos: encodingToken.pos };
  return encoding ? { text, encoding } : { text };
}

function optionText(p: ParseState): string {
  p.next();
  const first = p.atEnd() ? undefined : p.next();
  if (!first) throw syntaxError("encoding name or BLOOM_FILTER expected", p.peek().pos);
  if (isBloomFilter(first)) return closeOptions(p, "bloom_filter");
  const encoding = first.text.toLowerCase();
  if (first.kind !== "word" || !ENCODINGS.includes(encoding)) {
    throw syntaxError(
      `invalid parquet encoding '${first.text}', supported values: ${ENCODINGS.slice(1).join(", ")}`,
      first.pos,
    );
  }
  if (p.atEnd()) throw syntaxError("',' or ')' expected", p.peek().pos);
  if (!p.acceptOp(",")) return closeOptions(p, encoding);
  const second = p.atEnd() ? undefined : p.next();
  if (!second) throw syntaxError("compression codec name or BLOOM_FILTER expected", p.peek().pos);
  if (isBloomFilter(second)) return closeOptions(p, `${encoding}, bloom_filter`);
  const codec = codecName(second);
  let text = `${encoding}, ${codec}`;
  if (p.acceptOp("(")) text += `(${compressionLevel(p, codec)})`;
  if (p.acceptOp(",")) {
    const t = p.peek();
    if (!isBloomFilter(t)) throw syntaxError("BLOOM_FILTER expected", t.pos);
    p.next();
    text += ", bloom_filter";
  }
  return closeOptions(p, text);
}

function isBloomFilter(t: Token): boolean {
  return t.kind === "word" && t.text.toLowerCase() === "bloom_filter";
}

function codecName(t: Token): string {
  const name = t.text.toLowerCase();
  if (t.kind === "word" && name === "default") return "lz4_raw";
  if (t.kind !== "word" || !CODECS.includes(name)) {
    throw syntaxError(
      `invalid parquet compression codec '${t.text}', supported values: ${CODECS.join(", ")}`,
      t.pos,
    );
  }
  return name;
}

/** The level after `codec(`, up to and including its `)`; codecs without levels ignore it. */
function compressionLevel(p: ParseState, codec: string): number {
  if (p.atEnd()) throw syntaxError("compression level expected", p.peek().pos);
  const t = p.next();
  if (t.kind !== "number" || !/^-?\d+$/.test(t.text)) {
    throw syntaxError("compression level must be a number", t.pos);
  }
  const level = Number(t.text);
  const range = LEVELS[codec];
  if (range && (level < range[1] || level > range[2])) {
    throw syntaxError(`${range[0]} compression level must be between ${range[1]} and ${range[2]}`, t.pos);
  }
  if (!p.isOp(")")) throw syntaxError("')' expected", p.peek().pos);
  p.next();
  return level;
}

function closeOptions(p: ParseState, text: string): string {
  if (!p.isOp(")")) throw syntaxError("')' expected", p.peek().pos);
  p.next();
  return text;
}

/**
 * The encodings each column type takes, as QuestDB's Parquet writer validates them
 * (is_encoding_valid_for_column_tag): `default` suits every type, `byte_stream_split` none.
 */
const ENCODING_TYPES: Record<string, (base: string, isArray: boolean) => boolean> = {
  plain: (base) => base !== "SYMBOL" && base !== "VARCHAR",
  rle_dictionary: (base, isArray) => base !== "BOOLEAN" && !isArray,
  delta_length_byte_array: (base, isArray) => !isArray && ["STRING", "BINARY", "VARCHAR"].includes(base),
  delta_binary_packed: (base, isArray) =>
    !isArray &&
    ["BYTE", "SHORT", "CHAR", "INT", "LONG", "DATE", "TIMESTAMP", "TIMESTAMP_NS", "IPV4", "GEOHASH"].includes(
      base,
    ),
  byte_stream_split: () => false,
};

/**
 * The error for an encoding the column's type does not take (AlterTableAlterColumnTest
 * #testSetParquetPlainRejectedForSymbol), at the encoding; undefined when it suits. `typeName` is
 * the type as QuestDB names it (`SYMBOL`, `DOUBLE[]`, `GEOHASH(5c)`).
 */
export function parquetEncodingError(
  encoding: ParquetOptions["encoding"],
  typeName: string,
): SqlError | undefined {
  const accepts = encoding && ENCODING_TYPES[encoding.text.toLowerCase()];
  if (!encoding || !accepts) return undefined;
  const base = typeName.replace(/[[(].*$/, "").toUpperCase();
  const isArray = typeName.includes("[");
  if (accepts(base, isArray)) return undefined;
  const supported = Object.keys(ENCODING_TYPES).filter((e) => ENCODING_TYPES[e](base, isArray));
  return syntaxError(
    `encoding '${encoding.text}' is not valid for column type ${typeName}, supported encodings for this type: ${
      supported.join(", ")
    }`,
    encoding.pos,
  );
}
