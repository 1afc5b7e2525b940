/**
 * Share links (spec/console.md §2.2): `?query=<sql>&executeQuery=true` opens the SQL in a tab
 * (reusing a tab that already holds it) and runs it when every statement only reads; anything
 * that could write is opened but left for the user to run. Alt+L copies such a link.
 */
import { splitStatements } from "../editor/statements.ts";
import { addTab, patchTab, selectTab, tabsStore } from "../tabs/tab_store.ts";
import { copyText } from "./clipboard.ts";

const READ_ONLY = /^\s*(select|with|show|explain|tables|table_columns|long_sequence)\b/i;

export interface SharedQuery {
  text: string;
  /** Run at once: the link asked for it and every statement only reads. */
  execute: boolean;
  /**
   * The link asked to run, but these statements may write (their first keyword, e.g.
   * INSERT, DROP): the user confirms first (spec/console.md §2.2 "Share links").
   */
  writes: string[];
}

/** The first keyword of each statement that is not known to only read. */
export function writeKinds(text: string): string[] {
  return splitStatements(text)
    .filter((s) => !READ_ONLY.test(s.text))
    .map((s) => (/^\s*([A-Za-z_]+)/.exec(s.text)?.[1] ?? "statement").toUpperCase());
}

/** Takes the shared query out of the URL (so a reload does not repeat it) and opens its tab. */
export function openSharedQuery(): SharedQuery | null {
  const params = new URLSearchParams(location.search);
  const text = params.get("query");
  if (!text) return null;
  params.delete("query");
  const wantsRun = params.get("executeQuery") === "true";
  params.delete("executeQuery");
  const rest = params.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  const existing = tabsStore.get().tabs.find((t) => t.text === text);
  if (existing) selectTab(existing.id);
  else {
    addTab(text);
    patchTab(tabsStore.get().activeId, { title: "Shared query" });
  }
  const statements = splitStatements(text);
  const writes = wantsRun ? writeKinds(text) : [];
  return { text, execute: wantsRun && statements.length > 0 && writes.length === 0, writes };
}

export function shareUrl(sql: string): string {
  const url = new URL(location.href);
  url.search = new URLSearchParams({ query: sql, executeQuery: "true" }).toString();
  url.hash = "";
  return url.toString();
}

export function copyShareLink(sql: string): void {
  if (sql.trim()) void copyText(shareUrl(sql), "Link to the query copied");
}
