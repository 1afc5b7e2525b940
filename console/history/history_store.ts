/**
 * The console-wide query history (spec/console.md §5 gap 1, P1 "Persistent query history"):
 * every statement run from any tab, newest first, kept in IndexedDB so it survives reloads and
 * closed tabs. Re-running the same text moves it to the top instead of adding a copy. Starred
 * queries are kept forever; the rest are capped. Unlike the per-tab log, clearing a tab's log
 * does not touch it.
 */
import { kvGet, kvSet } from "../ui/idb_store.ts";
import { Store } from "../ui/store.ts";

export interface HistoryItem {
  query: string;
  lastRunMs: number;
  runs: number;
  status: "success" | "error" | "cancelled" | "notice";
  /** "3 rows", "OK", or the error text of the last run. */
  summary: string;
  starred: boolean;
}

const KEY = "history.v1";
const UNSTARRED_MAX = 500;

export const historyStore = new Store<HistoryItem[]>([]);

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * Runs are saved after a short pause (a run-all records many at once); a star or a clear is
 * a deliberate choice and is written at once, so a reload right after it cannot lose it.
 */
function update(items: HistoryItem[], now = false): void {
  historyStore.set(items);
  clearTimeout(saveTimer);
  if (now) void kvSet(KEY, items);
  else saveTimer = setTimeout(() => void kvSet(KEY, historyStore.get()), 200);
}
globalThis.addEventListener?.("pagehide", () => void kvSet(KEY, historyStore.get()));

export async function loadHistory(): Promise<void> {
  const saved = await kvGet<HistoryItem[]>(KEY).catch(() => undefined);
  // Runs recorded before the load finished are newer than anything saved.
  if (Array.isArray(saved)) update(merge(historyStore.get(), saved));
}

function merge(newer: HistoryItem[], older: HistoryItem[]): HistoryItem[] {
  const seen = new Set(newer.map((i) => i.query));
  return [...newer, ...older.filter((i) => !seen.has(i.query))];
}

function capped(items: HistoryItem[]): HistoryItem[] {
  let unstarred = 0;
  return items.filter((i) => i.starred || ++unstarred <= UNSTARRED_MAX);
}

export function rememberRun(query: string, status: HistoryItem["status"], summary: string): void {
  const text = query.trim();
  if (!text) return;
  const items = historyStore.get();
  const old = items.find((i) => i.query === text);
  const item: HistoryItem = {
    query: text,
    lastRunMs: Date.now(),
    runs: (old?.runs ?? 0) + 1,
    status,
    summary,
    starred: old?.starred ?? false,
  };
  update(capped([item, ...items.filter((i) => i !== old)]));
}

export function toggleStar(query: string): void {
  update(historyStore.get().map((i) => (i.query === query ? { ...i, starred: !i.starred } : i)), true);
}

/** Forgets everything except the starred queries. */
export function clearUnstarred(): void {
  update(historyStore.get().filter((i) => i.starred), true);
}
