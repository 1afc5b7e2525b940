/**
 * The storage-policy and cold-storage task (docs/storage.md "Cold storage"): every
 * `storage.policy.check.interval` it converts partitions to Parquet by a table's storage policy
 * (TO PARQUET), moves them to the object store (converting first) by the policy's DROP LOCAL or
 * by `cold.storage.move.after`, and deletes objects no committed state names (uploads a crash
 * left behind, remote versions since replaced). The active (newest) partition never changes.
 * One pass at a time; a failing table is logged and retried next pass.
 */
import type { Storage, TableSnapshot } from "./storage/mod.ts";
import { log } from "./base/log.ts";
import { partitionsDueForParquet } from "./storage/parquet_format.ts";

export interface ColdStorageOptions {
  /** Partitions whose end is older than this many microseconds move; undefined: none move by age. */
  moveAfterMicros?: bigint;
  /** Milliseconds between passes (QuestDB's storage.policy.check.interval, default 15m). */
  checkIntervalMs: number;
}

export class ColdStorageTask {
  readonly #storage: Storage;
  readonly #options: ColdStorageOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<unknown> | undefined;
  #closed = false;

  /** Whether partitions can move (a cold store is configured); policies still convert without. */
  readonly #hasStore: boolean;

  constructor(storage: Storage, options: ColdStorageOptions, hasStore = true) {
    this.#storage = storage;
    this.#options = options;
    this.#hasStore = hasStore;
  }

  /** Starts the periodic passes (the first one right away). */
  start(): void {
    const tick = () => {
      if (this.#closed || this.#running) return;
      this.#running = this.runOnce().catch(() => {}).finally(() => (this.#running = undefined));
    };
    tick();
    const timer = setInterval(tick, this.#options.checkIntervalMs);
    // A pass in flight is awaited by close(); the interval alone keeps nothing alive.
    Deno.unrefTimer(timer as unknown as number);
    this.#timer = timer;
  }

  /** One pass over every table; returns the partitions moved and the objects deleted. */
  async runOnce(nowMicros = BigInt(Date.now()) * 1000n): Promise<{ moved: number; collected: number }> {
    let moved = 0, collected = 0;
    for (const meta of this.#storage.tables()) {
      if (this.#closed) break;
      const table = this.#storage.table(meta.name);
      if (!table) continue;
      try {
        const due = this.#due(table.snapshot(), nowMicros);
        if (due.toParquet.length) {
          await table.convertPartitions(due.toParquet, "parquet");
          log(
            "I",
            "cold-storage",
            `converted to Parquet [table=${meta.name}, partitions=${due.toParquet.join(",")}]`,
          );
        }
        if (due.kept) {
          log(
            "I",
            "cold-storage",
            `DROP LOCAL is due but cold storage is not enabled: kept [table=${meta.name}]`,
          );
        }
        if (due.remote.length) {
          await table.convertPartitions(due.remote, "parquet");
          const names = await table.movePartitionsRemote(due.remote);
          moved += names.length;
          log(
            "I",
            "cold-storage",
            `moved to the object store [table=${meta.name}, partitions=${names.join(",")}]`,
          );
        }
        const n = await table.collectRemote();
        if (n) log("I", "cold-storage", `deleted unreferenced objects [table=${meta.name}, count=${n}]`);
        collected += n;
      } catch (e) {
        log("E", "cold-storage", `pass failed [table=${meta.name}]: ${(e as Error).message}`);
      }
    }
    try {
      const n = await this.#storage.collectDroppedRemote?.() ?? 0;
      if (n) log("I", "cold-storage", `deleted objects of dropped tables [count=${n}]`);
      collected += n;
    } catch (e) {
      log("E", "cold-storage", `pass failed [dropped tables]: ${(e as Error).message}`);
    }
    return { moved, collected };
  }

  /**
   * The partitions of `snap` due for conversion and for the move to the store (snap released).
   * As QuestDB's TTL: a partition is due when its whole range ended before the reference time
   * minus the stage's TTL, the reference being the table's newest timestamp capped by the
   * wall clock (a row far in the future does not make everything due). A table's storage
   * policy (TO PARQUET, DROP LOCAL) wins over `cold.storage.move.after`; DROP NATIVE has nothing
   * to do here (a conversion leaves no native copy). The active partition never is due.
   */
  #due(snap: TableSnapshot, nowMicros: bigint): { toParquet: string[]; remote: string[]; kept: boolean } {
    try {
      const none = { toParquet: [], remote: [], kept: false };
      const meta = snap.meta;
      const policy = meta.storagePolicy;
      if (meta.partitionBy === "NONE" || snap.partitions.length < 2) return none;
      // FORMAT PARQUET: partitions an append left native (its conversion failed, or a crash).
      const byFormat = partitionsDueForParquet(meta, snap.partitions);
      if (policy && !policy.enabled) return { ...none, toParquet: byFormat };
      const scale = meta.columns[meta.timestampIndex]?.type.tag === "TIMESTAMP_NS" ? 1000n : 1n;
      const newest = snap.partitions[snap.partitions.length - 1].maxTs / scale;
      const reference = newest < nowMicros ? newest : nowMicros;
      const older = snap.partitions.slice(0, -1);
      const dueBy = (cutoff: bigint | undefined) =>
        cutoff === undefined ? [] : older.filter((p) => p.hi <= cutoff * scale);
      const moveCutoff = policy
        ? (policy.dropLocal ? ttlCutoff(reference, policy.dropLocal) : undefined)
        : (this.#options.moveAfterMicros !== undefined
          ? reference - this.#options.moveAfterMicros
          : undefined);
      let remote = dueBy(moveCutoff).filter((p) => !p.remote).map((p) => p.name);
      // Without a store QuestDB's DROP LOCAL would delete the data; here it is kept (and logged).
      const kept = !this.#hasStore && remote.length > 0;
      if (kept) remote = [];
      const byPolicy = policy?.toParquet
        ? dueBy(ttlCutoff(reference, policy.toParquet))
          .filter((p) => p.parquetSize === undefined && !remote.includes(p.name)).map((p) => p.name)
        : [];
      const toParquet = [...new Set([...byPolicy, ...byFormat])].filter((n) => !remote.includes(n));
      return { toParquet, remote, kept };
    } finally {
      snap.release();
    }
  }

  /** Stops the passes and waits for one in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#running;
  }
}

/** `reference` (µs) minus a TTL; MONTH and YEAR are calendar months (QuestDB's TTL units). */
export function ttlCutoff(reference: bigint, ttl: { amount: number; unit: string }): bigint {
  const unit = ttl.unit.toUpperCase().replace(/S$/, "");
  const fixed: Record<string, bigint> = {
    HOUR: 3_600_000_000n,
    DAY: 86_400_000_000n,
    WEEK: 604_800_000_000n,
  };
  if (fixed[unit]) return reference - BigInt(ttl.amount) * fixed[unit];
  const ms = Number(reference / 1000n);
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() - ttl.amount * (unit === "YEAR" ? 12 : 1));
  return BigInt(d.getTime()) * 1000n + (reference % 1000n);
}
