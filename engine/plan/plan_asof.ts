/**
 * Plans ASOF, LT and SPLICE joins (spec/sql.md §11.3–§11.5): both sides need a designated
 * timestamp; `ON (a, b)` or `ON l.x = r.y AND ...` give equality keys; TOLERANCE bounds how
 * old the matched right row may be. Executed as a forward merge (`engine/exec/asof_join.ts`).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { type ColumnType, T } from "../base/types.ts";
import { castTo } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import { conjuncts } from "./intervals_from_where.ts";
import type { PlanContext } from "./plan_context.ts";
import type { Planned } from "./plan_from.ts";
import { type PlanNode, shape, timestampLostByLatest } from "./plan_node.ts";
import { astConjuncts, bindJoinOn, checkJoinKeyTypes } from "./bind_join_on.ts";
import { exprToText } from "../sql/printer.ts";
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

/** The tolerance in ticks of the joined timestamps: microseconds, or nanoseconds (`ns`). */
function toleranceOf(t: NonNullable<A.Join["tolerance"]>, ns: boolean): bigint {
  if (t.unit === "n") return ns ? BigInt(t.amount) : BigInt(Math.floor(t.amount / 1000));
  const per = TOLERANCE_MICROS[t.unit];
  if (per === undefined) throw new SqlError(`unsupported TOLERANCE unit [unit=${t.unit}]`, t.pos);
  if (t.amount < 0) throw new SqlError("TOLERANCE must be non-negative", t.pos);
  return per * BigInt(t.amount) * (ns ? 1000n : 1n);
}

const isNs = (node: PlanNode, i: number) => node.columns[i].type.tag === "TIMESTAMP_NS";

/** `node` with column `i` cast to `type` (the other columns and the timestamp index kept). */
function withColumnCast(node: PlanNode, i: number, type: ColumnType): PlanNode {
  const columns = node.columns.map((c, k) => (k === i ? { ...c, type } : c));
  return {
    ...shape(columns, node.timestampIndex),
    kind: "project",
    input: node,
    exprs: node.columns.map((c, k): BoundExpr => {
      const col: BoundExpr = { kind: "column", type: c.type, index: k };
      return k === i ? castTo(col, type, -1) : col;
    }),
  };
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
  const leftIn = withHiddenTimestamp(left.node), rightIn = withHiddenTimestamp(right.node);
  const leftTs = leftIn.timestampIndex;
  const rightTs = rightIn.timestampIndex;
  // A LATEST ON subquery emitting its keys in order lost its designated timestamp: QuestDB's
  // code generator reports it at that query (LatestByPlanningTest
  // #testDerivedLatestTimestampDesignationIsObservedByParents).
  for (const [side, ts] of [[leftIn, leftTs], [rightIn, rightTs]] as const) {
    const lost = ts < 0 ? timestampLostByLatest(side) : undefined;
    if (lost !== undefined) throw new SqlError("TIMESTAMP column is required but not provided", lost);
  }
  if (leftTs < 0) throw new SqlError("left side of time series join has no timestamp", j.pos);
  if (rightTs < 0) throw new SqlError("right side of time series join has no timestamp", j.pos);
  // A side sorted by its timestamp descending cannot be merged (JoinTest
  // #testLtJoinLeftTimestampDescOrder, #testLtJoinRightTimestampDescOrder: both at the join).
  if (descendingTs(leftIn)) {
    throw new SqlError("left side of time series join doesn't have ASC timestamp order", j.pos);
  }
  if (descendingTs(rightIn)) {
    throw new SqlError("right side of time series join doesn't have ASC timestamp order", j.pos);
  }
  // SPLICE JOIN rereads both sides: an aggregated side cannot be (JoinTest
  // #testSpliceJoinFailsBecauseSubqueryDoesntSupportRandomAccess, a SAMPLE BY subquery).
  if (kind === "splice") {
    for (const [side, node] of [["left", leftIn], ["right", rightIn]] as const) {
      if (aggregated(node)) {
        throw new SqlError(`${side} side of splice join doesn't support random access`, j.pos);
      }
    }
  }
  const leftWidth = left.node.columns.length;
  const leftHidden = leftIn !== left.node, rightHidden = rightIn !== right.node;
  const scope = Scope.concat(left.scope, right.scope, leftHidden ? -1 : leftTs);
  const leftKeys: number[] = [];
  const rightKeys: number[] = [];
  if (j.using) {
    for (const u of j.using) {
      leftKeys.push(left.scope.resolveUsing(u.name, left.firstWidth ?? leftWidth, u.pos));
      rightKeys.push(right.scope.resolve(u.name, undefined, u.pos));
    }
    checkJoinKeyTypes(j, scope, leftWidth, leftKeys.map((l, k) => [l, leftWidth + rightKeys[k]]));
  } else if (j.on) {
    const pred = bindJoinOn(j.on, scope, pc, leftWidth);
    checkJoinKeyTypes(j, scope, leftWidth);
    const parts = conjuncts(pred), astParts = astConjuncts(j.on);
    const unsupported: A.Expr[] = [];
    parts.forEach((c, i) => {
      if (c.kind === "call" && c.name === "=" && c.args.length === 2) {
        const [a, b] = c.args.map(textCastsUnwrapped);
        if (a.kind === "column" && b.kind === "column") {
          if (a.index < leftWidth && b.index >= leftWidth) {
            leftKeys.push(a.index);
            rightKeys.push(b.index - leftWidth);
            return;
          }
          if (b.index < leftWidth && a.index >= leftWidth) {
            leftKeys.push(b.index);
            rightKeys.push(a.index - leftWidth);
            return;
          }
        }
      }
      unsupported.push(parts.length === astParts.length ? astParts[i] : j.on!);
    });
    // QuestDB keeps the equalities of a left and a right column as keys and refuses what is left
    // at its first conjunct, printing it (AsOfJoinTest#testAsofJoinWithComplexConditionFails1:
    // "unsupported ASOF join expression [expr='l1 = l2 + 5']" at the `=`; StaticJoinErrorTest
    // #testSpliceJoinExpression).
    if (unsupported.length > 0) {
      throw new SqlError(
        `unsupported ${kind.toUpperCase()} join expression [expr='${
          unsupported.map(exprToText).join(" and ")
        }']`,
        unsupported[0].pos,
      );
    }
  }
  // Geohash keys of different precisions never match (JoinTest
  // #testJoinOnGeohashNonExactPrecisionNotAllowed: geohash(4c) against geohash(1c)).
  leftKeys.forEach((l, k) => {
    const [a, b] = [left.node.columns[l].type, right.node.columns[rightKeys[k]].type];
    if (a.tag === "GEOHASH" && b.tag === "GEOHASH" && a.geoBits !== b.geoBits) {
      throw new SqlError("join column type mismatch", j.on?.pos ?? j.using?.[k]?.pos ?? j.pos);
    }
  });
  // questdb#6637 (AsOfJoinTest#testJoinOnTimestampAndSomethingElseNotAllowed): the designated
  // timestamps are what the join matches on; as a key they are refused at the join.
  if (kind !== "splice" && (leftKeys.includes(leftTs) || rightKeys.includes(rightTs))) {
    throw new SqlError("ASOF/LT JOIN cannot use designated timestamp as a join key", j.pos);
  }
  if (kind === "splice" && j.tolerance) {
    throw new SqlError("TOLERANCE is not supported with SPLICE JOIN", j.tolerance.pos);
  }
  // TIMESTAMP against TIMESTAMP_NS (the docs' mixed precision): the merge compares raw ticks,
  // so the microsecond side's timestamp joins as nanoseconds and is cast back above the join.
  const lNs = isNs(leftIn, leftTs), rNs = isNs(rightIn, rightTs);
  const ns = lNs || rNs;
  let joinLeft = lNs === ns ? leftIn : withColumnCast(leftIn, leftTs, T.TIMESTAMP_NS);
  let joinRight = rNs === ns ? rightIn : withColumnCast(rightIn, rightTs, T.TIMESTAMP_NS);
  // A TIMESTAMP key against a TIMESTAMP_NS key matches the same instant
  // (FullFatJoinConvertedKeyTest#testAsOfJoinReadsTimestampKeyComparedWithNanos): the
  // microsecond key joins as nanoseconds too and is cast back above the join.
  const leftKeyCasts = new Set<number>(), rightKeyCasts = new Set<number>();
  leftKeys.forEach((l, k) => {
    const [a, b] = [leftIn.columns[l].type.tag, rightIn.columns[rightKeys[k]].type.tag];
    if (a === "TIMESTAMP" && b === "TIMESTAMP_NS") leftKeyCasts.add(l);
    if (a === "TIMESTAMP_NS" && b === "TIMESTAMP") rightKeyCasts.add(rightKeys[k]);
  });
  for (const i of leftKeyCasts) joinLeft = withColumnCast(joinLeft, i, T.TIMESTAMP_NS);
  for (const i of rightKeyCasts) joinRight = withColumnCast(joinRight, i, T.TIMESTAMP_NS);
  const tsIndex = kind === "splice" || leftHidden ? -1 : leftTs;
  let node: PlanNode = {
    ...shape([...joinLeft.columns, ...joinRight.columns], tsIndex),
    kind: "asof",
    type: kind,
    left: joinLeft,
    right: joinRight,
    leftKeys,
    rightKeys,
    leftTs,
    rightTs,
    toleranceTicks: j.tolerance ? toleranceOf(j.tolerance, ns) : undefined,
  };
  const joinedLeftWidth = leftIn.columns.length;
  if (lNs !== ns) node = withColumnCast(node, leftTs, leftIn.columns[leftTs].type);
  if (rNs !== ns) node = withColumnCast(node, joinedLeftWidth + rightTs, rightIn.columns[rightTs].type);
  for (const i of leftKeyCasts) node = withColumnCast(node, i, T.TIMESTAMP);
  for (const i of rightKeyCasts) node = withColumnCast(node, joinedLeftWidth + i, T.TIMESTAMP);
  if (leftHidden || rightHidden) {
    // Drop the carried timestamps: the result has the columns the two sides select.
    const keep = node.columns.map((_, i) => i).filter((i) =>
      !(leftHidden && i === leftWidth) && !(rightHidden && i === node.columns.length - 1)
    );
    node = {
      ...shape(keep.map((i) => node.columns[i]), tsIndex),
      kind: "project",
      input: node,
      exprs: keep.map((i): BoundExpr => ({ kind: "column", type: node.columns[i].type, index: i })),
    };
  }
  return { node, scope: new Scope(scope.columns, tsIndex) };
}

/**
 * A side whose projection left out its designated timestamp (`WITH s AS (SELECT sym, v FROM t)`
 * joined ASOF): QuestDB still joins on the table's timestamp (asof-join.md, "Default
 * behavior"), so the projection carries it as an extra last column, dropped after the join.
 */
/** Is the node's output an aggregate's, seen through projections and filters? */
function aggregated(node: PlanNode): boolean {
  let n = node;
  while (n.kind === "project" || n.kind === "filter") n = n.input;
  return n.kind === "aggregate" || n.kind === "sampleBy";
}

/** Is the node's output ordered by its designated timestamp descending (ORDER BY ts DESC)? */
function descendingTs(node: PlanNode): boolean {
  let n = node;
  while (n.kind === "project" || n.kind === "filter" || n.kind === "limit") n = n.input;
  if (n.kind === "scan") return n.reverse && n.timestampIndex >= 0;
  return n.kind === "sort" && n.timestampIndex >= 0 && n.keys[0]?.index === n.timestampIndex &&
    n.keys[0].desc;
}

export function withHiddenTimestamp(node: PlanNode): PlanNode {
  if (node.timestampIndex >= 0 || node.kind !== "project" || node.input.timestampIndex < 0) return node;
  const at = node.input.timestampIndex;
  const ts = node.input.columns[at];
  return {
    ...shape([...node.columns, { name: ts.name, type: ts.type }], node.columns.length),
    kind: "project",
    input: node.input,
    exprs: [...node.exprs, { kind: "column", type: ts.type, index: at }],
  };
}
