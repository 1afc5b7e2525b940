/**
 * The entry of one worker heap (ARCHITECTURE.md "several heaps"): its own WASM instance and
 * column cache over the same data root, opened read-only. It never recovers, writes or lists
 * tables: every task names the exact committed state to read (the main thread's snapshot),
 * so a worker sees no row past that commit.
 *
 * Tasks run one at a time, in arrival order; the cache prefixes the main thread forgot since
 * the previous task (folders deleted, whose names may come back) are dropped before a task
 * reads anything.
 */
/// <reference lib="deno.worker" />
import { kernels, wasmMemory } from "../../engine-wasm/mod.ts";
import { ColumnCache } from "../storage/column_cache.ts";
import { openSnapshot } from "../storage/snapshot.ts";
import { accumulatePartitions } from "../exec/fast_aggregate.ts";
import { FastPathUnavailable } from "../exec/wasm_scratch.ts";
import { hashPartialOf } from "../exec/vector/hash_parallel.ts";
import { radixDrop, radixFinish, radixRows, radixSplit, radixTransfers } from "../exec/vector/hash_radix.ts";
import { sampleByPartialOf, sampleByTransfers } from "../exec/sample_by_parallel.ts";
import { topNPartialOf } from "../exec/vector/top_n_parallel.ts";
import { setOpPartialOf, setOpTransfer } from "../exec/vector/setop_parallel.ts";
import type { HeapReply, HeapRequest } from "./_protocol.ts";
import { niceThisThread } from "./thread_nice.ts";
import { isStatementRequest, type StatementRequest } from "./statement_protocol.ts";

let cache: ColumnCache | undefined;
let queue: Promise<void> = Promise.resolve();

self.onmessage = (e: MessageEvent<HeapRequest>) => {
  const req = e.data;
  // A statement's messages bypass the morsel queue: it runs beside it, and its pulls and
  // cancels arrive while it runs (parallel/statement_worker.ts).
  if (isStatementRequest(req)) return onStatement(req);
  if (req.kind === "preload") {
    const done = (): void => reply({ kind: "preloaded", id: req.id });
    // A runner that fails to load is reported by the first statement (stmtDeclined).
    return void loadStatements().then(
      done,
      () => reply({ kind: "error", id: req.id, message: "preload failed" }),
    );
  }
  // A dropped radix state goes at once: folds queued for it skip it (hash_radix.ts).
  if (req.kind === "radixDrop") return radixDrop(req.state);
  queue = queue.then(() => handle(req));
};

/**
 * The statement runner, loaded on the first statement (it brings the whole planner) or ahead
 * of it when the pool is warmed up (WorkerPool.warmUp).
 */
let statements: Promise<typeof import("./statement_worker.ts")> | undefined;

function loadStatements(): Promise<typeof import("./statement_worker.ts")> {
  statements ??= import("./statement_worker.ts");
  return statements;
}

function onStatement(req: StatementRequest): void {
  loadStatements().then(
    (m) =>
      m.onStatementMessage(req, cache!, (r, transfer) => self.postMessage(r, { transfer: transfer ?? [] })),
    (err) => req.kind === "stmt" && reply({ kind: "stmtDeclined", id: req.id, reason: messageOf(err) }),
  );
}

function reply(r: HeapReply): void {
  self.postMessage(r);
}

const messageOf = (err: unknown) => String((err as Error)?.message ?? err);

/** Answers one request; never throws, so that one failure does not stop the queue. */
async function handle(
  req: Exclude<HeapRequest, StatementRequest | { kind: "preload" | "radixDrop" }>,
): Promise<void> {
  if (req.kind === "init") {
    try {
      niceThisThread(req.nice);
      cache = new ColumnCache(req.cacheBytes, wasmMemory(req.memoryBytes));
      kernels();
      reply({ kind: "ready" });
    } catch (err) {
      reply({ kind: "failed", message: messageOf(err) });
    }
    return;
  }
  try {
    if (req.kind === "radixRows" || req.kind === "radixFinish") return radix(req);
    for (const prefix of req.forget) cache!.forget(prefix);
    if (req.kind === "setop") return await setOp(req);
    const snap = openSnapshot(req.origin, cache!);
    try {
      if (req.kind === "hash") {
        const partial = await hashPartialOf(req.job, snap, req.morsel);
        // The typed arrays move to the main thread instead of being copied.
        const transfer = [...partial.counts, ...partial.values].filter((a) => a !== undefined)
          .map((a) => a!.buffer as ArrayBuffer);
        self.postMessage({ kind: "hashPartial", id: req.id, partial } satisfies HeapReply, { transfer });
        return;
      }
      if (req.kind === "radixSplit") {
        const packets = await radixSplit(req.state, req.job, snap, req.morsel, req.parts);
        self.postMessage({ kind: "radixPackets", id: req.id, packets } satisfies HeapReply, {
          transfer: radixTransfers(packets),
        });
        return;
      }
      if (req.kind === "sampleBy") {
        const partial = await sampleByPartialOf(req.job, snap, req.morsel);
        const transfer = sampleByTransfers(partial);
        self.postMessage({ kind: "sampleByPartial", id: req.id, partial } satisfies HeapReply, { transfer });
        return;
      }
      if (req.kind === "topN") {
        reply({ kind: "topNPartial", id: req.id, partial: await topNPartialOf(req.job, snap, req.morsel) });
        return;
      }
      const partials = await accumulatePartitions(req.job, { snap, partitions: req.partitions });
      reply({ kind: "partials", id: req.id, partials });
    } finally {
      snap.release();
    }
  } catch (err) {
    if (err instanceof FastPathUnavailable) reply({ kind: "unavailable", id: req.id });
    else reply({ kind: "error", id: req.id, message: messageOf(err) });
  }
}

/** One partition of a set operation over the two tables' states; its arrays move to the main thread. */
async function setOp(req: Extract<HeapRequest, { kind: "setop" }>): Promise<void> {
  const snaps = req.origins.map((o) => openSnapshot(o, cache!));
  try {
    const partial = await setOpPartialOf(req.job, snaps, req.part);
    const transfer = setOpTransfer(partial);
    self.postMessage({ kind: "setopPartial", id: req.id, partial } satisfies HeapReply, { transfer });
  } finally {
    for (const s of snaps) s.release();
  }
}

/** A packet folded into a radix grouping, or its final groups (their arrays move to the main thread). */
function radix(req: Extract<HeapRequest, { kind: "radixRows" | "radixFinish" }>): void {
  if (req.kind === "radixRows") {
    reply({ kind: "radixFolded", id: req.id, groups: radixRows(req.state, req.job, req.packet, req.index) });
    return;
  }
  const partial = radixFinish(req.state, req.job);
  self.postMessage({ kind: "hashPartial", id: req.id, partial } satisfies HeapReply, {
    transfer: radixTransfers([partial]),
  });
}
