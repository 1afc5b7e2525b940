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
import { cancelRun, requestRun, resultsStore, runningStore } from "./results/query_runner.ts";
import { SchemaExplorer } from "./schema/schema_explorer.tsx";
import { TabBar } from "./tabs/tab_bar.tsx";
import { activeTab, patchTab, tabsStore } from "./tabs/tab_store.ts";
import { RunAllDialog } from "./ui/run_all_dialog.tsx";
import { useStore } from "./ui/store.ts";

const EDITOR_PX_KEY = "ui.editor.height";
const SCHEMA_KEY = "ui.schema.open";

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
  const [schemaOpen, setSchemaOpen] = useState(() => localStorage.getItem(SCHEMA_KEY) !== "false");
  const tab = activeTab();
  const resize = (dy: number) =>
    setEditorPx((px) => {
      const next = Math.max(90, Math.min(innerHeight - 220, px + dy));
      localStorage.setItem(EDITOR_PX_KEY, String(next));
      return next;
    });
  const toggleSchema = () => {
    localStorage.setItem(SCHEMA_KEY, String(!schemaOpen));
    setSchemaOpen(!schemaOpen);
  };
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
      </nav>
      {schemaOpen && <SchemaExplorer />}
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
      <RunAllDialog />
    </div>
  );
}
