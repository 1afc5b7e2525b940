/**
 * The raw /exec exchanges behind recent query log entries, for the query inspector
 * (spec/console.md P1 "Query inspector"). Kept in memory only and bounded: replies can be
 * large, and the log itself (persisted with the tab) must stay small.
 */
import type { Exchange } from "../api/exec_client.ts";
import { Store } from "../ui/store.ts";

const KEEP = 50;
const exchanges = new Map<number, Exchange>();

export function rememberExchange(entryId: number, x: Exchange): void {
  exchanges.set(entryId, x);
  for (const id of exchanges.keys()) {
    if (exchanges.size <= KEEP) break;
    exchanges.delete(id);
  }
}

export function exchangeFor(entryId: number): Exchange | undefined {
  return exchanges.get(entryId);
}

/** The log entry whose exchange the inspector shows, or null when it is closed. */
export const inspectorStore = new Store<number | null>(null);
