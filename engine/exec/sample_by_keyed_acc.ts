/**
 * The group state of keyed SAMPLE BY's WASM path (sample_by_keyed_fast.ts on one heap,
 * sample_by_parallel.ts per morsel on the workers), kept in WASM memory across slices of rows.
 *
 * A slice's rows are cut into buckets (`segmentEnds`), the `groupIds` kernel numbers their
 * (bucket, key) groups in first-appearance order (the order the row path emits) and goes on
 * numbering the last bucket of the previous slice where it continues, `keyedFold` (up to four
 * unfiltered columns per pass), `keyedStats` / `keyedCount` (FILTERed ones) and `sum128` (avg()
 * of LONG once its sums could pass 2^62) then add the measured columns into the groups'
 * statistics by group number. Groups are numbered bucket after bucket, so the complete buckets
 * are always the groups before the last bucket's: the caller writes them out (`complete`,
 * `drop`) and only the last bucket's groups (at most one per key) stay, moved to the front.
 * Nothing per row or per group runs in JavaScript but first()/last() picks and the output.
 *
 * Synchronous between calls; WASM views are made per call, never kept, so a caller may take
 * turns of the event loop between slices. `dispose` frees the memory.
 */
import { SqlError } from "../base/errors.ts";
import {
  kernels,
  KEYED_FOLD_COLUMNS,
  KEYED_FOLD_SLOT_BYTES,
  type MeasureKind,
  wasmMemory,
} from "../../engine-wasm/mod.ts";
import type { Bucketer } from "./sample_by_buckets.ts";
import { segmentEnds, type View, view, WIDTH } from "./sample_by_fast.ts";
import { Scratch } from "./wasm_scratch.ts";
import type { TableSnapshot } from "../storage/api.ts";
import type { Pred } from "./kernel_predicates.ts";
import { filteredRows } from "./sample_by_filter.ts";
import type { ColStats, GroupSet, KAgg } from "./sample_by_keyed_fast.ts";
import type { EdgeBucket } from "./sample_by_parallel.ts";

export interface AccEnv {
  bucketer: Bucketer;
  stride: bigint;
  /** Dictionary size: slot K stands for NULL. */
  K: number;
  kindOf: (c: number) => MeasureKind;
  aggs: KAgg[];
  /** The aggregates' FILTER conditions (KAgg.filter indexes them). */
  filters: Pred[];
}

/** Where a slice's columns are: partition row 0 of each, in WASM memory. */
export interface SliceAt {
  ts: number;
  keys: number;
  rowCount: number;
  /** Measured and filtered scan columns. */
  data: Map<number, number>;
  /**
   * Per column of `exactColumns()`: the largest |value| of the whole partition column
   * (`absMaxOf`, memoized per partition); a column missing here sums in 128 bits.
   */
  absMax?: Map<number, number>;
}

/**
 * The largest |value| of a partition's LONG column at `ptr` (NULLs skipped), memoized in the
 * snapshot's fact memo of that column: one SIMD stats pass the first time a partition's
 * exact sums need bounding, none after.
 */
export function absMaxOf(
  snap: TableSnapshot,
  p: number,
  tableColumn: number,
  ptr: number,
  rowCount: number,
): number {
  const memo = snap.factMemo?.(p, tableColumn);
  const known = memo?.get(ABS_MAX_TAG);
  if (typeof known === "number") return known;
  const st = kernels().stats("i64", { data: ptr, rowCount });
  const big = st.count > 0 ? Math.max(Math.abs(Number(st.min)), Math.abs(Number(st.max))) : 0;
  memo?.set(ABS_MAX_TAG, big);
  return big;
}

const ABS_MAX_TAG = "absMax";

/** One set of statistics per (column, filter); count(*) FILTER has column -1. */
interface Measure {
  col: number;
  filter?: number;
  kind: MeasureKind;
  first: boolean;
  last: boolean;
  /** avg() of LONG: exact 128-bit sums beside the wrapped ones. */
  exact: boolean;
  /**
   * Unfiltered columns go through `keyedFold` (up to four per pass, one 32-byte record per
   * group: NULLs, sum, min, max); filtered ones and count(*) FILTER through keyedStats/keyedCount.
   */
  fold: boolean;
  /** min() or max() asked: the fold keeps extremes. */
  extremes: boolean;
  /**
   * Exact folded measures: an upper bound of any group's |sum| so far (rows times the largest
   * |value| per slice). Below 2^62 the fold's wrapping 64-bit sums are exact and sum128 is not
   * run; `wide` once it passed: lo/hi took the sums over and sum128 runs from then on.
   */
  bound: number;
  wide: boolean;
}

/** Where the fold's 64-bit sums stop being trusted as exact (margin below 2^63 for rounding). */
const EXACT_BOUND = 2 ** 62;

/** A state array: name, element width. Offsets are per capacity. */
type Field = { name: string; width: number };

function nullOf(kind: MeasureKind): number | bigint {
  return kind === "i64" ? -(2n ** 63n) : kind === "i32" ? -2147483648 : NaN;
}

const TWO_32 = 4294967296;

function newView(kind: MeasureKind, n: number): View {
  return kind === "f64"
    ? new Float64Array(n)
    : kind === "f32"
    ? new Float32Array(n)
    : kind === "i64"
    ? new BigInt64Array(n)
    : new Int32Array(n);
}

/** An Int64 (two Int32 words, low first) as the nearest double, without a BigInt. */
function i64ToNumber(words: Int32Array, i: number): number {
  return words[2 * i + 1] * TWO_32 + (words[2 * i] >>> 0);
}

/**
 * Group g's non-NULL values seen: its rows less the NULL count of its fold record (the record's
 * first word pair; `words` are the records as Int32 words, 8 a record).
 */
export function foldCount(words: Int32Array, gRows: ArrayLike<number>, g: number): number {
  return gRows[g] - i64ToNumber(words, 4 * g);
}

/** foldCount of every group [0, n). */
function foldCounts(words: Int32Array, gRows: Float64Array, n: number): Float64Array {
  const counts = new Float64Array(n);
  for (let g = 0; g < n; g++) counts[g] = foldCount(words, gRows, g);
  return counts;
}

/** One DOUBLE field of the fold records per group; `empty` where the group saw no value. */
function fieldDoubles(
  f64: Float64Array,
  counts: Float64Array,
  field: number,
  empty: number,
  n: number,
): Float64Array {
  const out = new Float64Array(n);
  for (let g = 0; g < n; g++) out[g] = counts[g] === 0 ? empty : f64[4 * g + field];
  return out;
}

/**
 * New fold records: 0 NULLs, sum 0, then the extremes' starting values, word by word (no
 * BigInt per group). A function of its own: as a loop inside KeyedAcc#fold it made V8 replace
 * that whole method on the stack (OSR) and recompile it, inlined kernel checks and all, for
 * 12-36 ms a time on a background thread, again after each deoptimization: ~30 ms of CPU in
 * each of the first runs of a new SAMPLE BY shape on each worker heap.
 */
function startRecords(w: Int32Array, count: number, float: boolean): void {
  w.fill(0);
  if (float) {
    for (let g = 0; g < count; g++) {
      w[8 * g + 5] = 0x7ff00000; // +Infinity
      w[8 * g + 7] = 0xfff00000 | 0; // -Infinity
    }
    return;
  }
  for (let g = 0; g < count; g++) {
    w[8 * g + 4] = -1; // LONG_MAX
    w[8 * g + 5] = 0x7fffffff;
    w[8 * g + 7] = 0x80000000 | 0; // LONG_MIN
  }
}

export class KeyedAcc {
  readonly #env: AccEnv;
  readonly #measures: Measure[];
  readonly #fields: Field[];
  /** Per key slot (K + 1): the bucket id it was last seen in, and its group there. */
  readonly #slots: number;
  #block = -1;
  #cap = 0;
  /** Byte offset of each field within the block at the current capacity. */
  #at = new Map<string, number>();
  /** Groups held: the last bucket's, plus complete ones not yet dropped. */
  count = 0;
  /** Bucket ids are numbered from 0 per accumulator; starts of ids `#idFloor`.. */
  #starts: bigint[] = [];
  #idFloor = 0;
  #lastId = -1;

  /**
   * `full` makes the error thrown when WASM memory has no room: a SQL limit error by default; a
   * worker heap passes FastPathUnavailable, which it reports as its own kind of reply.
   */
  constructor(
    env: AccEnv,
    readonly full: () => Error = () => new SqlError("not enough WASM memory for SAMPLE BY", -1, "limit"),
  ) {
    this.#env = env;
    const measures: Measure[] = [];
    for (const a of env.aggs) {
      if (a.col < 0 && a.filter === undefined) continue;
      if (measures.some((m) => m.col === a.col && m.filter === a.filter)) continue;
      const kind = a.col < 0 ? "i64" : env.kindOf(a.col);
      const needs = (fn: string) =>
        env.aggs.some((b) => b.col === a.col && b.filter === a.filter && b.fn === fn);
      measures.push({
        col: a.col,
        filter: a.filter,
        kind,
        first: needs("first"),
        last: needs("last"),
        exact: a.col >= 0 && kind === "i64" && needs("avg"),
        fold: a.col >= 0 && a.filter === undefined,
        extremes: needs("min") || needs("max"),
        bound: 0,
        // Filtered exact measures (keyedStats) always sum in 128 bits.
        wide: a.filter !== undefined,
      });
    }
    this.#measures = measures;
    const fields: Field[] = [
      { name: "gSlot", width: 4 },
      { name: "gBucket", width: 4 },
      { name: "firstRow", width: 4 },
      { name: "lastRow", width: 4 },
      { name: "gRows", width: 8 },
      // keyedStats counts rows per column too: those counts land here, unread (gRows has them).
      { name: "junk", width: 8 },
    ];
    measures.forEach((m, i) => {
      const w = WIDTH[m.kind];
      if (m.fold) fields.push({ name: `fold${i}`, width: KEYED_FOLD_SLOT_BYTES });
      else fields.push({ name: `counts${i}`, width: 8 });
      if (m.col < 0) return;
      if (!m.fold) {
        fields.push({ name: `sums${i}`, width: 8 }, { name: `mins${i}`, width: w }, {
          name: `maxs${i}`,
          width: w,
        });
      }
      if (m.first) fields.push({ name: `firsts${i}`, width: w });
      if (m.last) fields.push({ name: `lasts${i}`, width: w });
      if (m.exact) fields.push({ name: `lo${i}`, width: 8 }, { name: `hi${i}`, width: 8 });
    });
    this.#fields = fields;
    this.#slots = env.K + 1;
    const slots = wasmMemory().alloc(this.#slots * 8);
    if (slots < 0) throw this.full();
    this.#slotBlock = slots;
    wasmMemory().i32(slots, this.#slots).fill(-1);
  }

  readonly #slotBlock: number;

  /** Scan columns whose exact sums are bounded before each slice (SliceAt.absMax). */
  exactColumns(): number[] {
    return this.#measures.filter((m) => m.exact && !m.wide).map((m) => m.col);
  }

  /** Frees the WASM memory; the accumulator is unusable after. */
  dispose(): void {
    if (this.#block >= 0) wasmMemory().free(this.#block);
    this.#block = -1;
    wasmMemory().free(this.#slotBlock);
  }

  #ptr(name: string): number {
    return this.#block + this.#at.get(name)!;
  }

  /** Room for `need` groups (plus the kernels' stray slot), keeping the groups held. */
  #reserve(need: number): void {
    if (need <= this.#cap) return;
    const cap = Math.max(need, this.#cap * 2, 64);
    const at = new Map<string, number>();
    let bytes = 0;
    for (const f of this.#fields) {
      at.set(f.name, bytes);
      bytes += Math.ceil(((cap + 1) * f.width) / 8) * 8;
    }
    const block = wasmMemory().alloc(bytes);
    if (block < 0) throw this.full();
    if (this.#block >= 0) {
      const mem = wasmMemory();
      for (const f of this.#fields) {
        mem.u8(block + at.get(f.name)!, this.count * f.width).set(
          mem.u8(this.#ptr(f.name), this.count * f.width),
        );
      }
      mem.free(this.#block);
    }
    this.#block = block;
    this.#at = at;
    this.#cap = cap;
  }

  /** Adds rows [from, to) of one partition (ascending time, after the held groups' rows). */
  add(at: SliceAt, from: number, to: number): void {
    if (to <= from) return;
    const env = this.#env, mem = wasmMemory(), k = kernels();
    const scratch = new Scratch(this.full);
    try {
      const ts = mem.i64(at.ts, at.rowCount);
      const { starts, ends } = segmentEnds(env.bucketer, ts, at.ts, from, to, env.stride, scratch);
      const n = to - from;
      const idBase = this.#lastId >= 0 && starts[0] === this.#starts[this.#lastId - this.#idFloor]
        ? this.#lastId
        : this.#lastId + 1;
      for (let s = 0; s < starts.length; s++) {
        if (idBase + s > this.#lastId) this.#starts.push(starts[s]);
      }
      this.#lastId = idBase + starts.length - 1;
      this.#reserve(this.count + n);
      const before = this.count;
      const anyLast = this.#measures.some((m) => m.last);
      if (anyLast) mem.i32(this.#ptr("lastRow"), before).fill(-1);
      const endsPtr = scratch.alloc(ends.length * 4);
      const gid = scratch.alloc(n * 4);
      mem.i32(endsPtr, ends.length).set(ends);
      const groups = k.groupIds({
        keys: at.keys,
        rowCount: at.rowCount,
        from,
        to,
        ends: endsPtr,
        segCount: ends.length,
        idBase,
        keyCount: env.K,
        stamp: this.#slotBlock,
        slotGroup: this.#slotBlock + this.#slots * 4,
        groups: before,
        capacity: this.#cap,
        gid,
        gSlot: this.#ptr("gSlot"),
        gBucket: this.#ptr("gBucket"),
        gRows: this.#ptr("gRows"),
        firstRow: this.#ptr("firstRow"),
        lastRow: this.#ptr("lastRow"),
      });
      if (groups < 0) {
        const key = mem.i32(at.keys, at.rowCount)[-1 - groups];
        throw new SqlError(`symbol key ${key} outside its dictionary`, -1, "internal");
      }
      this.count = groups;
      const fresh = groups - before;
      const sels = env.filters.map((p) => filteredRows(p, at.data, from, n, scratch));
      this.#widen(at, n, before);
      this.#fold(at, from, n, gid, before, groups);
      this.#measures.forEach((m, i) => {
        const sel = m.filter === undefined ? undefined : sels[m.filter];
        const selArgs = sel ? { sel: sel.ptr, selCount: sel.count } : {};
        if (m.fold) {
          this.#extras(m, i, at, from, n, gid, before, groups, selArgs);
          return;
        }
        const counts = this.#ptr(`counts${i}`);
        mem.i64(counts + before * 8, fresh).fill(0n);
        if (m.col < 0) {
          k.keyedCount({ keys: gid, rowCount: n, keyCount: groups, counts, ...selArgs });
          return;
        }
        const w = WIDTH[m.kind], nul = nullOf(m.kind);
        const sums = this.#ptr(`sums${i}`), mins = this.#ptr(`mins${i}`), maxs = this.#ptr(`maxs${i}`);
        mem.i64(sums + before * 8, fresh).fill(0n); // 0 and 0.0 share their bits
        (view(m.kind, mins + before * w, fresh) as { fill(v: unknown): void }).fill(nul);
        (view(m.kind, maxs + before * w, fresh) as { fill(v: unknown): void }).fill(nul);
        const data = at.data.get(m.col)!;
        const args = { keys: gid, data: data + from * w, rowCount: n, keyCount: groups, ...selArgs };
        k.keyedStats(m.kind, { ...args, rows: this.#ptr("junk"), counts, sums, mins, maxs });
        this.#extras(m, i, at, from, n, gid, before, groups, selArgs);
      });
    } finally {
      scratch.release();
    }
  }

  /**
   * Before a slice is folded: each exact folded measure whose sums could pass EXACT_BOUND with
   * this slice's rows (bounded by the partition's largest |value|, SliceAt.absMax) moves its
   * held groups' sums into lo/hi (exact until now) and sums in 128 bits from this slice on.
   */
  #widen(at: SliceAt, n: number, before: number): void {
    const mem = wasmMemory();
    this.#measures.forEach((m, i) => {
      if (!m.exact || m.wide) return;
      // Without the partition's largest |value| nothing bounds the sums: 128 bits from here on.
      const known = at.absMax?.get(m.col);
      m.bound = known === undefined ? Infinity : m.bound + n * known;
      if (m.bound < EXACT_BOUND) return;
      m.wide = true;
      const rec = mem.i32(this.#ptr(`fold${i}`), before * 8);
      const lo = mem.i32(this.#ptr(`lo${i}`), before * 2), hi = mem.i32(this.#ptr(`hi${i}`), before * 2);
      for (let g = 0; g < before; g++) {
        lo[2 * g] = rec[8 * g + 2];
        lo[2 * g + 1] = rec[8 * g + 3];
        hi[2 * g] = hi[2 * g + 1] = rec[8 * g + 3] < 0 ? -1 : 0;
      }
    });
  }

  /** The unfiltered measures through keyedFold, up to KEYED_FOLD_COLUMNS per pass. */
  #fold(at: SliceAt, from: number, n: number, gid: number, before: number, groups: number): void {
    const mem = wasmMemory();
    const folds = this.#measures.map((m, i) => ({ m, i })).filter(({ m }) => m.fold);
    for (const { m, i } of folds) {
      const p = this.#ptr(`fold${i}`) + before * KEYED_FOLD_SLOT_BYTES, count = groups - before;
      startRecords(mem.i32(p, count * 8), count, m.kind === "f64" || m.kind === "f32");
    }
    for (let c = 0; c < folds.length; c += KEYED_FOLD_COLUMNS) {
      kernels().keyedFold({
        keys: gid,
        rowCount: n,
        keyCount: groups,
        rows: this.#ptr("junk"),
        columns: folds.slice(c, c + KEYED_FOLD_COLUMNS).map(({ m, i }) => ({
          kind: m.kind,
          data: at.data.get(m.col)! + from * WIDTH[m.kind],
          acc: this.#ptr(`fold${i}`),
          extremes: m.extremes,
        })),
      });
    }
  }

  /** A column measure's exact sums (avg of LONG) and first()/last() picks. */
  #extras(
    m: Measure,
    i: number,
    at: SliceAt,
    from: number,
    n: number,
    gid: number,
    before: number,
    groups: number,
    selArgs: { sel?: number; selCount?: number },
  ): void {
    const mem = wasmMemory(), fresh = groups - before;
    const data = at.data.get(m.col)!;
    if (m.exact && m.wide) {
      const lo = this.#ptr(`lo${i}`), hi = this.#ptr(`hi${i}`);
      mem.i64(lo + before * 8, fresh).fill(0n);
      mem.i64(hi + before * 8, fresh).fill(0n);
      kernels().sum128({
        keys: gid,
        data: data + from * 8,
        rowCount: n,
        keyCount: groups,
        lo,
        hi,
        ...selArgs,
      });
    }
    if (m.first || m.last) {
      const values = view(m.kind, data, at.rowCount) as unknown as (number | bigint)[];
      if (m.first) {
        const firsts = view(m.kind, this.#ptr(`firsts${i}`), groups) as unknown as (number | bigint)[];
        const rows = mem.i32(this.#ptr("firstRow"), groups);
        for (let g = before; g < groups; g++) firsts[g] = values[rows[g]];
      }
      if (m.last) {
        const lasts = view(m.kind, this.#ptr(`lasts${i}`), groups) as unknown as (number | bigint)[];
        const rows = mem.i32(this.#ptr("lastRow"), groups);
        for (let g = 0; g < groups; g++) if (rows[g] >= 0) lasts[g] = values[rows[g]];
      }
    }
  }

  /** Groups [0, n) belong to complete buckets: all but the last bucket's. */
  complete(): number {
    if (this.count === 0) return 0;
    const bucket = wasmMemory().i32(this.#ptr("gBucket"), this.count);
    let n = this.count;
    while (n > 0 && bucket[n - 1] === this.#lastId) n--;
    return n;
  }

  /** Bucket id of group `g` less the first id seen (0: the accumulator's first bucket). */
  bucketIdOf(g: number): number {
    return wasmMemory().i32(this.#ptr("gBucket"), this.count)[g];
  }

  /**
   * Held groups [0, upTo) as a GroupSet, views into WASM memory (and arrays computed from them):
   * valid until the next `add`, `drop` or allocation of WASM memory.
   */
  view(upTo = this.count): GroupSet {
    const mem = wasmMemory(), n = Math.min(upTo, this.count);
    const gBucket = mem.i32(this.#ptr("gBucket"), n);
    const starts = this.#starts, floor = this.#idFloor;
    const gRows = mem.f64(this.#ptr("gRows"), n);
    const cols: ColStats[] = this.#measures.map((m, i) => {
      if (m.fold) return this.#foldStats(m, i, n, gRows);
      const words = mem.i32(this.#ptr(`counts${i}`), 2 * n);
      const counts = new Float64Array(n);
      for (let g = 0; g < n; g++) counts[g] = i64ToNumber(words, g);
      if (m.col < 0) {
        return {
          col: -1,
          filter: m.filter,
          kind: "f64",
          counts,
          sums: new Float64Array(n),
          mins: new Float64Array(n).fill(NaN),
          maxs: new Float64Array(n).fill(NaN),
        };
      }
      const float = m.kind === "f64" || m.kind === "f32";
      return {
        col: m.col,
        filter: m.filter,
        kind: m.kind,
        counts,
        sums: m.exact
          ? this.#exactSums(i, n)
          : float
          ? mem.f64(this.#ptr(`sums${i}`), n)
          : mem.i64(this.#ptr(`sums${i}`), n),
        mins: view(m.kind, this.#ptr(`mins${i}`), n),
        maxs: view(m.kind, this.#ptr(`maxs${i}`), n),
        firsts: m.first ? view(m.kind, this.#ptr(`firsts${i}`), n) : undefined,
        lasts: m.last ? view(m.kind, this.#ptr(`lasts${i}`), n) : undefined,
      };
    });
    return {
      count: n,
      bucket: (g) => starts[gBucket[g] - floor],
      slot: mem.i32(this.#ptr("gSlot"), n),
      rows: mem.f64(this.#ptr("gRows"), n),
      cols,
    };
  }

  /**
   * A folded measure's statistics as contiguous arrays (NULL where a group saw no value), each
   * made when first read. A DOUBLE measure also exposes its fold records (`fold`), from which
   * Output writes sums, means and extremes straight into its columns: copying each field out
   * first (a pass and an array per field and slice) was ~10% of a keyed SAMPLE BY of millions
   * of groups (t5, 2.76M groups).
   */
  #foldStats(m: Measure, i: number, n: number, gRows: Float64Array): ColStats {
    const mem = wasmMemory(), p = this.#ptr(`fold${i}`);
    const words = mem.i32(p, n * 8), f64 = mem.f64(p, n * 4);
    const float = m.kind === "f64" || m.kind === "f32";
    let counts: Float64Array | undefined;
    const countsOf = () => counts ??= foldCounts(words, gRows, n);
    // Integer records copy word by word: no BigInt per value.
    const longs = (field: number, nul: boolean) => {
      const c = countsOf();
      const out = new BigInt64Array(n), w = new Int32Array(out.buffer);
      for (let g = 0; g < n; g++) {
        if (nul && c[g] === 0) {
          w[2 * g] = 0;
          w[2 * g + 1] = -2147483648; // LONG_NULL's high word
        } else {
          w[2 * g] = words[8 * g + 2 * field];
          w[2 * g + 1] = words[8 * g + 2 * field + 1];
        }
      }
      return out;
    };
    const extreme = (field: number): View => {
      if (!m.extremes) return newView(m.kind, 0);
      if (m.kind === "f64") return fieldDoubles(f64, countsOf(), field, NaN, n);
      if (m.kind === "f32") return Float32Array.from(fieldDoubles(f64, countsOf(), field, NaN, n));
      if (m.kind === "i64") return longs(field, true);
      // INT: widened to 64 bits in the record; its value is the low word.
      const c = countsOf();
      const out = new Int32Array(n);
      for (let g = 0; g < n; g++) out[g] = c[g] === 0 ? -2147483648 : words[8 * g + 2 * field];
      return out;
    };
    const exactSums = () => this.#exactSums(i, n);
    let sums: Float64Array | BigInt64Array | undefined, mins: View | undefined, maxs: View | undefined;
    return {
      col: m.col,
      filter: m.filter,
      kind: m.kind,
      get counts() {
        return countsOf();
      },
      get sums() {
        return sums ??= m.exact
          ? exactSums()
          : float
          ? fieldDoubles(f64, countsOf(), 1, 0, n)
          : longs(1, false);
      },
      get mins() {
        return mins ??= extreme(2);
      },
      get maxs() {
        return maxs ??= extreme(3);
      },
      noExtremes: !m.extremes,
      fold: m.kind === "f64" && !m.exact ? { f64, words, rows: gRows } : undefined,
      firsts: m.first ? view(m.kind, this.#ptr(`firsts${i}`), n) : undefined,
      lasts: m.last ? view(m.kind, this.#ptr(`lasts${i}`), n) : undefined,
    };
  }

  /** Measure i's exact sums as doubles: hi * 2^64 + lo, rounded once. */
  #exactSums(i: number, n: number): Float64Array {
    const mem = wasmMemory();
    if (!this.#measures[i].wide) {
      // The fold's 64-bit sums are exact (below EXACT_BOUND): record field 1.
      const rec = mem.i32(this.#ptr(`fold${i}`), n * 8), out = new Float64Array(n);
      for (let g = 0; g < n; g++) out[g] = i64ToNumber(rec, 4 * g + 1);
      return out;
    }
    const lo = mem.i32(this.#ptr(`lo${i}`), 2 * n), hi = mem.i32(this.#ptr(`hi${i}`), 2 * n);
    const out = new Float64Array(n);
    for (let g = 0; g < n; g++) {
      const h = hi[2 * g], h1 = hi[2 * g + 1];
      // The common case: the sum fits 64 bits (hi is the sign extension of lo).
      if ((h === 0 && h1 === 0 && lo[2 * g + 1] >= 0) || (h === -1 && h1 === -1 && lo[2 * g + 1] < 0)) {
        out[g] = i64ToNumber(lo, g);
      } else {
        const big = (BigInt(h1) << 96n) + (BigInt(h >>> 0) << 64n) + (BigInt(lo[2 * g + 1] >>> 0) << 32n) +
          BigInt(lo[2 * g] >>> 0);
        out[g] = Number(big);
      }
    }
    return out;
  }

  /** Forgets groups [0, n) (written out); the rest move to the front. */
  drop(n: number): void {
    if (n <= 0) return;
    const mem = wasmMemory(), left = this.count - n;
    for (const f of this.#fields) {
      const p = this.#ptr(f.name);
      mem.u8(p, this.count * f.width).copyWithin(0, n * f.width, this.count * f.width);
    }
    // The groups left are the last bucket's: their keys' slots point at them.
    const slotGroup = mem.i32(this.#slotBlock + this.#slots * 4, this.#slots);
    const gSlot = mem.i32(this.#ptr("gSlot"), left);
    for (let g = 0; g < left; g++) slotGroup[gSlot[g]] = g;
    this.count = left;
    const floor = left > 0 ? mem.i32(this.#ptr("gBucket"), 1)[0] : this.#lastId;
    this.#starts.splice(0, floor - this.#idFloor);
    this.#idFloor = floor;
  }

  /** Groups [from, to) copied out of WASM memory (a morsel's edge bucket, sent to the main thread). */
  copy(from: number, to: number): EdgeBucket {
    const set = this.view(to);
    const slice = <T extends { slice(a: number, b: number): T }>(a: T) => a.slice(from, to);
    return {
      start: set.bucket(from),
      count: to - from,
      slot: (set.slot as Int32Array).slice(from, to),
      rows: (set.rows as Float64Array).slice(from, to),
      cols: set.cols.map((c) => ({
        col: c.col,
        filter: c.filter,
        kind: c.kind,
        counts: (c.counts as Float64Array).slice(from, to),
        sums: slice(c.sums as Float64Array),
        mins: (c.noExtremes ? c.mins : slice(c.mins as Float64Array)) as View,
        maxs: (c.noExtremes ? c.maxs : slice(c.maxs as Float64Array)) as View,
        noExtremes: c.noExtremes,
        firsts: c.firsts && slice(c.firsts as Float64Array) as View,
        lasts: c.lasts && slice(c.lasts as Float64Array) as View,
      })),
    };
  }
}
