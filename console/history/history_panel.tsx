/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The query history panel (left rail): search over every query ever run here, star the ones
 * to keep, and insert or re-run one. Test hooks: `history-panel`, `history-search`,
 * `history-starred-filter`, `history-item` (`data-query`, `data-status`, `data-starred`),
 * `history-star`, `history-insert`, `history-run`, `history-clear`.
 */
import { useState } from "preact/hooks";
import { insertAtCursor } from "../editor/query_editor.tsx";
import { rerun } from "../results/query_runner.ts";
import { useStore } from "../ui/store.ts";
import { clearUnstarred, historyStore, toggleStar } from "./history_store.ts";

export function HistoryPanel(props: { hidden: boolean }) {
  const items = useStore(historyStore);
  const [search, setSearch] = useState("");
  const [starredOnly, setStarredOnly] = useState(false);
  const q = search.trim().toLowerCase();
  const shown = items.filter((i) => (!starredOnly || i.starred) && (!q || i.query.toLowerCase().includes(q)));
  return (
    <aside
      class="schema-panel history-panel"
      aria-label="Query history"
      data-testid="history-panel"
      hidden={props.hidden}
    >
      <div class="panel-head">
        <span class="panel-title">
          History <span class="dim">({items.length})</span>
        </span>
        <button
          type="button"
          class={`btn small ghost${starredOnly ? " active" : ""}`}
          data-testid="history-starred-filter"
          aria-pressed={starredOnly}
          title="Show only starred queries"
          onClick={() => setStarredOnly(!starredOnly)}
        >
          ★ only
        </button>
        <button
          type="button"
          class="btn small ghost"
          data-testid="history-clear"
          title="Forget every query that is not starred"
          onClick={clearUnstarred}
        >
          Clear
        </button>
      </div>
      <input
        class="schema-filter"
        type="search"
        data-testid="history-search"
        placeholder="Search queries"
        value={search}
        onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)}
      />
      <ul class="history-list">
        {shown.map((i) => (
          <li
            key={i.query}
            class={`history-item is-${i.status}`}
            data-testid="history-item"
            data-query={i.query}
            data-status={i.status}
            data-starred={String(i.starred)}
          >
            <div class="history-head">
              <button
                type="button"
                class={`btn small ghost history-star${i.starred ? " on" : ""}`}
                data-testid="history-star"
                aria-pressed={i.starred}
                title={i.starred ? "Unstar" : "Star: keep this query"}
                onClick={() => toggleStar(i.query)}
              >
                {i.starred ? "★" : "☆"}
              </button>
              <span class="dim history-meta" title={new Date(i.lastRunMs).toString()}>
                {new Date(i.lastRunMs).toLocaleString()} · {i.runs}× · {i.summary}
              </span>
            </div>
            <code class="history-query" title={i.query}>{i.query}</code>
            <div class="history-actions">
              <button
                type="button"
                class="btn small ghost"
                data-testid="history-insert"
                onClick={() => insertAtCursor(i.query)}
              >
                Insert
              </button>
              <button
                type="button"
                class="btn small ghost"
                data-testid="history-run"
                onClick={() => rerun(i.query)}
              >
                Run
              </button>
            </div>
          </li>
        ))}
        {shown.length === 0 && (
          <li class="dim schema-empty">{items.length ? "No match" : "Queries you run show up here"}</li>
        )}
      </ul>
    </aside>
  );
}
