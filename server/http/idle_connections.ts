/**
 * HTTP keep-alive connections idle between requests (serve_connections.ts): closed once idle
 * past the deadline (`http.net.connection.timeout`), at most `perAddress` per client address and
 * `total` overall, a newcomer over a cap closing the longest idle one. The same contract as
 * server/pending_connections.ts, but a connection enters and leaves this set on every request,
 * so the deadline is kept by one sweep timer instead of a timer per entry (a setTimeout and its
 * clearTimeout cost ~3 µs, a few per cent of a small /exec request).
 */
import type { PendingLimits } from "../pending_connections.ts";

interface Entry {
  address: string;
  since: number;
  close: () => void;
}

/** An idle connection's handle: `leave()` when its next request arrives or it closes. */
export interface IdleTicket {
  leave(): void;
}

export class IdleConnections {
  readonly limits: PendingLimits;
  /** Insertion order is idle-since order: the first entry has been idle longest. */
  readonly #all = new Set<Entry>();
  readonly #byAddress = new Map<string, Set<Entry>>();
  #sweeper: ReturnType<typeof setInterval> | undefined;
  /** Connections closed by the deadline or a cap (for tests). */
  closed = 0;

  constructor(limits: PendingLimits) {
    this.limits = limits;
  }

  get size(): number {
    return this.#all.size;
  }

  /** A connection from `address` went idle; `close` runs at most once (deadline or cap). */
  enter(address: string, close: () => void): IdleTicket {
    const { perAddress, total } = this.limits;
    const mine = this.#byAddress.get(address);
    if (perAddress > 0 && mine) { while (mine.size >= perAddress) this.#close(mine.values().next().value!); }
    if (total > 0) { while (this.#all.size >= total) this.#close(this.#all.values().next().value!); }
    const entry: Entry = { address, since: Date.now(), close };
    this.#all.add(entry);
    const set = this.#byAddress.get(address) ?? new Set<Entry>();
    set.add(entry);
    this.#byAddress.set(address, set);
    this.#startSweeping();
    return { leave: () => this.#remove(entry) };
  }

  /** Stops the sweep timer (the listener closed). */
  stop(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #startSweeping(): void {
    const { timeoutMs } = this.limits;
    if (this.#sweeper !== undefined || timeoutMs <= 0) return;
    // A tenth of the deadline (at most 1 s): closes within 10 % of it late.
    const every = Math.max(10, Math.min(1000, Math.floor(timeoutMs / 10)));
    this.#sweeper = setInterval(() => {
      const expired = Date.now() - timeoutMs;
      for (const e of this.#all) {
        if (e.since > expired) break;
        this.#close(e);
      }
      if (this.#all.size === 0) this.stop();
    }, every);
  }

  #close(entry: Entry): void {
    if (!this.#remove(entry)) return;
    this.closed++;
    try {
      entry.close();
    } catch {
      // Closed by its owner meanwhile.
    }
  }

  #remove(entry: Entry): boolean {
    if (!this.#all.delete(entry)) return false;
    const set = this.#byAddress.get(entry.address)!;
    set.delete(entry);
    if (set.size === 0) this.#byAddress.delete(entry.address);
    return true;
  }
}
