/**
 * A minimal observable value and a Preact hook to read it. The console's few pieces of global
 * state (connection, auth, schema, toasts) live in stores so non-UI modules can update them.
 */
import { useEffect, useState } from "preact/hooks";

export class Store<T> {
  #value: T;
  #listeners = new Set<(v: T) => void>();

  constructor(value: T) {
    this.#value = value;
  }

  get(): T {
    return this.#value;
  }

  set(value: T): void {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const l of [...this.#listeners]) l(value);
  }

  subscribe(listener: (v: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Re-renders the calling component whenever the store changes. */
export function useStore<T>(store: Store<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((n) => n + 1)), [store]);
  return store.get();
}
