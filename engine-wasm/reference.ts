/**
 * The plain TypeScript twin of every kernel (STYLE.md §5 "One suite per interface"): the
 * same `Kernels` interface over the same memory, written for obviousness, not speed. Tests
 * run the shared suite against both and compare them on random data; it also documents what
 * the SIMD code is meant to do, comparison by comparison.
 *
 * It applies spec/sql.md §4 directly (no ranges, no sentinel tricks), so a mistake in the
 * range mapping of `_ranges.ts` or in a kernel shows up as a difference.
 */
import { wasmMemory } from "./mod.ts";
import { Checker } from "./_check.ts";
import { formatDouble } from "../engine/functions/double_format.ts";
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

const LONG_NULL = -(2n ** 63n);
const INT_NULL = -2147483648;
const OPS: readonly CompareOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "between"];
const NUMERIC_KINDS: readonly NumericKind[] = ["f64", "f32", "i64", "i32", "i16", "i8"];
const MEASURE_KINDS: readonly MeasureKind[] = ["f64", "f32", "i64", "i32"];
const ROW_WIDTHS = [1, 2, 4, 8, 16, 32] as const;

type Scalar = number | bigint;
type View = { [i: number]: Scalar };

/** Whether a stored value is its type's NULL (§2.1). */
function isNullValue(kind: NumericKind, x: Scalar): boolean {
  switch (kind) {
    case "f64":
    case "f32":
      return !Number.isFinite(x as number);
    case "i64":
      return x === LONG_NULL;
    case "i32":
      return x === INT_NULL;
    default:
      return false; // SHORT and BYTE have no NULL
  }
}

/** Whether a constant is NULL when compared with a column of `kind`. */
function isNullConstant(kind: NumericKind, c: Scalar | null | undefined): boolean {
  if (c === null || c === undefined) return true;
  if (typeof c === "bigint") return c === LONG_NULL;
  return !Number.isFinite(c) || (kind === "i32" && c === INT_NULL);
}

/** `x op a [and b]` under QuestDB's NULL rules (§4.1, §4.2). */
function compare(
  op: CompareOp,
  x: Scalar,
  xNull: boolean,
  a: Scalar,
  aNull: boolean,
  b: Scalar,
  bNull: boolean,
) {
  switch (op) {
    case "eq":
      return aNull ? xNull : !xNull && x == a;
    case "ne":
      return !(aNull ? xNull : !xNull && x == a);
    case "lt":
      return !aNull && !xNull && x < a;
    case "le":
      return aNull ? xNull : !xNull && x <= a;
    case "gt":
      return !aNull && !xNull && x > a;
    case "ge":
      return aNull ? xNull : !xNull && x >= a;
    case "between":
      return !aNull && !bNull && !xNull && a <= x && x <= b;
  }
}

class ReferenceKernels implements Kernels {
  readonly #check: Checker;
  readonly #views: Record<NumericKind, View>;
  readonly #u8: Uint8Array;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #i64: BigInt64Array;

  constructor() {
    const memory = wasmMemory();
    const buffer = memory.buffer;
    this.#check = new Checker(memory.heap.base, memory.heap.limit);
    this.#u8 = new Uint8Array(buffer);
    this.#i32 = new Int32Array(buffer);
    this.#f64 = new Float64Array(buffer);
    this.#i64 = new BigInt64Array(buffer);
    this.#views = {
      f64: this.#f64,
      f32: new Float32Array(buffer),
      i64: this.#i64,
      i32: this.#i32,
      i16: new Int16Array(buffer),
      i8: new Int8Array(buffer),
    };
  }

  /** Element `index` of the array of `kind` at byte offset `ptr`. */
  #get(kind: NumericKind, ptr: number, index: number): Scalar {
    return this.#views[kind][ptr / KIND_BYTES[kind] + index];
  }

  #set(kind: NumericKind, ptr: number, index: number, value: Scalar): void {
    this.#views[kind][ptr / KIND_BYTES[kind] + index] = value;
  }

  /** The visited rows: 0..visits-1, or the selection's entries. */
  #rowsOf(visits: number, sel: number): number[] {
    const rows: number[] = [];
    for (let j = 0; j < visits; j++) rows.push(sel ? this.#i32[sel / 4 + j] : j);
    return rows;
  }

  /** Writes the matching rows to `out` (if any) and returns how many matched. */
  #select(rows: number[], out: number, test: (row: number) => boolean): number {
    let n = 0;
    for (const row of rows) {
      if (!test(row)) continue;
      if (out) this.#i32[out / 4 + n] = row;
      n++;
    }
    return n;
  }

  filter(kind: "i64", args: FilterArgs<bigint | null>): number;
  filter(kind: "f64" | "f32" | "i32" | "i16" | "i8", args: FilterArgs<number | null>): number;
  filter(kind: NumericKind, args: FilterArgs<number | bigint | null>): number {
    const check = this.#check;
    check.oneOf(kind, NUMERIC_KINDS, "kind");
    check.oneOf(args.op, OPS, "op");
    const { visits, sel } = check.rows(args, KIND_BYTES[kind]);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    checkConstant(kind, args.value, "value");
    if (args.value2 !== undefined) checkConstant(kind, args.value2, "value2");
    const a = args.value ?? 0, b = args.value2 ?? 0;
    const aNull = isNullConstant(kind, args.value), bNull = isNullConstant(kind, args.value2);
    return this.#select(this.#rowsOf(visits, sel), out, (row) => {
      const x = this.#get(kind, args.data, row);
      return compare(args.op, x, isNullValue(kind, x), a, aNull, b, bNull);
    });
  }

  filterKey(args: KeyFilterArgs): number {
    const check = this.#check;
    check.oneOf(args.op, ["eq", "ne"], "op");
    check.key(args.key);
    const { visits, sel } = check.rows(args, 4);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    const want = args.op === "eq";
    return this.#select(
      this.#rowsOf(visits, sel),
      out,
      (row) => (this.#i32[args.data / 4 + row] === args.key) === want,
    );
  }

  filterKeySet(args: KeySetFilterArgs): number {
    const check = this.#check;
    const setSize = check.count(args.setSize, "setSize");
    check.region(args.set, setSize + 1, 1, "set");
    const { visits, sel } = check.rows(args, 4);
    const out = args.out === undefined ? 0 : check.region(args.out, visits * 4, 4, "out");
    return this.#select(this.#rowsOf(visits, sel), out, (row) => {
      const key = this.#i32[args.data / 4 + row];
      if (key >= 0 && key < setSize) return this.#u8[args.set + key] !== 0;
      return key === -1 && this.#u8[args.set + setSize] !== 0;
    });
  }

  stats(kind: FloatKind, args: ColumnArgs): FloatStats;
  stats(kind: IntKind, args: ColumnArgs): IntStats;
  stats(kind: NumericKind, args: ColumnArgs): FloatStats | IntStats {
    this.#check.oneOf(kind, NUMERIC_KINDS, "kind");
    const { visits, sel } = this.#check.rows(args, KIND_BYTES[kind]);
    return this.#fold(kind, args.data, this.#rowsOf(visits, sel));
  }

  /** count/sum/min/max of the given rows, NULLs skipped. */
  #fold(kind: NumericKind, data: number, rows: number[]): FloatStats | IntStats {
    if (kind === "f64" || kind === "f32") {
      let count = 0, sum = 0, min = Infinity, max = -Infinity;
      for (const row of rows) {
        const x = this.#get(kind, data, row) as number;
        if (isNullValue(kind, x)) continue;
        count++;
        sum += x;
        if (x < min) min = x;
        if (x > max) max = x;
      }
      return count ? { count, sum, min, max } : { count, sum: 0, min: NaN, max: NaN };
    }
    let count = 0, sum = 0n, min = 0n, max = 0n;
    for (const row of rows) {
      const x = this.#get(kind, data, row);
      if (isNullValue(kind, x)) continue;
      const v = BigInt(x);
      if (count === 0 || v < min) min = v;
      if (count === 0 || v > max) max = v;
      sum = BigInt.asIntN(64, sum + v);
      count++;
    }
    return count ? { count, sum, min, max } : { count, sum: 0n, min: LONG_NULL, max: LONG_NULL };
  }

  /** Checks a keyed call; returns the visited rows and a key → slot function. */
  #keyed(args: KeyedArgs): { rows: number[]; slots: number; slotOf: (row: number) => number } {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.keys, rowCount * 4, 4, "keys");
    const keyCount = check.count(args.keyCount, "keyCount");
    if (keyCount === 0x7fff_ffff) check.count(keyCount + 1, "keyCount");
    const { visits, sel } = check.selection(args);
    const slotOf = (row: number) => {
      const key = this.#i32[args.keys / 4 + row];
      return key >= 0 && key < keyCount ? key : keyCount; // NULL key and strays share the last slot
    };
    return { rows: this.#rowsOf(visits, sel), slots: keyCount + 1, slotOf };
  }

  keyedCount(args: KeyedCountArgs): void {
    const { rows, slots, slotOf } = this.#keyed(args);
    this.#check.region(args.counts, slots * 8, 8, "counts");
    for (const row of rows) this.#i64[args.counts / 8 + slotOf(row)] += 1n;
  }

  keyedSum(kind: MeasureKind, args: KeyedSumArgs): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const { rows, slots, slotOf } = this.#keyed(args);
    check.region(args.data, args.rowCount * KIND_BYTES[kind], KIND_BYTES[kind], "data");
    check.region(args.counts, slots * 8, 8, "counts");
    check.region(args.sums, slots * 8, 8, "sums");
    for (const row of rows) {
      const x = this.#get(kind, args.data, row);
      if (isNullValue(kind, x)) continue;
      const s = slotOf(row);
      this.#i64[args.counts / 8 + s] += 1n;
      if (kind === "f64" || kind === "f32") this.#f64[args.sums / 8 + s] += x as number;
      else this.#i64[args.sums / 8 + s] = BigInt.asIntN(64, this.#i64[args.sums / 8 + s] + BigInt(x));
    }
  }

  groupIds(args: GroupIdsArgs): number {
    this.#check.groupIds(args);
    const m = wasmMemory();
    const i32 = (p: number, n: number) => m.i32(p, n);
    const K = args.keyCount, n = args.to - args.from;
    const keys = i32(args.keys, args.rowCount), ends = i32(args.ends, args.segCount);
    const stamp = i32(args.stamp, K + 1), slotGroup = i32(args.slotGroup, K + 1);
    const gid = i32(args.gid, n), cap = args.capacity;
    const gSlot = i32(args.gSlot, cap), gBucket = i32(args.gBucket, cap);
    const firstRow = i32(args.firstRow, cap), lastRow = i32(args.lastRow, cap);
    const gRows = m.f64(args.gRows, cap);
    let groups = args.groups, row = args.from;
    for (let s = 0; s < args.segCount; s++) {
      const id = args.idBase + s;
      for (const end = Math.min(ends[s], args.to); row < end; row++) {
        const key = keys[row];
        if (key !== -1 && (key < 0 || key >= K)) return -1 - row;
        const sl = key === -1 ? K : key;
        if (stamp[sl] !== id) {
          stamp[sl] = id;
          slotGroup[sl] = groups;
          gSlot[groups] = sl;
          gBucket[groups] = id;
          firstRow[groups] = row;
          gRows[groups] = 0;
          groups++;
        }
        const g = slotGroup[sl];
        gRows[g]++;
        gid[row - args.from] = g;
        lastRow[g] = row;
      }
    }
    return groups;
  }

  sum128(args: Sum128Args): void {
    const { rows, slots, slotOf } = this.#keyed(args);
    this.#check.region(args.data, args.rowCount * 8, 8, "data");
    this.#check.region(args.lo, slots * 8, 8, "lo");
    this.#check.region(args.hi, slots * 8, 8, "hi");
    const lo = wasmMemory().i64(args.lo, slots), hi = wasmMemory().i64(args.hi, slots);
    for (const row of rows) {
      const x = this.#i64[args.data / 8 + row];
      if (x === LONG_NULL) continue;
      const s = slotOf(row);
      const sum = (hi[s] << 64n) + BigInt.asUintN(64, lo[s]) + x;
      lo[s] = BigInt.asIntN(64, sum);
      hi[s] = BigInt.asIntN(64, sum >> 64n);
    }
  }

  keyedStats(kind: MeasureKind, args: KeyedStatsArgs): void {
    this.keyedCount({ ...args, counts: args.rows });
    this.keyedSum(kind, { ...args, counts: args.counts, sums: args.sums });
    this.keyedMin(kind, { ...args, out: args.mins });
    this.keyedMax(kind, { ...args, out: args.maxs });
  }

  keyedFold(args: KeyedFoldArgs): void {
    const check = this.#check;
    const { rows, slots, slotOf } = this.#keyed(args);
    check.region(args.rows, slots * 8, 8, "rows");
    if (args.columns.length > KEYED_FOLD_COLUMNS) {
      throw new RangeError(`engine-wasm: too many columns [columns=${args.columns.length}]`);
    }
    for (const col of args.columns) {
      check.oneOf(col.kind, MEASURE_KINDS, "kind");
      const width = KIND_BYTES[col.kind];
      check.region(col.data, args.rowCount * width, width, "data");
      check.region(col.acc, slots * KEYED_FOLD_SLOT_BYTES, 8, "acc");
    }
    for (const row of rows) {
      const s = slotOf(row);
      this.#i64[args.rows / 8 + s] += 1n;
      for (const col of args.columns) {
        const at = (col.acc + s * KEYED_FOLD_SLOT_BYTES) / 8;
        const x = this.#get(col.kind, col.data, row);
        if (isNullValue(col.kind, x)) {
          this.#i64[at] += 1n;
        } else if (col.kind === "f64" || col.kind === "f32") {
          const v = x as number;
          this.#f64[at + 1] += v;
          if (col.extremes && v < this.#f64[at + 2]) this.#f64[at + 2] = v;
          if (col.extremes && v > this.#f64[at + 3]) this.#f64[at + 3] = v;
        } else {
          const v = BigInt(x);
          this.#i64[at + 1] = BigInt.asIntN(64, this.#i64[at + 1] + v);
          if (col.extremes && v < this.#i64[at + 2]) this.#i64[at + 2] = v;
          if (col.extremes && v > this.#i64[at + 3]) this.#i64[at + 3] = v;
        }
      }
    }
  }

  keyedMin(kind: MeasureKind, args: KeyedExtremeArgs): void {
    this.#extreme(kind, args, (x, cur) => x < cur);
  }

  keyedMax(kind: MeasureKind, args: KeyedExtremeArgs): void {
    this.#extreme(kind, args, (x, cur) => x > cur);
  }

  #extreme(kind: MeasureKind, args: KeyedExtremeArgs, better: (x: Scalar, cur: Scalar) => boolean): void {
    const check = this.#check;
    check.oneOf(kind, MEASURE_KINDS, "kind");
    const width = KIND_BYTES[kind];
    const { rows, slots, slotOf } = this.#keyed(args);
    check.region(args.data, args.rowCount * width, width, "data");
    check.region(args.out, slots * width, width, "out");
    for (const row of rows) {
      const x = this.#get(kind, args.data, row);
      if (isNullValue(kind, x)) continue;
      const s = slotOf(row);
      const cur = this.#get(kind, args.out, s);
      if (isNullValue(kind, cur) || better(x, cur)) this.#set(kind, args.out, s, x);
    }
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
    const [counts, sums, mins, maxs, firsts, lasts] = [
      opt(args.counts, 8, "counts"),
      opt(args.sums, 8, "sums"),
      opt(args.mins, width, "mins"),
      opt(args.maxs, width, "maxs"),
      opt(args.firsts, width, "firsts"),
      opt(args.lasts, width, "lasts"),
    ];
    const all = this.#rowsOf(visits, sel);
    const nul: Scalar = kind === "i64" ? LONG_NULL : kind === "i32" ? INT_NULL : NaN;
    let start = from;
    for (let s = 0; s < segCount; s++) {
      const end = Math.min(Math.max(this.#i32[args.ends / 4 + s], start), visits);
      const rows = all.slice(start, end);
      const r = this.#fold(kind, args.data, rows);
      if (counts) this.#i64[counts / 8 + s] = BigInt(r.count);
      if (sums) {
        if (typeof r.sum === "number") this.#f64[sums / 8 + s] = r.sum;
        else this.#i64[sums / 8 + s] = r.sum;
      }
      const narrow = (v: Scalar) => (r.count === 0 ? nul : kind === "i32" ? Number(v) : v);
      if (mins) this.#set(kind, mins, s, narrow(r.min));
      if (maxs) this.#set(kind, maxs, s, narrow(r.max));
      if (firsts) this.#set(kind, firsts, s, rows.length ? this.#get(kind, args.data, rows[0]) : nul);
      if (lasts) {
        this.#set(kind, lasts, s, rows.length ? this.#get(kind, args.data, rows[rows.length - 1]) : nul);
      }
      start = end;
    }
  }

  #range(args: BoundArgs | BoundsArgs): [number, number] {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * 8, 8, "data");
    const from = check.count(args.from ?? 0, "from");
    const to = check.count(args.to ?? rowCount, "to");
    if (from > to || to > rowCount) check.oneOf(`[${from}, ${to})`, [], "range");
    return [from, to];
  }

  /** The first row in [from, to) whose value passes `beyond`, scanning linearly. */
  #firstRow(data: number, from: number, to: number, beyond: (x: bigint) => boolean): number {
    for (let row = from; row < to; row++) if (beyond(this.#i64[data / 8 + row])) return row;
    return to;
  }

  lowerBound(args: BoundArgs): number {
    const [from, to] = this.#range(args);
    const value = checkBigint(args.value);
    return this.#firstRow(args.data, from, to, (x) => x >= value);
  }

  upperBound(args: BoundArgs): number {
    const [from, to] = this.#range(args);
    const value = checkBigint(args.value);
    return this.#firstRow(args.data, from, to, (x) => x > value);
  }

  lowerBounds(args: BoundsArgs): void {
    const [from, to] = this.#range(args);
    const count = this.#check.count(args.count, "count");
    this.#check.region(args.values, count * 8, 8, "values");
    this.#check.region(args.out, count * 4, 4, "out");
    for (let i = 0; i < count; i++) {
      const value = this.#i64[args.values / 8 + i];
      this.#i32[args.out / 4 + i] = this.#firstRow(args.data, from, to, (x) => x >= value);
    }
  }

  gatherOrNull(a: GatherOrNullArgs): void {
    this.#check.gatherOrNull(a);
    const bytes = this.#u8;
    const nul = new Uint8Array(new BigInt64Array([a.nul]).buffer, 0, a.width);
    for (let j = 0; j < a.count; j++) {
      const m = this.#i32[a.match / 4 + j];
      if (m >= a.rowCount) throw new RangeError(`engine-wasm: match out of range [match=${m}]`);
      const to = a.out + j * a.width;
      if (m < 0) bytes.set(nul, to);
      else bytes.copyWithin(to, a.data + m * a.width, a.data + (m + 1) * a.width);
    }
  }

  gather(args: GatherArgs): void {
    const check = this.#check;
    const width = check.oneOf(args.width, ROW_WIDTHS, "width");
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * width, Math.min(width, 8), "data");
    const { visits } = check.selection(args);
    check.region(args.out, visits * width, Math.min(width, 8), "out");
    check.disjoint(args.data, rowCount * width, args.out, visits * width);
    for (let j = 0; j < visits; j++) {
      const row = this.#i32[args.sel / 4 + j];
      this.#u8.copyWithin(args.out + j * width, args.data + row * width, args.data + (row + 1) * width);
    }
  }

  reverse(args: ReverseArgs): void {
    const check = this.#check;
    const width = check.oneOf(args.width, ROW_WIDTHS, "width");
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * width, Math.min(width, 8), "data");
    check.region(args.out, rowCount * width, Math.min(width, 8), "out");
    check.disjoint(args.data, rowCount * width, args.out, rowCount * width);
    for (let j = 0; j < rowCount; j++) {
      const row = rowCount - 1 - j;
      this.#u8.copyWithin(args.out + j * width, args.data + row * width, args.data + (row + 1) * width);
    }
  }

  sequence(args: SequenceArgs): void {
    const count = this.#check.count(args.count, "count");
    this.#check.region(args.out, count * 4, 4, "out");
    this.#check.sequence(args.first, args.step, count);
    for (let j = 0; j < count; j++) this.#i32[args.out / 4 + j] = args.first + j * args.step;
  }

  selUnion(args: SelUnionArgs): number {
    const { na, nb } = this.#check.selUnion(args);
    const i32 = this.#i32;
    const rows = new Set<number>();
    for (let i = 0; i < na; i++) rows.add(i32[args.a / 4 + i]);
    for (let j = 0; j < nb; j++) rows.add(i32[args.b / 4 + j]);
    const sorted = [...rows].sort((x, y) => x - y);
    sorted.forEach((row, k) => (i32[args.out / 4 + k] = row));
    return sorted.length;
  }

  asofMerge(a: AsofMergeArgs): AsofMergeStop {
    this.#check.asofMerge(a);
    const i64 = this.#i64, i32 = this.#i32;
    const slotAt = (
      keys: number,
      table: number | undefined,
      tableLength: number | undefined,
      row: number,
    ) => {
      let slot = i32[keys / 4 + row];
      if (table) {
        const entry = slot + 1;
        slot = i32[table / 4 + (entry >= 0 && entry < tableLength! ? entry : 0)];
      }
      if (slot < 0 || slot >= a.slotCount) {
        throw new RangeError(`engine-wasm: slot out of range [slot=${slot}]`);
      }
      return slot;
    };
    let r = a.rightFrom, i = a.from;
    for (; i < a.to; i++) {
      const t = i64[a.leftTs / 8 + i];
      while (r < a.rightCount) {
        const rt = i64[a.rightTs / 8 + r];
        if (a.strict ? rt >= t : rt > t) break;
        i32[a.lastRow / 4 + slotAt(a.rightKeys, a.rightTable, a.rightTableLength, r)] = a.rightBase + r;
        r++;
      }
      if (r >= a.rightCount && a.more) break;
      i32[a.match / 4 + i] = i32[a.lastRow / 4 + slotAt(a.leftKeys, a.leftTable, a.leftTableLength, i)];
    }
    return { left: i, right: r };
  }

  binop(args: BinopArgs): void {
    const check = this.#check;
    check.oneOf(args.op, ["+", "-", "*"], "op");
    const long = args.kind === "i64";
    if (args.kind !== undefined) check.oneOf(args.kind, ["f64", "i64"], "kind");
    const { visits, sel } = check.selection(args);
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.out, visits * 8, 8, "out");
    const f64 = this.#f64, i64 = this.#i64;
    const operand = (o: BinopArgs["a"], name: string): (row: number) => number | bigint => {
      if ("data" in o) {
        check.region(o.data, rowCount * 8, 8, name);
        check.disjoint(o.data, rowCount * 8, args.out, visits * 8);
        return long ? (row) => i64[o.data / 8 + row] : (row) => f64[o.data / 8 + row];
      }
      if (long) {
        if (typeof o.value !== "bigint" || BigInt.asIntN(64, o.value) !== o.value) {
          check.oneOf(String(o.value), [], name);
        }
        return () => o.value;
      }
      if (typeof o.value !== "number") check.oneOf(String(o.value), [], name);
      const v = Number.isFinite(o.value) ? o.value : NaN;
      return () => v;
    };
    const a = operand(args.a, "a"), b = operand(args.b, "b");
    const rows = this.#rowsOf(visits, sel);
    rows.forEach((row, j) => {
      if (long) {
        const x = a(row) as bigint, y = b(row) as bigint;
        const nul = -(2n ** 63n);
        i64[args.out / 8 + j] = x === nul || y === nul
          ? nul
          : BigInt.asIntN(64, args.op === "+" ? x + y : args.op === "-" ? x - y : x * y);
      } else {
        const x = a(row) as number, y = b(row) as number;
        f64[args.out / 8 + j] = args.op === "+" ? x + y : args.op === "-" ? x - y : x * y;
      }
    });
  }

  topNCandidates(args: TopNArgs): number {
    const check = this.#check;
    const rowCount = check.count(args.rowCount, "rowCount");
    check.region(args.data, rowCount * 8, 8, "data");
    check.region(args.out, rowCount * 4, 4, "out");
    if (typeof args.threshold !== "number") check.oneOf(String(args.threshold), [], "threshold");
    let c = 0;
    for (let i = 0; i < rowCount; i++) {
      const x = this.#f64[args.data / 8 + i];
      const r = Number.isFinite(x) ? x : Infinity;
      if (args.desc ? r >= args.threshold : r <= args.threshold) this.#i32[args.out / 4 + c++] = i;
    }
    return c;
  }

  formatF64(args: FormatF64Args): number {
    const check = this.#check;
    const count = check.count(args.count, "count");
    const from = check.count(args.from, "from");
    let pos = check.count(args.pos, "pos");
    check.region(args.data, count * 8, 8, "data");
    check.region(args.ends, count * 4, 4, "ends");
    check.region(args.out, pos + Math.max(0, count - from) * FORMAT_F64_BYTES, 1, "out");
    for (let i = from; i < count; i++) {
      const x = this.#f64[args.data / 8 + i];
      if (x !== 0 && Math.abs(x) < 2.2250738585072014e-308) return i;
      const text = Number.isFinite(x) ? formatDouble(x) : "null";
      for (let k = 0; k < text.length; k++) this.#u8[args.out + pos++] = text.charCodeAt(k);
      this.#i32[args.ends / 4 + i] = pos;
    }
    return count;
  }

  formatI64(args: FormatI64Args): void {
    const check = this.#check;
    const count = check.count(args.count, "count");
    check.region(args.data, count * 8, 8, "data");
    check.region(args.ends, count * 4, 4, "ends");
    check.region(args.out, count * FORMAT_I64_BYTES, 1, "out");
    let pos = args.out;
    for (let i = 0; i < count; i++) {
      const x = this.#i64[args.data / 8 + i];
      const text = x === LONG_NULL ? "null" : args.quote ? `"${x}"` : String(x);
      for (let k = 0; k < text.length; k++) this.#u8[pos++] = text.charCodeAt(k);
      this.#i32[args.ends / 4 + i] = pos - args.out;
    }
  }

  jsonRows(args: JsonRowsArgs): number {
    const check = this.#check;
    const colCount = check.count(args.colCount, "colCount");
    const rows = check.count(args.rows, "rows");
    check.region(args.cols, colCount * JSON_COLUMN_WORDS * 4, 4, "cols");
    const u8 = this.#u8, i32 = this.#i32;
    let at = args.out;
    const put = (c: string) => u8[at++] = c.charCodeAt(0);
    const text = (t: string) => {
      for (let i = 0; i < t.length; i++) u8[at++] = t.charCodeAt(i);
    };
    for (let j = 0; j < rows; j++) {
      if (j > 0 || !args.first) put(",");
      put("[");
      for (let k = 0; k < colCount; k++) {
        if (k > 0) put(",");
        const w = args.cols / 4 + JSON_COLUMN_WORDS * k;
        const kind = i32[w], a = i32[w + 1], b = i32[w + 2];
        if (kind === JSON_CELLS.f64) {
          const x = this.#f64[a / 8 + j];
          if (x !== 0 && Math.abs(x) < 2.2250738585072014e-308) return -1 - j;
          text(Number.isFinite(x) ? formatDouble(x) : "null");
        } else if (kind === JSON_CELLS.i64 || kind === JSON_CELLS.i64Quoted) {
          const x = this.#i64[a / 8 + j];
          text(x === LONG_NULL ? "null" : kind === JSON_CELLS.i64Quoted ? `"${x}"` : String(x));
        } else {
          const from = j === 0 ? 0 : i32[b / 4 + j - 1], to = i32[b / 4 + j];
          check.region(a + from, to - from, 1, "cols.base");
          u8.copyWithin(at, a + from, a + to);
          at += to - from;
        }
      }
      put("]");
    }
    return at - args.out;
  }
}

function checkConstant(kind: NumericKind, v: unknown, name: string): void {
  if (v === null) return;
  if (kind === "i64" ? typeof v === "bigint" && BigInt.asIntN(64, v) === v : typeof v === "number") return;
  throw new RangeError(
    `engine-wasm: expected a ${kind === "i64" ? "64-bit bigint" : "number"} [${name}=${String(v)}]`,
  );
}

function checkBigint(v: unknown): bigint {
  checkConstant("i64", v, "value");
  if (v === null) checkConstant("i64", undefined, "value");
  return v as bigint;
}

let instance: ReferenceKernels | undefined;

/** The TypeScript kernels over `wasmMemory()`. */
export function referenceKernels(): Kernels {
  instance ??= new ReferenceKernels();
  return instance;
}
