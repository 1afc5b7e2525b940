/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The tab's query log and history: every executed statement with its status, row count or
 * message, and timings (Execute, Network, Total, Compile, Count). Collapsed it shows the latest
 * entry; expanded, the whole history, which is kept across reloads with the tab. An entry can
 * be copied, put back into the editor, or run again. Expanded, it also lists the statements
 * running on the server from any client, each with a Cancel button (running_queries.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import type { Timings } from "../api/types.ts";
import { insertAtCursor } from "../editor/query_editor.tsx";
import { clearHistory, type LogEntry } from "../tabs/tab_store.ts";
import { copyText } from "../ui/clipboard.ts";
import { formatCount, formatNs } from "../ui/format.ts";
import { cancelRun, rerun } from "./query_runner.ts";
import { exchangeFor, inspectorStore } from "./inspector_store.ts";
import { RunningQueries } from "./running_queries.tsx";

function networkNs(t: Timings): number {
  const server = (t.authentication ?? 0) + (t.compiler ?? 0) + (t.execute ?? 0) + (t.count ?? 0);
  return Math.max(0, t.fetch - server);
}

function TimingsView(props: { t: Timings }) {
  const t = props.t;
  return (
    <span class="log-timings">
      <span data-testid="timing-execute" title="Execute">exec {formatNs(t.execute)}</span>
      <span data-testid="timing-network" title="Network = total − server time">
        net {formatNs(networkNs(t))}
      </span>
      <span data-testid="timing-total" title="Total (browser wall time)">total {formatNs(t.fetch)}</span>
      <span data-testid="timing-compile" title="Compile">compile {formatNs(t.compiler)}</span>
      <span data-testid="timing-count" title="Count">count {formatNs(t.count)}</span>
    </span>
  );
}

function Elapsed(props: { fromMs: number }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 100);
    return () => clearInterval(id);
  }, []);
  return <span class="log-elapsed">{((Date.now() - props.fromMs) / 1000).toFixed(1)}s</span>;
}

function summary(e: LogEntry): string {
  if (e.status === "running") return "running";
  if (e.kind === "rows") return `${formatCount(e.rowCount ?? 0)} row${e.rowCount === 1 ? "" : "s"}`;
  return e.message ?? e.status;
}

function Entry(props: { entry: LogEntry }) {
  const e = props.entry;
  return (
    <div
      class={`log-entry is-${e.status}`}
      data-testid="query-log-entry"
      data-status={e.status}
      data-entry-id={e.id}
    >
      <span class={`log-dot is-${e.status}`} />
      <span class="log-time">{new Date(e.atMs).toLocaleTimeString()}</span>
      <span class="log-summary" data-testid="log-summary">{summary(e)}</span>
      {e.status === "running" && <Elapsed fromMs={e.atMs} />}
      {e.timings && e.status === "success" && <TimingsView t={e.timings} />}
      {e.timings && e.status !== "success" && e.status !== "running" && (
        <span class="log-timings">
          <span data-testid="timing-total">total {formatNs(e.timings.fetch)}</span>
        </span>
      )}
      <code class="log-query" title={e.query}>{e.query}</code>
      <span class="log-actions">
        {e.status === "running"
          ? <button type="button" class="btn small" onClick={cancelRun}>Stop</button>
          : (
            <>
              <button
                type="button"
                class="btn small ghost"
                title="Copy query"
                onClick={() => copyText(e.query, "Query copied")}
              >
                Copy
              </button>
              <button
                type="button"
                class="btn small ghost"
                title="Insert into the editor"
                onClick={() => insertAtCursor(e.query)}
              >
                Insert
              </button>
              <button type="button" class="btn small ghost" title="Run again" onClick={() => rerun(e.query)}>
                Run
              </button>
              {exchangeFor(e.id) && (
                <button
                  type="button"
                  class="btn small ghost"
                  data-testid="query-log-inspect"
                  title="Show the request and the server's raw reply"
                  onClick={() => inspectorStore.set(e.id)}
                >
                  Inspect
                </button>
              )}
            </>
          )}
      </span>
    </div>
  );
}

export function QueryLog(props: { tabId: string; history: LogEntry[] }) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? props.history : props.history.slice(0, 1);
  return (
    <div
      class={`query-log${expanded ? " expanded" : ""}`}
      data-testid="query-log"
      data-expanded={String(expanded)}
    >
      <div class="query-log-bar">
        <button
          type="button"
          class="btn small ghost"
          data-testid="query-log-toggle"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? "▾" : "▸"} History ({props.history.length})
        </button>
        {expanded && (
          <button
            type="button"
            class="btn small ghost"
            data-testid="query-log-clear"
            onClick={() => clearHistory(props.tabId)}
          >
            Clear
          </button>
        )}
      </div>
      <div class="query-log-entries">
        {expanded && <RunningQueries />}
        {shown.map((e) => <Entry key={e.id} entry={e} />)}
        {props.history.length === 0 && <div class="dim log-empty">No queries run in this tab yet</div>}
      </div>
    </div>
  );
}
