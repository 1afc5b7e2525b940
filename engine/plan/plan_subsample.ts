/**
 * `SELECT ... SUBSAMPLE method(args)` (QuestDB's SUBSAMPLE clause, SubsampleTest, docs
 * query/sql/subsample.md): the rows of the query without the clause that the window function of
 * the same name flags to keep, in the query's own order, before its ORDER BY and LIMIT. The value
 * methods lttb / m4 / minmax / sdt take the designated timestamp as their first argument.
 *
 *   SELECT <columns> FROM (SELECT *, method(ts, args) OVER (ORDER BY ts) keep FROM (query))
 *   WHERE keep ORDER BY ... LIMIT ...
 */
import { SqlError } from "../base/errors.ts";
import { isNumeric } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import type { PlanContext } from "./plan_context.ts";
import type { PlanNode } from "./plan_node.ts";
import { planSelect } from "./plan_select.ts";
import { descendingTimestamp } from "./descending_timestamp.ts";
import { gapUnitError } from "../exec/window_bucket_select.ts";

const VALUE_METHODS = new Set(["lttb", "m4", "minmax", "sdt"]);
const POSITION_METHODS = new Set(["uniform", "cadence"]);
const KEEP = "__subsample_keep";

export function planSubsample(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  const ss = core.subsample!;
  const method = ss.method.toLowerCase();
  if (!VALUE_METHODS.has(method) && !POSITION_METHODS.has(method)) {
    throw new SqlError("unknown subsample method", ss.methodPos);
  }
  const extra = ss.args[method === "lttb" ? 3 : method === "cadence" ? 2 : VALUE_METHODS.has(method) ? 2 : 1];
  if (extra) {
    const most = method === "lttb"
      ? "at most 3 arguments"
      : method === "cadence"
      ? "at most 2 arguments"
      : VALUE_METHODS.has(method)
      ? "exactly 2 arguments"
      : "exactly 1 argument";
    throw new SqlError(`${method}() accepts ${most}`, extra.pos);
  }
  const inner: A.SelectCore = { ...core, subsample: undefined };
  const probe = planSelect(inner, [], undefined, pc);
  const descending = probe.timestampIndex < 0;
  const tsIndex = descending ? descendingTimestamp(probe) : probe.timestampIndex;
  if (tsIndex < 0) throw new SqlError("SUBSAMPLE requires a designated timestamp column", ss.pos);
  const pos = ss.pos;
  const col = (name: string): A.ColumnRef => ({ kind: "column", pos, name });
  const ts = col(probe.columns[tsIndex].name);
  const value = ss.args[0];
  if (VALUE_METHODS.has(method) && value?.kind === "column" && !value.qualifier) {
    const c = probe.columns.find((c) => c.name.toLowerCase() === value.name.toLowerCase());
    if (c && !isNumeric(c.type) && c.type.tag !== "NULL") {
      throw new SqlError(`numeric column expected, got: ${c.type.tag}`, value.pos);
    }
  }
  const gap = method === "lttb" ? ss.args[2] : undefined;
  if (gap?.kind === "literal" && typeof gap.value === "string") {
    // The clause reports a bad unit one character before the window function form does (at
    // the unit's offset from the literal's start, quote included): SubsampleTest#testLttbGapInvalidUnit.
    const badUnit = gapUnitError(gap.value, (unitAt) => gap.pos + unitAt);
    if (badUnit) throw badUnit;
  }
  const call: A.FunctionCall = {
    kind: "call",
    pos: ss.methodPos,
    name: method,
    args: VALUE_METHODS.has(method) ? [ts, ...ss.args] : ss.args,
    distinct: false,
    star: false,
    over: { pos, partitionBy: [], orderBy: [{ expr: ts, desc: false }] },
  };
  const source = (body: A.QueryBody): A.FromClause => ({
    first: { kind: "subquerySource", pos, query: { kind: "query", pos, with: [], body, orderBy: [] } },
    joins: [],
  });
  const flagged: A.SelectCore = {
    kind: "select",
    pos,
    distinct: false,
    items: [{ expr: { kind: "star", pos } }, { expr: call, alias: KEEP }],
    from: source(inner),
    windows: [],
  };
  const outer: A.SelectCore = {
    kind: "select",
    pos,
    distinct: false,
    items: probe.columns.map((c) => ({ expr: col(c.name) })),
    from: source(flagged),
    where: col(KEEP),
    windows: [],
  };
  // The kept rows come out in ascending time when the input ran backwards
  // (SubsampleTest#testFallbackSortNegativeTimestamp).
  const order = orderBy.length || !descending ? orderBy : [{ expr: ts, desc: false }];
  return planSelect(outer, order, limit, pc);
}
