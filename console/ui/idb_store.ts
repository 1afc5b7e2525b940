/**
 * A tiny key-value store over IndexedDB (database `web-console`, object store `kv`), used to
 * keep tabs and their query history across reloads. Falls back to memory when IndexedDB is
 * unavailable (private windows in some browsers), so the console still works.
 *
 * Some browsers (headless ones, some private modes) neither open the database nor report an
 * error: the request never fires an event. Every IndexedDB step therefore has a deadline; once
 * one passes, the console runs on memory alone for the rest of the page's life and
 * `storageStore` says so (the notice in the top bar).
 */
import { Store } from "./store.ts";

const DB_NAME = "web-console";
const STORE = "kv";
/** How long the browser may take to open the database or answer one read or write. */
export const IDB_TIMEOUT_MS = 1500;
const memory = new Map<string, unknown>();
let dbPromise: Promise<IDBDatabase | null> | null = null;

/** "persisted" while IndexedDB answers, "memory" once it failed or did not answer in time. */
export const storageStore = new Store<"persisted" | "memory">("persisted");

/** Resolves with `fallback` when `p` has not settled within the deadline. */
function withDeadline<T>(p: Promise<T>, fallback: T, onTimeout: () => void): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      onTimeout();
      resolve(fallback);
    }, IDB_TIMEOUT_MS);
    p.then((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}

const giveUp = () => {
  dbPromise = Promise.resolve(null);
  storageStore.set("memory");
};

function open(): Promise<IDBDatabase | null> {
  dbPromise ??= withDeadline(
    new Promise<IDBDatabase | null>((resolve) => {
      try {
        const req = indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(STORE);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => resolve(null);
        req.onblocked = () => resolve(null);
      } catch {
        resolve(null);
      }
    }).then((db) => {
      if (!db) storageStore.set("memory");
      return db;
    }),
    null,
    giveUp,
  );
  return dbPromise;
}

function request<T>(
  mode: IDBTransactionMode,
  run: (s: IDBObjectStore) => IDBRequest,
): Promise<T | undefined> {
  return open().then((db) => {
    if (!db) return undefined;
    return withDeadline(
      new Promise<T | undefined>((resolve) => {
        try {
          const req = run(db.transaction(STORE, mode).objectStore(STORE));
          req.onsuccess = () => resolve(req.result as T);
          req.onerror = () => resolve(undefined);
        } catch {
          resolve(undefined);
        }
      }),
      undefined,
      giveUp,
    );
  });
}

export async function kvGet<T>(key: string): Promise<T | undefined> {
  const v = await request<T>("readonly", (s) => s.get(key));
  return v ?? (memory.get(key) as T | undefined);
}

export async function kvSet(key: string, value: unknown): Promise<void> {
  memory.set(key, value);
  await request("readwrite", (s) => s.put(value, key));
}
