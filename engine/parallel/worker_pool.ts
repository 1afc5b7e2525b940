/**
 * The worker heaps of one engine (ARCHITECTURE.md "several heaps"): Deno module Workers, each
 * with its own WASM memory and column cache over the engine's data root, started on the first
 * query that can use them and terminated by `close()`.
 *
 * A table scan aggregate (exec/fast_aggregate.ts) hands its job and snapshot to `aggregate`,
 * which splits the snapshot's partitions between the workers, waits for their partial
 * states and merges them; it declines (undefined) small scans and anything it cannot run, and
 * the aggregate then runs on the main heap as before.
 */
import { SqlError } from "../base/errors.ts";
import { charge, checkCancelled, type ExecContext } from "../exec/exec_context.ts";
import {
  type HashJob,
  type HashPartial,
  type Morsel,
  morselsOf,
  type ParallelHash,
  type RowPacket,
} from "../exec/vector/hash_parallel.ts";
import type {
  ParallelSampleBy,
  SampleByJob,
  SampleByMorsel,
  SampleByPartial,
} from "../exec/sample_by_parallel.ts";
import type { ParallelTopN, TopNJob, TopNPartial, TopNSchedule } from "../exec/vector/top_n_parallel.ts";
import { radixTransfers } from "../exec/vector/hash_radix.ts";
import { emptyPartials, type HeapScan, mergePartials, type Partials } from "../exec/fast_aggregate.ts";
import { morselsForWorkers, morselWorkers } from "./morsel_owner.ts";
import { predColumns } from "../exec/kernel_predicates.ts";
import type { TableSnapshot } from "../storage/api.ts";
import type { ColumnCache } from "../storage/column_cache.ts";
import { Snapshot } from "../storage/snapshot.ts";
import { MEMORY_BYTES_MAX, SCRATCH_RESERVE_BYTES } from "../../engine-wasm/mod.ts";
import type { HeapReply, HeapRequest } from "./_protocol.ts";

/** Statement texts whose last worker is remembered (WorkerPool.channel). */
const AFFINITY_MAX = 1024;

/** QuestDB's `cairo.sql.parallel.workers` default here: the machines we target have 2 cores. */
export const PARALLEL_WORKERS_DEFAULT = 2;
/**
 * Nice value of the worker threads: below the main thread's, so that protocol I/O and short
 * statements get the cores first when long statements keep the workers busy (thread_nice.ts).
 */
export const WORKER_NICE_DEFAULT = 10;
/**
 * Scans that read fewer values (rows × columns read) stay on the main heap: a round trip to the
 * workers costs more than it saves. 4M is 1M rows of a GROUP BY over four columns, or 2M rows
 * of two sums: on the bench machine, 1M-row scans of one or two columns were slower on the
 * workers (about 2 ms of hand-over on a busy machine against 2 to 5 ms of work).
 */
export const PARALLEL_VALUES_MIN_DEFAULT = 4_000_000;
/**
 * Group slots beyond which a keyed job stays on the main heap: partial states travel as one
 * object per slot and aggregate, and cloning and merging a million of them costs more than
 * the scan they save.
 */
const KEYS_MAX = 16_384;
/**
 * Tables smaller than this keep their hash aggregations on the main thread. Measured on the
 * 2-core machine with other work on it (load average 7-8, docs/parallel.md): over the bench's
 * query shapes (expression keys, filters, global aggregates, DISTINCT) two workers were as fast
 * or faster from 1M rows (geomean 61-90 ms against 78-92 ms on the main thread) and slower at
 * 500K (23-34 against 17-29 ms), where a morsel's hand-over is a larger part of the work.
 */
export const HASH_ROWS_MIN_DEFAULT = 1_000_000;
/**
 * Rows of one hash-aggregation morsel. Morsels are the unit of fairness and cancellation: a
 * worker runs one at a time, the jobs of concurrent statements interleave between morsels, and
 * a cancelled statement sends no more. 256K rows group in tens of milliseconds.
 * Tests lower `hashTuning.morselRows` to cut small tables into many morsels.
 */
export const hashTuning = { morselRows: 262_144 };
/** Morsels of one statement in flight per worker: the next waits in the worker's queue. */
const IN_FLIGHT = 2;

export interface WorkerPoolOptions {
  /** Workers to run; 0 disables the pool. */
  workers: number;
  /** Column cache budget of the main heap; the workers share the same budget between them. */
  cacheBytes: number;
  /** Scans that read fewer values (rows × columns) run on the main heap. */
  valuesMin?: number;
  /** The main heap's cache, whose forgotten prefixes the workers must forget too. */
  cache?: ColumnCache;
  /** Nice value of the worker threads (parallel/thread_nice.ts); 0 keeps the main thread's. */
  nice?: number;
}

interface Heap {
  worker: Worker;
  ready: Promise<void>;
  /** Prefixes forgotten on the main heap, not yet sent to this worker. */
  forget: string[];
  /** Statements running on this worker (channel). */
  statements: number;
}

/** One statement's conversation with a worker (parallel/statement_offload.ts). */
export interface HeapChannel {
  readonly id: number;
  /** Which worker the conversation is with (0-based). */
  readonly heap: number;
  /** Cache prefixes the worker must forget before it reads (sent with the statement). */
  forget(): string[];
  post(request: HeapRequest, transfer?: ArrayBuffer[]): void;
  /** Ends the conversation: later replies with its id are dropped. */
  close(): void;
}

/** Each worker's partitions and, where balance() cut a partition, its row spans. */
type Split = { partitions: number[][]; spans: { p: number; lo: number; hi: number }[][] };

type Waiter = { resolve: (r: HeapReply) => void; reject: (e: Error) => void };

export class WorkerPool implements ParallelHash, ParallelSampleBy, ParallelTopN {
  readonly workers: number;
  readonly valuesMin: number;
  readonly hashRowsMin: number;
  readonly #cacheBytes: number;
  readonly #nice: number;
  #heaps: Heap[] | undefined;
  /** Set once a worker failed to start: the pool then declines every job. */
  #broken = false;
  #closed = false;
  #idNext = 1;
  #jobs = 0;
  readonly #waiting = new Map<number, Waiter>();
  /** Statement conversations by id: every reply with that id goes to its handler. */
  readonly #channels = new Map<number, (r: HeapReply) => void>();
  #channelNext = 0;
  /** The heap that last ran each statement text (least recently used first). */
  readonly #lastHeap = new Map<string, number>();
  readonly #unwatch: (() => void) | undefined;

  constructor(options: WorkerPoolOptions) {
    this.workers = Math.max(0, Math.floor(options.workers));
    this.valuesMin = options.valuesMin ?? PARALLEL_VALUES_MIN_DEFAULT;
    // Tests lower valuesMin to send every scan to the workers: hash jobs follow.
    this.hashRowsMin = Math.min(HASH_ROWS_MIN_DEFAULT, this.valuesMin);
    this.#cacheBytes = options.cacheBytes;
    this.#nice = options.nice ?? WORKER_NICE_DEFAULT;
    this.#unwatch = options.cache?.watchForget((prefix) => {
      for (const h of this.#heaps ?? []) h.forget.push(prefix);
    });
  }

  /** Jobs the workers ran (tests: shows that a query took the parallel path). */
  get jobs(): number {
    return this.#jobs;
  }

  /** Workers running now (0 before the first parallel query and after close). */
  get running(): number {
    return this.#heaps?.length ?? 0;
  }

  /**
   * Partial aggregates of every partition of `snap` computed on the workers and merged, or
   * undefined when the scan is small, has fewer than two partitions to share, needs no column
   * data, has very many groups, or a worker cannot hold it: the caller then runs it on its own
   * heap.
   */
  /**
   * Whether a kernel aggregate job over `snap` goes to the workers: the plan's choice
   * (fast_aggregate_parallel.ts), which EXPLAIN prints as `parallel N`.
   */
  kernelJobFits(job: HeapScan, snap: TableSnapshot): boolean {
    return this.#kernelSplit(job, snap) !== undefined;
  }

  #kernelSplit(job: HeapScan, snap: TableSnapshot): Split | undefined {
    if (this.workers === 0 || this.#broken || this.#closed || !(snap instanceof Snapshot)) return undefined;
    // Unkeyed count(*) without a filter reads no column: the main heap answers it from row
    // counts. Keyed, it reads the key column (GROUP BY symbol with count(*) alone).
    if (job.key === undefined && job.preds.length === 0 && job.aggs.every((a) => a.col < 0)) return undefined;
    if (job.keyCount > KEYS_MAX) return undefined;
    return this.#split(job, snap);
  }

  async aggregate(job: HeapScan, snap: TableSnapshot, ctx: ExecContext): Promise<Partials | undefined> {
    // The partitions split as now: a plan kept by a statement cache may meet a table that
    // shrank below the split (then this heap scans it).
    const sets = this.#kernelSplit(job, snap);
    if (!sets || !(snap instanceof Snapshot)) return undefined;
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const origin = snap.origin();
    let replies: (HeapReply | undefined)[];
    try {
      replies = await Promise.all(sets.partitions.map((partitions, w) => {
        if (partitions.length === 0) return undefined;
        const h = heaps[w];
        const forget = h.forget.splice(0);
        const spans = sets.spans[w];
        const part = spans.length ? { ...job, rowSpans: spans } : job;
        return this.#send(h, (id) => ({ kind: "aggregate", id, forget, origin, job: part, partitions }));
      }));
    } catch (err) {
      // A worker died (the pool now declines everything): this heap runs the scan instead.
      if (this.#broken && !this.#closed) return undefined;
      throw err;
    }
    if (ctx.signal?.aborted) return undefined;
    const merged = emptyPartials(job);
    for (const r of replies) {
      if (!r) continue;
      if (r.kind === "unavailable") return undefined;
      if (r.kind === "error") throw new SqlError(`parallel scan failed: ${r.message}`, -1, "internal");
      if (r.kind === "partials") mergePartials(job, merged, r.partials);
    }
    this.#jobs++;
    return merged;
  }

  /**
   * The partial hash tables of every morsel of `snap` (row ranges in table order), computed on
   * the workers; undefined when the pool cannot run them (no workers, a worker failed, not a
   * plain table snapshot): the caller groups on its own heap. Each morsel (`morselRows` rows of
   * consecutive partitions, cut at partition boundaries when partitions are large) goes to the
   * worker of its partition (morsel_owner.ts), so while the
   * table's partitions stay the same a worker keeps caching the same ones. Throws the
   * statement's cancel, timeout or memory-limit error between morsels.
   */
  async hashPartials(
    job: HashJob,
    snap: TableSnapshot,
    ctx: ExecContext,
  ): Promise<HashPartial[] | undefined> {
    if (this.workers === 0 || this.#broken || this.#closed || !(snap instanceof Snapshot)) return undefined;
    const queues: number[][] = Array.from({ length: this.workers }, () => []);
    const morsels = morselsForWorkers(morselsOf(snap, job.intervals, hashTuning.morselRows), this.workers);
    morselWorkers(morsels, this.workers).forEach((w, i) => queues[w].push(i));
    if (morsels.length === 0) return [];
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const origin = snap.origin();
    const partials: HashPartial[] = new Array(morsels.length);
    const groupBytes = 16 * job.keys.length + 24 * job.aggs.length;
    let failed = false;
    const drain = async (h: Heap, queue: number[]) => {
      while (queue.length && !failed) {
        checkCancelled(ctx);
        const i = queue.shift()!;
        const forget = h.forget.splice(0);
        const r = await this.#send(
          h,
          (id) => ({ kind: "hash", id, forget, origin, job, morsel: morsels[i] }),
        );
        if (r.kind === "error") throw new SqlError(`parallel scan failed: ${r.message}`, -1, "internal");
        // A batch the worker cannot evaluate (a symbol's text its snapshot lacks): the main heap
        // runs the whole aggregation.
        if (r.kind === "unavailable") throw new HashUnavailable();
        if (r.kind !== "hashPartial") {
          throw new SqlError(`parallel scan: unexpected reply ${r.kind}`, -1, "internal");
        }
        // The partial is held until the merge: it counts against the statement's memory.
        charge(ctx, r.partial.groups * groupBytes);
        // (A shape of about a group per row stays on the main thread: the plan estimated its
        // groups, exec/vector/group_estimate.ts.)
        partials[i] = r.partial;
      }
    };
    try {
      await Promise.all(
        heaps.flatMap((h, w) => Array.from({ length: IN_FLIGHT }, () => drain(h, queues[w]))),
      );
    } catch (err) {
      failed = true;
      return this.#handBack(err, ctx);
    }
    this.#jobs++;
    return partials;
  }

  /**
   * A radix aggregation (exec/vector/hash_radix.ts): each worker cuts the kept rows of the
   * morsels of its partitions (as `hashPartials` deals them, at most IN_FLIGHT outstanding)
   * into one packet per worker by key hash; packet p of every morsel goes to worker p in morsel
   * order (a morsel's packets wait here until the earlier morsels' have gone), which folds it
   * into its partition's grouping. Answers each partition's final groups, or undefined when the
   * pool cannot run it. The groups the workers hold count against the statement's memory; on a
   * failure, cancel or hand-back their groupings are dropped.
   */
  async radixPartials(
    job: HashJob,
    snap: TableSnapshot,
    ctx: ExecContext,
  ): Promise<HashPartial[] | undefined> {
    if (this.workers === 0 || this.#broken || this.#closed || !(snap instanceof Snapshot)) return undefined;
    const morsels = morselsForWorkers(morselsOf(snap, job.intervals, hashTuning.morselRows), this.workers);
    if (morsels.length === 0) return [];
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const parts = heaps.length;
    const queues: number[][] = heaps.map(() => []);
    morselWorkers(morsels, parts).forEach((w, i) => queues[w].push(i));
    const origin = snap.origin();
    const states = heaps.map(() => this.#idNext++);
    const held = heaps.map(() => 0);
    const groupBytes = 16 * job.keys.length + 24 * job.aggs.length;
    const packets = new Map<number, RowPacket[]>();
    const folds: Promise<void>[] = [];
    let next = 0, failed = false, finished = false, failure: unknown;
    const check = (r: HeapReply, kind: HeapReply["kind"]) => {
      if (r.kind === "error") throw new SqlError(`parallel scan failed: ${r.message}`, -1, "internal");
      if (r.kind === "unavailable") throw new HashUnavailable();
      if (r.kind !== kind) throw new SqlError(`parallel scan: unexpected reply ${r.kind}`, -1, "internal");
    };
    const fold = async (p: number, packet: RowPacket, index: number) => {
      const r = await this.#send(
        heaps[p],
        (id) => ({ kind: "radixRows", id, job, state: states[p], packet, index }),
        radixTransfers([packet]),
      );
      check(r, "radixFolded");
      // A worker's grouping is held until its finish: it counts against the statement's memory.
      const groups = (r as { groups: number }).groups;
      if (groups > held[p]) {
        charge(ctx, (groups - held[p]) * groupBytes);
        held[p] = groups;
      }
    };
    // Each partition's packets leave in morsel order: its groups meet their rows in table order.
    const forward = () => {
      for (let ready = packets.get(next); ready && !failed; ready = packets.get(next)) {
        packets.delete(next);
        ready.forEach((packet, p) => {
          if (packet.rows === 0) return;
          // The first failure stops the splits and is thrown once they stopped.
          folds.push(
            fold(p, packet, next).catch((err) => {
              failure ??= err;
              failed = true;
            }),
          );
        });
        next++;
      }
    };
    const split = async (h: Heap, w: number) => {
      while (queues[w].length && !failed) {
        checkCancelled(ctx);
        const i = queues[w].shift()!;
        const forget = h.forget.splice(0);
        const r = await this.#send(
          h,
          (id) => ({
            kind: "radixSplit",
            id,
            forget,
            origin,
            job,
            morsel: morsels[i],
            state: states[w],
            parts,
          }),
        );
        check(r, "radixPackets");
        packets.set(i, (r as { packets: RowPacket[] }).packets);
        forward();
      }
    };
    try {
      await Promise.all(heaps.flatMap((h, w) => Array.from({ length: IN_FLIGHT }, () => split(h, w))));
      await Promise.all(folds);
      if (failure !== undefined) throw failure;
      checkCancelled(ctx);
      finished = true;
      const replies = await Promise.all(
        heaps.map((h, p) => this.#send(h, (id) => ({ kind: "radixFinish", id, job, state: states[p] }))),
      );
      const partials = replies.map((r) => {
        check(r, "hashPartial");
        return (r as { partial: HashPartial }).partial;
      });
      this.#jobs++;
      return partials;
    } catch (err) {
      failed = true;
      return this.#handBack(err, ctx);
    } finally {
      failed = true;
      if (!finished) heaps.forEach((h, w) => h.worker.postMessage({ kind: "radixDrop", state: states[w] }));
    }
  }

  /**
   * The partials of a SAMPLE BY's morsels (exec/sample_by_parallel.ts), yielded in morsel order
   * while later morsels run: morsel `i` goes to worker `i % workers`, at most IN_FLIGHT per
   * worker are outstanding, so memory stays bounded and a cancelled statement (checked
   * between morsels) sends no more. Undefined when the pool cannot run them.
   */
  async sampleByPartials(
    job: SampleByJob,
    snap: TableSnapshot,
    morsels: SampleByMorsel[],
    ctx: ExecContext,
  ): Promise<AsyncGenerator<SampleByPartial> | undefined> {
    if (this.workers === 0 || this.#broken || this.#closed || !(snap instanceof Snapshot)) return undefined;
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const origin = snap.origin();
    const window = IN_FLIGHT * heaps.length;
    const send = (i: number) => {
      const h = heaps[i % heaps.length];
      const forget = h.forget.splice(0);
      const reply = this.#send(
        h,
        (id) => ({ kind: "sampleBy", id, forget, origin, job, morsel: morsels[i] }),
      );
      // Left unread when the consumer stops early: its failure must not go unhandled.
      reply.catch(() => {});
      return reply;
    };
    const countJob = () => this.#jobs++;
    return (async function* () {
      const pending: Promise<HeapReply>[] = [];
      let sent = 0;
      for (let i = 0; i < morsels.length; i++) {
        while (sent < morsels.length && sent - i < window) {
          checkCancelled(ctx);
          pending.push(send(sent++));
        }
        const r = await pending.shift()!;
        checkCancelled(ctx);
        if (r.kind === "error") throw new SqlError(`parallel SAMPLE BY failed: ${r.message}`, -1, "internal");
        if (r.kind === "unavailable") throw new SqlError("not enough WASM memory for SAMPLE BY", -1, "limit");
        if (r.kind !== "sampleByPartial") {
          throw new SqlError(`parallel SAMPLE BY: unexpected reply ${r.kind}`, -1, "internal");
        }
        yield r.partial;
      }
      countJob();
    })();
  }

  /**
   * The kept rows of each top-N morsel (exec/vector/top_n_parallel.ts), in morsel order: a morsel
   * goes to the worker of its partition (`morselWorkers`), at most IN_FLIGHT per worker outstanding, and a cancelled
   * statement (checked between morsels) sends no more. A `schedule` orders each worker's share
   * and may prune morsels (their partials are empty). Undefined when the pool cannot run them
   * or a worker cannot evaluate a batch: the caller runs the top-N on its own heap.
   */
  async topNPartials(
    job: TopNJob,
    snap: TableSnapshot,
    morsels: Morsel[],
    ctx: ExecContext,
    schedule?: TopNSchedule,
  ): Promise<TopNPartial[] | undefined> {
    if (this.workers === 0 || this.#broken || this.#closed || !(snap instanceof Snapshot)) return undefined;
    if (morsels.length === 0) return [];
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const origin = snap.origin();
    const out: TopNPartial[] = new Array(morsels.length);
    let next = 0, unavailable = false;
    // Worker w's share, in the schedule's order; its drains take turns.
    const owner = morselWorkers(morsels, heaps.length);
    const shares = heaps.map((_, w) => {
      const share = morsels.map((_, i) => i).filter((i) => owner[i] === w);
      return schedule ? schedule.order(share) : share;
    });
    const drain = async (h: Heap, w: number) => {
      for (let i = shares[w].shift(); i !== undefined && !unavailable; i = shares[w].shift()) {
        checkCancelled(ctx);
        const sent = schedule ? schedule.jobFor(i) : job;
        if (!sent) {
          out[i] = { rows: [] };
          next++;
          continue;
        }
        const forget = h.forget.splice(0);
        const at = i;
        const r = await this.#send(
          h,
          (id) => ({ kind: "topN", id, forget, origin, job: sent, morsel: morsels[at] }),
        );
        if (r.kind === "error") throw new SqlError(`parallel top-N failed: ${r.message}`, -1, "internal");
        if (r.kind === "unavailable") unavailable = true;
        else if (r.kind === "topNPartial") {
          out[i] = r.partial;
          schedule?.received(i, r.partial);
        } else throw new SqlError(`parallel top-N: unexpected reply ${r.kind}`, -1, "internal");
        next++;
      }
    };
    try {
      await Promise.all(
        heaps.flatMap((h, w) => Array.from({ length: IN_FLIGHT }, () => drain(h, w))),
      );
    } catch (err) {
      // A worker died (the pool now declines everything): this heap runs the top-N instead.
      if (this.#broken && !this.#closed && !ctx.signal?.aborted) return undefined;
      throw err;
    }
    if (unavailable || next < morsels.length) return undefined;
    this.#jobs++;
    return out;
  }

  /**
   * A conversation with the worker running the fewest statements, for one statement
   * (parallel/statement_offload.ts), or undefined when the pool cannot run it. A worker that
   * dies answers the handler an `error`. Among the least busy workers, the one that last ran
   * the same `affinity` (the statement's text) is preferred: its column cache holds the
   * statement's columns and its compiled code is warm, while a worker seeing the statement
   * for the first time reads and compiles it again (alternating workers made every other run
   * of a repeated query cold).
   */
  async channel(onReply: (r: HeapReply) => void, affinity?: string): Promise<HeapChannel | undefined> {
    if (this.workers === 0 || this.#broken || this.#closed) return undefined;
    const heaps = await this.#start();
    if (!heaps) return undefined;
    const last = affinity === undefined ? undefined : this.#lastHeap.get(affinity);
    const start = last !== undefined && last < heaps.length ? last : this.#channelNext++ % heaps.length;
    let h = heaps[start];
    for (let k = 1; k < heaps.length; k++) {
      const other = heaps[(start + k) % heaps.length];
      if (other.statements < h.statements) h = other;
    }
    const heap = heaps.indexOf(h);
    if (affinity !== undefined) {
      this.#lastHeap.delete(affinity);
      if (this.#lastHeap.size >= AFFINITY_MAX) this.#lastHeap.delete(this.#lastHeap.keys().next().value!);
      this.#lastHeap.set(affinity, heap);
    }
    const id = this.#idNext++;
    this.#channels.set(id, onReply);
    h.statements++;
    return {
      id,
      heap,
      forget: () => h.forget.splice(0),
      post: (request, transfer) => h.worker.postMessage(request, { transfer: transfer ?? [] }),
      close: () => {
        if (this.#channels.delete(id)) h.statements--;
      },
    };
  }

  /**
   * Starts the workers and has each load the statement runner now (the server calls this once
   * it listens): otherwise the first query that can use them waits for the spawn, and the
   * first statement offloaded to each worker for the planner's modules. True once every
   * worker has the runner loaded.
   */
  async warmUp(): Promise<boolean> {
    if (this.workers === 0 || this.#broken || this.#closed) return false;
    const heaps = await this.#start();
    if (!heaps) return false;
    const replies = await Promise.all(heaps.map((h) => this.#send(h, (id) => ({ kind: "preload", id }))));
    return replies.every((r) => r.kind === "preloaded");
  }

  /** Terminates the workers; later jobs are declined. */
  close(): void {
    this.#closed = true;
    this.#unwatch?.();
    this.#stop(new SqlError("engine is closed", -1, "internal"));
  }

  /** Terminates the workers and fails the jobs waiting for them. */
  #stop(reason: Error): void {
    for (const h of this.#heaps ?? []) h.worker.terminate();
    this.#heaps = undefined;
    for (const w of this.#waiting.values()) w.reject(reason);
    this.#waiting.clear();
    for (const [id, onReply] of this.#channels) onReply({ kind: "error", id, message: reason.message });
    this.#channels.clear();
  }

  /**
   * What a failed hash job answers: undefined (the main thread aggregates instead) when the
   * workers handed it back or one died, unless the statement was cancelled meanwhile; else the
   * error.
   */
  #handBack(err: unknown, ctx: ExecContext): undefined {
    if (err instanceof HashUnavailable) {
      checkCancelled(ctx);
      return undefined;
    }
    // A worker died (the pool now declines everything): this heap runs the aggregation instead.
    if (this.#broken && !this.#closed && !ctx.signal?.aborted) return undefined;
    throw err;
  }

  /**
   * The partitions of each worker, or undefined when not worth it. A partition goes to worker
   * `index % workers` whatever the query, so each worker keeps caching the same partitions.
   */
  #split(
    job: HeapScan,
    snap: TableSnapshot,
  ): Split | undefined {
    const sets: number[][] = Array.from({ length: this.workers }, () => []);
    let rows = 0, used = 0;
    snap.partitions.forEach((p, i) => {
      if (p.rowCount === 0) return;
      if (job.intervals && !job.intervals.some((iv) => iv.hi >= p.minTs && iv.lo <= p.maxTs)) return;
      const set = sets[i % this.workers];
      if (set.length === 0) used++;
      set.push(i);
      rows += p.rowCount;
    });
    if (rows * columnsRead(job) < this.valuesMin || used < 2) return undefined;
    return { partitions: sets, spans: balance(sets, snap, this.workers) };
  }

  /** The running workers, started and ready; undefined when they cannot start. */
  async #start(): Promise<Heap[] | undefined> {
    if (!this.#heaps) {
      const cacheBytes = Math.min(
        Math.floor(this.#cacheBytes / this.workers),
        MEMORY_BYTES_MAX - SCRATCH_RESERVE_BYTES,
      );
      const memoryBytes = Math.min(MEMORY_BYTES_MAX, cacheBytes + SCRATCH_RESERVE_BYTES);
      this.#heaps = Array.from(
        { length: this.workers },
        () => this.#spawn({ kind: "init", memoryBytes, cacheBytes, nice: this.#nice }),
      );
    }
    const heaps = this.#heaps;
    try {
      await Promise.all(heaps.map((h) => h.ready));
    } catch (err) {
      if (this.#closed) return undefined;
      this.#broken = true;
      this.#stop(err as Error);
      console.warn(`parallel workers disabled: ${(err as Error).message}`);
      return undefined;
    }
    return this.#closed ? undefined : heaps;
  }

  #spawn(init: HeapRequest): Heap {
    const worker = new Worker(new URL("./heap_worker.ts", import.meta.url).href, { type: "module" });
    const ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<HeapReply>) => {
        const r = e.data;
        if (r.kind === "ready") return resolve();
        if (r.kind === "failed") return reject(new Error(r.message));
        const channel = this.#channels.get(r.id);
        if (channel) return channel(r);
        const w = this.#waiting.get(r.id);
        this.#waiting.delete(r.id);
        w?.resolve(r);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        const err = new Error(`worker error: ${e.message}`);
        reject(err);
        // A worker that died answers nothing more: fail what waits, decline from now on.
        this.#broken = true;
        this.#stop(err);
      };
    });
    ready.catch(() => {});
    worker.postMessage(init);
    return { worker, ready, forget: [], statements: 0 };
  }

  #send(h: Heap, request: (id: number) => HeapRequest, transfer: ArrayBuffer[] = []): Promise<HeapReply> {
    const id = this.#idNext++;
    return new Promise<HeapReply>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      h.worker.postMessage(request(id), { transfer });
    });
  }
}

/** A worker answered `unavailable` for a morsel of a hash job, or its partial is too large. */
class HashUnavailable extends Error {}

/**
 * Evens out the rows of whole partitions dealt to the workers in turn (`sets`, changed in
 * place): while the most loaded worker has more than an eighth of a worker's share over the
 * least loaded, the last whole partition of the first is cut and its tail goes to the second
 * (cpu 10M: 7 partitions dealt 4 and 3 left one worker 4/7 of the scan). Only cut partitions
 * are read by two workers, so each worker still caches mostly its own. Returns each worker's
 * row spans of the cut partitions.
 */
export function balance(
  sets: number[][],
  snap: TableSnapshot,
  workers: number,
): { p: number; lo: number; hi: number }[][] {
  const spans: { p: number; lo: number; hi: number }[][] = sets.map(() => []);
  const loads = sets.map((set) => set.reduce((t, p) => t + snap.partitions[p].rowCount, 0));
  const total = loads.reduce((a, b) => a + b, 0);
  for (let step = 0; step < workers - 1; step++) {
    const hi = loads.indexOf(Math.max(...loads)), lo = loads.indexOf(Math.min(...loads));
    const gap = loads[hi] - loads[lo];
    if (gap <= total / (8 * workers)) break;
    const move = Math.floor(gap / 2);
    const cut = [...sets[hi]].reverse().find((p) =>
      snap.partitions[p].rowCount > move && !spans.some((s) => s.some((x) => x.p === p))
    );
    if (cut === undefined) break;
    const keep = snap.partitions[cut].rowCount - move;
    spans[hi].push({ p: cut, lo: 0, hi: keep });
    spans[lo].push({ p: cut, lo: keep, hi: snap.partitions[cut].rowCount });
    sets[lo].push(cut);
    loads[hi] -= move;
    loads[lo] += move;
  }
  return spans;
}

/** Distinct columns a job reads per row (filters, aggregate arguments, the group key). */
function columnsRead(job: HeapScan): number {
  const cols = new Set<number>([
    ...predColumns([...job.preds, ...(job.filters ?? []).flat()]),
    ...job.aggs.filter((a) => a.col >= 0).map((a) => a.col),
  ]);
  if (job.key !== undefined) cols.add(job.key);
  return cols.size;
}
