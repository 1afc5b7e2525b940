/**
 * Name rules for tables and columns created by ingestion (spec/protocols.md §10.1): what
 * QuestDB refuses in ILP table and column names, and the 127-byte UTF-8 length limit.
 */
import { NAME_LENGTH_MAX } from "../base/limits.ts";

// deno-lint-ignore no-control-regex -- control characters are exactly what is refused
const TABLE_FORBIDDEN = /[\n\r?,"\\/:)(+*%~\u0000-\u001f\u007f\ufeff]/;
// deno-lint-ignore no-control-regex -- as above
const COLUMN_FORBIDDEN = /[\n\r?,"\\/:)(+*%~.\-\u0000-\u001f\u007f\ufeff]/;
const encoder = new TextEncoder();

/** Why `name` cannot be a table name, or undefined when it can. */
export function checkIlpTableName(name: string): string | undefined {
  if (name.length === 0) return "table name is empty";
  if (encoder.encode(name).length > NAME_LENGTH_MAX) return `table name is too long [max=${NAME_LENGTH_MAX}]`;
  if (TABLE_FORBIDDEN.test(name) || name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
    return `invalid table name [table=${name}]`;
  }
  if (name.trim() !== name) return `invalid table name [table=${name}]`;
  return undefined;
}

/** Why `name` cannot be a column name, or undefined when it can. */
export function checkIlpColumnName(name: string): string | undefined {
  if (name.length === 0 || encoder.encode(name).length > NAME_LENGTH_MAX) return "bad length";
  if (COLUMN_FORBIDDEN.test(name) || name.trim() !== name) return "forbidden character";
  return undefined;
}
