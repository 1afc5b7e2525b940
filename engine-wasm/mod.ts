/**
 * @module
 * The one door to WebAssembly (STYLE.md §1 "The kernels"): owns the linear memory, hands out
 * regions for column data and scratch space, gives typed-array views of them, and calls the
 * AssemblyScript kernels in `build/kernels.wasm` after checking their arguments.
 *
 * The memory is created once at its full size (the column cache budget) and never grows, so
 * views handed out stay valid for the life of the process. Imported by engine/storage and
 * engine/exec only.
 *
 * Entry points: `wasmMemory()` (regions, views, scratch space through `alloc`/`free` or
 * `withScratch`) and `kernels()` (the hot path, interface and layouts in `kernels.ts`). This
 * file alone loads the module and knows its exports and its result block; `reference.ts` is
 * the TypeScript twin used by tests. Design notes: README.md in this folder.
 *
 * @example
 * ```ts
 * import { kernels, wasmMemory, withScratch } from "./mod.ts";
 *
 * const memory = wasmMemory();
 * const price = memory.alloc(3 * 8);
 * memory.f64(price, 3).set([10.5, NaN, 12]);
 * const rows = withScratch(3 * 4, (out) => {
 *   const n = kernels().filter("f64", { data: price, rowCount: 3, op: "gt", value: 11, out });
 *   return Array.from(memory.i32(out, n)); // [2]
 * });
 * const { count, sum } = kernels().stats("f64", { data: price, rowCount: 3 }); // 2, 22.5
 * memory.free(price);
 * ```
 */
import { Heap } from "./heap.ts";
import { Checker } from "./_check.ts";
import { floatRange, intRange, longRange, type Range } from "./_ranges.ts";
import {
  type AsofMergeArgs,
  type AsofMergeStop,
  type BinopArgs,
  type BoundArgs,
  type BoundsArgs,
  type ColumnArgs,
  type CompareOp,
  type FilterArgs,
  type FloatKind,
  type FloatStats,
  FORMAT_F64_BYTES,
  FORMAT_I64_BYTES,
  type FormatF64Args,
  type FormatI64Args,
  type GatherArgs,
  type GatherOrNullArgs,
  type GroupIdsArgs,
  type IntKind,
  type IntStats,
  JSON_CELLS,
  JSON_COLUMN_WORDS,
  type JsonRowsArgs,
  type Kernels,
  KEYED_FOLD_COLUMNS,
  KEYED_FOLD_SLOT_BYTES,
  type KeyedArgs,
  type KeyedCountArgs,
  type KeyedExtremeArgs,
  type KeyedFoldArgs,
  type KeyedStatsArgs,
  type KeyedSumArgs,
  type KeyFilterArgs,
  type KeySetFilterArgs,
  KIND_BYTES,
  type MeasureKind,
  type NumericKind,
  type ReverseArgs,
  type SegmentArgs,
  type SelUnionArgs,
  type SequenceArgs,
  type Sum128Args,
  type TopNArgs,
} from "./kernels.ts";

export * from "./kernels.ts";

const PAGE_BYTES = 65_536;
/** Default memory size: the column cache budget and kernel scratch space together. */
export const DEFAULT_MEMORY_BYTES = 2 * 1024 * 1024 * 1024;
/** wasm32 addresses at most 4 GiB; keep one page free so that `ptr + len` never wraps. */
export const MEMORY_BYTES_MAX = 4 * 1024 * 1024 * 1024 - PAGE_BYTES;
/** What a heap keeps beside its column cache for kernel scratch space. */
export const SCRATCH_RESERVE_BYTES = 512 * 1024 * 1024;

/**
 * The memory size for a column cache of `cacheBytes` and its scratch space: at least the
 * default, at most what wasm32 addresses (a larger budget is capped by the memory; more
 * data than one heap holds is what the worker heaps are for).
 */
export function memoryBytesForCache(cacheBytes: number): number {
  return Math.min(MEMORY_BYTES_MAX, Math.max(DEFAULT_MEMORY_BYTES, cacheBytes + SCRATCH_RESERVE_BYTES));
}
/** Low memory left to the kernels' static data (build.ts lays it out from 1 KiB; it must end below this). */
const RESERVED_LOW_BYTES = 1024 * 1024;

export class WasmMemory {
  readonly memory: WebAssembly.Memory;
  readonly heap: Heap;

  constructor(bytes: number, reservedLow: number) {
    const pages = Math.ceil(Math.min(bytes, MEMORY_BYTES_MAX) / PAGE_BYTES);
    this.memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    this.heap = new Heap(reservedLow, pages * PAGE_BYTES);
  }

  get buffer(): ArrayBuffer {
    return this.memory.buffer as ArrayBuffer;
  }

  /** A 16-byte aligned block of `bytes`, or -1 when the memory is full. */
  alloc(bytes: number): number {
    return this.heap.alloc(bytes);
  }

  free(ptr: number): void {
    this.heap.free(ptr);
  }

  u8(ptr: number, length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, ptr, length);
  }
  i8(ptr: number, length: number): Int8Array {
    return new Int8Array(this.memory.buffer, ptr, length);
  }
  i16(ptr: number, length: number): Int16Array {
    return new Int16Array(this.memory.buffer, ptr, length);
  }
  u16(ptr: number, length: number): Uint16Array {
    return new Uint16Array(this.memory.buffer, ptr, length);
  }
  i32(ptr: number, length: number): Int32Array {
    return new Int32Array(this.memory.buffer, ptr, length);
  }
  f32(ptr: number, length: number): Float32Array {
    return new Float32Array(this.memory.buffer, ptr, length);
  }
  f64(ptr: number, length: number): Float64Array {
    return new Float64Array(this.memory.buffer, ptr, length);
  }
  i64(ptr: number, length: number): BigInt64Array {
    return new BigInt64Array(this.memory.buffer, ptr, length);
  }
}

let shared: WasmMemory | undefined;

/**
 * The process-wide memory. The first call fixes its size (`bytes`, default
 * DEFAULT_MEMORY_BYTES); later calls return the same instance.
 */
export function wasmMemory(bytes = DEFAULT_MEMORY_BYTES): WasmMemory {
  shared ??= new WasmMemory(bytes, RESERVED_LOW_BYTES);
  return shared;
}

/**
 * Runs `fn` with a scratch block of `bytes` (16-byte aligned) from the shared heap and frees
 * it afterwards, for selection vectors and kernel outputs that live for one call. Longer
 * lived blocks use `wasmMemory().alloc` and `free` directly.
 * @throws RangeError when the heap has no block that large.
 */
export function withScratch<T>(bytes: number, fn: (ptr: number) => T): T {
  const memory = wasmMemory();
  const ptr = memory.alloc(bytes);
  if (ptr < 0) {
    throw new RangeError(`engine-wasm: out of WASM heap [bytes=${bytes}, free=${memory.heap.bytesFree}]`);
  }
  try {
    return fn(ptr);
  } finally {
    memory.free(ptr);
  }
}

// ---------------------------------------------------------------------------------------
// The module

const MODULE_URL = new URL("./build/kernels.wasm", import.meta.url);

type Export = (...args: (number | bigint)[]) => unknown;
type Exports = Record<string, Export>;

const OPS: readonly CompareOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "between"];
const NUMERIC_KINDS: readonly NumericKind[] = ["f64", "f32", "i64", "i32", "i16", "i8"];
const MEASURE_KINDS: readonly MeasureKind[] = ["f64", "f32", "i64", "i32"];
/** keyed_fold's column codes (assembly/keyed_fold.ts): the sum-only code; + 1 adds extremes. */
const FOLD_CODE: Readonly<Record<MeasureKind, number>> = { f64: 1, i64: 3, f32: 5, i32: 7 };
const ROW_WIDTHS = [1, 2, 4, 8, 16, 32] as const;

function loadModule(): WebAssembly.Module {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Deno.readFileSync(MODULE_URL);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error("engine-wasm: build/kernels.wasm is missing; run `deno task build`", { cause: e });
    }
    throw e;
  }
  // Synchronous compilation: the module is small (tens of KiB) and loaded once.
  return new WebAssembly.Module(bytes);
}

function isFloat(kind: NumericKind): kind is FloatKind {
  return kind === "f64" || kind === "f32";
}

/** The WebAssembly implementation of `Kernels`. */
class WasmKernels implements Kernels {
  readonly #x: Exports;
  readonly #check: Checker;
  /** The module's result block (assembly/common.ts): count, sum, min, max, 8 bytes each. */
  readonly #resultF: Float64Array;
  readonly #resultI: BigInt64Array;

  constructor(memory: WasmMemory) {
    const instance = new WebAssembly.Instance(loadModule(), { env: { memory: memory.memory } });
    this.#x = instance.exports as unknown as Exports;
    const staticEnd = this.#x.static_end() as number;
    if (staticEnd > RESERVED_LOW_BYTES || staticEnd > memory.heap.base) {
      throw new Error(`engine-wasm: kernel static data ends at ${staticEnd}, past the reserved low memory`);
    }
    const block = this.#x.result_block() as number;
    this.#resultF = new Float64Array(memory.buffer, block, 4);
    this.#resultI = new BigInt64Array(memory.buffer, block, 4);
    this.#check = new Checker(memory.heap.base, memory.heap.limit);
  }

  #fn(name: string): Export {
    const fn = this.#x[name];
    if (typeof fn !== "function") throw new Error(`engine-wasm: the module lacks export ${name}; rebuild it`);
    return fn;
  }

  filter(kind: "i64", args: FilterArgs<bigint | null>): number;
  filter(kind: "f64" | "f32" | "i32" | "i16" | "i8", args: FilterArgs<number | null>): number;
  filter(kind: NumericKind, args: FilterArgs<number | bigint | null>): number {
    const check = this.#check;
    check.oneOf(kind, NUMERIC_KINDS, "kind");
    check.oneOf(args.op, OPS, "op");
    const { visits, sel } = check.rows(args, KIND_BYTES[kind]);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    const range = rangeOf(kind, args);
    if (visits === 0 || range === null) return 0;
    return this.#scan(`${kind}`, args.data, sel, visits, range, out);
  }

  filterKey(args: KeyFilterArgs): number {
    const check = this.#check;
    check.oneOf(args.op, ["eq", "ne"], "op");
    check.key(args.key);
    const { visits, sel } = check.rows(args, 4);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    if (visits === 0) return 0;
    return this.#scan(
      "i32",
      args.data,
      sel,
      visits,
      { lo: args.key, hi: args.key, negate: args.op === "ne" },
      out,
    );
  }

  /** Runs filter_/count_[sel_]<suffix> with a range. */
  #scan(suffix: string, data: number, sel: number, visits: number, r: Range<number | bigint>, out: number) {
    const negate = r.negate ? 1 : 0;
    const name = `${out ? "filter" : "count"}_${sel ? "sel_" : ""}${suffix}`;
    const fn = this.#fn(name);
    const head = sel ? [data, sel, visits] : [data, visits];
    return (out ? fn(...head, r.lo, r.hi, negate, out) : fn(...head, r.lo, r.hi, negate)) as number;
  }

  filterKeySet(args: KeySetFilterArgs): number {
    const check = this.#check;
    const setSize = check.count(args.setSize, "setSize");
    check.region(args.set, setSize + 1, 1, "set");
    const { visits, sel } = check.rows(args, 4);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    if (visits === 0) return 0;
    const name = `${out ? "filter" : "count"}_${sel ? "sel_" : ""}in_set`;
    const head = sel ? [args.data, sel, visits] : [args.data, visits];
    return this.#fn(name)(...head, args.set, setSize, ...(out ? [out] : [])) as number;
  }

  stats(kind: FloatKind, args: ColumnArgs): FloatStats;
  stats(kind: IntKind, args: ColumnArgs): IntStats;
  stats(kind: NumericKind, args: ColumnArgs): FloatStats | IntStats {
    this.#check.oneOf(kind, NUMERIC_KINDS, "kind");
    const { visits, sel } = this.#check.rows(args, KIND_BYTES[kind]);
    if (sel) this.#fn(`stats_sel_${kind}`)(args.data, sel, visits);
    else this.#fn(`stats_${kind}`)(args.data, visits);
    const count = Number(this.#resultI[0]);
    if (isFloat(kind)) {
      const r = this.#resultF;
      return { count, sum: r[1], min: r[2], max: r[3] };
    }
    const r = this.#resultI;
    return { count, sum: r[1], min: r[2], max: r[3] };
  }

  /** Checks the key column, selection and key count of a keyed call. */
  #keyed(args: KeyedArgs): { visits: number; sel: number; slots: number } {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.keys, rowCount * 4, 4, "keys");
    const keyCount = check.count(args.keyCount, "keyCount");
    if (keyCount === 0x7fff_ffff) check.count(keyCount + 1, "keyCount");
    return { ...check.selection(args), slots: keyCount + 1 };
  }

  keyedCount(args: KeyedCountArgs): void {
    const { visits, sel, slots } = this.#keyed(args);
    this.#check.region(args.counts, slots * 8, 8, "counts");
    if (sel) this.#fn("keyed_count_sel")(args.keys, sel, visits, args.keyCount, args.counts);
    else this.#fn("keyed_count")(args.keys, visits, args.keyCount, args.counts);
  }

  keyedSum(kind: MeasureKind, args: KeyedSumArgs): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const { visits, sel, slots } = this.#keyed(args);
    check.region(args.data, args.rowCount * KIND_BYTES[kind], KIND_BYTES[kind], "data");
    check.region(args.counts, slots * 8, 8, "counts");
    check.region(args.sums, slots * 8, 8, "sums");
    const tail = [args.keyCount, args.counts, args.sums];
    if (sel) this.#fn(`keyed_sum_sel_${kind}`)(args.keys, args.data, sel, visits, ...tail);
    else this.#fn(`keyed_sum_${kind}`)(args.keys, args.data, visits, ...tail);
  }

  keyedStats(kind: MeasureKind, args: KeyedStatsArgs): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const width = KIND_BYTES[kind];
    const { visits, sel, slots } = this.#keyed(args);
    check.region(args.data, args.rowCount * width, width, "data");
    for (
      const [name, w] of [["rows", 8], ["counts", 8], ["sums", 8], ["mins", width], ["maxs", width]] as const
    ) {
      check.region(args[name], slots * w, w, name);
    }
    const tail = [args.keyCount, args.rows, args.counts, args.sums, args.mins, args.maxs];
    if (sel) this.#fn(`keyed_stats_sel_${kind}`)(args.keys, args.data, sel, visits, ...tail);
    else this.#fn(`keyed_stats_${kind}`)(args.keys, args.data, visits, ...tail);
  }

  groupIds(args: GroupIdsArgs): number {
    this.#check.groupIds(args);
    return this.#fn("group_ids")(
      args.keys,
      args.from,
      args.to,
      args.ends,
      args.segCount,
      args.idBase,
      args.keyCount,
      args.stamp,
      args.slotGroup,
      args.groups,
      args.gid,
      args.gSlot,
      args.gBucket,
      args.gRows,
      args.firstRow,
      args.lastRow,
    ) as number;
  }

  sum128(args: Sum128Args): void {
    const { visits, sel, slots } = this.#keyed(args);
    this.#check.region(args.data, args.rowCount * 8, 8, "data");
    this.#check.region(args.lo, slots * 8, 8, "lo");
    this.#check.region(args.hi, slots * 8, 8, "hi");
    const tail = [args.keyCount, args.lo, args.hi];
    if (sel) this.#fn("sum128_sel_i64")(args.keys, args.data, sel, visits, ...tail);
    else this.#fn("sum128_i64")(args.keys, args.data, visits, ...tail);
  }

  keyedFold(args: KeyedFoldArgs): void {
    const check = this.#check;
    const { visits, sel, slots } = this.#keyed(args);
    check.region(args.rows, slots * 8, 8, "rows");
    if (args.columns.length > KEYED_FOLD_COLUMNS) {
      throw new RangeError(`engine-wasm: too many columns [columns=${args.columns.length}]`);
    }
    const tail: number[] = [];
    for (const col of args.columns) {
      check.oneOf(col.kind, MEASURE_KINDS, "kind");
      const width = KIND_BYTES[col.kind];
      check.region(col.data, args.rowCount * width, width, "data");
      check.region(col.acc, slots * KEYED_FOLD_SLOT_BYTES, 8, "acc");
      tail.push(col.data, col.acc, FOLD_CODE[col.kind] + (col.extremes ? 1 : 0));
    }
    // Without value columns only the rows per slot: keyed_count. Up to four DOUBLE and LONG
    // columns: the export of those kinds (keyed_fold_<f|l per column>), extremes as flags.
    const n = args.columns.length;
    const letters = args.columns.map((c) => (c.kind === "f64" ? "f" : c.kind === "i64" ? "l" : "")).join("");
    let name = n === 0 ? "keyed_count" : `keyed_fold${n}`;
    if (n > 0 && n <= 4 && letters.length === n) {
      name = `keyed_fold_${letters}`;
      args.columns.forEach((c, i) => (tail[i * 3 + 2] = c.extremes ? 1 : 0));
    }
    if (sel) this.#fn(`${name}_sel`)(args.keys, sel, visits, args.keyCount, args.rows, ...tail);
    else this.#fn(name)(args.keys, visits, args.keyCount, args.rows, ...tail);
  }

  keyedMin(kind: MeasureKind, args: KeyedExtremeArgs): void {
    this.#extreme("min", kind, args);
  }

  keyedMax(kind: MeasureKind, args: KeyedExtremeArgs): void {
    this.#extreme("max", kind, args);
  }

  #extreme(which: "min" | "max", kind: MeasureKind, args: KeyedExtremeArgs): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const width = KIND_BYTES[kind];
    const { visits, sel, slots } = this.#keyed(args);
    check.region(args.data, args.rowCount * width, width, "data");
    check.region(args.out, slots * width, width, "out");
    if (sel) {
      this.#fn(`keyed_${which}_sel_${kind}`)(args.keys, args.data, sel, visits, args.keyCount, args.out);
    } else this.#fn(`keyed_${which}_${kind}`)(args.keys, args.data, visits, args.keyCount, args.out);
  }

  segments(kind: MeasureKind, args: SegmentArgs): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const width = KIND_BYTES[kind];
    const { visits, sel } = check.rows(args, width);
    const from = check.count(args.from, "from");
    if (from > visits) check.oneOf(from, [], "from");
    const segCount = check.count(args.segCount, "segCount");
    check.region(args.ends, segCount * 4, 4, "ends");
    const opt = (ptr: number | undefined, w: number, name: string) =>
      ptr === undefined ? 0 : check.region(ptr, segCount * w, w, name);
    const outs = [
      opt(args.counts, 8, "counts"),
      opt(args.sums, 8, "sums"),
      opt(args.mins, width, "mins"),
      opt(args.maxs, width, "maxs"),
      opt(args.firsts, width, "firsts"),
      opt(args.lasts, width, "lasts"),
    ];
    if (segCount === 0) return;
    this.#fn(`segments_${kind}`)(args.data, sel, visits, from, args.ends, segCount, ...outs);
  }

  /** Checks a search range; returns [from, to]. */
  #bounds(args: BoundArgs | BoundsArgs): [number, number] {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * 8, 8, "data");
    const from = check.count(args.from ?? 0, "from");
    const to = check.count(args.to ?? rowCount, "to");
    if (from > to || to > rowCount) check.oneOf(`[${from}, ${to})`, [], "range");
    return [from, to];
  }

  lowerBound(args: BoundArgs): number {
    const [from, to] = this.#bounds(args);
    return this.#fn("lower_bound_i64")(args.data, from, to, bigintArg(args.value, "value")) as number;
  }

  upperBound(args: BoundArgs): number {
    const [from, to] = this.#bounds(args);
    return this.#fn("upper_bound_i64")(args.data, from, to, bigintArg(args.value, "value")) as number;
  }

  lowerBounds(args: BoundsArgs): void {
    const [from, to] = this.#bounds(args);
    const count = this.#check.count(args.count, "count");
    this.#check.region(args.values, count * 8, 8, "values");
    this.#check.region(args.out, count * 4, 4, "out");
    this.#fn("lower_bounds_i64")(args.data, from, to, args.values, count, args.out);
  }

  gather(args: GatherArgs): void {
    const check = this.#check;
    const width = check.oneOf(args.width, ROW_WIDTHS, "width");
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * width, Math.min(width, 8), "data");
    const { visits } = check.selection(args);
    check.region(args.out, visits * width, Math.min(width, 8), "out");
    check.disjoint(args.data, rowCount * width, args.out, visits * width);
    this.#fn("gather")(width, args.data, args.sel, visits, args.out);
  }

  gatherOrNull(a: GatherOrNullArgs): void {
    this.#check.gatherOrNull(a);
    this.#fn("gather_or_null")(a.width, a.data, a.rowCount, a.match, a.count, a.out, a.nul);
  }

  reverse(args: ReverseArgs): void {
    const check = this.#check;
    const width = check.oneOf(args.width, ROW_WIDTHS, "width");
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * width, Math.min(width, 8), "data");
    check.region(args.out, rowCount * width, Math.min(width, 8), "out");
    check.disjoint(args.data, rowCount * width, args.out, rowCount * width);
    this.#fn("reverse")(width, args.data, rowCount, args.out);
  }

  sequence(args: SequenceArgs): void {
    const count = this.#check.count(args.count, "count");
    this.#check.region(args.out, count * 4, 4, "out");
    this.#check.sequence(args.first, args.step, count);
    this.#fn("sequence")(args.out, args.first, count, args.step);
  }

  selUnion(args: SelUnionArgs): number {
    const { na, nb } = this.#check.selUnion(args);
    return this.#fn("sel_union")(args.a, na, args.b, nb, args.out) as number;
  }

  asofMerge(a: AsofMergeArgs): AsofMergeStop {
    this.#check.asofMerge(a);
    const left = this.#fn("asof_merge")(
      a.leftTs,
      a.leftKeys,
      a.leftTable ?? 0,
      a.leftTableLength ?? 0,
      a.from,
      a.to,
      a.rightTs,
      a.rightKeys,
      a.rightTable ?? 0,
      a.rightTableLength ?? 0,
      a.rightFrom,
      a.rightCount,
      a.rightBase,
      a.lastRow,
      a.slotCount,
      a.match,
      a.strict ? 1 : 0,
      a.more ? 1 : 0,
    ) as number;
    return { left, right: Number(this.#resultI[0]) };
  }

  binop(args: BinopArgs): void {
    const check = this.#check;
    check.oneOf(args.op, BINOPS, "op");
    const { visits, sel } = check.selection(args);
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.out, visits * 8, 8, "out");
    const long = args.kind === "i64";
    if (args.kind !== undefined) check.oneOf(args.kind, ["f64", "i64"], "kind");
    const operand = (o: BinopArgs["a"], name: string): [number, number | bigint] => {
      if ("data" in o) {
        check.region(o.data, rowCount * 8, 8, name);
        check.disjoint(o.data, rowCount * 8, args.out, visits * 8);
        return [o.data, long ? 0n : 0];
      }
      if (long) return [0, bigintArg(o.value, name)];
      if (typeof o.value !== "number") check.oneOf(String(o.value), [], name);
      return [0, Number.isFinite(o.value) ? o.value : NaN];
    };
    const [a, av] = operand(args.a, "a");
    const [b, bv] = operand(args.b, "b");
    const consts = ("value" in args.a ? 1 : 0) | ("value" in args.b ? 2 : 0);
    if (visits === 0) return;
    const name = long ? "binop_i64" : "binop_f64";
    this.#fn(name)(BINOPS.indexOf(args.op), a, av, b, bv, consts, sel, visits, args.out);
  }

  topNCandidates(args: TopNArgs): number {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * 8, 8, "data");
    check.region(args.out, rowCount * 4, 4, "out");
    if (typeof args.threshold !== "number") check.oneOf(String(args.threshold), [], "threshold");
    if (rowCount === 0) return 0;
    return this.#fn("topn_f64")(args.data, rowCount, args.threshold, args.desc ? 1 : 0, args.out) as number;
  }

  formatF64(args: FormatF64Args): number {
    const check = this.#check;
    const count = check.count(args.count, "count");
    const from = check.count(args.from, "from");
    const pos = check.count(args.pos, "pos");
    check.region(args.data, count * 8, 8, "data");
    check.region(args.ends, count * 4, 4, "ends");
    check.region(args.out, pos + Math.max(0, count - from) * FORMAT_F64_BYTES, 1, "out");
    if (from >= count) return count;
    return this.#fn("format_f64")(args.data, count, from, pos, args.out, args.ends) as number;
  }

  formatI64(args: FormatI64Args): void {
    const check = this.#check;
    const count = check.count(args.count, "count");
    check.region(args.data, count * 8, 8, "data");
    check.region(args.ends, count * 4, 4, "ends");
    check.region(args.out, count * FORMAT_I64_BYTES, 1, "out");
    if (count === 0) return;
    this.#fn("format_i64")(args.data, count, args.quote ? 1 : 0, args.out, args.ends);
  }

  jsonRows(args: JsonRowsArgs): number {
    const check = this.#check;
    const colCount = check.count(args.colCount, "colCount");
    const rows = check.count(args.rows, "rows");
    check.region(args.cols, colCount * JSON_COLUMN_WORDS * 4, 4, "cols");
    if (rows === 0) return 0;
    // Every column's cells and ends (or values) must lie in the heap, and `out` must hold them all.
    const i32 = new Int32Array(wasmMemory().buffer);
    let bytes = rows * (colCount + 2);
    for (let k = 0; k < colCount; k++) {
      const w = args.cols / 4 + JSON_COLUMN_WORDS * k;
      const kind = i32[w], a = i32[w + 1], b = i32[w + 2];
      if (kind !== JSON_CELLS.text) {
        check.oneOf(String(kind), Object.values(JSON_CELLS).map(String), "cols.kind");
        check.region(a, rows * 8, 8, "cols.data");
        bytes += rows * (kind === JSON_CELLS.f64 ? FORMAT_F64_BYTES : FORMAT_I64_BYTES);
        continue;
      }
      check.region(b, rows * 4, 4, "cols.ends");
      const bad = firstDescending(i32, b / 4, rows);
      if (bad >= 0) check.oneOf(String(i32[b / 4 + bad]), [], "cols.ends (descending)");
      const size = i32[b / 4 + rows - 1];
      check.region(a, size, 1, "cols.base");
      bytes += size;
    }
    check.region(args.out, bytes, 1, "out");
    return this.#fn("json_rows")(args.cols, colCount, rows, args.first ? 1 : 0, args.out) as number;
  }
}

/** `binop` operators in the module's numbering (assembly/expr.ts). */
const BINOPS: readonly BinopArgs["op"][] = ["+", "-", "*"];

/** The kernel range of a filter, or null when no row can match. */
function rangeOf(kind: NumericKind, args: FilterArgs<number | bigint | null>): Range<number | bigint> | null {
  const { op, value, value2 } = args;
  if (kind === "i64") {
    return longRange(
      op,
      bigintOrNull(value, "value"),
      value2 === undefined ? undefined : bigintOrNull(value2, "value2"),
    );
  }
  const a = numberOrNull(value, "value");
  const b = value2 === undefined ? undefined : numberOrNull(value2, "value2");
  if (isFloat(kind)) return floatRange(op, a, b, kind === "f32");
  return intRange(kind, op, a, b);
}

function bigintOrNull(v: unknown, name: string): bigint | null {
  if (v === null) return null;
  return bigintArg(v, name);
}

function bigintArg(v: unknown, name: string): bigint {
  if (typeof v !== "bigint" || BigInt.asIntN(64, v) !== v) {
    throw new RangeError(`engine-wasm: expected a 64-bit bigint [${name}=${String(v)}]`);
  }
  return v;
}

function numberOrNull(v: unknown, name: string): number | null {
  if (v === null) return null;
  if (typeof v !== "number") throw new RangeError(`engine-wasm: expected a number [${name}=${String(v)}]`);
  return v;
}

let instance: WasmKernels | undefined;

/**
 * The WebAssembly kernels over `wasmMemory()`, instantiated on first use (synchronously).
 * Throws when `build/kernels.wasm` is missing or does not fit the memory layout.
 */
/**
 * The first of `n` Int32 cell ends from index `at` below its predecessor (the first below 0),
 * or -1. A function of its own, so that V8 optimizes this loop alone instead of replacing
 * jsonRows on the stack (it deoptimized there on the first runs of new result shapes).
 */
function firstDescending(i32: Int32Array, at: number, n: number): number {
  for (let j = 0, prev = 0; j < n; prev = i32[at + j++]) if (i32[at + j] < prev) return j;
  return -1;
}

export function kernels(): Kernels {
  instance ??= new WasmKernels(wasmMemory());
  return instance;
}
