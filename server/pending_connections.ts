/**
 * Connections that have not proven anything yet: pgwire before authentication, ILP over TCP
 * before its JWK handshake (or, without access control, before its first byte), an HTTP request
 * whose body is still arriving (issue 24). They cost a client nothing to open and hold, so they
 * are kept apart from the listener's connection limit (a flood of them never locks out clients
 * that do authenticate), each must finish within a deadline, and there are at most
 * `perAddress` of them per client address and `total` overall.
 *
 * A new connection over a cap is not refused: it evicts the oldest pending connection that has
 * shown no progress yet (then simply the oldest). A refusal would let a flood from one address
 * lock out the legitimate client sharing it (NAT, or loopback in the tests); with eviction a
 * client that sends its start at once gets through unless dozens more connections arrive from
 * its own address in the milliseconds before its first packet.
 */

export interface PendingLimits {
  /** Milliseconds a pending connection may take to finish; 0 or less: no deadline. */
  timeoutMs: number;
  /** Pending connections per client address; 0 or less: no cap. */
  perAddress: number;
  /** Pending connections overall; 0 or less: no cap. */
  total: number;
}

/** One pending connection's handle, kept by its owner. */
export interface PendingTicket {
  /** The client sent the first thing a real client sends (its start packet): evicted last. */
  progressed(): void;
  /** Finished (authenticated, request read) or gone: no longer pending. Idempotent. */
  done(): void;
}

interface Entry {
  address: string;
  drop: () => void;
  progressed: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class PendingConnections {
  readonly limits: PendingLimits;
  /** Insertion order is age order: the first entry is the oldest. */
  readonly #all = new Set<Entry>();
  readonly #byAddress = new Map<string, Set<Entry>>();
  /** Connections dropped by the deadline or evicted over a cap (for logs and tests). */
  dropped = 0;

  constructor(limits: PendingLimits) {
    this.limits = limits;
  }

  /** Pending connections now. */
  get size(): number {
    return this.#all.size;
  }

  /**
   * Registers a new connection from `address`; `drop` closes it (called at most once, when
   * the deadline passes or a newer connection evicts it).
   */
  admit(address: string, drop: () => void): PendingTicket {
    const { perAddress, total, timeoutMs } = this.limits;
    const mine = this.#byAddress.get(address);
    if (perAddress > 0 && mine) { while (mine.size >= perAddress) this.#evict(mine); }
    if (total > 0) { while (this.#all.size >= total) this.#evict(this.#all); }
    const entry: Entry = { address, drop, progressed: false, timer: undefined };
    if (timeoutMs > 0) entry.timer = setTimeout(() => this.#drop(entry), timeoutMs);
    this.#all.add(entry);
    const set = this.#byAddress.get(address) ?? new Set<Entry>();
    set.add(entry);
    this.#byAddress.set(address, set);
    return {
      progressed: () => void (entry.progressed = true),
      done: () => this.#remove(entry),
    };
  }

  /** Drops the oldest entry of `among` that made no progress, else the oldest. */
  #evict(among: Set<Entry>): void {
    let victim: Entry | undefined;
    for (const e of among) {
      victim ??= e;
      if (!e.progressed) {
        victim = e;
        break;
      }
    }
    if (victim) this.#drop(victim);
  }

  #drop(entry: Entry): void {
    if (!this.#remove(entry)) return;
    this.dropped++;
    try {
      entry.drop();
    } catch {
      // Closed by its owner meanwhile.
    }
  }

  #remove(entry: Entry): boolean {
    if (!this.#all.delete(entry)) return false;
    clearTimeout(entry.timer);
    const set = this.#byAddress.get(entry.address)!;
    set.delete(entry);
    if (set.size === 0) this.#byAddress.delete(entry.address);
    return true;
  }
}

/** The settings of one listener: `<prefix>.timeout`, `<prefix>.limit`, `<prefix>.limit.per.address`. */
export function pendingLimitsOf(
  config: { int(key: string, fallback: number): number },
  prefix: string,
  defaults: PendingLimits = DEFAULT_PENDING_LIMITS,
): PendingLimits {
  return {
    timeoutMs: config.int(`${prefix}.timeout`, defaults.timeoutMs),
    perAddress: config.int(`${prefix}.limit.per.address`, defaults.perAddress),
    total: config.int(`${prefix}.limit`, defaults.total),
  };
}

/**
 * Defaults: 5 s to authenticate (Postgres's authentication_timeout is 60 s, but a pgwire or
 * JWK login takes milliseconds; 5 s leaves room for a slow network and TLS), 64 pending per
 * address (the size of QuestDB's default connection limits) and 1024 overall (bounded file
 * descriptors: each is a socket).
 */
export const DEFAULT_PENDING_LIMITS: PendingLimits = { timeoutMs: 5_000, perAddress: 64, total: 1024 };
