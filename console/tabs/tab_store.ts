/**
 * Editor tabs and each tab's query history, persisted in IndexedDB so both survive a reload
 * (spec/console.md §2.3, P0 item 12). At least one tab is always open; closing a tab archives
 * it in `closed`, from where it can be reopened.
 */
import type { Timings } from "../api/types.ts";
import { kvGet, kvSet } from "../ui/idb_store.ts";
import { Store } from "../ui/store.ts";

export type LogStatus = "running" | "success" | "error" | "cancelled" | "notice";

/** One executed statement, as the query log and the history show it. */
export interface LogEntry {
  id: number;
  query: string;
  status: LogStatus;
  atMs: number;
  kind?: "rows" | "ddl" | "dml" | "notice";
  rowCount?: number;
  message?: string;
  timings?: Timings;
}

export interface Tab {
  id: string;
  title: string;
  text: string;
  cursor: number;
  history: LogEntry[];
}

export interface TabsState {
  tabs: Tab[];
  activeId: string;
  closed: Tab[];
}

const KEY = "tabs.v1";
const HISTORY_MAX = 200;
const CLOSED_MAX = 30;
const TABS_MAX = 100;
const WELCOME = "-- Ctrl+Enter (or F9) runs the statement at the cursor, Ctrl+Shift+Enter runs all\n" +
  "select x, x * 2 as y from long_sequence(5);\n";

function newTab(n: number, text = ""): Tab {
  return { id: crypto.randomUUID(), title: `SQL ${n}`, text, cursor: text.length, history: [] };
}

const first = newTab(1, WELCOME);
export const tabsStore = new Store<TabsState>({ tabs: [first], activeId: first.id, closed: [] });

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function save(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => kvSet(KEY, tabsStore.get()), 300);
}
globalThis.addEventListener?.("pagehide", () => kvSet(KEY, tabsStore.get()));

function update(next: TabsState): void {
  tabsStore.set(next);
  save();
}

export async function loadTabs(): Promise<void> {
  const saved = await kvGet<TabsState>(KEY);
  if (saved && saved.tabs?.length) {
    const activeId = saved.tabs.some((t) => t.id === saved.activeId) ? saved.activeId : saved.tabs[0].id;
    // A statement that was running when the page went away did not finish.
    const tabs = saved.tabs.map((t) => ({
      ...t,
      history: t.history.map((e) => e.status === "running" ? { ...e, status: "cancelled" as const } : e),
    }));
    tabsStore.set({ tabs, activeId, closed: saved.closed ?? [] });
  }
}

export function activeTab(): Tab {
  const s = tabsStore.get();
  return s.tabs.find((t) => t.id === s.activeId) ?? s.tabs[0];
}

export function patchTab(id: string, patch: Partial<Tab>): void {
  const s = tabsStore.get();
  update({ ...s, tabs: s.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) });
}

export function addTab(text = ""): void {
  const s = tabsStore.get();
  if (s.tabs.length >= TABS_MAX) return;
  const numbers = s.tabs.map((t) => Number(/^SQL (\d+)$/.exec(t.title)?.[1] ?? 0));
  const tab = newTab(Math.max(0, ...numbers) + 1, text);
  update({ ...s, tabs: [...s.tabs, tab], activeId: tab.id });
}

export function selectTab(id: string): void {
  update({ ...tabsStore.get(), activeId: id });
}

export function closeTab(id: string): void {
  const s = tabsStore.get();
  if (s.tabs.length <= 1) return;
  const index = s.tabs.findIndex((t) => t.id === id);
  const tabs = s.tabs.filter((t) => t.id !== id);
  const activeId = s.activeId === id ? tabs[Math.max(0, index - 1)].id : s.activeId;
  update({ tabs, activeId, closed: [s.tabs[index], ...s.closed].slice(0, CLOSED_MAX) });
}

export function reopenTab(id: string): void {
  const s = tabsStore.get();
  const tab = s.closed.find((t) => t.id === id);
  if (!tab) return;
  update({ tabs: [...s.tabs, tab], activeId: tab.id, closed: s.closed.filter((t) => t.id !== id) });
}

export function clearClosedTabs(): void {
  update({ ...tabsStore.get(), closed: [] });
}

/** Adds or replaces (same id) a history entry of a tab; newest first. */
export function recordEntry(tabId: string, entry: LogEntry): void {
  const s = tabsStore.get();
  const tab = s.tabs.find((t) => t.id === tabId);
  if (!tab) return;
  const rest = tab.history.filter((e) => e.id !== entry.id);
  patchTab(tabId, { history: [entry, ...rest].slice(0, HISTORY_MAX) });
}

export function clearHistory(tabId: string): void {
  patchTab(tabId, { history: [] });
}

/** The file format of Export tabs / Import tabs (spec/console.md §2.3). */
export interface TabsFile {
  format: "questdb-console-tabs";
  version: 1;
  tabs: { title: string; text: string }[];
}

export function exportTabs(): string {
  const file: TabsFile = {
    format: "questdb-console-tabs",
    version: 1,
    tabs: tabsStore.get().tabs.map((t) => ({ title: t.title, text: t.text })),
  };
  return JSON.stringify(file, null, 2);
}

export interface ImportSummary {
  imported: number;
  /** Why each skipped entry was skipped. */
  skipped: string[];
  /** Set when the file itself could not be read; nothing was imported. */
  error?: string;
}

const TITLE_MAX = 100;

/**
 * Adds the tabs of an exported file. A tab whose text is already open is skipped as a
 * duplicate, an entry without text as malformed, and anything past the 100-tab limit.
 */
export function importTabs(json: string): ImportSummary {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return { imported: 0, skipped: [], error: "not a JSON file" };
  }
  const list = (data as Partial<TabsFile>)?.tabs;
  if ((data as Partial<TabsFile>)?.format !== "questdb-console-tabs" || !Array.isArray(list)) {
    return { imported: 0, skipped: [], error: "not a console tabs export" };
  }
  const s = tabsStore.get();
  const tabs = [...s.tabs];
  const texts = new Set(tabs.map((t) => t.text));
  const skipped: string[] = [];
  let imported = 0;
  list.forEach((entry, i) => {
    const name = typeof entry?.title === "string" && entry.title.trim()
      ? entry.title.trim().slice(0, TITLE_MAX)
      : `Imported ${i + 1}`;
    if (typeof entry?.text !== "string") skipped.push(`${name}: no SQL text`);
    else if (texts.has(entry.text)) skipped.push(`${name}: already open`);
    else if (tabs.length >= TABS_MAX) skipped.push(`${name}: tab limit reached`);
    else {
      tabs.push({ ...newTab(0, entry.text), title: name });
      texts.add(entry.text);
      imported++;
    }
  });
  if (imported > 0) update({ ...s, tabs, activeId: tabs[tabs.length - 1].id });
  return { imported, skipped };
}
