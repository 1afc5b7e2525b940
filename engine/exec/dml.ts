/**
 * INSERT (VALUES and SELECT) and UPDATE (spec/sql.md §6). Values are converted to the column
 * types with the assignment rules of §3.4 before anything is written; each statement is one
 * atomic commit, or inside a transaction block rows kept for COMMIT (transaction.ts).
 */
import { pushedColumnConjuncts } from "../plan/pushed_column_conjuncts.ts";
import { SqlError } from "../base/errors.ts";
import { INSERT_VALUES_ROWS_MAX } from "../base/limits.ts";
import {
  allocVectorData,
  type Batch,
  readValue,
  type Value,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { assignable, castValue, convertForAssign } from "../functions/cast.ts";
import { type ColumnType, isIntegral, isNumeric, typeName } from "../base/types.ts";
import { isText } from "../functions/_util.ts";
import { exprToText } from "../sql/printer.ts";
import type { BindContext } from "../plan/bind_expr.ts";
import { bindExpr, widenedArg } from "../plan/bind_expr.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { Scope } from "../plan/scope.ts";
import type { ColumnUpdate, OnConflict, RowsToWrite, Storage, Table } from "../storage/api.ts";
import { compileExpr, compilePredicate } from "./compile_expr.ts";
import { columnIndex, requireTable } from "./ddl.ts";
import { type ExecContext, pace } from "./exec_context.ts";
import { narrowForInsert, narrowsOnInsert } from "./insert_narrowing.ts";
import { batchesToRows } from "./rows_to_write.ts";
import { runPlan } from "./run_plan.ts";
import { prepareExprSubqueries } from "./subqueries.ts";
import { readUsed } from "./dml_columns.ts";
import { uses } from "../plan/prune_columns.ts";
import type { Transaction } from "./transaction.ts";
import { holdSource, SourceMatcher } from "./update_from.ts";

/** ON CONFLICT and RETURNING of an INSERT (issue 10). */
export interface InsertExtras {
  onConflict?: OnConflict;
  /** When given, each append's rows and the rows ON CONFLICT DO NOTHING dropped (RETURNING). */
  written?: { rows: RowsToWrite; skipped: Uint8Array }[];
  /** Inside a transaction block the rows are kept for COMMIT instead of appended (§12.10). */
  transaction?: Transaction;
  /** Checks SELECT on what the VALUES expressions read through their subqueries (security.md T14). */
  checkReads?: (exprs: BoundExpr[]) => void;
  /** A turn for other statements while many rows are converted and encoded (issue #17). */
  yieldTurn?: () => Promise<void>;
}

/** Rows an UPDATE evaluates between two looks at pace() (which yields only when a slice is used up). */
const PACE_ROWS_MASK = 0x3fff;

/** Appends with the INSERT's extras; returns the rows the statement counts as inserted. */
async function appendRows(t: Table, rows: RowsToWrite, extras: InsertExtras): Promise<number> {
  const skipped = new Uint8Array(rows.rowCount);
  if (extras.transaction?.buffering) {
    extras.transaction.buffer(t, rows, extras.onConflict);
    extras.written?.push({ rows, skipped });
    return rows.rowCount;
  }
  await t.append(rows, { onConflict: extras.onConflict, skipped, yieldTurn: extras.yieldTurn });
  extras.written?.push({ rows, skipped });
  let n = rows.rowCount;
  for (const x of skipped) n -= x;
  return n;
}

function targetColumns(t: Table, s: A.InsertStmt): number[] {
  if (!s.columns) return t.meta.columns.map((_, i) => i);
  const seen = new Set<number>();
  return s.columns.map((c) => {
    const i = columnIndex(t, c.name, c.pos);
    if (seen.has(i)) throw new SqlError(`Duplicate column [name=${c.name}]`, c.pos);
    seen.add(i);
    return i;
  });
}

function checkTimestampGiven(t: Table, targets: number[], pos: number): void {
  const ts = t.meta.timestampIndex;
  if (ts >= 0 && !targets.includes(ts)) {
    throw new SqlError(
      "designated timestamp column must be supplied [column=" + t.meta.columns[ts].name + "]",
      pos,
    );
  }
}

export async function insertValues(
  s: A.InsertStmt,
  storage: Storage,
  bind: (scope: Scope) => BindContext,
  ctx: ExecContext,
  extras: InsertExtras = {},
): Promise<number> {
  const t = requireTable(storage, s.table.name, s.table.pos);
  const targets = targetColumns(t, s);
  checkTimestampGiven(t, targets, s.table.pos);
  const rows = s.values!;
  if (rows.length > INSERT_VALUES_ROWS_MAX) throw new SqlError("too many rows in VALUES", s.pos, "limit");
  const cols = t.meta.columns;
  const data: (VectorData | null)[] = cols.map(() => null);
  for (const i of targets) {
    data[i] = cols[i].type.tag === "SYMBOL"
      ? new Array<Value>(rows.length).fill(null)
      : allocVectorData(cols[i].type, rows.length);
  }
  const empty: Batch = { rowCount: 1, columns: [] };
  const scope = new Scope([]);
  const bound = rows.map((row, r) => {
    if (row.length !== targets.length) {
      throw new SqlError(
        `row value count does not match column count [expected=${targets.length}, actual=${row.length}, tuple=${
          r + 1
        }]`,
        s.valuesEndPos?.[r] ?? row[0]?.pos ?? s.pos,
      );
    }
    return row.map((ast, j) => {
      const bc = bind(scope);
      return widenedArg(bindExpr(ast, bc), cols[targets[j]].type, ast.pos, bc);
    });
  });
  // Subqueries in VALUES (`VALUES ((SELECT max(x) FROM t))`) are checked and run first, as the
  // main pipeline does for a query's, so they give their value instead of NULL.
  const exprs = bound.flat();
  extras.checkReads?.(exprs);
  await prepareExprSubqueries(exprs, ctx, runPlan);
  bound.forEach((row, r) => {
    row.forEach((e, j) => {
      const col = cols[targets[j]];
      const v = compileExpr(e, ctx)(empty, 0);
      // QuestDB reports implicit conversion failures of VALUES at the statement (errors-018),
      // but a type that cannot be assigned at all at its value (UuidTest
      // #testInsertFromFunctionReturningLong: `values (rnd_long())` into a UUID is at 22).
      // A number is no SYMBOL in QuestDB's VALUES (InsertTest#testInsertMultipleRowsFailTypeConversion).
      if (col.type.tag === "SYMBOL" && isNumeric(e.type)) {
        throw new SqlError(
          `inconvertible types: ${typeName(e.type)} -> SYMBOL [from=${
            exprToText(rows[r][j])
          }, to=${col.name}]`,
          rows[r][j].pos,
        );
      }
      if (
        !narrowsOnInsert(e.type, col.type) && !assignable(e.type, col.type, v) &&
        !(isIntegral(e.type) && isIntegral(col.type))
      ) {
        throw new SqlError(
          `inconvertible types: ${typeName(e.type)} -> ${typeName(col.type)}`,
          rows[r][j].pos,
        );
      }
      const x = narrowsOnInsert(e.type, col.type)
        ? narrowForInsert(v, e.type, col.type, s.pos)
        : convertForAssign(v, e.type, col.type, s.pos, targets[j] === t.meta.timestampIndex);
      if (col.type.tag === "TIMESTAMP_NS" && beyondLong(x)) {
        throw new SqlError(
          "timestamp_ns before 1970-01-01 and beyond 2261-12-31 23:59:59.999999999 is not allowed",
          rows[r][j].pos,
        );
      }
      if (targets[j] === t.meta.timestampIndex && x === null) {
        throw new SqlError("designated timestamp column cannot be NULL", rows[r][j].pos);
      }
      if (col.type.tag === "SYMBOL") (data[targets[j]] as Value[])[r] = x;
      else writeValue(col.type, data[targets[j]]!, r, x);
    });
  });
  const write: RowsToWrite = { rowCount: rows.length, columns: data };
  return await appendRows(t, write, extras);
}

/**
 * Where QuestDB points a column's INSERT ... SELECT type error: at that select item's
 * expression when the query is a plain SELECT list (IPv4Test#testImplicitCastBinaryToIPv4),
 * else at the query.
 */
function selectItemPos(q: A.Query, j: number): number {
  const expr = selectItemExpr(q, j);
  return expr && expr.kind !== "star" ? expr.pos : q.pos;
}

/** The j-th select item's expression when the query is a plain SELECT list. */
function selectItemExpr(q: A.Query, j: number): A.Expr | undefined {
  const body = q.body;
  return body.kind === "select" ? body.items?.[j]?.expr : undefined;
}

/** A NULL literal, bare or cast (`null`, `null::date`, `cast(null as float)`). */
function isNullItem(e: A.Expr | undefined): boolean {
  if (e?.kind === "cast") return isNullItem(e.expr);
  return e?.kind === "literal" && e.type === "null";
}

/**
 * Text copied into a time column is QuestDB's implicitCastStrAsTimestamp: a whole number is
 * ticks, else ISO text, else the statement fails (InsertCastTest#testCastStrTimestampTab).
 */
function storesTextAsTicks(from: ColumnType, to: ColumnType): boolean {
  return isText(from) && (to.tag === "DATE" || to.tag === "TIMESTAMP" || to.tag === "TIMESTAMP_NS");
}

/** A 64-bit tick count out of range: a TIMESTAMP_NS past 2262 (InsertTest#testInsertTimestampNSOverflowException). */
function beyondLong(x: Value): boolean {
  return typeof x === "bigint" && (x > 9223372036854775807n || x < -9223372036854775808n);
}

/**
 * A DATE or TIMESTAMP copied into a TIMESTAMP_NS column; one past 2262 fails the statement with
 * its raw ticks (InsertTest#testInsertTimestampNSOverflowException3:
 * `inconvertible value: 11076652800123000 [TIMESTAMP -> TIMESTAMP_NS]` at 0).
 */
function nanosOf(v: Value, from: ColumnType, to: ColumnType): Value {
  const x = castValue(v, from, to, { constant: false, pos: -1 });
  if (beyondLong(x)) {
    throw new SqlError(`inconvertible value: ${v} [${typeName(from)} -> ${typeName(to)}]`, 0);
  }
  return x;
}

/**
 * QuestDB's insert-as-select checks of the table's designated timestamp, both at the table name:
 * a SELECT with its own designated timestamp must have it at the table's position, else the
 * column copied into it must be a timestamp, text or NULL (InsertTest
 * #testInsertWithWrongDesignatedColumn, #testInsertWithoutDesignatedTimestampAndTypeDoesNotMatch).
 */
function checkSelectTimestamp(s: A.InsertStmt, tsIndex: number, targets: number[], plan: PlanNode): void {
  if (tsIndex < 0) return;
  if (!s.columns && plan.timestampIndex >= 0) {
    if (plan.timestampIndex !== tsIndex) {
      throw new SqlError(
        `designated timestamp of existing table (${tsIndex}) does not match designated timestamp in select query (${plan.timestampIndex})`,
        s.table.pos,
      );
    }
    return;
  }
  const j = targets.indexOf(tsIndex);
  const c = plan.columns[j];
  if (!c || isNullItem(selectItemExpr(s.query!, j))) return;
  const tag = c.type.tag;
  const fits = ["TIMESTAMP", "TIMESTAMP_NS", "STRING", "VARCHAR", "NULL"];
  if (!fits.includes(tag)) {
    throw new SqlError(`expected timestamp column but type is ${typeName(c.type)}`, s.table.pos);
  }
}

export async function insertSelect(
  s: A.InsertStmt,
  storage: Storage,
  plan: PlanNode,
  run: (p: PlanNode) => AsyncIterable<Batch>,
  extras: InsertExtras = {},
): Promise<number> {
  const t = requireTable(storage, s.table.name, s.table.pos);
  const targets = targetColumns(t, s);
  checkTimestampGiven(t, targets, s.table.pos);
  // With a column list the SELECT must match it (SqlParserTest
  // #testInsertAsSelectColumnCountMismatch). Without one QuestDB copies the SELECT's first
  // columns in order and ignores any extra ones; too few fail at the SELECT keyword, or at the
  // table when the designated timestamp is among those missing
  // (InsertTest#testInsertWithLessColumnsThanExistingTable,
  // OrderByWithFilterTest#testOrderByPrefixedColumnNotOnSelectList1 inserts five into four).
  if (s.columns && plan.columns.length !== targets.length) {
    throw new SqlError("column count mismatch", s.table.pos);
  }
  if (plan.columns.length < targets.length) {
    const ts = t.meta.timestampIndex;
    if (ts >= 0 && plan.columns.length <= ts) {
      throw new SqlError("select clause must provide timestamp column", s.table.pos);
    }
    throw new SqlError("not enough columns selected", s.query!.pos);
  }
  checkSelectTimestamp(s, t.meta.timestampIndex, targets, plan);
  plan.columns.slice(0, targets.length).forEach((c, j) => {
    const to = t.meta.columns[targets[j]].type;
    // INSERT ... SELECT does not render IPv4 as text, though UPDATE does (IPv4Test
    // #testImplicitCastIPv4ToStr against #testUpdateTableIPv4ToString), nor read a SYMBOL as
    // an address, though it reads STRING (#testImplicitCastSymbolToIPv4, #testImplicitCastStrToIpv4).
    const ipv4AsText = (c.type.tag === "IPV4" &&
      (to.tag === "STRING" || to.tag === "VARCHAR" || to.tag === "SYMBOL")) ||
      (c.type.tag === "SYMBOL" && to.tag === "IPV4");
    // A bare NULL select item is typed STRING in the plan, yet fits every column
    // (InsertNullTest#testInsertNull: `insert into x select null` into a BINARY column), and so
    // does a NULL cast to any type (UnionTest#testNullConversionsFromDate: `null::date` into INT).
    const nullItem = isNullItem(selectItemExpr(s.query!, j));
    if (!nullItem && (ipv4AsText || (!assignable(c.type, to) && !narrowsOnInsert(c.type, to)))) {
      throw new SqlError(
        `inconvertible types: ${typeName(c.type)} -> ${typeName(to)} [from=${c.name}, to=${
          t.meta.columns[targets[j]].name
        }]`,
        // At the target in a column list, else at the SELECT item (SqlCompilerImplTest
        // #testInsertAsSelectInconvertibleList1 against #testInsertAsSelectInconvertible1).
        s.columns?.[j]?.pos ?? selectItemPos(s.query!, j),
      );
    }
  });
  let total = 0;
  let pending: Batch[] = [];
  let pendingRows = 0;
  const flush = async () => {
    if (pendingRows === 0) return;
    const rows = await batchesToRows(
      pending,
      t.meta.columns,
      targets,
      (v, from, to) =>
        narrowsOnInsert(from, to)
          ? narrowForInsert(v, from, to, s.query!.pos)
          : storesTextAsTicks(from, to)
          ? convertForAssign(v, from, to, s.query!.pos)
          : to.tag === "TIMESTAMP_NS" && (from.tag === "TIMESTAMP" || from.tag === "DATE")
          ? nanosOf(v, from, to)
          : undefined,
      extras.yieldTurn,
    );
    const ts = t.meta.timestampIndex;
    if (ts >= 0 && rows.columns[ts]) {
      const tsData = rows.columns[ts] as BigInt64Array;
      for (let i = 0; i < tsData.length; i++) {
        if (tsData[i] === -9223372036854775808n) {
          throw new SqlError("designated timestamp column cannot be NULL", s.pos);
        }
      }
    }
    total += await appendRows(t, rows, extras);
    pending = [];
    pendingRows = 0;
  };
  for await (const b of run(plan)) {
    pending.push(b);
    pendingRows += b.rowCount;
    if (pendingRows >= 1_000_000) await flush();
  }
  await flush();
  return total;
}

export async function update(
  s: A.UpdateStmt,
  storage: Storage,
  bind: (scope: Scope) => BindContext,
  ctx: ExecContext,
  /** Plans UPDATE's FROM clause as a SELECT's (required when the statement has one). */
  planSource?: (from: A.FromClause) => { node: PlanNode; scope: Scope },
): Promise<number> {
  const t = requireTable(storage, s.table.name, s.table.pos);
  const cols = t.meta.columns;
  const qualifiers = s.alias ? [s.alias, t.meta.name] : [t.meta.name];
  // QuestDB reads FROM as one source cross-joined to the target: a second one is refused.
  if (s.from?.joins.length) {
    throw new SqlError("JOIN is not supported on UPDATE statement", s.from.joins[0].pos);
  }
  const source = s.from ? planSource!(s.from) : undefined;
  // The FROM clause's columns follow the target's: a (target row, source row) pair is one row.
  const scope = new Scope(
    [...cols.map((c) => ({ name: c.name, type: c.type, qualifiers })), ...(source?.scope.columns ?? [])],
    t.meta.timestampIndex,
  );
  const seen = new Set<number>();
  const targets = s.set.map((a) => {
    const i = columnIndex(t, a.column, a.pos);
    if (i === t.meta.timestampIndex) {
      throw new SqlError("Designated timestamp column cannot be updated", a.pos);
    }
    if (seen.has(i)) throw new SqlError(`Duplicate column [name=${a.column}] in SET clause`, a.pos);
    seen.add(i);
    return i;
  });
  // WHERE binds before the SET values, so its error comes first (BindTimePredicateErrorTest
  // #testUpdateErrors: `SET v = abs(v, 1) WHERE v = true` fails at the WHERE's `=`).
  const target: A.TableSource = { kind: "table", pos: s.table.pos, name: t.meta.name, alias: s.alias };
  const zeroPos = s.where &&
    pushedColumnConjuncts(s.where, { from: { first: target, joins: [] }, ctes: new Map() });
  const where: BoundExpr | undefined = s.where
    ? bindExpr(s.where, { ...bind(scope), clause: "WHERE", zeroPos })
    : undefined;
  const sets = s.set.map((a, k) => {
    const i = targets[k];
    const e = bindExpr(a.expr, bind(scope));
    // A number is no SYMBOL in UPDATE either (UpdateTest#testUpdateColumnsTypeMismatch:
    // `SET s = sm` with a LONG sm fails at sm).
    const numberToSymbol = cols[i].type.tag === "SYMBOL" && isNumeric(e.type);
    if (numberToSymbol || !assignable(e.type, cols[i].type, e.kind === "const" ? e.value : undefined)) {
      throw new SqlError(
        `inconvertible types: ${typeName(e.type)} -> ${typeName(cols[i].type)} [from=${
          exprLabel(a.expr)
        }, to=${cols[i].name}]`,
        a.expr.pos,
      );
    }
    return { index: i, expr: e, pos: a.expr.pos };
  });
  await prepareExprSubqueries([...(where ? [where] : []), ...sets.map((x) => x.expr)], ctx, runPlan);
  const pred = where ? compilePredicate(where, ctx) : undefined;
  const evals = sets.map((x) => compileExpr(x.expr, ctx));
  const matcher = source
    ? new SourceMatcher(
      {
        targetWidth: cols.length,
        rows: await holdSource(source.node.columns.map((c) => c.type), runPlan(source.node, ctx)),
      },
      where,
      pred,
      ctx,
    )
    : undefined;
  const used = uses([where, ...sets.map((x) => x.expr)], new Set());
  const types = cols.map((c) => c.type);
  let updated = 0;
  // The rows are chosen from a snapshot taken under the table's write lock (as DELETE's): a
  // write committed between choosing and rewriting would move the rows the changes name.
  await t.updateRows(async (snap) => {
    const changes: ColumnUpdate[] = [];
    for (let p = 0; p < snap.partitions.length; p++) {
      const info = snap.partitions[p];
      if (info.rowCount === 0) continue;
      const columns = await readUsed(snap, p, types, used, info.rowCount);
      const batch: Batch = { rowCount: info.rowCount, columns };
      // Reads from the cache resolve at once: without pace() here an UPDATE over many
      // partitions held the event loop for its whole scan (issue #17).
      await pace(ctx);
      // The SET expressions read row at(j) of `from` for the j-th updated row.
      let rows: number[] = [], from = batch, at = (j: number) => rows[j];
      if (matcher) {
        ({ rows, pairs: from } = await matcher.match(batch));
        at = (j) => j;
      } else {
        for (let i = 0; i < info.rowCount; i++) {
          if ((i & PACE_ROWS_MASK) === 0) await pace(ctx);
          if (!pred || pred(batch, i)) rows.push(i);
        }
      }
      if (!rows.length) continue;
      updated += rows.length;
      for (const [k, set] of sets.entries()) {
        const col = cols[set.index];
        const values = col.type.tag === "SYMBOL"
          ? new Array<Value>(rows.length)
          : allocVectorData(col.type, rows.length);
        for (let j = 0; j < rows.length; j++) {
          if ((j & PACE_ROWS_MASK) === 0) await pace(ctx);
          const v = convertForAssign(evals[k](from, at(j)), set.expr.type, col.type, set.pos);
          if (col.type.tag === "SYMBOL") (values as Value[])[j] = v;
          else writeValue(col.type, values, j, v);
        }
        changes.push({ partition: info.name, column: set.index, rows: Int32Array.from(rows), values });
      }
    }
    return changes;
  });
  return updated;
}

function exprLabel(e: A.Expr): string {
  return e.kind === "column" ? e.name : "expression";
}

export { readValue };
