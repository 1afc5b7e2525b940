/** Table and column name rules (spec/sql.md §1.2). */
import { SqlError } from "../base/errors.ts";
import { NAME_LENGTH_MAX } from "../base/limits.ts";

// deno-lint-ignore no-control-regex -- control characters are exactly what the rule forbids (§1.2)
const TABLE_FORBIDDEN = /[?,'"\\/:)(+*%~\u0000-\u000f\u007f\ufeff]/;
// deno-lint-ignore no-control-regex -- as above
const COLUMN_FORBIDDEN = /[?,'"\\/:)(+*%~.\-\u0000-\u000f\u007f\ufeff]/;

export function checkTableName(name: string, pos: number): void {
  const bad = name.length === 0 || name.length > NAME_LENGTH_MAX || name.trim() !== name ||
    TABLE_FORBIDDEN.test(name) || name.startsWith(".") || name.endsWith(".") || name.includes("..");
  if (bad) throw new SqlError(`invalid table name [name=${name}]`, pos);
}

export function checkColumnName(name: string, pos: number): void {
  if (
    name.length === 0 || name.length > NAME_LENGTH_MAX || name.trim() !== name || COLUMN_FORBIDDEN.test(name)
  ) {
    throw new SqlError(`invalid column name [name=${name}]`, pos);
  }
}
