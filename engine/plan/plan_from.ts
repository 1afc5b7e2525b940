/**
 * Plans a FROM clause: tables (or CTEs of that name), subqueries with an optional dynamic
 * designated timestamp, table functions, SHOW, and joins left to right (spec/sql.md §11).
 */
import { pushedColumnConjuncts } from "./pushed_column_conjuncts.ts";
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isIntegral, isTimestamp, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import { andAll, conjuncts } from "./intervals_from_where.ts";
import type { PlanContext } from "./plan_context.ts";
import { forEachPlanNode, type PlanNode, shape } from "./plan_node.ts";
import { horizonLeft } from "./plan_horizon.ts";
import { checkHorizonJoins } from "./horizon_checks.ts";
import { planLateral } from "./plan_lateral.ts";
import { planPivotSource } from "./plan_pivot.ts";
import { planQuery } from "./plan_query.ts";
import { bindContext } from "./plan_select.ts";
import { bindJoinOn, checkJoinKeyTypes } from "./bind_join_on.ts";
import { planShow } from "./plan_show.ts";
import { Scope } from "./scope.ts";
import { T } from "../base/types.ts";
import { seriesOf } from "../exec/generate_series.ts";
import { openParquet, resolveInRoot } from "../parquet/reader.ts";
import type { ParquetScan } from "./parquet_pushdown.ts";
import {
  bindQuestDbUnnest,
  bindSetCall,
  setFunctionName,
  setFunctionNode,
  ZIPPED_SET_FUNCTIONS,
} from "./plan_set_function.ts";

export interface Planned {
  node: PlanNode;
  scope: Scope;
  /**
   * After a join: how many leading columns belong to the FROM clause's first source, whose
   * columns `ON (col)` compares (Scope.resolveUsing). Unset for a single source (all of them).
   */
  firstWidth?: number;
}

/** Hook for ASOF/LT/SPLICE joins (time-series issue). */
export type TimeJoinPlanner = (join: A.Join, left: Planned, right: Planned, pc: PlanContext) => Planned;
let timeJoinPlanner: TimeJoinPlanner | undefined;
export function setTimeJoinPlanner(p: TimeJoinPlanner): void {
  timeJoinPlanner = p;
}

export function planFrom(from: A.FromClause | undefined, pc: PlanContext): Planned {
  if (!from) {
    // QuestDB reads a SELECT without FROM from long_sequence(1): its column x (1) can be named
    // (JoinPrefixedTablesTest#testSimple inserts `select x, rnd_int(), ...`).
    const x = { name: "x", type: T.LONG };
    const one: BoundExpr = { kind: "const", type: T.LONG, value: 1n };
    return {
      node: { ...shape([x]), kind: "values", rows: [[one]] },
      scope: new Scope([{ ...x, qualifiers: [] }]),
    };
  }
  // A WINDOW JOIN is rewritten by planSelect (window_join.ts); anywhere else it is refused.
  if (from.windowJoins?.length) {
    throw new SqlError("WINDOW JOIN is not supported here", from.windowJoins[0].pos);
  }
  checkHorizonJoins(from);
  let left = planSource(from.first, pc);
  const firstWidth = left.node.columns.length;
  for (const j of from.joins) {
    // QuestDB's `FROM t, UNNEST(t.arr)` reads the row to its left, as LATERAL does.
    if (j.lateral || isUnnestSource(j.source)) {
      left = { ...planLateral(j, left, pc), firstWidth };
      continue;
    }
    if (j.horizon) {
      const repeated = horizonLeft(j, left, pc);
      const right = planSource(j.source, pc);
      left = { ...planJoin({ ...j, horizon: undefined }, repeated, right, pc), firstWidth };
      continue;
    }
    const right = planSource(j.source, pc);
    left = { ...planJoin(j, left, right, pc, from), firstWidth };
  }
  return left;
}

function isUnnestSource(src: A.Source): boolean {
  return src.kind === "functionSource" && src.call.name.toLowerCase() === "unnest";
}

function scopeOf(node: PlanNode, qualifiers: string[]): Scope {
  return new Scope(
    node.columns.map((c) => ({ name: c.name, type: c.type, qualifiers, untypedNull: c.untypedNull })),
    node.timestampIndex,
  );
}

export function planSource(src: A.Source, pc: PlanContext): Planned {
  switch (src.kind) {
    case "table":
      return planTable(src, pc);
    case "subquerySource": {
      // A `FROM @v` outside a DECLARE (inside one, the parser put the variable's query in).
      if (src.variable) throw new SqlError(`tried to use undeclared variable \`${src.variable}\``, src.pos);
      if (src.pivot || src.unpivot) {
        const node = planPivotSource(src, pc);
        return { node, scope: scopeOf(node, src.alias ? [src.alias] : []) };
      }
      let node = planQuery(src.query, { ...pc, depth: pc.depth + 1 });
      if (src.timestamp) {
        const idx = node.columns.findIndex((c) => c.name.toLowerCase() === src.timestamp!.name.toLowerCase());
        if (idx < 0) throw new SqlError(`Invalid column: ${src.timestamp.name}`, src.timestamp.pos);
        if (!isTimestamp(node.columns[idx].type)) {
          throw new SqlError("TIMESTAMP column expected", src.timestamp.pos);
        }
        node = { ...node, timestampIndex: idx };
      }
      return { node, scope: scopeOf(node, src.alias ? [src.alias] : []) };
    }
    case "functionSource": {
      const unnest = src.call.name.toLowerCase() === "unnest" ? bindQuestDbUnnest(src, pc) : undefined;
      if (unnest) return { node: unnest, scope: scopeOf(unnest, src.alias ? [src.alias] : ["unnest"]) };
      const planned = planFunctionSource(src.call, src.alias, pc);
      return src.columnAliases ? renameColumns(planned, src.columnAliases, src.pos) : planned;
    }
    case "showSource": {
      const node = planShow(src.show, pc);
      return { node, scope: scopeOf(node, src.alias ? [src.alias] : []) };
    }
  }
}

/** Catalogue functions whose table argument is required: table_columns('t'), table_partitions('t'). */
const ARGUMENT_SOURCES = new Set(["table_columns", "table_partitions"]);

function planTable(src: A.TableSource, pc: PlanContext): Planned {
  const lower = src.name.toLowerCase();
  const cte = pc.ctes.get(lower);
  if (cte) {
    const node = planQuery(cte.cte.query, { ...pc, ctes: cte.visible, depth: pc.depth + 1 });
    return { node, scope: scopeOf(node, [src.alias ?? src.name]) };
  }
  // Through the principal's catalog: a table the user holds no permission on at all answers
  // exactly as a missing one, before any column is bound, so that neither the error nor its
  // position tells it exists (docs/access_control.md, issue #24).
  const table = pc.catalog.table(src.name);
  if (!table) {
    // A catalogue function that needs an argument is no source without one: `FROM table_columns`
    // is a missing table (TableFunctionSourceTest#testUnresolvedTableNamesKeepDiagnostics...).
    const metaColumns = ARGUMENT_SOURCES.has(lower) ? undefined : pc.meta.columnsOf(lower);
    if (metaColumns) {
      const node: PlanNode = { ...shape(metaColumns), kind: "generator", name: lower, args: [] };
      const scope = scopeOf(node, [src.alias ?? src.name.replace(/^.*\./, "")]);
      return {
        node,
        scope: new Scope(scope.columns.map((c) => ({ ...c, catalog: true })), scope.timestampIndex),
      };
    }
    throw new SqlError(`table does not exist [table=${src.name}]`, src.pos);
  }
  const meta = table.meta;
  const columns = meta.columns.map((c) => ({ name: c.name, type: c.type }));
  const node: PlanNode = {
    ...shape(columns, meta.timestampIndex),
    kind: "scan",
    table: meta.name,
    columnIndexes: meta.columns.map((_, i) => i),
    reverse: false,
  };
  // As in Postgres, an alias hides the table name: self-joins need it (`FROM t a LT JOIN t b`).
  const qualifiers = src.alias ? [src.alias] : [meta.name];
  return { node, scope: scopeOf(node, qualifiers) };
}

function constArgs(call: A.FunctionCall, pc: PlanContext): Value[] {
  return call.args.map((a) => {
    const b = bindExpr(a, bindContext(new Scope([]), pc, "function arguments"));
    if (!isConst(b)) throw new SqlError("constant argument expected", a.pos);
    return b.value;
  });
}

function planFunctionSource(call: A.FunctionCall, alias: string | undefined, pc: PlanContext): Planned {
  const name = call.name.toLowerCase();
  if (name === "long_sequence") {
    // QuestDB's LongSequenceFunctionFactory reports its errors at the function.
    if (call.args.length !== 1 && call.args.length !== 3) throw new SqlError("invalid arguments", call.pos);
    const ctx = bindContext(new Scope([]), pc, "long_sequence");
    const args = call.args.map((a) => bindExpr(a, ctx));
    // QuestDB takes integer counts (and seeds) only; a DOUBLE would count fractional rows.
    args.forEach((a, i) => {
      // A subquery is no constant count (TableFunctionSourceTest#testSubquerySourceArgumentsReportConstantExpected).
      if (a.kind === "subquery") throw new SqlError("constant expected", call.args[i].pos);
      if (!isIntegral(a.type) && a.type.tag !== "NULL" && a.kind !== "param") {
        // A lone count that is a number is 'not supported'; seeds that are no integers do not
        // match the seeded form at all (LongSequenceTest#testBadArgumentTypeFailsGracefully).
        throw new SqlError(
          args.length === 1 ? `argument type ${typeName(a.type)} is not supported` : "invalid arguments",
          call.pos,
        );
      }
    });
    const node: PlanNode = {
      ...shape([{ name: "x", type: T.LONG }]),
      kind: "longSequence",
      count: args[0],
      seed: args.length === 3 ? [args[1], args[2]] : undefined,
    };
    return { node, scope: scopeOf(node, alias ? [alias] : ["long_sequence"]) };
  }
  if (name === ZIPPED_SET_FUNCTIONS) {
    // The set-returning calls of a select list, zipped (sql/pg_select_srf.ts).
    const calls = call.args.map((a) => bindSetCall(a as A.FunctionCall, pc));
    const node = setFunctionNode(calls, calls.map((_, i) => `srf${i + 1}`));
    return { node, scope: scopeOf(node, alias ? [alias] : []) };
  }
  const setName = setFunctionName(name);
  if (setName === "unnest" || setName === "generate_subscripts") {
    const node = setFunctionNode([bindSetCall(call, pc)], [setName]);
    return { node, scope: aliasedColumn(scopeOf(node, alias ? [alias] : [setName]), alias) };
  }
  if (setName === "generate_series") {
    const ctx = bindContext(new Scope([]), pc, "generate_series");
    const bound = call.args.map((a) => bindExpr(a, ctx));
    if (!bound.every(isConst)) {
      // Bounds read from a LATERAL or correlated outer row: evaluated when it runs.
      const node = setFunctionNode([bindSetCall(call, pc)], [setName]);
      return { node, scope: aliasedColumn(scopeOf(node, alias ? [alias] : [setName]), alias) };
    }
    const args = bound.map((b, i) => ({
      value: (b as { value: Value }).value,
      type: b.type,
      pos: call.args[i].pos,
    }));
    const series = seriesOf(args, call.pos);
    // An ascending timestamp series is a designated timestamp source: RANGE frames and the
    // like run over it (WindowRangeFrameOverflowTest reads RANGE windows off one).
    const ascendingTime = (series.type.tag === "TIMESTAMP" || series.type.tag === "TIMESTAMP_NS") &&
      typeof series.step === "bigint" && series.step > 0n;
    const node: PlanNode = {
      ...shape([{ name: "generate_series", type: series.type }], ascendingTime ? 0 : -1),
      kind: "generator",
      name: setName,
      args: [series as unknown as Value],
    };
    return { node, scope: aliasedColumn(scopeOf(node, alias ? [alias] : [setName]), alias) };
  }
  if (name === "read_parquet" || name === "parquet_scan") return planReadParquet(call, alias, pc);
  // A catalogue function may answer its call in a shape of its own, registered as `name()`
  // (information_schema.columns(): QuestDB's, the relation: PostgreSQL's).
  const generator = pc.meta.columnsOf(`${name}()`) ? `${name}()` : name;
  const columns = pc.meta.columnsOf(generator);
  if (!columns) return planScalarSource(call, alias, pc);
  checkMetaArity(call, name, pc.meta.arityOf?.(generator));
  const args = constArgs(call, pc);
  if ((name === "table_columns" || name === "table_partitions") && args.length > 0) {
    const t = args[0];
    if (typeof t !== "string" || !pc.catalog.table(t)) {
      throw new SqlError(`table does not exist [table=${t}]`, call.args[0].pos);
    }
  }
  const node: PlanNode = { ...shape(columns), kind: "generator", name: generator, args };
  return { node, scope: scopeOf(node, alias ? [alias] : [name]) };
}

/** A catalogue function called with another number of arguments than it takes, at its name. */
function checkMetaArity(call: A.FunctionCall, name: string, arity: number | undefined): void {
  if (arity === undefined || call.args.length === arity) return;
  if (call.args.length === 0) {
    throw new SqlError(`function \`${name}\` requires arguments: ${name}(STRING constant)`, call.pos);
  }
  throw new SqlError(
    `wrong number of arguments for function \`${name}\`; expected: ${arity}, provided: ${call.args.length}`,
    call.pos,
  );
}

/**
 * `f(...) AS s(a, b)`: the columns read under the listed names too (as aliasedColumn, QuestDB's
 * names stay what `*` shows). More names than columns is PostgreSQL's error too.
 */
function renameColumns(planned: Planned, names: string[], pos: number): Planned {
  const { scope } = planned;
  if (names.length > scope.columns.length) {
    throw new SqlError(
      `table function has ${scope.columns.length} columns available but ${names.length} columns specified`,
      pos,
    );
  }
  const columns = scope.columns.map((c, i) => i < names.length ? { ...c, alsoNamed: names[i] } : c);
  return { ...planned, scope: new Scope(columns, scope.timestampIndex) };
}

/**
 * PostgreSQL reads a function of one column with a table alias under that alias too
 * (`generate_series(1, 3) AS i` has column `i`): Grafana's catalog queries read it so. The
 * column keeps QuestDB's name (what `*` shows); the alias is an extra name for it.
 */
function aliasedColumn(scope: Scope, alias: string | undefined): Scope {
  if (!alias || scope.columns.length !== 1) return scope;
  return new Scope([{ ...scope.columns[0], alsoNamed: alias }], scope.timestampIndex);
}

/**
 * A scalar function in FROM, as PostgreSQL allows (`FROM string_to_array(...) s` in Grafana's
 * catalog queries): one row of one column, named as the function and read under the alias
 * too. QuestDB takes only table functions there, so only what it refused is read this way;
 * an unknown name keeps its "unknown function name" error from the binder.
 */
function planScalarSource(call: A.FunctionCall, alias: string | undefined, pc: PlanContext): Planned {
  const name = call.name.toLowerCase().replace(/^pg_catalog\./, "");
  const value = bindExpr(call, bindContext(new Scope([]), pc, "FROM"));
  const node: PlanNode = { ...shape([{ name, type: value.type }]), kind: "values", rows: [[value]] };
  return { node, scope: aliasedColumn(scopeOf(node, alias ? [alias] : [name]), alias) };
}

/** read_parquet('file'): the file's footer gives the columns now; rows are read when run. */
function planReadParquet(call: A.FunctionCall, alias: string | undefined, pc: PlanContext): Planned {
  const name = call.name.toLowerCase();
  const args = constArgs(call, pc);
  if (args.length !== 1 || typeof args[0] !== "string") {
    throw new SqlError(`${name} expects one argument, the file path`, call.pos);
  }
  const root = pc.copyRoot ?? `${pc.storage.root}/import`;
  const src = openParquet(resolveInRoot(root, args[0], call.args[0].pos), call.args[0].pos);
  const node: PlanNode = {
    ...shape(src.columns.map((c) => ({ name: c.name, type: c.type }))),
    kind: "generator",
    name: "read_parquet",
    args: [
      { src, columns: src.columns.map((_, i) => i), bounds: [] } satisfies ParquetScan as unknown as Value,
    ],
  };
  return { node, scope: scopeOf(node, alias ? [alias] : [name]) };
}

/**
 * NATURAL JOIN's equalities: each right column whose name one left column has (DataGrip's
 * `routines natural join languages`). The columns stay on both sides, as QuestDB's ON (col)
 * keeps them; with no shared name it is a cross join, as in PostgreSQL.
 */
function naturalPairs(left: Scope, right: Scope, leftWidth: number): [number, number][] {
  const pairs: [number, number][] = [];
  right.columns.forEach((c, r) => {
    const l = left.columns.findIndex((x) => x.name.toLowerCase() === c.name.toLowerCase());
    if (l >= 0) pairs.push([l, leftWidth + r]);
  });
  return pairs;
}

/** Whether a plan reads a catalog relation (pg_catalog, information_schema, tables() ...). */
function readsCatalog(node: PlanNode, pc: PlanContext): boolean {
  let reads = false;
  forEachPlanNode(node, (n) => {
    if (n.kind === "generator" && pc.meta.columnsOf(n.name) !== undefined) reads = true;
  });
  return reads;
}

function mixedTimestampUnits(a: ColumnType, b: ColumnType): boolean {
  return (a.tag === "TIMESTAMP" && b.tag === "TIMESTAMP_NS") ||
    (a.tag === "TIMESTAMP_NS" && b.tag === "TIMESTAMP");
}

function planJoin(j: A.Join, left: Planned, right: Planned, pc: PlanContext, from?: A.FromClause): Planned {
  if (j.kind === "asof" || j.kind === "lt" || j.kind === "splice") {
    if (!timeJoinPlanner) throw new SqlError(`${j.kind.toUpperCase()} JOIN is not supported yet`, j.pos);
    return timeJoinPlanner(j, left, right, pc);
  }
  const leftWidth = left.node.columns.length;
  const scope = Scope.concat(left.scope, right.scope, left.scope.timestampIndex);
  const equi: [number, number][] = [];
  // Drivers' own catalog queries run as sent: the PostgreSQL catalog relations approximate
  // PostgreSQL's column types (attnum int2 against objsubid int4, SQLAlchemy's column query), so
  // QuestDB's join-key type rule applies to joins of user data only.
  const catalogJoin = readsCatalog(left.node, pc) || readsCatalog(right.node, pc);
  let condition: BoundExpr | undefined;
  if (j.natural) {
    equi.push(...naturalPairs(left.scope, right.scope, leftWidth));
  } else if (j.using) {
    for (const u of j.using) {
      const l = left.scope.resolveUsing(u.name, left.firstWidth ?? leftWidth, u.pos);
      const r = right.scope.resolve(u.name, undefined, u.pos);
      equi.push([l, leftWidth + r]);
    }
    if (!catalogJoin) checkJoinKeyTypes(j, scope, leftWidth, equi);
  } else if (j.on) {
    const zeroPos = from && pushedColumnConjuncts(j.on, { from, ctes: pc.ctes, on: j });
    const pred = bindJoinOn(j.on, scope, pc, leftWidth, zeroPos);
    if (!catalogJoin) checkJoinKeyTypes(j, scope, leftWidth);
    const rest: BoundExpr[] = [];
    for (const c of conjuncts(pred)) {
      if (c.kind === "call" && c.name === "=" && c.args.length === 2) {
        const [a, b] = c.args;
        // TIMESTAMP against TIMESTAMP_NS compares instants, not raw ticks: it stays a condition.
        if (a.kind === "column" && b.kind === "column" && !mixedTimestampUnits(a.type, b.type)) {
          if (a.index < leftWidth && b.index >= leftWidth) {
            equi.push([a.index, b.index]);
            continue;
          }
          if (b.index < leftWidth && a.index >= leftWidth) {
            equi.push([b.index, a.index]);
            continue;
          }
        }
      }
      rest.push(c);
    }
    condition = andAll(rest);
  } else if (j.kind !== "cross") {
    throw new SqlError("join condition expected", j.pos);
  }
  const columns = [...left.node.columns, ...right.node.columns];
  const type = j.kind === "inner" ? "inner" : j.kind;
  const node: PlanNode = {
    ...shape(
      columns,
      type === "inner" || type === "left" || type === "cross" ? left.node.timestampIndex : -1,
    ),
    kind: "join",
    type,
    left: left.node,
    right: right.node,
    equi,
    condition,
  };
  return { node, scope: new Scope(scope.columns, node.timestampIndex) };
}
