/** Short-lived notices (`toast` with `data-kind`), e.g. "copied" or a failed download. */
import { Store } from "./store.ts";

export interface Toast {
  id: number;
  kind: "success" | "error" | "info";
  text: string;
}

export const toastStore = new Store<Toast[]>([]);
let nextId = 1;

export function toast(kind: Toast["kind"], text: string, durationMs = 3000): void {
  const t = { id: nextId++, kind, text };
  toastStore.set([...toastStore.get(), t]);
  setTimeout(() => toastStore.set(toastStore.get().filter((x) => x !== t)), durationMs);
}
