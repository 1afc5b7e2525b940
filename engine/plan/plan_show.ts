/** SHOW statements (spec/sql.md §17.3) planned as meta generators or constant rows. */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { SHOW_EXPECTED } from "../sql/parse_show.ts";
import type { PlanContext } from "./plan_context.ts";
import { type PlanNode, shape } from "./plan_node.ts";

function oneValue(name: string, value: string): PlanNode {
  return { ...shape([{ name, type: T.STRING }]), kind: "rows", rows: [[value]] };
}

export function planShow(s: A.ShowStmt, pc: PlanContext): PlanNode {
  const generator = (name: string, args: string[] = []): PlanNode => {
    const columns = pc.meta.columnsOf(name);
    if (!columns) throw new SqlError(`unsupported SHOW`, s.pos);
    return { ...shape(columns), kind: "generator", name, args };
  };
  const tableArg = (): string => {
    if (!s.target) throw new SqlError("table name expected", s.pos);
    const t = pc.catalog.table(s.target.name);
    if (!t) {
      throw new SqlError(`table does not exist [table=${s.target.name}]`, s.target.pos);
    }
    return t.meta.name;
  };
  switch (s.what) {
    case "tables":
      return generator("show tables");
    case "columns":
      return generator("table_columns", [tableArg()]);
    case "createTable":
      return generator("show create table", [tableArg()]);
    case "partitions":
      return generator("table_partitions", [tableArg()]);
    case "serverVersion":
      return oneValue("server_version", "12.3 (questdb)");
    case "timeZone":
      return oneValue("TimeZone", pc.evalContext.timeZone);
    case "transactionIsolation":
      return oneValue("transaction_isolation", "read committed");
    case "maxIdentifierLength":
      return oneValue("max_identifier_length", "63");
    case "standardConformingStrings":
      return oneValue("standard_conforming_strings", "on");
    case "searchPath":
      return oneValue("search_path", '"$user", public');
    case "dateStyle":
      return oneValue("DateStyle", "ISO, MDY");
    case "parameters":
      return generator("show parameters");
    default:
      throw new SqlError(SHOW_EXPECTED, s.errorPos ?? s.pos);
  }
}
