/**
 * A tiny key-value store over IndexedDB (database `web-console`, object store `kv`), used to
 * keep tabs and their query history across reloads. Falls back to memory when IndexedDB is
 * unavailable (private windows in some browsers), so the console still works.
 */

const DB_NAME = "web-console";
const STORE = "kv";
const memory = new Map<string, unknown>();
let dbPromise: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  dbPromise ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return dbPromise;
}

function request<T>(
  mode: IDBTransactionMode,
  run: (s: IDBObjectStore) => IDBRequest,
): Promise<T | undefined> {
  return open().then((db) =>
    new Promise((resolve) => {
      if (!db) return resolve(undefined);
      const req = run(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result as T);
      req.onerror = () => resolve(undefined);
    })
  );
}

export async function kvGet<T>(key: string): Promise<T | undefined> {
  const v = await request<T>("readonly", (s) => s.get(key));
  return v ?? (memory.get(key) as T | undefined);
}

export async function kvSet(key: string, value: unknown): Promise<void> {
  memory.set(key, value);
  await request("readwrite", (s) => s.put(value, key));
}
