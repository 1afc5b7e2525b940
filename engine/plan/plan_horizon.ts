/**
 * Plans `HORIZON JOIN right [ON keys] RANGE ... | LIST (...) AS h` (QuestDB docs
 * query/sql/horizon-join.md): every left row is repeated once per offset, its horizon timestamp
 * `left_ts + offset` becomes the designated timestamp of that repeated side, and an ASOF join on
 * the keys matches the right row prevailing at it. The horizon alias names two columns:
 * `h.offset` (LONG, in the left timestamp's unit) and `h.timestamp`. Aggregates and the implicit
 * GROUP BY of the SELECT then work on these rows as on any join's.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import type { PlanContext } from "./plan_context.ts";
import type { Planned } from "./plan_from.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { bindContext } from "./plan_select.ts";
import { remap } from "./prune_columns.ts";
import { Scope } from "./scope.ts";
import { FIXED_NANOS } from "../functions/datetime_units.ts";

/** The left side repeated per offset, sorted and timestamped by `left_ts + offset`. */
export function horizonLeft(j: A.Join, left: Planned, pc: PlanContext): Planned {
  const h = j.horizon!;
  const ts = left.node.timestampIndex;
  if (ts < 0) throw new SqlError("left side of time series join has no timestamp", j.pos);
  const tsType = left.node.columns[ts].type;
  const offsets = offsetsOf(h, tsType.tag === "TIMESTAMP_NS" ? 1n : 1_000n);
  const width = left.node.columns.length;
  const offsetNode: PlanNode = {
    ...shape([{ name: "offset", type: T.LONG }]),
    kind: "rows",
    rows: offsets.map((o) => [o]),
  };
  const crossed: PlanNode = {
    ...shape([...left.node.columns, { name: "offset", type: T.LONG }], ts),
    kind: "join",
    type: "cross",
    left: left.node,
    right: offsetNode,
    equi: [],
  };
  const columns = [...crossed.columns, { name: "timestamp", type: tsType }];
  const exprs: BoundExpr[] = crossed.columns.map((c, i) => ({ kind: "column", type: c.type, index: i }));
  exprs.push(horizonTimestamp(tsType, ts, width, pc));
  const project: PlanNode = { ...shape(columns, width + 1), kind: "project", input: crossed, exprs };
  const node: PlanNode = {
    ...shape(columns, width + 1),
    kind: "sort",
    input: project,
    keys: [{ index: width + 1, desc: false }],
  };
  const scope = new Scope([
    ...left.scope.columns,
    { name: "offset", type: T.LONG, qualifiers: [h.alias] },
    { name: "timestamp", type: tsType, qualifiers: [h.alias] },
  ], width + 1);
  return { node, scope, firstWidth: left.firstWidth };
}

/** `left_ts + offset` over the crossed row, bound as the `+` of the SQL text would be. */
function horizonTimestamp(tsType: ColumnType, ts: number, width: number, pc: PlanContext): BoundExpr {
  const pair = new Scope([
    { name: "t", type: tsType, qualifiers: [] },
    { name: "o", type: T.LONG, qualifiers: [] },
  ]);
  const sum: A.Expr = {
    kind: "binary",
    pos: 0,
    op: "+",
    left: { kind: "column", pos: 0, name: "t" },
    right: { kind: "column", pos: 0, name: "o" },
  };
  return remap(bindExpr(sum, bindContext(pair, pc)), [ts, width]);
}

/** The offsets in the left timestamp's unit (`perUnit` nanoseconds), checked as QuestDB does. */
function offsetsOf(h: A.HorizonSpec, perUnit: bigint): bigint[] {
  const scaled = (o: A.HorizonOffset): bigint => {
    const nanos = FIXED_NANOS[o.unit];
    if (nanos === undefined) throw new SqlError(`unsupported interval unit [unit=${o.unit}]`, o.pos);
    return (BigInt(o.amount) * nanos) / perUnit;
  };
  if (h.list) {
    const list = h.list.map(scaled);
    for (let i = 1; i < list.length; i++) {
      if (list[i] <= list[i - 1]) {
        throw new SqlError("LIST offsets must be monotonically increasing", h.list[i].pos);
      }
    }
    return list;
  }
  const { from, to, step } = h.range!;
  const [lo, hi, by] = [scaled(from), scaled(to), scaled(step)];
  if (by <= 0n) throw new SqlError("horizon STEP must be positive", step.pos);
  if (lo > hi) throw new SqlError("FROM must be less than or equal to TO", from.pos);
  const out: bigint[] = [];
  for (let o = lo; o <= hi; o += by) out.push(o);
  return out;
}
