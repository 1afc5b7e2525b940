/**
 * An INNER or LEFT hash join under a parallel hash aggregation (issue #16/#17): the join's
 * build side (its right input, any plan) runs and is hashed once on the main thread, its
 * table and columns go to the workers in shared memory, and each worker probes morsels of the
 * left input (a forward table scan) and groups the joined rows at once (hash_parallel.ts
 * `hashPartialOf`), so that neither the probe's pairs nor the joined batches ever reach the
 * main thread: it merges one partial per morsel.
 *
 * The joined rows are the ones the single-heap operator (hash_join.ts) gives, with the same
 * key words (key_words.ts): NULL keys match each other as there (spec/sql.md §11.2), a LEFT
 * join's row without a match gets NULL right columns. The left SYMBOL keys are mapped to the
 * build's text ids once per dictionary on the main thread (a worker's snapshot has no symbol
 * texts); left STRING/VARCHAR keys look up the build's texts, shipped as an array.
 *
 * Taken at plan time (`joinShapeOf`, called by hash_parallel.ts's shape check): the join is
 * INNER or LEFT, runs as the vectorized hash join, its left input is a forward scan, and every
 * right column is a typed column (numbers, timestamps, SYMBOL); an INNER join's non-equality
 * condition becomes one more filter. EXPLAIN shows `Join (vectorized hash, parallel probe)`.
 */
import type { ColumnType } from "../../base/types.ts";
import {
  allocVectorData,
  type Batch,
  type SymbolDict,
  TYPED_VECTOR_TAGS,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../../base/values.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { TableSnapshot } from "../../storage/api.ts";
import { ColumnBuffer } from "../column_buffer.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "../exec_context.ts";
import { type Build, build, chainStarts, joinKeyFamilies, joinOp } from "../hash_join.ts";
import { hashRows, KeyEncoder, type KeyFamily } from "../key_words.ts";
import { denseKeyOf } from "./dense_groups.ts";
import { FastPathUnavailable } from "../wasm_scratch.ts";

type JoinNode = Extract<PlanNode, { kind: "join" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncIterable<Batch>;

/**
 * Joined rows one morsel may produce on a worker before it hands the statement back to the
 * main thread: a worker runs a morsel to its end (cancel and timeout are checked between
 * morsels), and a join that multiplies its rows (a key shared by thousands of build rows)
 * would hold it for minutes. The main thread's single-heap join paces and checks between
 * batches. 4M rows are a few hundred milliseconds of grouping. Tests lower it.
 */
export const joinTuning = { joinedRowsMax: 4_000_000 };

/** Joins probed on the workers (EXPLAIN). */
const probedInParallel = new WeakSet<PlanNode>();

/** Whether the plan probes this join on the workers, fused into the aggregate above it. */
export function parallelProbeOf(n: PlanNode): boolean {
  return probedInParallel.has(n);
}

/** Marks `join` as probed on the workers (the aggregate above it was chosen parallel). */
export function markParallelProbe(join: PlanNode): void {
  probedInParallel.add(join);
}

/**
 * The join under a parallel aggregate, when the workers can probe it: its left scan, and the
 * condition's rest (INNER only) as a filter over the joined columns.
 */
export function joinShapeOf(
  n: PlanNode,
): { join: JoinNode; scan: ScanNode; condition?: BoundExpr } | undefined {
  if (n.kind !== "join" || (n.type !== "inner" && n.type !== "left")) return undefined;
  if (joinOp(n) !== "vectorized hash" || !joinKeyFamilies(n)) return undefined;
  if (n.left.kind !== "scan" || n.left.reverse) return undefined;
  // The workers get the right columns as shared typed arrays.
  if (!n.right.columns.every((c) => TYPED_VECTOR_TAGS.has(c.type.tag))) return undefined;
  const leftWidth = n.left.columns.length;
  for (const [l] of n.equi) if (l < 0 || l >= leftWidth) return undefined;
  return { join: n, scan: n.left, condition: n.condition };
}

/**
 * Group slots of a join shape's keys beyond which it stays on the main thread: each morsel's
 * partial would hold about a group per row, and merging those costs the main thread about what
 * grouping the joined rows there costs (the group estimate, group_estimate.ts, samples scans,
 * not joins).
 */
const JOIN_GROUPS_MAX = 16_384;

/**
 * Whether the keys of an aggregate over `join` have few groups: each key is a SYMBOL column of
 * the right side (a build side is small) or has a small known domain over left columns
 * (dense_groups.ts `denseKeyOf`, SYMBOL sizes from `symbolSize` of the scan's columns).
 */
export function fewJoinGroups(
  keys: BoundExpr[],
  join: JoinNode,
  symbolSize: (scanColumn: number) => number,
): boolean {
  const leftWidth = join.left.columns.length;
  let slots = 1;
  for (const k of keys) {
    if (k.kind === "column" && k.index >= leftWidth && k.type.tag === "SYMBOL") continue;
    // A right column inside an expression has no known domain.
    const d = denseKeyOf(k, (c) => c < leftWidth ? symbolSize(c) : Infinity);
    if (!d) return false;
    slots *= d.slots;
  }
  return slots <= JOIN_GROUPS_MAX;
}

/** What a worker needs to probe: plain data, the large arrays in shared memory. */
export interface JoinSpec {
  inner: boolean;
  leftWidth: number;
  /** Per key: its left scan column and family. */
  leftKeys: number[];
  families: KeyFamily[];
  /** Per key: for a SYMBOL left column, dictionary code → build text id (-2: unseen). */
  codeIds: (Int32Array | undefined)[];
  /** Per key: for a STRING/VARCHAR left column, the build's texts in id order. */
  texts: (string[] | undefined)[];
  table: Int32Array;
  stride: number;
  first: Int32Array;
  mask: number;
  bloom?: Int32Array;
  bloomShift: number;
  /**
   * One SYMBOL key: per left dictionary code, the first build row of its text (-1: none), and
   * per build row the next one with the same key; NULL's first row in `nullFirst`.
   */
  codeFirst?: Int32Array;
  sameNext?: Int32Array;
  nullFirst: number;
  /** One SYMBOL key held by at most one build row per value (NULL included): no chains to walk. */
  uniqueCodes?: boolean;
  rightTypes: ColumnType[];
  /** Joined rows per morsel beyond which the worker hands the job back (joinTuning). */
  joinedRowsMax: number;
  /** Right columns, one value per build row (SYMBOL as codes of the main thread's dictionary). */
  right: Exclude<Vector["data"], Value[]>[];
}

/** A copy of `a` in shared memory: structured clones of the job then share it with every worker. */
function shared<
  A extends Int32Array | Float64Array | Float32Array | BigInt64Array | Int16Array | Int8Array | Uint16Array,
>(
  a: A,
): A {
  const ctor = a.constructor as unknown as {
    new (b: SharedArrayBuffer, o: number, n: number): A;
    BYTES_PER_ELEMENT: number;
  };
  const out = new ctor(new SharedArrayBuffer(Math.max(8, a.length * ctor.BYTES_PER_ELEMENT)), 0, a.length);
  out.set(a as never);
  return out;
}

/** A dictionary over the texts of a right SYMBOL column that came as scalar values. */
class TextDict implements SymbolDict {
  readonly texts: string[] = [];
  readonly #ids = new Map<string, number>();
  get size(): number {
    return this.texts.length;
  }
  valueOf(key: number): string | null {
    return this.texts[key] ?? null;
  }
  keyOf(value: string): number | undefined {
    return this.#ids.get(value);
  }
  idOf(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      this.#ids.set(value, id = this.texts.length);
      this.texts.push(value);
    }
    return id;
  }
}

/** One right column as a shared typed array (and its dictionary, for SYMBOL). */
function rightColumn(c: ColumnBuffer, rows: number): { data: JoinSpec["right"][number]; dict?: SymbolDict } {
  if (c.typed) return { data: shared(c.typed.subarray(0, rows)), dict: c.dict };
  const values = c.scalar ?? [];
  if (c.type.tag === "SYMBOL") {
    const dict = new TextDict();
    const codes = new Int32Array(new SharedArrayBuffer(Math.max(8, rows * 4)), 0, rows);
    for (let r = 0; r < rows; r++) {
      const v = values[r];
      codes[r] = v === null || v === undefined ? -1 : dict.idOf(String(v));
    }
    return { data: codes, dict };
  }
  const data = allocVectorData(c.type, rows) as JoinSpec["right"][number];
  for (let r = 0; r < rows; r++) writeValue(c.type, data, r, values[r] ?? null);
  return { data: shared(data as Int32Array) };
}

/**
 * Runs the join's right input, hashes it (hash_join.ts `build`) and answers the workers' spec
 * and, per right column, the dictionary its SYMBOL codes are in (for the merge's keys).
 */
export async function buildJoinSpec(
  join: JoinNode,
  snap: TableSnapshot,
  leftColumnIndexes: number[],
  ctx: ExecContext,
  run: Runner,
): Promise<{ spec: JoinSpec; dicts: (SymbolDict | undefined)[] }> {
  const families = joinKeyFamilies(join)!;
  const texts = families.map(() => new Map<string, number>());
  // The table, bucket heads and bloom filter are built in shared memory: no copy to ship.
  const sharedInts = (length: number) =>
    new Int32Array(new SharedArrayBuffer(Math.max(8, length * 4)), 0, length);
  const built = await build(
    join,
    run(join.right, ctx),
    families.map((f, k) => new KeyEncoder(f, texts[k], true)),
    ctx,
    sharedInts,
  );
  checkCancelled(ctx);
  try {
    const leftWidth = join.left.columns.length;
    const leftKeys = join.equi.map(([l]) => l);
    const codeIds = leftKeys.map((l, k) => {
      if (join.left.columns[l].type.tag !== "SYMBOL") return undefined;
      const dict = snap.symbols(leftColumnIndexes[l]);
      const ids = new Int32Array(dict.size);
      for (let code = 0; code < dict.size; code++) {
        const t = dict.valueOf(code);
        ids[code] = t === null ? -1 : texts[k].get(t) ?? -2;
      }
      return ids;
    });
    const textsOf = leftKeys.map((l, k) => {
      if (families[k] !== "text" || join.left.columns[l].type.tag === "SYMBOL") return undefined;
      const out: string[] = new Array(texts[k].size);
      for (const [t, id] of texts[k]) out[id] = t;
      return out;
    });
    const cols = built.buffers.map((c) => rightColumn(c, built.rows));
    const chains = codeIds.length === 1 && codeIds[0]
      ? codeChains(built, codeIds[0], texts[0].size)
      : undefined;
    // The shared copies live until the workers are done with the statement's morsels.
    charge(ctx, rowBytes(built.rows, join.right.columns.length + 2));
    const spec: JoinSpec = {
      inner: join.type === "inner",
      leftWidth,
      leftKeys,
      families,
      codeIds,
      texts: textsOf,
      table: built.table,
      stride: built.stride,
      first: built.first,
      mask: built.mask,
      bloom: built.bloom,
      bloomShift: built.bloomShift,
      codeFirst: chains && shared(chains.codeFirst),
      sameNext: chains && shared(chains.sameNext),
      nullFirst: chains?.nullFirst ?? -1,
      uniqueCodes: chains?.unique,
      rightTypes: join.right.columns.map((c) => c.type),
      joinedRowsMax: joinTuning.joinedRowsMax,
      right: cols.map((c) => c.data),
    };
    return { spec, dicts: cols.map((c) => c.dict) };
  } finally {
    for (const c of built.buffers) c.release();
  }
}

/**
 * For a join on one SYMBOL key: per left code the first build row with its text, per build
 * row the next with the same text, and the first NULL row (NULL matches NULL, as in hash_join.ts).
 */
function codeChains(built: Build, codeIds: Int32Array, textCount: number) {
  const { table, stride, rows } = built;
  const firstOfId = new Int32Array(textCount).fill(-1);
  const sameNext = new Int32Array(rows);
  let nullFirst = -1;
  for (let r = rows - 1; r >= 0; r--) {
    // The key's low word is its text id (-1: NULL).
    const id = table[r * stride + 3];
    if (id < 0) {
      sameNext[r] = nullFirst;
      nullFirst = r;
    } else {
      sameNext[r] = firstOfId[id];
      firstOfId[id] = r;
    }
  }
  const codeFirst = new Int32Array(codeIds.length);
  for (let c = 0; c < codeIds.length; c++) codeFirst[c] = codeIds[c] >= 0 ? firstOfId[codeIds[c]] : -1;
  let unique = true;
  for (let r = 0; r < rows && unique; r++) unique = sameNext[r] < 0;
  return { codeFirst, sameNext, nullFirst, unique };
}

// ---- on a worker heap ----

const TEXT_NULL = -1;
const TEXT_UNSEEN = -2;

/**
 * The joined batches of one morsel: `left` yields the morsel's batches of the left scan's
 * columns (those in `cols` below the left width, and the keys); each joined batch holds the
 * left and right columns in `cols`, in the join's column order, at most BATCH_ROWS_MAX rows.
 */
export async function* joinedBatches(
  spec: JoinSpec,
  left: AsyncIterable<Batch>,
  cols: Set<number>,
  stubs: Map<number, SymbolDict>,
): AsyncGenerator<Batch> {
  const { table, stride, first, mask, bloom, bloomShift, leftWidth, codeFirst, sameNext } = spec;
  const keyCount = spec.leftKeys.length;
  const encoders = spec.families.map((f, k) => {
    const texts = spec.texts[k];
    return f === "text" && !spec.codeIds[k]
      ? new KeyEncoder(f, new Map(texts?.map((t, id) => [t, id])), false)
      : new KeyEncoder(f, new Map(), false);
  });
  const rightNulls = spec.rightTypes.map((t) =>
    t.tag === "SYMBOL" ? -1 : (allocVectorData(t, 1) as Exclude<VectorData, Value[]>)[0]
  );
  /** `n` NULLs of right column j, by the typed array's native fill (no gather). */
  const nullsOf = (j: number, n: number): Exclude<VectorData, Value[]> => {
    const src = spec.right[j];
    const out = new (src.constructor as new (n: number) => typeof src)(n);
    (out as unknown as { fill(v: number | bigint): void }).fill(rightNulls[j]);
    return out;
  };
  let hi: Int32Array[] = [], lo: Int32Array[] = [], hashes = new Int32Array(0), starts = new Int32Array(0);
  const leftRows = new Int32Array(BATCH_ROWS_MAX), rightRows = new Int32Array(BATCH_ROWS_MAX);
  const keepLeft = !spec.inner;
  let joined = 0;
  let pairs = 0, count = 0, codes: Int32Array<ArrayBufferLike> = new Int32Array(0);
  // Where the probe stopped when the pairs filled up: its row, the next candidate of that
  // row's chain (-2: not started), whether it matched. Plain functions, not the generator:
  // V8 runs a loop with a `yield` in it far slower.
  let atRow = 0, atCandidate = -2, atMatched = false;
  /** The probe over key words and hashes (hash_join.ts's table). */
  const fillWords = (): boolean => {
    const phi0 = hi[0], plo0 = lo[0], hs = hashes, tb = table, ss = starts;
    const st = stride, keys = keyCount, outer = keepLeft;
    let i = atRow, r = atCandidate, matched = atMatched, p = pairs;
    const lr = leftRows, rr = rightRows, n = count;
    for (; i < n; i++, r = -2) {
      const h = hs[i], x = phi0[i], y = plo0[i];
      if (r === -2) {
        matched = false;
        r = ss[i];
      }
      for (; r >= 0;) {
        const at = r * st, nextRow = tb[at];
        let same = tb[at + 1] === h && tb[at + 2] === x && tb[at + 3] === y;
        for (let k = 1; k < keys && same; k++) {
          same = tb[at + 2 + 2 * k] === hi[k][i] && tb[at + 3 + 2 * k] === lo[k][i];
        }
        if (same) {
          matched = true;
          lr[p] = i;
          rr[p++] = r;
          if (p === BATCH_ROWS_MAX) {
            pairs = p;
            atRow = i;
            atCandidate = nextRow;
            atMatched = true;
            return false;
          }
        }
        r = nextRow;
      }
      if (!matched && outer) {
        lr[p] = i;
        rr[p++] = -1;
        if (p === BATCH_ROWS_MAX) {
          pairs = p;
          atRow = i + 1;
          atCandidate = -2;
          return false;
        }
      }
    }
    pairs = p;
    return true;
  };
  /**
   * The probe of one SYMBOL key whose build rows are unique (a dimension, an aggregated
   * subquery: the survey's j3): at most one pair per probe row, so a batch (at most
   * BATCH_ROWS_MAX rows) never fills the pairs, and there is no chain to walk.
   */
  const fillUnique = (): boolean => {
    const heads = codeFirst!, size = heads.length, nullFirst = spec.nullFirst, cs = codes;
    const lr = leftRows, rr = rightRows, n = count, outer = keepLeft;
    let p = 0;
    for (let i = 0; i < n; i++) {
      const k = cs[i];
      const r = k < 0 ? nullFirst : k < size ? heads[k] : -1;
      if (r >= 0 || outer) {
        lr[p] = i;
        rr[p++] = r;
      }
    }
    pairs = p;
    return true;
  };
  /** The probe of one SYMBOL key: each code's first build row, then the rows of the same key. */
  const fillCodes = (): boolean => {
    const heads = codeFirst!, next = sameNext!, nullFirst = spec.nullFirst, cs = codes;
    let i = atRow, r = atCandidate, matched = atMatched, p = pairs;
    const lr = leftRows, rr = rightRows, n = count;
    for (; i < n; i++, r = -2) {
      if (r === -2) {
        matched = false;
        const k = cs[i];
        r = k < 0 ? nullFirst : k < heads.length ? heads[k] : -1;
      }
      for (; r >= 0; r = next[r]) {
        matched = true;
        lr[p] = i;
        rr[p++] = r;
        if (p === BATCH_ROWS_MAX) {
          pairs = p;
          atRow = i;
          atCandidate = next[r];
          atMatched = true;
          return false;
        }
      }
      if (!matched && keepLeft) {
        lr[p] = i;
        rr[p++] = -1;
        if (p === BATCH_ROWS_MAX) {
          pairs = p;
          atRow = i + 1;
          atCandidate = -2;
          return false;
        }
      }
    }
    pairs = p;
    return true;
  };
  for await (const b of left) {
    count = b.rowCount;
    if (codeFirst) {
      codes = b.columns[spec.leftKeys[0]].data as Int32Array;
    } else {
      if (hashes.length < count) {
        hi = spec.leftKeys.map(() => new Int32Array(count));
        lo = spec.leftKeys.map(() => new Int32Array(count));
        hashes = new Int32Array(count);
      }
      for (let k = 0; k < keyCount; k++) {
        const v = b.columns[spec.leftKeys[k]];
        const ids = spec.codeIds[k];
        if (ids) symbolWords(v.data as Int32Array, ids, count, hi[k], lo[k]);
        else encoders[k].encode(v, count, hi[k], lo[k]);
      }
      hashRows(hi, lo, count, hashes);
      if (starts.length < count) starts = new Int32Array(hashes.length);
      chainStarts(hashes, count, bloom, bloomShift, first, mask, starts);
    }
    const emit = (): Batch => {
      const n = pairs;
      pairs = 0;
      joined += n;
      if (joined > spec.joinedRowsMax) throw new FastPathUnavailable("join fan-out past a morsel's share");
      // Every left row once, in order (a 1:1 join, a LEFT join that found nothing): the
      // batch's own vectors.
      // (A unique key's probe pairs each row at most once, in order: n === count says it.)
      let identity = n === count;
      if (!spec.uniqueCodes) { for (let i = 0; identity && i < n; i++) identity = leftRows[i] === i; }
      // No right row at all (a LEFT join's batch that found nothing): NULL columns, no gather.
      let anyRight = false;
      for (let i = 0; !anyRight && i < n; i++) anyRight = rightRows[i] >= 0;
      const columns: Vector[] = new Array(leftWidth + spec.rightTypes.length);
      for (const c of cols) {
        if (c < leftWidth) {
          const v = b.columns[c];
          columns[c] = identity ? v : { type: v.type, data: gatherData(v.data, leftRows, n), dict: v.dict };
        } else {
          const j = c - leftWidth;
          const data = anyRight ? gatherRight(spec.right[j], rightRows, n, rightNulls[j]) : nullsOf(j, n);
          // SYMBOL codes of the main thread's dictionary (the merge decodes them there), with
          // the stand-in that answers the expressions' texts.
          columns[c] = { type: spec.rightTypes[j], data, dict: stubs.get(c) };
        }
      }
      return { rowCount: n, columns };
    };
    atRow = 0;
    atCandidate = -2;
    atMatched = false;
    for (;;) {
      const done = spec.uniqueCodes ? fillUnique() : codeFirst ? fillCodes() : fillWords();
      if (pairs > 0 && (pairs === BATCH_ROWS_MAX || done)) yield emit();
      if (done) break;
    }
  }
}

/** Right rows `sel` of a build column (-1: the column's NULL), one loop per array type. */
function gatherRight(
  src: JoinSpec["right"][number],
  sel: Int32Array,
  n: number,
  nul: number | bigint,
): Exclude<VectorData, Value[]> {
  if (src instanceof Float64Array) return gatherF64(src, sel, n, nul as number);
  if (src instanceof Int32Array) return gatherI32(src, sel, n, nul as number);
  if (src instanceof BigInt64Array) {
    const out = new BigInt64Array(n);
    const o = new Int32Array(out.buffer), w = new Int32Array(src.buffer, src.byteOffset, src.length * 2);
    for (let i = 0; i < n; i++) {
      const m = sel[i];
      if (m >= 0) {
        o[2 * i] = w[2 * m];
        o[2 * i + 1] = w[2 * m + 1];
      } else o[2 * i + 1] = -2147483648;
    }
    return out;
  }
  // deno-lint-ignore no-explicit-any
  const s = src as any, out = new s.constructor(n);
  for (let i = 0; i < n; i++) {
    const m = sel[i];
    out[i] = m >= 0 ? s[m] : nul;
  }
  return out;
}

function gatherF64(src: Float64Array, sel: Int32Array, n: number, nul: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = sel[i];
    out[i] = m >= 0 ? src[m] : nul;
  }
  return out;
}

function gatherI32(src: Int32Array, sel: Int32Array, n: number, nul: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const m = sel[i];
    out[i] = m >= 0 ? src[m] : nul;
  }
  return out;
}

/** SYMBOL key words through the main thread's code → text id table (KeyEncoder's words). */
function symbolWords(codes: Int32Array, ids: Int32Array, n: number, hi: Int32Array, lo: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const k = codes[i];
    hi[i] = 0;
    lo[i] = k < 0 ? TEXT_NULL : k < ids.length ? ids[k] : TEXT_UNSEEN;
  }
}

/** Rows `sel` of one column's data. */
function gatherData(src: Vector["data"], sel: Int32Array, n: number): Vector["data"] {
  if (Array.isArray(src)) {
    const out = new Array<Value>(n);
    for (let i = 0; i < n; i++) out[i] = src[sel[i]];
    return out;
  }
  if (src instanceof BigInt64Array) {
    const out = new BigInt64Array(n);
    const o = new Int32Array(out.buffer), w = new Int32Array(src.buffer, src.byteOffset, src.length * 2);
    for (let i = 0; i < n; i++) {
      const m = sel[i];
      o[2 * i] = w[2 * m];
      o[2 * i + 1] = w[2 * m + 1];
    }
    return out;
  }
  const out = new (src.constructor as new (n: number) => typeof src)(n);
  for (let i = 0; i < n; i++) out[i] = src[sel[i]];
  return out;
}
