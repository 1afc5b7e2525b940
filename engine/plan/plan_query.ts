/** Plans a full query: WITH, the body (select blocks and set operations), ORDER BY, LIMIT. */
import { SqlError } from "../base/errors.ts";
import { NESTING_DEPTH_MAX } from "../base/limits.ts";
import { type ColumnType, isNumeric, isTimestamp, sameType, T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { commonType } from "../functions/cast.ts";
import { castTo } from "./bind_expr.ts";
import { castArrayDims, explicitArrayCast } from "./bind_array.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import type { CteEntry, PlanContext } from "./plan_context.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { finishQuery, outputScope, planSelect } from "./plan_select.ts";
import { showReg } from "./reg_types.ts";
import { checkSetOpCast } from "./set_op_casts.ts";

export function planQuery(q: A.Query, pc: PlanContext): PlanNode {
  const node = planQueryBody(q, pc);
  return pc.depth === 0 ? showRegColumns(node) : node;
}

/**
 * The statement's result shows regclass/regtype/regproc values by name (reg_types.ts), as
 * PostgreSQL prints them; inside the query they stay oids.
 */
function showRegColumns(node: PlanNode): PlanNode {
  if (!node.columns.some((c) => c.type.reg)) return node;
  const exprs: BoundExpr[] = node.columns.map((c, i) => showReg({ kind: "column", type: c.type, index: i }));
  return {
    ...shape(node.columns.map((c, i) => ({ ...c, type: exprs[i].type })), node.timestampIndex),
    kind: "project",
    input: node,
    exprs,
  };
}

function planQueryBody(q: A.Query, pc: PlanContext): PlanNode {
  if (pc.depth > NESTING_DEPTH_MAX) throw new SqlError("query too deeply nested", q.pos, "limit");
  let ctx = pc;
  if (q.with.length) {
    const ctes = new Map(pc.ctes);
    const own = new Set<string>();
    for (const c of q.with) {
      // One WITH cannot define a name twice; a nested WITH may shadow an outer CTE
      // (QuestDB WithClauseTest#testNestedWithDuplicateName).
      if (own.has(c.name.toLowerCase())) throw new SqlError("duplicate name", c.pos);
      own.add(c.name.toLowerCase());
      const entry: CteEntry = { cte: c, visible: new Map(ctes) };
      ctes.set(c.name.toLowerCase(), entry);
    }
    ctx = { ...pc, ctes };
  }
  if (q.body.kind === "select") return planSelect(q.body, q.orderBy, q.limit, ctx);
  const body = planBody(q.body, ctx);
  if (!q.orderBy.length && !q.limit) return body;
  return finishQuery(body, outputScope(body), q.orderBy, q.limit, ctx, false);
}

function planBody(b: A.QueryBody, pc: PlanContext): PlanNode {
  switch (b.kind) {
    case "select":
      return planSelect(b, [], undefined, pc);
    case "query":
      return planQuery(b, { ...pc, depth: pc.depth + 1 });
    case "setop":
      return planSetOp(b, pc);
  }
}

function castColumns(node: PlanNode, types: ColumnType[]): PlanNode {
  if (node.columns.every((c, i) => sameType(c.type, types[i]) && c.type.dims === types[i].dims)) return node;
  const exprs: BoundExpr[] = node.columns.map((c, i) => {
    const column: BoundExpr = { kind: "column", type: c.type, index: i };
    // A number or an array of fewer dimensions under an array column (QuestDB's ArrayTest#testUnionAll).
    return castArrayDims(column, types[i], -1) ?? explicitArrayCast(column, types[i], -1) ??
      castTo(column, types[i], -1);
  });
  return {
    ...shape(node.columns.map((c, i) => ({ name: c.name, type: types[i] }))),
    kind: "project",
    input: node,
    exprs,
  };
}

/**
 * A branch column's type for the set operation: a bare NULL projected by the branch
 * (`SELECT NULL, 0.1`) takes the other branch's type, as in QuestDB, instead of the STRING a
 * lone NULL column gets.
 */
function branchType(node: PlanNode, i: number): ColumnType {
  if (node.kind === "project") {
    const e = node.exprs[i];
    if (isConst(e) && e.value === null && e.type.tag === "NULL") return e.type;
  }
  return node.columns[i].type;
}

/**
 * The union type of two branch columns: commonType, except that CHAR against SHORT, INT or
 * LONG takes the number (the CHAR's digit converted, as QuestDB 9's UnionAllCastTest
 * #testShortChar, #testIntChar, #testLongChar; against BYTE it stays text, #testCharByte), and
 * STRING or VARCHAR against a GEOHASH takes the geohash, VARCHAR against SYMBOL is VARCHAR and
 * LONG against FLOAT is FLOAT.
 */
function setOpType(a: ColumnType, b: ColumnType): ColumnType {
  const wide = ["SHORT", "INT", "LONG"];
  if (a.tag === "CHAR" && wide.includes(b.tag)) return b;
  if (b.tag === "CHAR" && wide.includes(a.tag)) return a;
  // Text against a geohash takes the geohash, the text cut to its precision (#testStrGeoShort).
  const text = ["STRING", "VARCHAR"];
  if (a.tag === "GEOHASH" && text.includes(b.tag)) return a;
  if (b.tag === "GEOHASH" && text.includes(a.tag)) return b;
  // LONG widens to FLOAT in a union (ColumnType.isToSameOrWider), not to DOUBLE
  // (UnionAllCastTest#testFloatLong prints the long branch as floats: 4.6895921E15).
  if ((a.tag === "LONG" && b.tag === "FLOAT") || (a.tag === "FLOAT" && b.tag === "LONG")) return T.FLOAT;
  // VARCHAR outranks every other type but STRING (ColumnType.commonWideningType): against a
  // SYMBOL the union is VARCHAR (UnionTest#testUnionVarcharAndSymbol).
  if ((a.tag === "VARCHAR" && b.tag === "SYMBOL") || (a.tag === "SYMBOL" && b.tag === "VARCHAR")) {
    return T.VARCHAR;
  }
  // SYMBOL against a TIMESTAMP (either unit) is the timestamp, its text read as one; against
  // DATE and every other type it is STRING (SqlCodeGenerator.UNION_CAST_MATRIX[SYMBOL][TIMESTAMP],
  // pinned by SqlCodeGeneratorTest#testUnionCastMatrix).
  if (a.tag === "SYMBOL" && isTimestamp(b)) return b;
  if (b.tag === "SYMBOL" && isTimestamp(a)) return a;
  // Arrays: the one of more dimensions, also against a number (a one-element array) or NULL.
  if (a.tag === "ARRAY" || b.tag === "ARRAY") {
    const other = a.tag === "ARRAY" ? b : a;
    if (other.tag === "ARRAY") return (a.dims ?? 1) >= (b.dims ?? 1) ? a : b;
    if (isNumeric(other) || other.tag === "NULL") return a.tag === "ARRAY" ? a : b;
  }
  return commonType(a, b);
}

/**
 * Where QuestDB reports a refused cast of a set operation's left side: at the last branch it
 * chains, as `(a UNION b) UNION c` is the chain a, b, c whose b meets c
 * (SqlCompilerImplTest#testSelectInListWithBadCastClosesFactories: at the second SELECT).
 */
function lastBranchPos(body: A.SetOperation["left"]): number {
  return body.kind === "setop" ? lastBranchPos(body.right) : body.pos;
}

function planSetOp(op: A.SetOperation, pc: PlanContext): PlanNode {
  const left = planBody(op.left, pc);
  const right = planBody(op.right, pc);
  if (left.columns.length !== right.columns.length) {
    // At the right branch, QuestDB's union model position (SqlParserTest#testUnionDifferentColumnCount).
    throw new SqlError("queries have different number of columns", op.right.pos);
  }
  const types = left.columns.map((_, i) => {
    checkSetOpCast(branchType(left, i), branchType(right, i), [lastBranchPos(op.left), op.right.pos]);
    const t = setOpType(branchType(left, i), branchType(right, i));
    return t.tag === "NULL" ? T.STRING : t;
  });
  const columns = left.columns.map((c, i) => ({ name: c.name, type: types[i] }));
  return {
    ...shape(columns),
    kind: "setop",
    op: op.op,
    all: op.all,
    left: castColumns(left, types),
    right: castColumns(right, types),
  };
}
