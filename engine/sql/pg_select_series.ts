/**
 * PostgreSQL's set-returning generate_series in a select list without FROM,
 * `SELECT generate_series(1, 3) [AS x]`: the engine has generate_series only as a table
 * function, so the call moves to FROM and the item reads its one column. Only that plain
 * shape (one item, no FROM) is taken; anything else keeps the usual "unknown function" error.
 */
import type { SelectCore } from "./ast.ts";

export function seriesItemAsSource(core: SelectCore): void {
  const item = core.items?.length === 1 ? core.items[0] : undefined;
  if (!item || core.from || core.where || core.groupBy || core.sampleBy) return;
  const call = item.expr;
  if (call.kind !== "call" || call.over || call.filter || call.distinct || call.star) return;
  if (call.name.toLowerCase().replace(/^pg_catalog\./, "") !== "generate_series") return;
  core.from = { first: { kind: "functionSource", pos: call.pos, call }, joins: [] };
  core.items = [{
    ...item,
    expr: { kind: "column", pos: call.pos, name: "generate_series" },
    alias: item.alias ?? "generate_series",
  }];
}
