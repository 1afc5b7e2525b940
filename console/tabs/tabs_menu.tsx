/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The tab bar's ⋮ menu: Export tabs (a JSON file) and Import tabs, which reports what it added
 * and what it skipped (spec/console.md §2.3), plus Editor settings and Keyboard shortcuts. Test hooks: `tabs-menu-button`, `tabs-export`,
 * `tabs-import`, `tabs-import-input`, `tabs-import-summary` (`data-imported`, `data-skipped`).
 */
import { useRef, useState } from "preact/hooks";
import { exportTabs, type ImportSummary, importTabs } from "./tab_store.ts";
import { EditorSettingsDialog, ShortcutsDialog } from "../ui/settings_dialogs.tsx";

function download(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function SummaryDialog(props: { summary: ImportSummary; close(): void }) {
  const { summary } = props;
  return (
    <div class="dialog-backdrop" onKeyDown={(e) => e.key === "Escape" && props.close()}>
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="tabs-import-title"
        data-testid="tabs-import-summary"
        data-imported={summary.imported}
        data-skipped={summary.skipped.length}
      >
        <h2 id="tabs-import-title">Import tabs</h2>
        {summary.error ? <p class="import-error">Nothing imported: {summary.error}</p> : (
          <p>
            {summary.imported} tab{summary.imported === 1 ? "" : "s"} imported, {summary.skipped.length}{" "}
            skipped.
          </p>
        )}
        {summary.skipped.length > 0 && <ul>{summary.skipped.map((s, i) => <li key={i}>{s}</li>)}</ul>}
        <div class="dialog-actions">
          <button type="button" class="btn primary" ref={(el) => el?.focus()} onClick={props.close}>
            OK
          </button>
        </div>
      </div>
    </div>
  );
}

export function TabsMenu() {
  const [open, setOpen] = useState(false);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [dialog, setDialog] = useState<"settings" | "shortcuts" | null>(null);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="menu-anchor">
      <button
        type="button"
        class="btn small ghost"
        data-testid="tabs-menu-button"
        title="Tabs"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋮
      </button>
      {open && (
        <div class="menu" role="menu">
          <button
            type="button"
            role="menuitem"
            class="menu-item"
            data-testid="tabs-export"
            onClick={() => {
              setOpen(false);
              download(exportTabs(), `console-tabs-${new Date().toISOString().slice(0, 10)}.json`);
            }}
          >
            Export tabs
          </button>
          <button
            type="button"
            role="menuitem"
            class="menu-item"
            data-testid="tabs-import"
            onClick={() => input.current?.click()}
          >
            Import tabs…
          </button>
          <button
            type="button"
            role="menuitem"
            class="menu-item"
            data-testid="editor-settings-button"
            onClick={() => (setOpen(false), setDialog("settings"))}
          >
            Editor settings
          </button>
          <button
            type="button"
            role="menuitem"
            class="menu-item"
            data-testid="shortcuts-button"
            onClick={() => (setOpen(false), setDialog("shortcuts"))}
          >
            Keyboard shortcuts
          </button>
        </div>
      )}
      {dialog === "settings" && <EditorSettingsDialog close={() => setDialog(null)} />}
      {dialog === "shortcuts" && <ShortcutsDialog close={() => setDialog(null)} />}
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="tabs-import-input"
        onChange={async (e) => {
          const el = e.currentTarget as HTMLInputElement;
          const file = el.files?.[0];
          el.value = "";
          setOpen(false);
          if (file) setSummary(importTabs(await file.text()));
        }}
      />
      {summary && <SummaryDialog summary={summary} close={() => setSummary(null)} />}
    </div>
  );
}
