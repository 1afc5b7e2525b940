/**
 * Which result columns show a NOT NULL table column's values as they are stored (spec/sql.md
 * §2.1, §5.1): values of a NOT NULL column are never reported as NULL, so the NULL sentinel a
 * row stored before `ALTER COLUMN ... SET NOT NULL` or `ADD COLUMN ... NOT NULL` prints as its
 * number (-2147483648 for INT, -9223372036854775808 for LONG; QuestDB's AlterTableAddColumnTest
 * #testAddColumnWithQuotedColumnName). `StoredColumn.nullsStored` marks such a column; one
 * declared NOT NULL at CREATE never stores the sentinel. Only a column that reaches the result
 * unchanged counts: through filters, projections of the bare column, sorts, limits, DISTINCT
 * and LATEST ON. A computed value (`a + 1`, an aggregate, a join's or a set operation's
 * column) keeps QuestDB's NULL rules. Decided for INT and LONG, the types the spec names; the
 * sentinels of the other types (a TIMESTAMP's, an IPv4's 0) stay NULL.
 */
import type { PlanNode } from "./plan_node.ts";
import type { TableMeta } from "../storage/api.ts";

const RAW_TAGS = new Set(["INT", "LONG"]);

/** Per result column, whether it is such a column; undefined when none is. */
export function notNullColumns(
  plan: PlanNode,
  metaOf: (table: string) => TableMeta | undefined,
): boolean[] | undefined {
  // Only a scan marks a column (an INT or LONG one); the others pass marks on unchanged.
  const flags = flagsOf(plan, metaOf);
  return flags.some((f) => f) ? flags : undefined;
}

function flagsOf(n: PlanNode, metaOf: (table: string) => TableMeta | undefined): boolean[] {
  const none = () => n.columns.map(() => false);
  switch (n.kind) {
    case "scan": {
      const meta = metaOf(n.table);
      if (!meta) return none();
      return n.columnIndexes.map((c, i) =>
        meta.columns[c]?.nullsStored === true && RAW_TAGS.has(n.columns[i].type.tag)
      );
    }
    case "filter":
    case "sort":
    case "limit":
    case "distinct":
    case "latestBy": {
      const input = flagsOf(n.input, metaOf);
      return n.columns.map((_, i) => input[i] === true);
    }
    case "project": {
      const input = flagsOf(n.input, metaOf);
      return n.exprs.map((e) => e.kind === "column" && input[e.index] === true);
    }
    default:
      return none();
  }
}
