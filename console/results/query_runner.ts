/**
 * Runs what the user asked for: the statement at the cursor, the selection (each statement in
 * it), or the whole tab. One user query runs at a time; Cancel aborts the fetch (the server
 * stops the query on disconnect). Each statement is logged in the tab's history with its
 * timings, an error puts the marker at the server's position mapped back to the document,
 * and a DDL refreshes the schema.
 */
import { exec } from "../api/exec_client.ts";
import type { ExecOutcome } from "../api/types.ts";
import { setGlyphStatus } from "../editor/active_statement.ts";
import { markRange, setErrorMark } from "../editor/error_marker.ts";
import { editorView, type RunMode } from "../editor/query_editor.tsx";
import { splitStatements, type Statement, statementAt } from "../editor/statements.ts";
import { refreshSchema } from "../schema/schema_store.ts";
import { activeTab, type LogEntry, recordEntry } from "../tabs/tab_store.ts";
import { Store } from "../ui/store.ts";
import { toast } from "../ui/toasts.ts";
import { editorSettingsStore } from "../ui/editor_settings.ts";
import { ResultSet } from "./result_set.ts";
import { rememberExchange } from "./inspector_store.ts";
import { rememberRun } from "../history/history_store.ts";

export const FIRST_PAGE_LIMIT = "0,1000";

/** A statement to send: its text may carry a prefix (EXPLAIN) that error positions skip back over. */
export interface RunStatement extends Statement {
  /** Characters added in front of the editor text; -1 when the text is not from the editor. */
  prefixLength?: number;
}

const EXPLAIN_PREFIX = "EXPLAIN ";

export interface TabResult {
  outcome: ExecOutcome | null;
  resultSet: ResultSet | null;
}

export interface RunningState {
  tabId: string;
  entryId: number;
  startedMs: number;
  abort: AbortController;
}

export const resultsStore = new Store<Map<string, TabResult>>(new Map());
export const runningStore = new Store<RunningState | null>(null);
/** Set while the run-all confirmation is open. */
export const runAllConfirmStore = new Store<boolean>(false);

let nextEntryId = Date.now();

function setResult(tabId: string, result: TabResult): void {
  const map = new Map(resultsStore.get());
  map.get(tabId)?.resultSet?.dispose();
  map.set(tabId, result);
  resultsStore.set(map);
}

/** What to run for a mode: the selection's statements, the one at the cursor, or all. */
export function statementsFor(mode: RunMode): Statement[] {
  const view = editorView();
  if (!view) return [];
  const doc = view.state.doc.toString();
  const sel = view.state.selection.main;
  if (mode === "all") return splitStatements(doc);
  // "Run with selection" off: the statement at the cursor runs even when text is selected.
  if (!sel.empty && editorSettingsStore.get().runWithSelection) {
    return splitStatements(doc.slice(sel.from, sel.to), sel.from);
  }
  const s = statementAt(doc, sel.head);
  return s ? [s] : [];
}

export function requestRun(mode: RunMode): void {
  if (runningStore.get()) {
    toast("info", "A query is already running: cancel it first");
    return;
  }
  if (mode === "all") {
    runAllConfirmStore.set(true);
    return;
  }
  const statements: RunStatement[] = statementsFor("cursor");
  if (mode === "explain") {
    // Ctrl+E: the plan of the statement at the cursor; an error position shifts back by the prefix.
    const explain = statements.slice(0, 1).map((s) => ({
      ...s,
      text: EXPLAIN_PREFIX + s.text,
      prefixLength: EXPLAIN_PREFIX.length,
    }));
    void runStatements(explain, { stopAfterFailure: true });
    return;
  }
  void runStatements(statements, { stopAfterFailure: true });
}

export function cancelRun(): void {
  runningStore.get()?.abort.abort();
}

function entryFor(id: number, query: string, out: ExecOutcome, startedMs: number): LogEntry {
  const base = { id, query, atMs: startedMs, timings: out.timings };
  switch (out.kind) {
    case "rows":
      return { ...base, status: "success", kind: "rows", rowCount: out.count };
    case "ddl":
      return { ...base, status: "success", kind: "ddl", message: "OK" };
    case "dml":
      return {
        ...base,
        status: "success",
        kind: "dml",
        message: out.updated !== undefined ? `${out.updated} rows updated` : "OK",
      };
    case "notice":
      return { ...base, status: "notice", kind: "notice", message: out.notice };
    case "error":
      return { ...base, status: "error", message: out.error };
    case "cancelled":
      return { ...base, status: "cancelled", message: "cancelled" };
  }
}

function markError(statement: RunStatement, out: ExecOutcome): void {
  const view = editorView();
  const prefix = statement.prefixLength ?? 0;
  if (!view || out.kind !== "error" || out.position < 0 || prefix < 0) return;
  const offset = Math.min(statement.from + Math.max(0, out.position - prefix), view.state.doc.length);
  const range = markRange(view.state.doc, offset, statement.to);
  view.dispatch({ effects: setErrorMark.of({ ...range, message: out.error }) });
}

function glyph(status: "running" | "success" | "error" | "idle"): void {
  editorView()?.dispatch({ effects: setGlyphStatus.of(status) });
}

/** Runs statements in order; with stopAfterFailure the first error ends the run. */
export async function runStatements(
  statements: RunStatement[],
  opts: { stopAfterFailure: boolean },
): Promise<void> {
  if (statements.length === 0 || runningStore.get()) return;
  const tabId = activeTab().id;
  editorView()?.dispatch({ effects: setErrorMark.of(null) });
  let failed = 0;
  for (const statement of statements) {
    const abort = new AbortController();
    const entryId = nextEntryId++;
    const startedMs = Date.now();
    runningStore.set({ tabId, entryId, startedMs, abort });
    recordEntry(tabId, { id: entryId, query: statement.text, status: "running", atMs: startedMs });
    glyph("running");
    const out = await exec(statement.text, {
      limit: FIRST_PAGE_LIMIT,
      count: true,
      timings: true,
      signal: abort.signal,
      onExchange: (x) => rememberExchange(entryId, x),
    });
    const entry = entryFor(entryId, statement.text, out, startedMs);
    recordEntry(tabId, entry);
    if (entry.status !== "running") {
      const summary = entry.kind === "rows" ? `${entry.rowCount ?? 0} rows` : entry.message ?? entry.status;
      rememberRun(statement.text, entry.status, summary);
    }
    runningStore.set(null);
    const resultSet = out.kind === "rows"
      ? new ResultSet(out.query, out.columns, out.count, out.timestampIndex, out.rows)
      : null;
    setResult(tabId, { outcome: out, resultSet });
    glyph(out.kind === "error" ? "error" : out.kind === "cancelled" ? "idle" : "success");
    if (out.kind === "ddl" || out.kind === "dml" || out.kind === "notice") void refreshSchema();
    if (out.kind === "error") {
      failed++;
      markError(statement, out);
      if (opts.stopAfterFailure) break;
    }
    if (out.kind === "cancelled") break;
  }
  if (statements.length > 1) {
    toast(
      failed ? "error" : "success",
      `${statements.length - failed} of ${statements.length} statements ran${
        failed ? `, ${failed} failed` : ""
      }`,
    );
  }
}

/** Re-runs the query of the current result (grid toolbar Refresh). */
export function rerun(query: string): void {
  void runStatements([{ from: 0, to: 0, text: query, prefixLength: -1 }], { stopAfterFailure: true });
}
