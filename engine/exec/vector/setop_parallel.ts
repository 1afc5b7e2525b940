/**
 * UNION, INTERSECT and EXCEPT (not ALL) of two table scans as contiguous chunks on the workers
 * (issue #16/#17). Each input is cut into one chunk of rows per worker, in table order. Worker
 * w maps its chunks' rows to dense row ids (setop_ids.ts RowIds: KeyIds per column folded by
 * IntPairHash) and keeps, in order, the rows that are the first of their values among what it
 * read: for UNION its left chunk then its right chunk; for INTERSECT/EXCEPT it first reads the
 * whole right input (flags), then keeps its left chunk's rows of the wanted kind. A row dropped
 * on a worker has an equal row earlier in the operator's order (left chunk w comes before right
 * chunk w), so the main thread gets every first appearance: it reads the partials in the
 * operator's order (left chunks, then right chunks) through its own row ids and keeps the
 * first of each, which gives exactly the rows, in the order, of the single-heap operator. No
 * row is read or hashed twice (the right input of INTERSECT/EXCEPT excepted); the price is the
 * merge, a row per distinct row of each chunk.
 *
 * SYMBOL columns of the two tables have different dictionaries: the main thread maps each
 * dictionary's codes to shared text ids once (not per row), and the workers key rows by those
 * ids, so equal texts are one value whatever their codes.
 *
 * Taken at plan time (`markParallelSetOp`, from hash_parallel.ts markParallelHash): both
 * inputs are column projections of forward table scans, every column a word type, a float or
 * a SYMBOL (no STRING/VARCHAR: their texts would need ids shared across workers), and the
 * left table holds at least the pool's `hashRowsMin` rows. EXPLAIN: `Union [vectorized hash,
 * parallel N]`.
 */
import { type ColumnType, T } from "../../base/types.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import {
  type Batch,
  type Interval,
  type SymbolDict,
  TYPED_VECTOR_TAGS,
  type Vector,
  type VectorData,
} from "../../base/values.ts";
import { SqlError } from "../../base/errors.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../../storage/api.ts";
import { gather } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, pace, rowBytes, snapshotOf } from "../exec_context.ts";
import { FastPathUnavailable } from "../wasm_scratch.ts";
import { type Morsel, morselBatches, morselsOf } from "./hash_parallel.ts";
import { referenceExecution } from "./physical.ts";
import { EMITTED, IN_RIGHT, RowIds } from "./setop_ids.ts";

type SetOpNode = Extract<PlanNode, { kind: "setop" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/**
 * One input: its scan and, per output column, the scan column it is (a SYMBOL column cast to
 * STRING/VARCHAR, as the planner casts two tables' symbols to their common type, is the column).
 */
interface Side {
  scan: ScanNode;
  cols: number[];
}

const TEXT_TAGS = new Set(["STRING", "VARCHAR"]);

/** The inputs of a set operation the workers can run, or undefined. */
export function parallelSetOpShape(n: SetOpNode): { left: Side; right: Side } | undefined {
  if (n.all || referenceExecution()) return undefined;
  const left = sideOf(n.left), right = sideOf(n.right);
  if (!left || !right) return undefined;
  for (const s of [left, right]) {
    const ok = s.cols.every((c, k) => {
      const from = s.scan.columns[c].type.tag, to = n.columns[k].type.tag;
      // The workers read typed arrays and hash by value (SYMBOL through text ids).
      return from === to ? TYPED_VECTOR_TAGS.has(to) : from === "SYMBOL" && TEXT_TAGS.has(to);
    });
    if (!ok) return undefined;
  }
  return { left, right };
}

/** `n` as plain columns of a forward scan, through projections of columns. */
function sideOf(n: PlanNode): Side | undefined {
  let cols = n.columns.map((_, k) => k);
  for (;;) {
    if (n.kind === "scan") return n.reverse ? undefined : { scan: n, cols };
    if (n.kind !== "project") return undefined;
    const exprs = n.exprs;
    const mapped: number[] = [];
    for (const c of cols) {
      let e = exprs[c];
      if (e.kind === "cast" && TEXT_TAGS.has(e.type.tag) && e.arg.type.tag === "SYMBOL") e = e.arg;
      if (e.kind !== "column") return undefined;
      mapped.push(e.index);
    }
    cols = mapped;
    n = n.input;
  }
}

/** Rows the scan of `side` reads in `snap`. */
function scannedRows(snap: TableSnapshot, intervals: Interval[] | undefined): number {
  let rows = 0;
  for (const p of snap.partitions) {
    if (!intervals || intervals.some((iv) => iv.hi >= p.minTs && iv.lo <= p.maxTs)) rows += p.rowCount;
  }
  return rows;
}

/** Whether the plan runs `n` on the workers: the shape fits and the left table is large. */
export function markParallelSetOp(n: SetOpNode, storage: Storage, rowsMin: number): boolean {
  const shape = parallelSetOpShape(n);
  if (!shape) return false;
  const snap = storage.table(shape.left.scan.table)?.snapshot();
  if (!snap) return false;
  try {
    return scannedRows(snap, shape.left.scan.intervals) >= rowsMin;
  } finally {
    snap.release();
  }
}

/** One side as the workers read it. */
export interface SetOpSideJob {
  columnIndexes: number[];
  types: ColumnType[];
  intervals?: Interval[];
  /** The scan cut into one contiguous chunk of rows per worker, in table order. */
  chunks: Morsel[];
  /** Per column: a SYMBOL's code → shared text id (-1: NULL); other columns undefined. */
  ids: (Int32Array | undefined)[];
}

export interface SetOpJob {
  op: "union" | "intersect" | "except";
  left: SetOpSideJob;
  right: SetOpSideJob;
}

/** One worker's rows of its left chunk and (UNION) of its right chunk, column by column. */
export interface SetOpPartial {
  left: VectorData[];
  leftCount: number;
  right: VectorData[];
  rightCount: number;
}

/** What the pool offers this operator (engine/parallel/worker_pool.ts). */
interface Channels {
  readonly workers: number;
  channel(
    onReply: (r: { kind: string; partial?: SetOpPartial; message?: string }) => void,
  ): Promise<
    { id: number; forget(): string[]; post(request: unknown): void; close(): void } | undefined
  >;
}

// ---- on a worker heap ----

const TEXT_NULL = -1;

/**
 * The rows chunk `part` contributes (see the file comment): its left chunk's rows of the wanted
 * kind and, for UNION, its right chunk's rows, each the first of its values in the chunks read
 * before it on this worker. For INTERSECT/EXCEPT the worker first reads the whole right input.
 */
export async function setOpPartialOf(
  job: SetOpJob,
  snaps: TableSnapshot[],
  part: number,
): Promise<SetOpPartial> {
  const width = job.left.columnIndexes.length;
  const ids = new RowIds(width);
  let sel = new Int32Array(0);
  const keyCols: Vector[] = new Array(width);
  // Text ids of each SYMBOL key's batch, reused batch to batch (the row ids read them at once).
  const scratch = Array.from({ length: width }, () => new Int32Array(BATCH_ROWS_MAX));
  /** The batch as the row ids read it: SYMBOL codes as the shared text ids. */
  const keysOf = (side: SetOpSideJob, b: Batch): Batch => {
    for (let k = 0; k < width; k++) {
      const map = side.ids[k];
      keyCols[k] = map
        ? { type: T.SYMBOL, data: symbolIds(b.columns[k].data as Int32Array, map, b.rowCount, scratch[k]) }
        : b.columns[k];
    }
    return { rowCount: b.rowCount, columns: keyCols };
  };
  const batchesOf = (side: SetOpSideJob, snap: TableSnapshot, m: Morsel) =>
    morselBatches(snap, m, side, new Set(side.columnIndexes.map((_, k) => k)), new Map());
  /** Rows of `m` whose flags, masked, equal `want`: each marked emitted, gathered as columns. */
  const keep = async (side: SetOpSideJob, snap: TableSnapshot, m: Morsel, mask: number, want: number) => {
    const chunks: Batch[] = [];
    let count = 0;
    for await (const b of batchesOf(side, snap, m)) {
      const cur = ids.map(keysOf(side, b)), flags = ids.flags, n = b.rowCount;
      if (sel.length < n) sel = new Int32Array(n);
      let w = 0;
      for (let i = 0; i < n; i++) {
        const id = cur[i], f = flags[id];
        if ((f & mask) !== want) continue;
        flags[id] = f | EMITTED;
        sel[w++] = i;
      }
      if (w) chunks.push(gather(b, sel, w));
      count += w;
    }
    const columns = side.types.map((t, k) => concat(t, chunks.map((c) => c.columns[k].data), count));
    return { columns, count };
  };
  if (job.op !== "union") {
    for (const m of job.right.chunks) {
      for await (const b of batchesOf(job.right, snaps[1], m)) {
        const cur = ids.map(keysOf(job.right, b)), flags = ids.flags;
        for (let i = 0; i < b.rowCount; i++) flags[cur[i]] = IN_RIGHT;
      }
    }
    const want = job.op === "intersect" ? IN_RIGHT : 0;
    const left = await keep(job.left, snaps[0], job.left.chunks[part], IN_RIGHT | EMITTED, want);
    return { left: left.columns, leftCount: left.count, right: [], rightCount: 0 };
  }
  const left = await keep(job.left, snaps[0], job.left.chunks[part], EMITTED, 0);
  const right = await keep(job.right, snaps[1], job.right.chunks[part], EMITTED, 0);
  return { left: left.columns, leftCount: left.count, right: right.columns, rightCount: right.count };
}

/** The arrays a partial hands to the main thread (moved, not copied). */
export function setOpTransfer(p: SetOpPartial): ArrayBuffer[] {
  return [...p.left, ...p.right].map((a) => (a as Int32Array).buffer as ArrayBuffer);
}

/** Text ids of SYMBOL codes (a code past the main thread's dictionary: the main heap runs it). */
function symbolIds(codes: Int32Array, ids: Int32Array, n: number, into: Int32Array): Int32Array {
  const out = n <= into.length ? into.subarray(0, n) : new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    if (c < 0) out[i] = TEXT_NULL;
    else if (c < ids.length) out[i] = ids[c];
    else throw new FastPathUnavailable("a symbol past the main thread's dictionary");
  }
  return out;
}

/** Chunks of one column's typed data as one array of `n` values. */
function concat(t: ColumnType, parts: VectorData[], n: number): VectorData {
  // deno-lint-ignore no-explicit-any
  const ctor = (parts[0]?.constructor ?? emptyOf(t).constructor) as any;
  const out = new ctor(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function emptyOf(t: ColumnType): VectorData {
  if (t.tag === "SYMBOL") return new Int32Array(0);
  if (t.tag === "DOUBLE") return new Float64Array(0);
  if (t.tag === "FLOAT") return new Float32Array(0);
  if (["LONG", "DATE", "TIMESTAMP", "TIMESTAMP_NS"].includes(t.tag)) return new BigInt64Array(0);
  if (t.tag === "SHORT") return new Int16Array(0);
  if (t.tag === "CHAR") return new Uint16Array(0);
  if (t.tag === "BYTE" || t.tag === "BOOLEAN") return new Int8Array(0);
  return new Int32Array(0);
}

// ---- on the main thread ----

/**
 * The set operation's batches from the workers, or undefined when the pool cannot run it (no
 * workers, a worker cannot read a batch): the caller runs it on this heap.
 */
export async function runParallelSetOp(n: SetOpNode, ctx: ExecContext): Promise<Batch[] | undefined> {
  const shape = parallelSetOpShape(n);
  const pool = ctx.parallel as unknown as Partial<Channels> | undefined;
  if (!shape || !pool?.channel || !pool.workers) return undefined;
  const snaps = [snapshotOf(ctx, shape.left.scan.table), snapshotOf(ctx, shape.right.scan.table)];
  if (!snaps.every((s) => typeof (s as { origin?: unknown }).origin === "function")) return undefined;
  // One text id per distinct text of each SYMBOL column, across both tables' dictionaries.
  const texts = n.columns.map(() => new Map<string, number>());
  const dicts: (SymbolDict | undefined)[][] = [[], []];
  const sideJob = (s: Side, snap: TableSnapshot, d: (SymbolDict | undefined)[]): SetOpSideJob => {
    const ids = s.cols.map((c, k) => {
      if (s.scan.columns[c].type.tag !== "SYMBOL") return d.push(undefined), undefined;
      const dict = snap.symbols(s.scan.columnIndexes[c]);
      d.push(dict);
      const out = new Int32Array(dict.size);
      for (let code = 0; code < dict.size; code++) {
        const t = dict.valueOf(code);
        if (t === null) out[code] = TEXT_NULL;
        else {
          let id = texts[k].get(t);
          if (id === undefined) texts[k].set(t, id = texts[k].size);
          out[code] = id;
        }
      }
      return out;
    });
    const pieces = morselsOf(snap, s.scan.intervals, Infinity).flatMap((m) => m.pieces);
    return {
      columnIndexes: s.cols.map((c) => s.scan.columnIndexes[c]),
      types: s.cols.map((c) => s.scan.columns[c].type),
      intervals: s.scan.intervals,
      chunks: chunksOf(pieces, pool.workers!),
      ids,
    };
  };
  const job: SetOpJob = {
    op: n.op as SetOpJob["op"],
    left: sideJob(shape.left, snaps[0], dicts[0]),
    right: sideJob(shape.right, snaps[1], dicts[1]),
  };
  const origins = snaps.map((s) => (s as unknown as { origin(): unknown }).origin());
  const channels: { close(): void }[] = [];
  let partials: (SetOpPartial | undefined)[];
  try {
    partials = await Promise.all(Array.from({ length: pool.workers }, async (_, part) => {
      let resolve!: (r: { kind: string; partial?: SetOpPartial; message?: string }) => void;
      const reply = new Promise<{ kind: string; partial?: SetOpPartial; message?: string }>((r) =>
        resolve = r
      );
      const ch = await pool.channel!((r) => resolve(r));
      if (!ch) return undefined;
      channels.push(ch);
      ch.post({ kind: "setop", id: ch.id, forget: ch.forget(), origins, job, part });
      const r = await cancellable(reply, ctx);
      if (r.kind === "setopPartial") return r.partial;
      if (r.kind === "unavailable") return undefined;
      throw new SqlError(`parallel set operation failed: ${r.message ?? r.kind}`, -1, "internal");
    }));
  } finally {
    for (const ch of channels) ch.close();
  }
  checkCancelled(ctx);
  if (partials.some((p) => p === undefined)) return undefined;
  return await merged(n, partials as SetOpPartial[], dicts, ctx);
}

/**
 * `p`, or the statement's cancel or timeout error as soon as it is cancelled or its time is up
 * (a worker's partition takes seconds at 10M rows; its late reply is dropped).
 */
function cancellable<T>(p: Promise<T>, ctx: ExecContext): Promise<T> {
  const signal = ctx.signal, deadline = ctx.deadline;
  if (!signal && !deadline) return p;
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      try {
        checkCancelled(ctx);
      } catch (err) {
        reject(err);
      }
    };
    const timer = deadline ? setTimeout(stop, Math.max(0, deadline.at - performance.now()) + 1) : undefined;
    signal?.addEventListener("abort", stop, { once: true });
    stop();
    p.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    });
  });
}

/**
 * The partials' rows in the operator's order (left chunks in table order, then right chunks),
 * each the first of its values: the rows of a chunk that an earlier chunk (on another worker)
 * already had are dropped here, through this heap's row ids. SYMBOL keys are read with their
 * side's dictionary (row ids go through the text, so both tables agree); a SYMBOL cast to
 * STRING/VARCHAR becomes its texts only for the rows kept.
 */
async function merged(
  n: SetOpNode,
  partials: SetOpPartial[],
  dicts: (SymbolDict | undefined)[][],
  ctx: ExecContext,
): Promise<Batch[]> {
  const ids = new RowIds(n.columns.length, ctx);
  const segments = [
    ...partials.map((p) => ({ side: 0, columns: p.left, count: p.leftCount })),
    ...partials.map((p) => ({ side: 1, columns: p.right, count: p.rightCount })),
  ];
  const out: Batch[] = [];
  const sel = new Int32Array(BATCH_ROWS_MAX);
  const textTables = new Map<SymbolDict, (string | null)[]>();
  const textsOf = (dict: SymbolDict) => {
    let t = textTables.get(dict);
    if (!t) textTables.set(dict, t = Array.from({ length: dict.size }, (_, k) => dict.valueOf(k)));
    return t;
  };
  for (const { side, columns, count } of segments) {
    for (let lo = 0; lo < count; lo += BATCH_ROWS_MAX) {
      const hi = Math.min(count, lo + BATCH_ROWS_MAX);
      const b: Batch = {
        rowCount: hi - lo,
        columns: n.columns.map((c, k): Vector => {
          const data = (columns[k] as Int32Array).subarray(lo, hi) as VectorData, dict = dicts[side][k];
          return dict ? { type: T.SYMBOL, data, dict } : { type: c.type, data };
        }),
      };
      const cur = ids.map(b), flags = ids.flags;
      let w = 0;
      for (let i = 0; i < b.rowCount; i++) {
        if (flags[cur[i]] & EMITTED) continue;
        flags[cur[i]] = EMITTED;
        sel[w++] = i;
      }
      if (w === 0) continue;
      const kept = w === b.rowCount ? b : gather(b, sel, w);
      charge(ctx, rowBytes(w, n.columns.length));
      out.push({
        rowCount: w,
        columns: kept.columns.map((v, k) => {
          const type = n.columns[k].type, dict = v.dict;
          // A SYMBOL cast to STRING/VARCHAR: its texts.
          if (type.tag === "SYMBOL" || !dict) return { ...v, type };
          const codes = v.data as Int32Array, texts = textsOf(dict), data = new Array<string | null>(w);
          for (let i = 0; i < w; i++) data[i] = codes[i] < 0 ? null : texts[codes[i]];
          return { type, data };
        }),
      });
      await pace(ctx);
    }
  }
  return out;
}

/** `pieces` (in table order) cut into `parts` contiguous chunks of about equal rows. */
function chunksOf(pieces: Morsel["pieces"], parts: number): Morsel[] {
  const total = pieces.reduce((s, p) => s + p.hi - p.lo, 0);
  const target = Math.ceil(total / parts);
  const chunks: Morsel[] = Array.from({ length: parts }, () => ({ pieces: [] }));
  let c = 0, rows = 0;
  for (const piece of pieces) {
    for (let lo = piece.lo; lo < piece.hi;) {
      if (rows >= target && c < parts - 1) {
        c++;
        rows = 0;
      }
      // The last chunk takes the rest.
      const hi = c === parts - 1 ? piece.hi : Math.min(piece.hi, lo + target - rows);
      chunks[c].pieces.push({ p: piece.p, lo, hi });
      rows += hi - lo;
      lo = hi;
    }
  }
  return chunks;
}
