/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The result area under the editor: a toolbar (grid/chart switch, row count, copy, CSV
 * download, refresh) over the grid, the chart, or the outcome of a statement that returns no
 * rows (DDL/DML OK, a notice, the server's error message, a cancellation).
 */
import { useState } from "preact/hooks";
import type { ExecOutcome } from "../api/types.ts";
import { copyText } from "../ui/clipboard.ts";
import { formatCount, formatNs, isTemporalType, toTsv } from "../ui/format.ts";
import { TimeZoneSelect } from "./time_zone_select.tsx";
import { CopyMenu } from "./copy_menu.tsx";
import { isPlan, QueryPlan } from "./query_plan.tsx";
import { ChartView } from "./chart_view.tsx";
import { downloadCsv } from "./csv_download.ts";
import { rerun, type TabResult } from "./query_runner.ts";
import { ResultGrid, selectedCell } from "./result_grid.tsx";
import type { ResultSet } from "./result_set.ts";

type View = "grid" | "chart" | "plan";

function loadedRows(rs: ResultSet) {
  const rows = [];
  for (let i = 0; i < Math.min(rs.rowCount, 1000); i++) {
    const r = rs.row(i);
    if (r) rows.push(r);
  }
  return rows;
}

function Toolbar(props: { rs: ResultSet; view: View; setView(v: View): void; fetchNs: number }) {
  const { rs } = props;
  const names = rs.columns.map((c) => c.name);
  const copyRow = () => {
    const row = selectedCell ? rs.row(selectedCell.row) : undefined;
    if (row) void copyText(toTsv(names, [row]), "Row copied");
  };
  return (
    <div class="result-toolbar">
      <div class="segmented" role="tablist">
        {isPlan(rs) && (
          <button
            type="button"
            role="tab"
            class={props.view === "plan" ? "active" : ""}
            data-testid="result-view-plan"
            aria-selected={props.view === "plan"}
            onClick={() => props.setView("plan")}
          >
            Plan
          </button>
        )}
        <button
          type="button"
          role="tab"
          class={props.view === "grid" ? "active" : ""}
          data-testid="result-view-grid"
          aria-selected={props.view === "grid"}
          onClick={() => props.setView("grid")}
        >
          Grid
        </button>
        <button
          type="button"
          role="tab"
          class={props.view === "chart" ? "active" : ""}
          data-testid="result-view-chart"
          aria-selected={props.view === "chart"}
          onClick={() => props.setView("chart")}
        >
          Chart
        </button>
      </div>
      <span class="row-count">
        <span data-testid="result-row-count">{formatCount(rs.rowCount)}</span> rows ·{" "}
        {formatNs(props.fetchNs)}
      </span>
      <span class="spacer" />
      <button
        type="button"
        class="btn small ghost"
        data-testid="copy-row-button"
        title="Copy the selected row as TSV (Ctrl+Shift+C)"
        onClick={copyRow}
      >
        Copy row
      </button>
      {rs.columns.some((c) => isTemporalType(c.type)) && <TimeZoneSelect />}
      <CopyMenu names={names} rows={() => loadedRows(rs)} />
      <button
        type="button"
        class="btn small ghost"
        data-testid="grid-refresh-button"
        title="Run the query again"
        onClick={() => rerun(rs.query)}
      >
        Refresh
      </button>
      <button
        type="button"
        class="btn small"
        data-testid="download-csv-button"
        title="Download the whole result as CSV"
        onClick={() => downloadCsv(rs.query)}
      >
        Download CSV
      </button>
    </div>
  );
}

function Outcome(props: { outcome: ExecOutcome }) {
  const o = props.outcome;
  if (o.kind === "error") {
    return (
      <div class="result-message error" data-testid="result-error" data-position={o.position}>
        <strong>Error</strong>
        {o.position >= 0 && <span class="dim">{` at position ${o.position}`}</span>}
        <pre data-testid="result-error-message">{o.error}</pre>
      </div>
    );
  }
  if (o.kind === "cancelled") {
    return <div class="result-message" data-testid="result-cancelled">Query cancelled</div>;
  }
  if (o.kind === "notice") return <div class="result-message" data-testid="result-notice">{o.notice}</div>;
  const text = o.kind === "ddl"
    ? "OK"
    : o.kind === "dml"
    ? (o.updated !== undefined ? `OK, ${o.updated} rows updated` : "OK")
    : "";
  return (
    <div class="result-message ok" data-testid="result-ok">
      <strong>{text}</strong> <code>{o.query}</code> <span class="dim">{formatNs(o.timings.fetch)}</span>
    </div>
  );
}

export function ResultPanel(props: { result: TabResult | undefined }) {
  const [chosen, setView] = useState<View>("grid");
  const out = props.result?.outcome;
  const rs = props.result?.resultSet;
  // A plan opens as text; other results never show the plan view.
  const [planShownFor, setPlanShownFor] = useState<ResultSet | null>(null);
  const plan = rs ? isPlan(rs) : false;
  if (rs && plan && planShownFor !== rs) {
    setPlanShownFor(rs);
    setView("plan");
  }
  const view: View = chosen === "plan" && !plan ? "grid" : chosen;
  if (!out) {
    return (
      <div class="result-panel empty">
        <div class="result-hint">
          Run a query to see its result here. Ctrl+Enter runs the statement at the cursor.
        </div>
      </div>
    );
  }
  if (!rs || out.kind !== "rows") {
    return (
      <div class="result-panel">
        <Outcome outcome={out} />
      </div>
    );
  }
  return (
    <div class="result-panel" data-testid="result-panel" data-view={view}>
      <Toolbar rs={rs} view={view} setView={setView} fetchNs={out.timings.fetch} />
      {view === "plan"
        ? <QueryPlan rs={rs} />
        : view === "grid"
        ? <ResultGrid resultSet={rs} />
        : <ChartView query={rs.query} columns={rs.columns} timestampIndex={rs.timestampIndex} />}
    </div>
  );
}
