/**
 * Set-returning functions in a select list, as PostgreSQL runs them (issue #18):
 * `SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix`
 * (SQLAlchemy), `SELECT ..., generate_series(array_lower(conkey, 1), array_upper(conkey, 1))
 * AS i FROM pg_constraint ...` (pgjdbc's getImportedKeys). Each row of the FROM is repeated
 * for the rows of its calls, which are zipped (PostgreSQL 10's rule): the select becomes
 * `FROM <from> CROSS JOIN LATERAL (SELECT * FROM <zipped calls>) _srf` reading `_srf.srfN`
 * where the calls were (plan_set_function.ts). Only calls that are a whole select item are
 * taken; with GROUP BY, SAMPLE BY, LATEST ON, DISTINCT ON or an aggregate in the list they are
 * refused, since PostgreSQL would expand them after grouping.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { setFunctionName, ZIPPED_SET_FUNCTIONS } from "./plan_set_function.ts";
import { containsAggregate } from "./plan_select.ts";

function setCallOf(e: A.Expr): A.FunctionCall | undefined {
  if (e.kind !== "call" || e.over || e.filter || e.distinct || e.star) return undefined;
  return setFunctionName(e.name) ? e : undefined;
}

/** The core with its select list's set-returning calls moved into a LATERAL source (a copy). */
export function selectListSetFunctions(core: A.SelectCore): A.SelectCore {
  const items = core.items;
  if (!items?.some((i) => setCallOf(i.expr))) return core;
  const pos = items.find((i) => setCallOf(i.expr))!.expr.pos;
  if (
    core.groupBy || core.sampleBy || core.latestOn || core.distinctOn || core.having ||
    items.some((i) => containsAggregate(i.expr))
  ) {
    throw new SqlError(
      "set-returning functions in a select list with grouping or aggregates are not supported",
      pos,
    );
  }
  const calls: A.FunctionCall[] = [];
  const newItems = items.map((item) => {
    const call = setCallOf(item.expr);
    if (!call) return item;
    calls.push(call);
    const column: A.ColumnRef = {
      kind: "column",
      pos: call.pos,
      qualifier: "_srf",
      name: `srf${calls.length}`,
    };
    return { ...item, expr: column, alias: item.alias ?? setFunctionName(call.name)! };
  });
  const zipped: A.FunctionSource = {
    kind: "functionSource",
    pos,
    call: { kind: "call", pos, name: ZIPPED_SET_FUNCTIONS, args: calls, distinct: false, star: false },
  };
  if (!core.from) {
    return { ...core, items: newItems, from: { first: { ...zipped, alias: "_srf" }, joins: [] } };
  }
  const query: A.Query = {
    kind: "query",
    pos,
    with: [],
    orderBy: [],
    body: { kind: "select", pos, distinct: false, from: { first: zipped, joins: [] }, windows: [] },
  };
  const join: A.Join = {
    kind: "cross",
    pos,
    lateral: true,
    source: { kind: "subquerySource", pos, query, alias: "_srf" },
  };
  return { ...core, items: newItems, from: { ...core.from, joins: [...core.from.joins, join] } };
}
