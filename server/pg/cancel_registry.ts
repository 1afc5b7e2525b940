/**
 * Which connection a CancelRequest names (spec/protocols.md §12.11): BackendKeyData hands each
 * connection a process id (its slot) and a random secret; a CancelRequest on another socket
 * with the same pair aborts that connection's running statement. A wrong pair is ignored.
 */

interface Entry {
  secret: number;
  cancel(): void;
}

export class CancelRegistry {
  #next = 1;
  readonly #entries = new Map<number, Entry>();

  /** Registers a connection; returns its process id and secret. */
  register(cancel: () => void): { processId: number; secretKey: number } {
    const processId = this.#next++;
    if (this.#next > 0x7fffffff) this.#next = 1;
    const secretKey = crypto.getRandomValues(new Int32Array(1))[0];
    this.#entries.set(processId, { secret: secretKey, cancel });
    return { processId, secretKey };
  }

  unregister(processId: number): void {
    this.#entries.delete(processId);
  }

  /** Cancels when the pair matches; true when it did. */
  cancel(processId: number, secretKey: number): boolean {
    const e = this.#entries.get(processId);
    if (!e || e.secret !== secretKey) return false;
    e.cancel();
    return true;
  }

  get size(): number {
    return this.#entries.size;
  }
}
