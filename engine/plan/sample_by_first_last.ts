/**
 * QuestDB's index-backed SAMPLE BY of first()/last() (SqlCodeGenerator picks
 * SampleByFirstLastRecordCursorFactory): no FILL (or FILL(NONE)), a table filtered by exactly
 * `sym = 'value'` on an indexed SYMBOL column, keys only the timestamp and that symbol, and every
 * aggregate first()/last() of a column. That factory reads each value in at most 8 bytes and
 * rejects a wider column (UUID, LONG256, DECIMAL over 18 digits) at the call:
 * `column "d128": first(), last() is not supported on data type DECIMAL(38,2)`
 * (SampleByFirstLastDecimalTest#testFirstLastRejectsWideDecimalColumns). The same query without
 * the index, or with another filter, aggregates as usual.
 */

import { SqlError } from "../base/errors.ts";
import { type ColumnType, typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import type { PlanContext } from "./plan_context.ts";

function widerThan8Bytes(t: ColumnType): boolean {
  return t.tag === "UUID" || t.tag === "LONG256" || (t.tag === "DECIMAL" && (t.precision ?? 0) > 18);
}

export function checkIndexedFirstLast(core: A.SelectCore, pc: PlanContext): void {
  const sb = core.sampleBy;
  if (!sb || !core.items) return;
  if (sb.fill.length > 1 || (sb.fill.length === 1 && sb.fill[0].kind !== "none")) return;
  const from = core.from;
  if (!from || from.joins.length > 0 || (from.windowJoins?.length ?? 0) > 0 || from.first.kind !== "table") {
    return;
  }
  const meta = pc.catalog.table(from.first.name)?.meta;
  if (!meta) return;
  const w = core.where;
  if (!w || w.kind !== "binary" || w.op !== "=") return;
  const [colExpr, valueExpr] = w.left.kind === "column" ? [w.left, w.right] : [w.right, w.left];
  if (
    colExpr.kind !== "column" || valueExpr.kind !== "literal" ||
    (valueExpr.type !== "string" && valueExpr.type !== "char")
  ) return;
  const indexOf = (name: string) =>
    meta.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
  const filtered = indexOf(colExpr.name);
  if (filtered < 0 || meta.columns[filtered].type.tag !== "SYMBOL" || !meta.columns[filtered].indexed) return;
  let wide: { name: string; type: ColumnType; pos: number } | undefined;
  for (const item of core.items) {
    const e = item.expr;
    if (e.kind === "column") {
      const i = indexOf(e.name);
      if (i !== meta.timestampIndex && i !== filtered) return;
      continue;
    }
    if (e.kind !== "call" || e.args.length !== 1 || e.distinct || e.star || e.filter || e.over) return;
    const name = e.name.toLowerCase();
    if (name !== "first" && name !== "last") return;
    const arg = e.args[0];
    if (arg.kind !== "column") return;
    const i = indexOf(arg.name);
    if (i < 0) return;
    const type = meta.columns[i].type;
    if (type.tag === "ARRAY") return;
    if (!wide && widerThan8Bytes(type)) wide = { name: meta.columns[i].name, type, pos: e.pos };
  }
  if (wide) {
    throw new SqlError(
      `column "${wide.name}": first(), last() is not supported on data type ${typeName(wide.type)}`,
      wide.pos,
    );
  }
}
