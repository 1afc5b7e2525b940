/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The signed-in layout: the left rail and schema panel, the tab bar, the editor with its
 * toolbar, a draggable splitter, the result area and the query log. Panel sizes are UI
 * preferences kept in localStorage.
 */
import { useState } from "preact/hooks";
import { QueryEditor, type RunMode } from "./editor/query_editor.tsx";
import { ResultPanel } from "./results/result_panel.tsx";
import { QueryLog } from "./results/query_log.tsx";
import { QueryInspector } from "./results/query_inspector.tsx";
import { cancelRun, requestRun, resultsStore, runningStore } from "./results/query_runner.ts";
import { SchemaExplorer } from "./schema/schema_explorer.tsx";
import { ImportPanel } from "./import/import_panel.tsx";
import { HistoryPanel } from "./history/history_panel.tsx";
import { SearchPanel } from "./search/search_panel.tsx";
import { TableDetailsPanel } from "./schema/table_details.tsx";
import { TabBar } from "./tabs/tab_bar.tsx";
import { activeTab, patchTab, tabsStore } from "./tabs/tab_store.ts";
import { RunAllDialog } from "./ui/run_all_dialog.tsx";
import { useStore } from "./ui/store.ts";

const EDITOR_PX_KEY = "ui.editor.height";
const SCHEMA_KEY = "ui.schema.open";

/** Which left panel shows: the rail toggles one at a time, like the QuestDB console. */
type LeftPanel = "tables" | "import" | "history" | "search" | null;

function Splitter(props: { onDrag(dy: number): void }) {
  const down = (e: PointerEvent) => {
    e.preventDefault();
    let y = e.clientY;
    const move = (m: PointerEvent) => {
      props.onDrag(m.clientY - y);
      y = m.clientY;
    };
    const up = () => (removeEventListener("pointermove", move), removeEventListener("pointerup", up));
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
  };
  return <div class="splitter" role="separator" aria-orientation="horizontal" onPointerDown={down} />;
}

function EditorToolbar() {
  const running = useStore(runningStore);
  return (
    <div class="editor-toolbar">
      {running
        ? (
          <button type="button" class="btn danger" data-testid="cancel-query-button" onClick={cancelRun}>
            ■ Cancel
          </button>
        )
        : (
          <button
            type="button"
            class="btn primary"
            data-testid="run-query-button"
            title="Run the statement at the cursor or the selection (Ctrl+Enter, F9)"
            onClick={() => requestRun("cursor")}
          >
            ▶ Run
          </button>
        )}
      <button
        type="button"
        class="btn ghost"
        data-testid="run-all-button"
        title="Run all statements (Ctrl+Shift+Enter)"
        disabled={!!running}
        onClick={() => requestRun("all")}
      >
        Run all
      </button>
      <span class="dim hint">Ctrl+Enter run · Ctrl+Shift+Enter run all · Ctrl+Space complete</span>
    </div>
  );
}

export function Workspace() {
  useStore(tabsStore);
  const results = useStore(resultsStore);
  const [editorPx, setEditorPx] = useState(() => Number(localStorage.getItem(EDITOR_PX_KEY)) || 260);
  const [left, setLeft] = useState<LeftPanel>(() =>
    localStorage.getItem(SCHEMA_KEY) !== "false" ? "tables" : null
  );
  const schemaOpen = left === "tables";
  const tab = activeTab();
  const resize = (dy: number) =>
    setEditorPx((px) => {
      const next = Math.max(90, Math.min(innerHeight - 220, px + dy));
      localStorage.setItem(EDITOR_PX_KEY, String(next));
      return next;
    });
  const toggleSchema = () => {
    localStorage.setItem(SCHEMA_KEY, String(!schemaOpen));
    setLeft(schemaOpen ? null : "tables");
  };
  // The import panel is not remembered: it holds files that do not survive a reload anyway.
  const toggleImport = () => setLeft(left === "import" ? null : "import");
  const toggleHistory = () => setLeft(left === "history" ? null : "history");
  const toggleSearch = () => setLeft(left === "search" ? null : "search");
  return (
    <div class="main">
      <nav class="rail" aria-label="Panels">
        <button
          type="button"
          class={`rail-button${schemaOpen ? " active" : ""}`}
          data-testid="tables-panel-button"
          title="Tables"
          aria-pressed={schemaOpen}
          onClick={toggleSchema}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path fill="currentColor" d="M4 4h16v4H4zm0 6h16v4H4zm0 6h16v4H4z" opacity=".85" />
          </svg>
        </button>
        <button
          type="button"
          class={`rail-button${left === "import" ? " active" : ""}`}
          data-testid="import-panel-button"
          title="Import CSV"
          aria-pressed={left === "import"}
          onClick={toggleImport}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              fill="currentColor"
              d="M11 3h2v10.2l3.6-3.6 1.4 1.4-6 6-6-6 1.4-1.4 3.6 3.6zM4 19h16v2H4z"
            />
          </svg>
        </button>
        <button
          type="button"
          class={`rail-button${left === "history" ? " active" : ""}`}
          data-testid="history-panel-button"
          title="Query history"
          aria-pressed={left === "history"}
          onClick={toggleHistory}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              fill="currentColor"
              d="M13 3a9 9 0 0 0-9 9H1l4 4 4-4H6a7 7 0 1 1 2.05 4.95l-1.42 1.42A9 9 0 1 0 13 3zm-1 5v5l4.25 2.52.77-1.28-3.52-2.09V8z"
            />
          </svg>
        </button>
        <button
          type="button"
          class={`rail-button${left === "search" ? " active" : ""}`}
          data-testid="search-panel-button"
          title="Search in tabs"
          aria-pressed={left === "search"}
          onClick={toggleSearch}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              fill="currentColor"
              d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z"
            />
          </svg>
        </button>
      </nav>
      {schemaOpen && <SchemaExplorer />}
      <SearchPanel hidden={left !== "search"} />
      <HistoryPanel hidden={left !== "history"} />
      {/* Kept mounted while hidden, so a switch to Tables does not drop the queued files. */}
      <ImportPanel hidden={left !== "import"} />
      <section class="workspace">
        <TabBar />
        <div class="editor-area" style={`height:${editorPx}px`}>
          <EditorToolbar />
          <QueryEditor
            tabId={tab.id}
            text={tab.text}
            cursor={tab.cursor}
            onChange={(text, cursor) => patchTab(tab.id, { text, cursor })}
            onRun={(mode: RunMode) => requestRun(mode)}
            onCancel={cancelRun}
          />
        </div>
        <Splitter onDrag={resize} />
        <ResultPanel result={results.get(tab.id)} />
        <QueryLog tabId={tab.id} history={tab.history} />
      </section>
      <TableDetailsPanel />
      <RunAllDialog />
      <QueryInspector />
    </div>
  );
}
