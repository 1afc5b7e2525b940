/**
 * CSV import schema (spec/protocols.md §4.1): column types inferred from a sample of values,
 * whether the first line is a header, and text parsers for a column type with an optional
 * timestamp pattern from a given schema.
 */
import { type ColumnType, parseTypeName, T } from "../base/types.ts";
import { compilePattern } from "../functions/datetime_format.ts";
import { parseWithPattern } from "../functions/datetime_pattern_parse.ts";
import { parseText } from "../functions/cast.ts";
import type { TextParser } from "./convert.ts";

/** Candidate types, narrowest first: the first that parses every non-empty sample wins. */
const CANDIDATES: ColumnType[] = [T.BOOLEAN, T.INT, T.LONG, T.DOUBLE, T.TIMESTAMP];

/** The type of a column from sample values (empty values say nothing); VARCHAR when nothing fits. */
export function inferColumnType(samples: string[]): ColumnType {
  const values = samples.filter((s) => s !== "");
  if (values.length === 0) return T.VARCHAR;
  for (const t of CANDIDATES) {
    if (values.every((v) => fits(v, t))) return t;
  }
  return T.VARCHAR;
}

function fits(v: string, t: ColumnType): boolean {
  if (t.tag === "TIMESTAMP" && !/^\d{4}-\d{2}-\d{2}/.test(v)) return false; // plain numbers are not times
  const parsed = parseText(v, t);
  return parsed !== undefined && parsed !== null;
}

/**
 * Whether the first line is a header: it is when a column whose other values have a type
 * other than VARCHAR has a first value that is not of that type, or when every first value is
 * text and distinct while the rest of the file is all text too.
 */
export function looksLikeHeader(first: string[], types: ColumnType[]): boolean {
  let typed = false;
  for (let i = 0; i < first.length; i++) {
    const t = types[i] ?? T.VARCHAR;
    if (t.tag === "VARCHAR") continue;
    typed = true;
    if (first[i] !== "" && !fits(first[i], t)) return true;
  }
  if (typed) return false;
  return first.every((v) => /^[A-Za-z_][\w .-]*$/.test(v)) && new Set(first).size === first.length;
}

/** A schema element's type name (`DOUBLE`, `TIMESTAMP`, ...); undefined when unknown. */
export function columnTypeOf(name: string): ColumnType | undefined {
  return parseTypeName(name);
}

/** Parses text for `type`, with a QuestDB date pattern for DATE/TIMESTAMP columns when given. */
export function textParserFor(type: ColumnType, pattern?: string): TextParser | undefined {
  if (!pattern || (type.tag !== "TIMESTAMP" && type.tag !== "DATE" && type.tag !== "TIMESTAMP_NS")) {
    return undefined;
  }
  const compiled = compilePattern(pattern);
  const unit = type.tag === "DATE" ? "ms" : type.tag === "TIMESTAMP_NS" ? "ns" : "us";
  return (text) => {
    if (text === "") return null;
    return parseWithPattern(compiled, text, { unit: unit as never }) ?? parseText(text, type);
  };
}
