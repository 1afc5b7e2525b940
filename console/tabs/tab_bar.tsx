/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The editor tab bar: select, add (Alt+T), close (Alt+W; the last tab stays), rename by
 * double-click, and reopen closed tabs from the history menu (spec/console.md §2.3).
 */
import { TabsMenu } from "./tabs_menu.tsx";
import { useEffect, useState } from "preact/hooks";
import { useStore } from "../ui/store.ts";
import { addTab, clearClosedTabs, closeTab, patchTab, reopenTab, selectTab, tabsStore } from "./tab_store.ts";

const TITLE_MAX = 100;

function TabTitle(props: { id: string; title: string }) {
  const [editing, setEditing] = useState(false);
  if (!editing) return <span class="tab-title" onDblClick={() => setEditing(true)}>{props.title}</span>;
  const done = (e: Event) => {
    const v = (e.currentTarget as HTMLInputElement).value.trim().slice(0, TITLE_MAX);
    if (v) patchTab(props.id, { title: v });
    setEditing(false);
  };
  return (
    <input
      class="tab-rename"
      data-testid="tab-rename-input"
      value={props.title}
      ref={(el) => el?.focus()}
      onBlur={done}
      onKeyDown={(e) => (e.key === "Enter" ? done(e) : e.key === "Escape" && setEditing(false))}
    />
  );
}

function ClosedMenu(props: { close(): void }) {
  const { closed } = useStore(tabsStore);
  return (
    <div class="menu" data-testid="tab-history-menu" role="menu">
      {closed.length === 0 && <div class="menu-item dim">No closed tabs</div>}
      {closed.map((t) => (
        <button
          key={t.id}
          type="button"
          role="menuitem"
          class="menu-item"
          data-testid="closed-tab"
          onClick={() => (reopenTab(t.id), props.close())}
        >
          {t.title} <span class="dim">{t.text.slice(0, 40)}</span>
        </button>
      ))}
      {closed.length > 0 && (
        <button type="button" class="menu-item danger" onClick={() => (clearClosedTabs(), props.close())}>
          Clear history
        </button>
      )}
    </div>
  );
}

export function TabBar() {
  const { tabs, activeId } = useStore(tabsStore);
  const [menu, setMenu] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.code === "KeyT") (e.preventDefault(), addTab());
      if (e.code === "KeyW") (e.preventDefault(), closeTab(tabsStore.get().activeId));
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  return (
    <div class="tab-bar" role="tablist">
      {tabs.map((t) => (
        <div
          key={t.id}
          class={`editor-tab${t.id === activeId ? " active" : ""}`}
          role="tab"
          aria-selected={t.id === activeId}
          tabIndex={0}
          data-testid="editor-tab"
          data-tab-id={t.id}
          data-active={String(t.id === activeId)}
          onClick={() => selectTab(t.id)}
          onKeyDown={(e) => e.key === "Enter" && selectTab(t.id)}
        >
          <TabTitle id={t.id} title={t.title} />
          {tabs.length > 1 && (
            <button
              type="button"
              class="tab-close"
              data-testid="close-tab-button"
              aria-label={`Close ${t.title}`}
              onClick={(e) => (e.stopPropagation(), closeTab(t.id))}
            >
              ×
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        class="tab-add"
        data-testid="new-tab-button"
        title="New tab (Alt+T)"
        onClick={() => addTab()}
      >
        +
      </button>
      <span class="spacer" />
      <div class="menu-anchor">
        <button
          type="button"
          class="btn small ghost"
          data-testid="tab-history-button"
          title="Closed tabs"
          aria-haspopup="menu"
          onClick={() => setMenu(!menu)}
        >
          Closed tabs
        </button>
        {menu && <ClosedMenu close={() => setMenu(false)} />}
      </div>
      <TabsMenu />
    </div>
  );
}
