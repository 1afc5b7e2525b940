/**
 * The cold-storage task (docs/storage.md "Cold storage"): every `storage.policy.check.interval`
 * it moves the partitions whose time range ended more than `cold.storage.move.after` ago to the
 * object store (converting them to Parquet first), and deletes objects no committed state
 * names (uploads a crash left behind, remote versions since replaced). The active (newest)
 * partition never moves. One pass at a time; a failing table is logged and retried next pass.
 */
import type { Storage } from "./storage/mod.ts";
import { log } from "./base/log.ts";

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

  constructor(storage: Storage, options: ColdStorageOptions) {
    this.#storage = storage;
    this.#options = options;
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
        const due = this.#due(table.snapshot(), meta.columns[meta.timestampIndex]?.type.tag, nowMicros);
        if (due.length) {
          await table.convertPartitions(due, "parquet");
          const names = await table.movePartitionsRemote(due);
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
    return { moved, collected };
  }

  /** Names of the partitions of `snap` old enough to move and not remote yet (snap released). */
  #due(
    snap: ReturnType<NonNullable<ReturnType<Storage["table"]>>["snapshot"]>,
    tsTag: string | undefined,
    nowMicros: bigint,
  ): string[] {
    try {
      const after = this.#options.moveAfterMicros;
      if (after === undefined || snap.meta.partitionBy === "NONE") return [];
      const scale = tsTag === "TIMESTAMP_NS" ? 1000n : 1n;
      const limit = (nowMicros - after) * scale;
      // The active (newest) partition takes the appends: it stays native and local.
      return snap.partitions.slice(0, -1).filter((p) => !p.remote && p.hi <= limit).map((p) => p.name);
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
