/**
 * Editor settings (spec/console.md §2.13): "Run with selection" (on by default: with text
 * selected, Run runs the selection; off: always the statement at the cursor) and the maximum
 * width a result column gets automatically (60–4000 px). UI preferences, kept in localStorage.
 */
import { Store } from "./store.ts";

export interface EditorSettings {
  runWithSelection: boolean;
  maxColumnWidth: number;
}

const KEY = "ui.editor.settings";
export const MAX_COLUMN_WIDTH_RANGE = [60, 4000] as const;
const DEFAULTS: EditorSettings = { runWithSelection: true, maxColumnWidth: 420 };

export function clampColumnWidth(px: number): number {
  const [lo, hi] = MAX_COLUMN_WIDTH_RANGE;
  return Number.isFinite(px) ? Math.min(hi, Math.max(lo, Math.round(px))) : DEFAULTS.maxColumnWidth;
}

function load(): EditorSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return {
      runWithSelection: saved.runWithSelection !== false,
      maxColumnWidth: clampColumnWidth(Number(saved.maxColumnWidth ?? DEFAULTS.maxColumnWidth)),
    };
  } catch {
    return { ...DEFAULTS };
  }
}

export const editorSettingsStore = new Store<EditorSettings>(load());

export function setEditorSettings(patch: Partial<EditorSettings>): void {
  const next = { ...editorSettingsStore.get(), ...patch };
  next.maxColumnWidth = clampColumnWidth(next.maxColumnWidth);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch { /* not remembered */ }
  editorSettingsStore.set(next);
}
