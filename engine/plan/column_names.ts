/**
 * Result column names (spec/sql.md §18.1): the expression text in the default mode, QuestDB's
 * legacy names (`avg`, `column`, `cast`) when `cairo.sql.column.alias.expression.enabled` is
 * false, and the de-duplication suffixes of each mode.
 */
import { COLUMN_ALIAS_LENGTH_MAX } from "../base/limits.ts";
import type * as A from "../sql/ast.ts";
import { exprToText } from "../sql/printer.ts";

export function baseName(item: A.SelectItem, legacy: boolean): string {
  if (item.alias !== undefined) return item.alias;
  const e = item.expr;
  if (e.kind === "column") return e.name;
  if (legacy) {
    if (e.kind === "call") {
      return e.nulls === "ignore"
        ? `${e.name.toLowerCase()}_ignore_nulls`
        : e.name.toLowerCase().replace(/^pg_catalog\./, "");
    }
    if (e.kind === "cast") return e.syntax === "prefix" ? "column" : "cast";
    if (e.kind === "case") return "case";
    if (e.kind === "binary" && e.op === "||") return "concat";
    return "column";
  }
  return exprToText(e).slice(0, COLUMN_ALIAS_LENGTH_MAX).trimEnd();
}

/** Assigns unique names (case-insensitive): default mode `x_2`, legacy and `*` expansion `x1`. */
export class NameAllocator {
  #taken = new Set<string>();
  constructor(private readonly legacy: boolean) {}

  take(name: string, numericSuffix = this.legacy): string {
    let candidate = name;
    if (this.#taken.has(candidate.toLowerCase())) {
      for (let k = numericSuffix ? 1 : 2;; k++) {
        candidate = numericSuffix ? `${name}${k}` : `${name}_${k}`;
        if (!this.#taken.has(candidate.toLowerCase())) break;
      }
    }
    this.#taken.add(candidate.toLowerCase());
    return candidate;
  }
}
