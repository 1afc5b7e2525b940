/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The search-across-tabs panel (left rail): results grouped by tab with line numbers; clicking
 * one opens the tab (reopening it if it was closed) and selects the match. Test hooks:
 * `search-panel`, `search-input`, `search-case`, `search-word`, `search-regex`,
 * `search-closed`, `search-group` (`data-tab-id`, `data-closed`), `search-result`
 * (`data-line`, `data-from`, `data-to`), `search-error`.
 */
import { useState } from "preact/hooks";
import { whenTabShown } from "../editor/query_editor.tsx";
import { reopenTab, selectTab, type Tab, tabsStore } from "../tabs/tab_store.ts";
import { useStore } from "../ui/store.ts";
import { findInText, type SearchHit, searchPattern } from "./tab_search.ts";

/** Shows the tab, then selects the match once the editor holds that tab's text. */
function reveal(tab: Tab, closed: boolean, hit: SearchHit): void {
  if (closed) reopenTab(tab.id);
  else selectTab(tab.id);
  whenTabShown(tab.id, (view) => {
    if (hit.to > view.state.doc.length) return;
    view.dispatch({ selection: { anchor: hit.from, head: hit.to }, scrollIntoView: true });
    view.focus();
  });
}

function Toggle(props: { testid: string; label: string; title: string; on: boolean; set(v: boolean): void }) {
  return (
    <button
      type="button"
      class={`btn small ghost search-toggle${props.on ? " active" : ""}`}
      data-testid={props.testid}
      aria-pressed={props.on}
      title={props.title}
      onClick={() => props.set(!props.on)}
    >
      {props.label}
    </button>
  );
}

export function SearchPanel(props: { hidden: boolean }) {
  const tabs = useStore(tabsStore);
  const [query, setQuery] = useState("");
  const [caseSensitive, setCase] = useState(false);
  const [wholeWord, setWord] = useState(false);
  const [regex, setRegex] = useState(false);
  const [withClosed, setWithClosed] = useState(false);
  const pattern = searchPattern(query, { caseSensitive, wholeWord, regex });
  const sources = [
    ...tabs.tabs.map((t) => ({ tab: t, closed: false })),
    ...(withClosed ? tabs.closed.map((t) => ({ tab: t, closed: true })) : []),
  ];
  const groups = pattern instanceof RegExp
    ? sources.map((s) => ({ ...s, hits: findInText(s.tab.text, pattern) })).filter((g) => g.hits.length > 0)
    : [];
  return (
    <aside
      class="schema-panel search-panel"
      aria-label="Search in tabs"
      data-testid="search-panel"
      hidden={props.hidden}
    >
      <div class="panel-head">
        <span class="panel-title">Search in tabs</span>
      </div>
      <input
        class="schema-filter"
        type="search"
        data-testid="search-input"
        placeholder="Find in every tab"
        value={query}
        onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
      />
      <div class="search-toggles">
        <Toggle testid="search-case" label="Aa" title="Match case" on={caseSensitive} set={setCase} />
        <Toggle testid="search-word" label="W" title="Whole word" on={wholeWord} set={setWord} />
        <Toggle testid="search-regex" label=".*" title="Regular expression" on={regex} set={setRegex} />
        <Toggle
          testid="search-closed"
          label="+ closed"
          title="Include closed tabs"
          on={withClosed}
          set={setWithClosed}
        />
      </div>
      {typeof pattern === "string" && <div class="schema-error" data-testid="search-error">{pattern}</div>}
      <ul class="search-results">
        {groups.map((g) => (
          <li key={g.tab.id} data-testid="search-group" data-tab-id={g.tab.id} data-closed={String(g.closed)}>
            <div class="search-tab">
              {g.tab.title} {g.closed && <span class="badge dim-badge">closed</span>}{" "}
              <span class="dim">({g.hits.length})</span>
            </div>
            {g.hits.map((h) => (
              <button
                type="button"
                key={h.from}
                class="search-result"
                data-testid="search-result"
                data-line={h.line}
                data-from={h.from}
                data-to={h.to}
                onClick={() => reveal(g.tab, g.closed, h)}
              >
                <span class="dim">{h.line}</span> <code>{h.lineText.trim()}</code>
              </button>
            ))}
          </li>
        ))}
        {pattern instanceof RegExp && groups.length === 0 && <li class="dim schema-empty">No match</li>}
      </ul>
    </aside>
  );
}
