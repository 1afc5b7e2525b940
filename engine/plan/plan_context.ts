/** What the planner needs from the rest of the engine while planning one statement. */
import type { ColumnType } from "../base/types.ts";
import type { EvalContext } from "../functions/registry_types.ts";
import type { Storage } from "../storage/api.ts";
import type * as A from "../sql/ast.ts";
import type { OutputColumn } from "./plan_node.ts";
import type { OuterRefs } from "./outer_refs.ts";

/** Table-valued functions and SHOW results known to the engine (tables(), table_columns(), ...). */
export interface MetaCatalog {
  /** Output columns of a meta function, or undefined when `name` is not one. */
  columnsOf(name: string): OutputColumn[] | undefined;
  /** How many arguments a meta function takes, or undefined when it does not say. */
  arityOf?(name: string): number | undefined;
}

export interface PlanContext {
  storage: Storage;
  evalContext: EvalContext;
  /** CTEs visible here, by lower-case name, each with the CTEs visible inside its own body. */
  ctes: Map<string, CteEntry>;
  /** cairo.sql.column.alias.expression.enabled = false */
  legacyNames: boolean;
  paramTypes?: (ColumnType | undefined)[];
  /** While preparing: the placeholder types the binder infers (bind_expr.ts `inferParam`). */
  inferParams?: (ColumnType | undefined)[];
  meta: MetaCatalog;
  /**
   * The storage as the user's catalog reads see it (permissions.ts `visibleStorage`): table
   * names in FROM and reads of one table's catalog (SHOW COLUMNS, table_columns(), ...) find
   * only the tables listings show.
   */
  catalog: Storage;
  depth: number;
  /** `cairo.sql.copy.root`: read_parquet's files are resolved inside it. */
  copyRoot?: string;
  /** Inside a subquery: the enclosing query's columns, for correlated references. */
  outer?: OuterRefs;
}

export interface CteEntry {
  cte: A.Cte;
  visible: Map<string, CteEntry>;
}
