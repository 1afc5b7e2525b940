/**
 * Plans LATEST ON ts PARTITION BY keys and the legacy LATEST BY keys (spec/sql.md §9): the
 * WHERE filter runs first, except `within` geohash conditions, which QuestDB applies to the
 * latest rows; the result keeps the input's columns and is ordered by the timestamp.
 */
import { SqlError } from "../base/errors.ts";
import { isTimestamp, typeName } from "../base/types.ts";
import { exprKey } from "../sql/printer.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import { andAll, conjuncts } from "./intervals_from_where.ts";
import type { PlanContext } from "./plan_context.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { bindContext } from "./plan_select.ts";
import { Scope } from "./scope.ts";

const LATEST_ON_KEY_TYPES = new Set([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "FLOAT",
  "DOUBLE",
  "LONG128",
  "LONG256",
  "CHAR",
  "STRING",
  "VARCHAR",
  "SYMBOL",
  "UUID",
  "GEOHASH",
  "IPV4",
]);

export function planLatestOn(
  core: A.SelectCore,
  node: PlanNode,
  scope: Scope,
  pc: PlanContext,
): { node: PlanNode; scope: Scope } {
  const lo = core.latestOn!;
  let tsIndex = scope.timestampIndex;
  const first = core.from?.first;
  const derived = first?.kind === "subquerySource" ||
    (first?.kind === "table" && pc.ctes.has(first.name.toLowerCase()));
  if (lo.ts) {
    tsIndex = scope.resolve(lo.ts.name, lo.ts.qualifier, lo.ts.pos);
    if (!isTimestamp(scope.columns[tsIndex].type)) throw new SqlError("timestamp column expected", lo.ts.pos);
    // LATEST ON over a table names its designated timestamp (SqlCodeGeneratorTest
    // #testLatestByFailsOnNonDesignatedTimestamp).
    if (
      first?.kind === "table" && !derived && core.from?.joins.length === 0 && tsIndex !== scope.timestampIndex
    ) {
      throw new SqlError("latest by over a table requires designated TIMESTAMP", lo.ts.pos);
    }
  }
  // LATEST BY over rows without a designated timestamp keeps each key's last row in input
  // order (tsIndex -1), as QuestDB does (IPv4Test#testLatestByIPv4 on a table without one).
  // Over a subquery or a CTE QuestDB requires one (SqlCodeGenerator.generateLatestBy,
  // SqlCodeGeneratorTest#testFailsForLatestByOnSubQueryWithNoTimestampSpecified).
  if (tsIndex < 0 && derived && core.from?.joins.length === 0) {
    throw new SqlError("latest by query does not provide dedicated TIMESTAMP column", core.pos);
  }
  const ctx = bindContext(scope, pc, "LATEST ON");
  const keys = lo.partitionBy.map((k) => bindExpr(k, ctx));
  keys.forEach((k, i) => {
    // SqlCodeGeneratorTest#testLatestByUnsupportedColumnTypes: BINARY (and other types without
    // a hashable value) are refused at the key.
    if (LATEST_ON_KEY_TYPES.has(k.type.tag) || k.type.tag === "NULL") return;
    const ast = lo.partitionBy[i];
    const name = ast.kind === "column" ? ast.name : exprKey(ast);
    throw new SqlError(
      `${name} (${
        typeName(k.type)
      }): invalid type, only [BOOLEAN, BYTE, SHORT, INT, LONG, DATE, TIMESTAMP, ` +
        "FLOAT, DOUBLE, LONG128, LONG256, CHAR, STRING, VARCHAR, SYMBOL, UUID, GEOHASH, IPv4] are supported in LATEST ON",
      ast.pos,
    );
  });
  let input = node;
  let post: BoundExpr | undefined;
  if (node.kind === "filter") {
    const parts = conjuncts(node.predicate);
    const isWithin = (e: BoundExpr) => e.kind === "call" && e.name === "within";
    if (parts.some(isWithin)) {
      post = andAll(parts.filter(isWithin));
      const rest = andAll(parts.filter((e) => !isWithin(e)));
      input = rest ? { ...node, predicate: rest } : node.input;
    }
  }
  // Over a subquery or CTE whose rows QuestDB can revisit it keeps a row id per key and emits
  // them in the order the keys first appear, with no designated timestamp (LatestByPlanningTest
  // #testDerivedLatestTimestampDesignationIsObservedByParents: the rows of `id,s` 5 A, 6 B, 3
  // NULL; an ASOF JOIN or SAMPLE BY over it then lacks a TIMESTAMP, reported at this query by
  // timestampLostByLatest's callers). Other inputs (SAMPLE BY
  // ALIGN TO FIRST OBSERVATION, joins, set operations) come out by the timestamp, keeping it.
  const keyOrder = derived && core.from?.joins.length === 0 && tsIndex >= 0 && revisitable(node);
  const outTs = keyOrder ? -1 : tsIndex;
  const out: PlanNode = {
    ...shape(node.columns, outTs),
    kind: "latestBy",
    input,
    keys,
    tsIndex,
    post,
    ...(keyOrder ? { keyOrder: core.pos } : {}),
  };
  return { node: out, scope: new Scope(scope.columns, outTs) };
}

/**
 * Whether QuestDB's factory for this input supports random access (recordCursorSupportsRandomAccess):
 * table scans, filters, projections, limits, sorts and GROUP BY do; SAMPLE BY that QuestDB does not
 * rewrite into a GROUP BY (ALIGN TO FIRST OBSERVATION, FILL), joins and set operations do not.
 */
function revisitable(n: PlanNode): boolean {
  switch (n.kind) {
    case "sampleBy":
      return !n.spec.alignFirstObservation && n.spec.fill.every((f) => f.kind === "none");
    case "join":
    case "asof":
    case "lateral":
    case "setop":
      return false;
    case "filter":
    case "project":
    case "limit":
    case "window":
      return revisitable(n.input);
    default:
      return true;
  }
}
