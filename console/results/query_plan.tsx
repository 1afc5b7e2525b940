/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The query plan as text (spec/console.md P1 "Query plan": `EXPLAIN`, shown as monospace text
 * with copy). An EXPLAIN result is one `QUERY PLAN` column, one line per row, indented by
 * the server; a grid would hide that indentation. Test hooks: `query-plan`, `query-plan-copy`.
 */
import { copyText } from "../ui/clipboard.ts";
import { cellText } from "../ui/format.ts";
import type { ResultSet } from "./result_set.ts";

/** Whether a result is a plan from EXPLAIN. */
export function isPlan(rs: ResultSet): boolean {
  return rs.columns.length === 1 && rs.columns[0].name.toUpperCase() === "QUERY PLAN";
}

export function QueryPlan(props: { rs: ResultSet }) {
  const lines: string[] = [];
  // Plans are short; the first page (1000 lines) holds all of any real one.
  for (let i = 0; i < Math.min(props.rs.rowCount, 1000); i++) {
    const row = props.rs.row(i);
    if (row) lines.push(cellText(row[0]));
  }
  const text = lines.join("\n");
  return (
    <div class="query-plan-view">
      <button
        type="button"
        class="btn small ghost query-plan-copy"
        data-testid="query-plan-copy"
        onClick={() => copyText(text, "Plan copied")}
      >
        Copy plan
      </button>
      <pre class="query-plan" data-testid="query-plan">{text}</pre>
    </div>
  );
}
