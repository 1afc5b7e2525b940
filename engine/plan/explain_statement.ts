/**
 * EXPLAIN of a statement that writes (QuestDB's ExplainPlanTest): the plan of the query it reads
 * under one line naming the statement, `Insert into table: a`, `Update table: a` or `Create
 * table: a`; an INSERT of VALUES or a CREATE TABLE without AS SELECT is that line alone. The
 * query's plan is this engine's own (explain.ts); an UPDATE reads its SET values from the table
 * (joined to its FROM sources) where its WHERE holds.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { PlanContext } from "./plan_context.ts";

export interface ExplainTarget {
  /** The statement's line above the plan; none for a query. */
  header?: string;
  query?: A.Query;
}

/** What EXPLAIN shows for `stmt`; undefined for a statement it does not explain. */
export function explainTarget(stmt: A.Statement, pc: PlanContext): ExplainTarget | undefined {
  const table = (t: { name: string; pos: number }) => {
    const found = pc.catalog.table(t.name);
    if (!found) throw new SqlError(`table does not exist [table=${t.name}]`, t.pos);
    return found.meta.name;
  };
  switch (stmt.kind) {
    case "query":
      return { query: stmt };
    case "insert": {
      const header = `Insert into table: ${table(stmt.table)}`;
      if (!stmt.query) return { header };
      return { header, query: { ...stmt.query, with: [...stmt.with, ...stmt.query.with] } };
    }
    case "createTable":
      return { header: `Create table: ${stmt.name}`, query: stmt.asSelect };
    case "update": {
      const header = `Update table: ${table(stmt.table)}`;
      const first: A.TableSource = {
        kind: "table",
        pos: stmt.table.pos,
        name: stmt.table.name,
        alias: stmt.alias,
      };
      const joins: A.Join[] = stmt.from
        ? [{ kind: "cross", pos: stmt.pos, source: stmt.from.first, implicit: true }, ...stmt.from.joins]
        : [];
      const body: A.SelectCore = {
        kind: "select",
        pos: stmt.pos,
        distinct: false,
        items: stmt.set.map((s) => ({ expr: s.expr, alias: s.column })),
        from: { first, joins },
        where: stmt.where,
        windows: [],
      };
      return { header, query: { kind: "query", pos: stmt.pos, with: stmt.with, body, orderBy: [] } };
    }
    default:
      return undefined;
  }
}
