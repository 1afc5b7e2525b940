/**
 * UNION, INTERSECT and EXCEPT (not ALL) of two table scans as hash partitions on the workers
 * (issue #16/#17). Each worker owns the rows whose key hash falls in its partition: it reads
 * both inputs whole, encodes and hashes every row (key_words.ts words, the single-heap
 * operator's), keeps only its partition's rows in its hash sets, and answers the rows it
 * emits with their positions in the operator's output order (left rows by their ordinal,
 * right rows after all left rows). Partitions are disjoint, so no row is emitted twice; the
 * main thread merges the workers' position-sorted lists, which gives exactly the rows, in
 * the order, of the single-heap operator (setop.ts): first appearances, left before right.
 *
 * SYMBOL columns of the two tables have different dictionaries: the main thread maps each
 * dictionary's codes to shared text ids once (not per row), and the workers hash those ids,
 * so equal texts land in the same partition whatever their codes.
 *
 * Taken at plan time (`markParallelSetOp`, from hash_parallel.ts markParallelHash): both
 * inputs are column projections of forward table scans, every column a word type, a float or
 * a SYMBOL (no STRING/VARCHAR: their texts would need ids shared across workers), and the
 * left table holds at least the pool's `hashRowsMin` rows. EXPLAIN: `Union [vectorized hash,
 * parallel N]`.
 */
import type { ColumnType } from "../../base/types.ts";
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
import { columnFamily, hashRows, KeyEncoder, type KeyFamily, WordSet } from "../key_words.ts";
import { FastPathUnavailable } from "../wasm_scratch.ts";
import { type Morsel, morselBatches, morselsOf } from "./hash_parallel.ts";
import { referenceExecution } from "./physical.ts";

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
  /** The whole scan as one morsel (every worker reads all of it). */
  morsel: Morsel;
  /** Per column: a SYMBOL's code → shared text id (-1: NULL); other columns undefined. */
  ids: (Int32Array | undefined)[];
}

export interface SetOpJob {
  op: "union" | "intersect" | "except";
  families: KeyFamily[];
  parts: number;
  left: SetOpSideJob;
  right: SetOpSideJob;
}

/** One worker's rows: output positions (ascending) and each column's values at them. */
export interface SetOpPartial {
  positions: Float64Array;
  columns: VectorData[];
  /** Rows of the left input (right rows' positions start there). */
  leftRows: number;
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

/** The rows of partition `part` the set operation emits, read from `snaps` (left, right). */
export async function setOpPartialOf(
  job: SetOpJob,
  snaps: TableSnapshot[],
  part: number,
): Promise<SetOpPartial> {
  const width = job.families.length;
  const encoders = job.families.map((f) => new KeyEncoder(f, new Map(), false));
  const emitted = new WordSet(width);
  const right = job.op === "union" ? undefined : new WordSet(width);
  const positions: number[] = [];
  const chunks: Batch[] = [];
  let hi = job.families.map(() => new Int32Array(0)), lo = hi, hashes = new Int32Array(0);
  let shi = hi, slo = hi, shash = hashes, sel = new Int32Array(0), flags = new Uint8Array(0);
  let found = new Uint8Array(0);

  /** Each batch's rows of this partition, as words (shi/slo/shash) and rows (sel); m of them. */
  async function scan(
    side: SetOpSideJob,
    snap: TableSnapshot,
    each: (b: Batch, m: number, at: number) => void,
  ) {
    const cols = new Set(side.columnIndexes.map((_, k) => k));
    let at = 0;
    for await (const b of morselBatches(snap, side.morsel, side, cols, new Map())) {
      const n = b.rowCount;
      if (hashes.length < n) {
        hi = job.families.map(() => new Int32Array(n));
        lo = job.families.map(() => new Int32Array(n));
        shi = job.families.map(() => new Int32Array(n));
        slo = job.families.map(() => new Int32Array(n));
        hashes = new Int32Array(n);
        shash = new Int32Array(n);
        sel = new Int32Array(n);
        flags = new Uint8Array(n);
        found = new Uint8Array(n);
      }
      for (let k = 0; k < width; k++) {
        const ids = side.ids[k];
        if (ids) symbolIds(b.columns[k].data as Int32Array, ids, n, hi[k], lo[k]);
        else encoders[k].encode(b.columns[k], n, hi[k], lo[k]);
      }
      hashRows(hi, lo, n, hashes);
      const m = selectPart(hashes, n, job.parts, part, sel);
      for (let k = 0; k < width; k++) pick(hi[k], lo[k], sel, m, shi[k], slo[k]);
      for (let j = 0; j < m; j++) shash[j] = hashes[sel[j]];
      each(b, m, at);
      at += n;
    }
    return at;
  }
  /** Records the selected rows whose flag is set as emitted at position base + row. */
  const record = (b: Batch, m: number, keep: Uint8Array, base: number) => {
    const rows: number[] = [];
    for (let j = 0; j < m; j++) {
      if (keep[j]) {
        rows.push(sel[j]);
        positions.push(base + sel[j]);
      }
    }
    if (rows.length) chunks.push(gather(b, rows));
  };

  let leftRows = 0;
  if (right) {
    await scan(job.right, snaps[1], (_b, m) => right.add(shi, slo, shash, m, flags));
    const keep = job.op === "intersect" ? 1 : 0;
    leftRows = await scan(job.left, snaps[0], (b, m, at) => {
      right.has(shi, slo, shash, m, found);
      // Rows of the wanted kind (in the right input or not), first appearances only.
      let w = 0;
      for (let j = 0; j < m; j++) {
        if (found[j] !== keep) continue;
        sel[w] = sel[j];
        shash[w] = shash[j];
        for (let k = 0; k < width; k++) {
          shi[k][w] = shi[k][j];
          slo[k][w] = slo[k][j];
        }
        w++;
      }
      emitted.add(shi, slo, shash, w, flags);
      record(b, w, flags, at);
    });
  } else {
    leftRows = await scan(job.left, snaps[0], (b, m, at) => {
      emitted.add(shi, slo, shash, m, flags);
      record(b, m, flags, at);
    });
    await scan(job.right, snaps[1], (b, m, at) => {
      emitted.add(shi, slo, shash, m, flags);
      record(b, m, flags, leftRows + at);
    });
  }
  const columns = job.left.types.map((t, k) =>
    concat(t, chunks.map((c) => c.columns[k].data), positions.length)
  );
  return { positions: Float64Array.from(positions), columns, leftRows };
}

/** Text ids of SYMBOL codes (a code past the main thread's dictionary: the main heap runs it). */
function symbolIds(codes: Int32Array, ids: Int32Array, n: number, hi: Int32Array, lo: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    hi[i] = 0;
    if (c < 0) lo[i] = TEXT_NULL;
    else if (c < ids.length) lo[i] = ids[c];
    else throw new FastPathUnavailable("a symbol past the main thread's dictionary");
  }
}

/**
 * The rows of partition `part`: by the hash's high bits, so that each worker's set still spreads
 * over all its buckets (WordSet buckets by the low bits).
 */
export function selectPart(
  hashes: Int32Array,
  n: number,
  parts: number,
  part: number,
  sel: Int32Array,
): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    if ((((hashes[i] >>> 16) * parts) >>> 16) === part) sel[m++] = i;
  }
  return m;
}

function pick(hi: Int32Array, lo: Int32Array, sel: Int32Array, m: number, ohi: Int32Array, olo: Int32Array) {
  for (let j = 0; j < m; j++) {
    const i = sel[j];
    ohi[j] = hi[i];
    olo[j] = lo[i];
  }
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
  const families = n.columns.map((c) => columnFamily(c.type.tag)!);
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
    const morsel: Morsel = { pieces: morselsOf(snap, s.scan.intervals, Infinity).flatMap((m) => m.pieces) };
    return {
      columnIndexes: s.cols.map((c) => s.scan.columnIndexes[c]),
      types: s.cols.map((c) => s.scan.columns[c].type),
      intervals: s.scan.intervals,
      morsel,
      ids,
    };
  };
  const job: SetOpJob = {
    op: n.op as SetOpJob["op"],
    families,
    parts: pool.workers,
    left: sideJob(shape.left, snaps[0], dicts[0]),
    right: sideJob(shape.right, snaps[1], dicts[1]),
  };
  const origins = snaps.map((s) => (s as unknown as { origin(): unknown }).origin());
  const channels: { close(): void }[] = [];
  let partials: (SetOpPartial | undefined)[];
  try {
    partials = await Promise.all(Array.from({ length: job.parts }, async (_, part) => {
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

/** The partials' rows in position order, as batches (left rows' SYMBOLs in the left dictionaries). */
async function merged(
  n: SetOpNode,
  partials: SetOpPartial[],
  dicts: (SymbolDict | undefined)[][],
  ctx: ExecContext,
): Promise<Batch[]> {
  const total = partials.reduce((s, p) => s + p.positions.length, 0);
  charge(ctx, rowBytes(total, n.columns.length));
  const leftRows = partials[0]?.leftRows ?? 0;
  const at = partials.map(() => 0);
  const out: Batch[] = [];
  const from = new Int32Array(BATCH_ROWS_MAX), idx = new Int32Array(BATCH_ROWS_MAX);
  for (let done = 0; done < total;) {
    // Next rows in position order, not crossing from left rows to right rows in one batch.
    let count = 0, side = -1;
    while (count < BATCH_ROWS_MAX && done < total) {
      let best = -1, bestPos = Infinity;
      for (let w = 0; w < partials.length; w++) {
        const p = partials[w];
        if (at[w] < p.positions.length && p.positions[at[w]] < bestPos) {
          bestPos = p.positions[at[w]];
          best = w;
        }
      }
      const s = bestPos < leftRows ? 0 : 1;
      if (side >= 0 && s !== side) break;
      side = s;
      from[count] = best;
      idx[count++] = at[best]++;
      done++;
    }
    const columns: Vector[] = n.columns.map((c, k) => {
      const srcs = partials.map((p) => p.columns[k]);
      const data = pickRows(srcs, from, idx, count), dict = dicts[side][k];
      // A SYMBOL cast to STRING/VARCHAR: its texts.
      if (c.type.tag !== "SYMBOL" && dict) {
        const codes = data as Int32Array;
        return { type: c.type, data: Array.from(codes, (x) => x < 0 ? null : dict.valueOf(x)) };
      }
      return { type: c.type, data, dict };
    });
    out.push({ rowCount: count, columns });
    await pace(ctx);
  }
  return out;
}

function pickRows(srcs: VectorData[], from: Int32Array, idx: Int32Array, n: number): VectorData {
  // deno-lint-ignore no-explicit-any
  const s = srcs as any[], out = new (s.find((a) => a.length > 0) ?? s[0]).constructor(n);
  for (let i = 0; i < n; i++) out[i] = s[from[i]][idx[i]];
  return out as VectorData;
}
