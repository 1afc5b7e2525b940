/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Two small dialogs opened from the tab bar's ⋮ menu: Editor settings (spec/console.md §2.13)
 * and the keyboard shortcuts help (§2.2 "Other editor features"). Test hooks: `editor-settings`,
 * `setting-run-selection`, `setting-max-column-width`, `shortcuts-help`, `shortcut`
 * (`data-keys`), `dialog-close`.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { editorSettingsStore, MAX_COLUMN_WIDTH_RANGE, setEditorSettings } from "./editor_settings.ts";
import { useStore } from "./store.ts";

function Dialog(props: { testid: string; title: string; close(): void; children: ComponentChildren }) {
  return (
    <div
      class="dialog-backdrop"
      onKeyDown={(e) => e.key === "Escape" && props.close()}
      onClick={props.close}
    >
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        data-testid={props.testid}
        onClick={(e) => e.stopPropagation()}
      >
        <h2>{props.title}</h2>
        {props.children}
        <div class="dialog-actions">
          <button
            type="button"
            class="btn primary"
            data-testid="dialog-close"
            ref={(el) => el?.focus()}
            onClick={props.close}
          >
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

export function EditorSettingsDialog(props: { close(): void }) {
  const settings = useStore(editorSettingsStore);
  // Typed text is kept as is until it leaves the field, so "1" on the way to "1000" is not clamped.
  const [width, setWidth] = useState(String(settings.maxColumnWidth));
  const [lo, hi] = MAX_COLUMN_WIDTH_RANGE;
  return (
    <Dialog testid="editor-settings" title="Editor settings" close={props.close}>
      <label class="check">
        <input
          type="checkbox"
          data-testid="setting-run-selection"
          checked={settings.runWithSelection}
          onChange={(e) =>
            setEditorSettings({ runWithSelection: (e.currentTarget as HTMLInputElement).checked })}
        />{" "}
        Run with selection{" "}
        <span class="dim">(selected text runs instead of the statement at the cursor)</span>
      </label>
      <label class="setting-row">
        Maximum column width (px)
        <input
          type="number"
          min={lo}
          max={hi}
          step={10}
          data-testid="setting-max-column-width"
          value={width}
          onInput={(e) => setWidth((e.currentTarget as HTMLInputElement).value)}
          onChange={(e) => {
            setEditorSettings({ maxColumnWidth: Number((e.currentTarget as HTMLInputElement).value) });
            setWidth(String(editorSettingsStore.get().maxColumnWidth));
          }}
        />
      </label>
    </Dialog>
  );
}

const SHORTCUTS: [string, string][] = [
  ["Ctrl+Enter / F9", "Run the statement at the cursor, or the selection"],
  ["Ctrl+Shift+Enter", "Run all statements in the tab"],
  ["Ctrl+E", "Show the query plan (EXPLAIN)"],
  ["Ctrl+Space", "Autocomplete"],
  ["Alt+L", "Copy a link to the statement or selection"],
  ["Alt+Shift+L", "Copy a link to every statement of the tab"],
  ["Alt+Shift+F / Alt+F", "Format the tab / the selection"],
  ["Alt+T / Alt+W", "New tab / close tab"],
  ["Ctrl+C (grid)", "Copy the selected cell"],
  ["Right-click ▶", "Run, plan or link for that statement"],
  ["Ctrl+F", "Find in the editor"],
  ["Ctrl+Z / Ctrl+Shift+Z", "Undo / redo"],
];

export function ShortcutsDialog(props: { close(): void }) {
  return (
    <Dialog testid="shortcuts-help" title="Keyboard shortcuts" close={props.close}>
      <table class="details-table shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys} data-testid="shortcut" data-keys={keys}>
              <td>
                <kbd>{keys}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
