/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * A small notice in the top bar while the browser's IndexedDB does not answer (idb_store.ts):
 * tabs and history then live in memory only and are gone after a reload. Test hook:
 * `storage-notice`.
 */
import { storageStore } from "./idb_store.ts";
import { useStore } from "./store.ts";

export function StorageNotice() {
  const storage = useStore(storageStore);
  if (storage !== "memory") return null;
  return (
    <span
      class="storage-notice"
      data-testid="storage-notice"
      role="status"
      title="The browser's storage (IndexedDB) did not answer: tabs and history are kept for this page only"
    >
      History not saved
    </span>
  );
}
