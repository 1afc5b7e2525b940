/**
 * Placeholder types of a statement without running it (Engine.prepare; pgwire Parse and
 * Describe): the statement is bound as it would be for execution, with placeholders the client
 * gave no type for left open; the binder types each from its context (`x > $1` → x's type,
 * `$1::int`, `col IN ($1)`, BETWEEN, LIMIT) and a placeholder that is a whole INSERT value or
 * UPDATE SET value takes its column's type. Placeholders nothing types stay undefined (the
 * listener reports them as text).
 */
import type { ColumnType } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import type { PlanContext } from "./plan_context.ts";
import { planQuery } from "./plan_query.ts";
import { bindContext } from "./plan_select.ts";
import { Scope } from "./scope.ts";

/** Infers into `pc.inferParams`; binding errors are left for execution to report. */
export function inferParams(
  stmt: A.Statement,
  pc: PlanContext & { inferParams: (ColumnType | undefined)[] },
): void {
  try {
    inferIn(stmt, pc);
  } catch {
    // A statement that does not bind fails at Execute with its real error; what was inferred
    // before the failure still helps ParameterDescription.
  }
}

function inferIn(stmt: A.Statement, pc: PlanContext & { inferParams: (ColumnType | undefined)[] }): void {
  const types = pc.inferParams;
  const give = (e: A.Expr, t: ColumnType) => {
    if (e.kind === "param" && pc.paramTypes?.[e.index - 1] === undefined) types[e.index - 1] ??= t;
  };
  switch (stmt.kind) {
    case "query":
      planQuery(stmt, pc);
      return;
    case "explain":
      inferIn(stmt.statement, pc);
      return;
    case "insert": {
      const t = pc.storage.table(stmt.table.name);
      if (!t) return;
      const cols = t.meta.columns;
      const targets = stmt.columns
        ? stmt.columns.map((c) => cols.find((x) => x.name.toLowerCase() === c.name.toLowerCase()))
        : cols;
      for (const row of stmt.values ?? []) row.forEach((e, j) => targets[j] && give(e, targets[j]!.type));
      if (stmt.query) planQuery(stmt.query, pc);
      for (const row of stmt.values ?? []) for (const e of row) bindExpr(e, bindContext(new Scope([]), pc));
      return;
    }
    case "update": {
      const t = pc.storage.table(stmt.table.name);
      if (!t) return;
      const cols = t.meta.columns;
      for (const s of stmt.set) {
        const col = cols.find((x) => x.name.toLowerCase() === s.column.toLowerCase());
        if (col) give(s.expr, col.type);
      }
      const qualifiers = stmt.alias ? [stmt.alias, t.meta.name] : [t.meta.name];
      const scope = new Scope(
        cols.map((c) => ({ name: c.name, type: c.type, qualifiers })),
        t.meta.timestampIndex,
      );
      if (stmt.where) bindExpr(stmt.where, bindContext(scope, pc, "WHERE"));
      for (const s of stmt.set) bindExpr(s.expr, bindContext(scope, pc));
      return;
    }
    case "delete": {
      const t = pc.storage.table(stmt.table.name);
      if (!t || !stmt.where) return;
      const qualifiers = stmt.alias ? [stmt.alias, t.meta.name] : [t.meta.name];
      const scope = new Scope(
        t.meta.columns.map((c) => ({ name: c.name, type: c.type, qualifiers })),
        t.meta.timestampIndex,
      );
      bindExpr(stmt.where, bindContext(scope, pc, "WHERE"));
      return;
    }
  }
}
