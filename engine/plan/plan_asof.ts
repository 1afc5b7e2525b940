/**
 * Plans ASOF, LT and SPLICE joins (spec/sql.md §11.3–§11.5): both sides need a designated
 * timestamp; `ON (a, b)` or `ON l.x = r.y AND ...` give equality keys; TOLERANCE bounds how
 * old the matched right row may be. Executed as a forward merge (`engine/exec/asof_join.ts`).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import { conjuncts } from "./intervals_from_where.ts";
import type { PlanContext } from "./plan_context.ts";
import type { Planned } from "./plan_from.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { bindContext } from "./plan_select.ts";
import { Scope } from "./scope.ts";

const TOLERANCE_MICROS: Record<string, bigint> = {
  U: 1n,
  T: 1000n,
  s: 1_000_000n,
  m: 60_000_000n,
  h: 3_600_000_000n,
  d: 86_400_000_000n,
  w: 604_800_000_000n,
};

function toleranceOf(t: NonNullable<A.Join["tolerance"]>): bigint {
  if (t.unit === "n") return BigInt(Math.floor(t.amount / 1000));
  const per = TOLERANCE_MICROS[t.unit];
  if (per === undefined) throw new SqlError(`unsupported TOLERANCE unit [unit=${t.unit}]`, t.pos);
  if (t.amount < 0) throw new SqlError("TOLERANCE must be non-negative", t.pos);
  return per * BigInt(t.amount);
}

const TEXT_TAGS = new Set(["SYMBOL", "STRING", "VARCHAR"]);

/**
 * A key column under casts between SYMBOL, STRING and VARCHAR, which keep the text: keys match
 * by text either way (JoinCastTest#testStringCastsInAsOfJoin: `ON l.k = r.k::string`).
 */
function textCastsUnwrapped(e: BoundExpr): BoundExpr {
  while (e.kind === "cast" && TEXT_TAGS.has(e.type.tag) && TEXT_TAGS.has(e.arg.type.tag)) e = e.arg;
  return e;
}

export function planAsofJoin(j: A.Join, left: Planned, right: Planned, pc: PlanContext): Planned {
  const kind = j.kind as "asof" | "lt" | "splice";
  const leftTs = left.node.timestampIndex;
  const rightTs = right.node.timestampIndex;
  if (leftTs < 0) throw new SqlError("left side of time series join has no timestamp", j.pos);
  if (rightTs < 0) throw new SqlError("right side of time series join has no timestamp", j.source.pos);
  const leftWidth = left.node.columns.length;
  const scope = Scope.concat(left.scope, right.scope, leftTs);
  const leftKeys: number[] = [];
  const rightKeys: number[] = [];
  if (j.using) {
    for (const u of j.using) {
      leftKeys.push(left.scope.resolveUsing(u.name, left.firstWidth ?? leftWidth, u.pos));
      rightKeys.push(right.scope.resolve(u.name, undefined, u.pos));
    }
  } else if (j.on) {
    const pred = bindExpr(j.on, bindContext(scope, pc, "JOIN"));
    for (const c of conjuncts(pred)) {
      if (c.kind === "call" && c.name === "=" && c.args.length === 2) {
        const [a, b] = c.args.map(textCastsUnwrapped);
        if (a.kind === "column" && b.kind === "column") {
          if (a.index < leftWidth && b.index >= leftWidth) {
            leftKeys.push(a.index);
            rightKeys.push(b.index - leftWidth);
            continue;
          }
          if (b.index < leftWidth && a.index >= leftWidth) {
            leftKeys.push(b.index);
            rightKeys.push(a.index - leftWidth);
            continue;
          }
        }
      }
      throw new SqlError(
        `${kind.toUpperCase()} JOIN supports only equality of left and right columns`,
        j.on.pos,
      );
    }
  }
  if (kind === "splice" && j.tolerance) {
    throw new SqlError("TOLERANCE is not supported with SPLICE JOIN", j.tolerance.pos);
  }
  const node: PlanNode = {
    ...shape([...left.node.columns, ...right.node.columns], kind === "splice" ? -1 : leftTs),
    kind: "asof",
    type: kind,
    left: left.node,
    right: right.node,
    leftKeys,
    rightKeys,
    leftTs,
    rightTs,
    toleranceMicros: j.tolerance ? toleranceOf(j.tolerance) : undefined,
  };
  return { node, scope: new Scope(scope.columns, kind === "splice" ? -1 : leftTs) };
}
