/**
 * The kernel interface: what the executor can ask of the hot path, implemented twice, by the
 * WebAssembly module (`mod.ts`, `kernels()`) and by plain TypeScript (`reference.ts`,
 * `referenceKernels()`), and tested by one shared suite.
 *
 * Every argument that names memory is a byte offset into the process-wide `wasmMemory()`;
 * counts are rows. Columns use the vector layout of `engine/base/values.ts` with QuestDB's
 * NULL sentinels (spec/sql.md §2.1): DOUBLE and FLOAT NULL is NaN or ±Infinity, INT NULL is
 * INT_MIN, LONG/TIMESTAMP NULL is LONG_MIN, SYMBOL NULL is key -1; SHORT and BYTE have no
 * NULL. A selection vector is Int32 row indexes into a column.
 *
 * Each call checks its arguments (integral offsets inside the heap, natural alignment,
 * counts from 0 to 2^31 - 1, regions that fit) and throws a RangeError on a bad one. Entries
 * of a selection vector and of a key column are not checked row by row: a selection entry
 * must be below the column's rowCount, and a key outside -1..keyCount-1 is counted as NULL.
 */

/** Element kinds of numeric columns: DOUBLE, FLOAT, LONG (and TIMESTAMP, DATE), INT, SHORT, BYTE. */
export type NumericKind = "f64" | "f32" | "i64" | "i32" | "i16" | "i8";
export type FloatKind = "f64" | "f32";
export type IntKind = "i64" | "i32" | "i16" | "i8";
/** Kinds with keyed and segmented aggregates. */
export type MeasureKind = "f64" | "f32" | "i64" | "i32";

/** Comparison with a constant; "between" is `value <= x <= value2`, bounds as given. */
export type CompareOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "between";

/** Row widths `gather` and `reverse` move: fixed-width types up to UUID (16) and LONG256 (32). */
export type RowWidth = 1 | 2 | 4 | 8 | 16 | 32;

/** Bytes per element of each numeric kind. */
export const KIND_BYTES: Readonly<Record<NumericKind, number>> = {
  f64: 8,
  f32: 4,
  i64: 8,
  i32: 4,
  i16: 2,
  i8: 1,
};

/** Which rows of a column to visit: all `rowCount` of them, or the `selCount` rows of `sel`. */
export interface Rows {
  /** Rows in the column; its extent in memory is checked, and the output row numbers are 0-based within it. */
  rowCount: number;
  /** Offset of a selection vector (Int32 row indexes, each below rowCount). */
  sel?: number;
  /** Entries in `sel`; required with it. */
  selCount?: number;
}

/** A comparison of every visited row of a numeric column with constants. */
export interface FilterArgs<V> extends Rows {
  /** Offset of row 0 of the column. */
  data: number;
  op: CompareOp;
  /** The constant (the lower bound for "between"); `null`, NaN/±Infinity for floats, or the type's sentinel is NULL. */
  value: V;
  /** The upper bound for "between". */
  value2?: V;
  /**
   * Where to write the selected row indexes (Int32). Needs room for rowCount entries when
   * scanning the whole column, selCount entries when refining; may equal `sel`. Entries
   * past the returned count may be overwritten. Omit to count only.
   */
  out?: number;
}

/** Symbol key equality: `op` "eq" selects rows whose key is `key` (-1: the NULL key), "ne" the others. */
export interface KeyFilterArgs extends Rows {
  data: number;
  op: "eq" | "ne";
  key: number;
  out?: number;
}

/**
 * Symbol key membership (IN): `set` is a byte table of setSize + 1 entries; byte k is
 * nonzero when key k is in the set, byte setSize when the NULL key is. Keys at or past
 * setSize are never members. NOT IN is the complement table.
 */
export interface KeySetFilterArgs extends Rows {
  data: number;
  set: number;
  setSize: number;
  out?: number;
}

/** A numeric column, visited whole or through a selection. */
export interface ColumnArgs extends Rows {
  data: number;
}

/**
 * Unkeyed aggregate of a DOUBLE or FLOAT column. NULLs are skipped; `count` is the number
 * of non-NULL values. With count 0, sum is 0 and min/max are NaN (the SQL result is NULL).
 * Sums are f64 over several SIMD lanes: equal to a sequential sum up to rounding.
 */
export interface FloatStats {
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * Unkeyed aggregate of an integer column; the sum is 64-bit and wraps like QuestDB's. With
 * count 0, sum is 0n and min/max are LONG_NULL (-2^63).
 */
export interface IntStats {
  count: number;
  sum: bigint;
  min: bigint;
  max: bigint;
}

/**
 * Keyed aggregation by a dense key column (Int32, SYMBOL keys 0..keyCount-1, -1 = NULL).
 * Output arrays have keyCount + 1 slots: slot k for key k, slot keyCount for the NULL key.
 * The kernels add into them, so one set of arrays serves batch after batch.
 */
export interface KeyedArgs extends Rows {
  /** Offset of the key column. */
  keys: number;
  keyCount: number;
}

export interface KeyedCountArgs extends KeyedArgs {
  /** Int64 row counts per slot (count(*)). */
  counts: number;
}

export interface KeyedSumArgs extends KeyedArgs {
  data: number;
  /** Int64 counts of non-NULL values per slot. */
  counts: number;
  /** Sums per slot: Float64 for f64/f32 columns, Int64 (wrapping) for i64/i32. Start at 0. */
  sums: number;
}

export interface KeyedExtremeArgs extends KeyedArgs {
  data: number;
  /**
   * Minimum or maximum per slot, in the column's own type. Start the array at the type's
   * NULL (NaN, LONG_MIN, INT_MIN); a slot that never sees a value stays NULL.
   */
  out: number;
}

/**
 * One pass of everything GROUP BY asks of a column: `rows` (Int64 rows per slot, count(*)),
 * `counts` (Int64 non-NULL values), `sums` (Float64 for f64/f32, Int64 wrapping for i64/i32),
 * `mins`/`maxs` (the column's type, starting at its NULL). All add into the arrays.
 */
export interface KeyedStatsArgs extends KeyedArgs {
  data: number;
  rows: number;
  counts: number;
  sums: number;
  mins: number;
  maxs: number;
}

/**
 * `groupIds`: numbers the (bucket, key) groups of rows [from, to) of a SYMBOL key column in
 * first-appearance order (keyed SAMPLE BY). Rows are cut into buckets by `ends` (Int32,
 * `segCount` entries: segment s ends before row ends[s], the last at `to`); segment s is bucket
 * `idBase + s`. `stamp` and `slotGroup` (Int32, keyCount + 1 slots; slot keyCount is the NULL key
 * -1) carry, per key, the bucket it was last seen in and its group there, so a bucket going on
 * from the previous call keeps its groups (start `stamp` at -1). Groups are numbered from
 * `groups`; per new group: `gSlot`, `gBucket`, `firstRow` (Int32) and `gRows` (Float64, row
 * count) start; per row: `gid[row - from]`; per group seen: `lastRow` (Int32), `gRows` + 1.
 * The group arrays need room for `capacity` groups, at least `groups` plus the rows visited.
 */
export interface GroupIdsArgs {
  keys: number;
  rowCount: number;
  from: number;
  to: number;
  ends: number;
  segCount: number;
  idBase: number;
  keyCount: number;
  stamp: number;
  slotGroup: number;
  groups: number;
  capacity: number;
  gid: number;
  gSlot: number;
  gBucket: number;
  gRows: number;
  firstRow: number;
  lastRow: number;
}

/**
 * `sum128`: adds each visited non-NULL row of a LONG column into its group's exact sum, two
 * words per slot: `lo` (Uint64, wrapping) and `hi` (Int64, the carries and signs), keyCount + 1
 * slots, group keys in `keys` (Int32 per row; outside 0..keyCount-1: slot keyCount).
 */
export interface Sum128Args extends KeyedArgs {
  data: number;
  lo: number;
  hi: number;
}

/**
 * One value column of `keyedFold`: `acc` holds KEYED_FOLD_SLOT_BYTES per slot (keyCount + 1):
 * Int64 NULL values seen, the sum (Float64 for f64/f32, Int64 wrapping for i64/i32), the
 * minimum and the maximum (Float64 for f64/f32, Int64 for i64/i32), the extremes only when
 * `extremes`. Start each slot at 0, 0, then +Infinity and -Infinity (floats) or LONG_MAX and
 * LONG_MIN (integers); a slot's extremes mean nothing while its non-NULL count (rows - NULLs)
 * is 0.
 */
export interface KeyedFoldColumn {
  kind: MeasureKind;
  data: number;
  acc: number;
  extremes: boolean;
}

/**
 * `keyedFold`: up to KEYED_FOLD_COLUMNS value columns by one key column in one pass (issue #16).
 * `rows` is Int64 rows visited per slot; every array adds into what it holds.
 */
export interface KeyedFoldArgs extends KeyedArgs {
  rows: number;
  columns: readonly KeyedFoldColumn[];
}

/** Most value columns one `keyedFold` call takes. */
export const KEYED_FOLD_COLUMNS = 4;
/** Bytes per slot of a `keyedFold` column accumulator: NULLs, sum, min, max. */
export const KEYED_FOLD_SLOT_BYTES = 32;

/**
 * An operand of `binop`: a column (offset of its row 0) or a constant (DOUBLE: a number, NaN
 * for NULL; LONG: a bigint, LONG_MIN for NULL).
 */
export type Operand = { data: number } | { value: number | bigint };

/**
 * `out = a op b` over DOUBLE operands for every visited row (issue #16: aggregates of
 * `price - amount` fold the result with `stats`). `rowCount` is the columns' row count; with
 * `sel`, entry j of `out` is the j-th selected row's. Only +, - and *: IEEE arithmetic keeps
 * a NULL operand's result NULL (NaN or an infinity) for them, and an overflowing result is an
 * infinity, which `stats` reads as NULL as the scalar operators make it NULL. `out` needs room
 * for one DOUBLE per visited row and must not overlap a column operand.
 */
export interface BinopArgs extends Rows {
  /** "f64" (the default): DOUBLE operands and result; "i64": LONG, wrapping, NULL in gives NULL. */
  kind?: "f64" | "i64";
  op: "+" | "-" | "*";
  a: Operand;
  b: Operand;
  out: number;
}

/**
 * The rows of a DOUBLE column that can still enter a top-N whose worst kept row ranks `t`:
 * rank >= t when `desc`, rank <= t otherwise, a NULL (NaN, ±Infinity) ranking +Infinity (last ascending, as QuestDB sorts NaN).
 * `out` gets the row indexes (Int32, room for rowCount entries).
 */
export interface TopNArgs {
  data: number;
  rowCount: number;
  threshold: number;
  desc: boolean;
  out: number;
}

/**
 * The text of `count` DOUBLE values at `data` (Float64), as Java's Double.toString prints them
 * (engine/functions/double_format.ts) and NULL (NaN, ±Infinity) as `null`: the cells of rows
 * [from, count) are written one after another to `out` from byte `pos`, and the end of each
 * (bytes from `out`) to `ends[row]` (Int32, room for `count`). At most FORMAT_F64_BYTES bytes a
 * cell. The kernel stops at a subnormal value and returns its row (Java's digits for those need
 * the caller's formatter): the caller writes that cell and its end, then resumes at the next
 * row with `pos` at that end. Returns `count` when every row is written.
 */
export interface FormatF64Args {
  data: number;
  count: number;
  from: number;
  pos: number;
  out: number;
  ends: number;
}

/** Bytes a DOUBLE cell's text takes at most (`-1.2345678901234567E-308`). */
export const FORMAT_F64_BYTES = 24;

/**
 * The text of `count` LONG values at `data` (Int64): NULL (i64 MIN) as `null`, others in
 * decimal, in double quotes when `quote`. Cells are written one after another to `out`, the end
 * of each (bytes from `out`) to `ends[row]` (Int32). At most FORMAT_I64_BYTES bytes a cell.
 */
export interface FormatI64Args {
  data: number;
  count: number;
  quote: boolean;
  out: number;
  ends: number;
}

/** Bytes a LONG cell's text takes at most (`"-9223372036854775807"`). */
export const FORMAT_I64_BYTES = 22;

/**
 * Rows of /exec JSON: row j is `[` + the cells of row j of each column, comma-separated, + `]`,
 * rows comma-separated, with a comma before the first row unless `first`. `cols` holds per
 * column three Int32s (JSON_COLUMN_WORDS): its kind (JSON_CELLS) and two addresses. Text: the
 * address of its cell bytes and of its cell ends (Int32 byte offsets from that address, one per
 * row: cell j is [ends[j-1], ends[j]), ends[-1] = 0). DOUBLE: the address of `rows` Float64
 * values, written as formatF64 writes them. LONG (quoted or not): the address of `rows` Int64
 * values, written as formatI64 writes them. `out` must hold every text cell plus
 * FORMAT_F64_BYTES / FORMAT_I64_BYTES a value cell plus `rows * (colCount + 2)` bytes. Returns
 * the bytes written, or -1 - j when row j holds a subnormal DOUBLE (Java's digits for those
 * need the caller's formatter: it formats that column as text first).
 */
export const JSON_CELLS = { text: 0, f64: 1, i64: 2, i64Quoted: 3 } as const;

/** Int32s per column in JsonRowsArgs.cols. */
export const JSON_COLUMN_WORDS = 3;

export interface JsonRowsArgs {
  cols: number;
  colCount: number;
  rows: number;
  first: boolean;
  out: number;
}

/**
 * SAMPLE BY's segmented reduce. Segment s covers positions [ends[s-1], ends[s]) with
 * ends[-1] = `from`; a position is a row, or with `sel` an index into the selection. Ends
 * are clamped to [previous end, rowCount or selCount]. Each output present gets one entry
 * per segment (overwritten, not added): counts Int64 (non-NULL values), sums Float64 (f64,
 * f32) or Int64 (i64, i32), mins/maxs/firsts/lasts in the column's type. min/max of a
 * segment without values and first/last of an empty segment are NULL; first/last are the
 * segment's first and last rows' values, NULL or not.
 */
export interface SegmentArgs extends ColumnArgs {
  from: number;
  /** Offset of segCount Int32 end positions (exclusive, non-decreasing). */
  ends: number;
  segCount: number;
  counts?: number;
  sums?: number;
  mins?: number;
  maxs?: number;
  firsts?: number;
  lasts?: number;
}

/** A search in rows [from, to) (default: the whole column) of a sorted LONG/TIMESTAMP column. */
export interface BoundArgs {
  data: number;
  rowCount: number;
  from?: number;
  to?: number;
  value: bigint;
}

/** Many lower bounds at once: `values` holds `count` ascending Int64 values, `out` gets Int32 rows. */
export interface BoundsArgs {
  data: number;
  rowCount: number;
  from?: number;
  to?: number;
  values: number;
  count: number;
  out: number;
}

/**
 * One step of the ASOF/LT JOIN merge: left rows [from, to) against the right rows
 * [rightFrom, rightCount) of the current right batch. Each right row at or before a left
 * row's timestamp (strictly before when `strict`) sets `lastRow[slot] = rightBase + row`;
 * each left row gets `match[i] = lastRow[its slot]`. With `more`, the merge stops at the
 * first left row the right batch cannot decide (the next batch might still match it).
 *
 * A row's slot is its Int32 key itself, or with a key table (`leftTable`, `rightTable`: Int32
 * entries) `table[key + 1]`, entry 0 standing for NULL and for any key outside the table:
 * a SYMBOL column's dictionary keys mapped to slots without a pass of their own.
 */
export interface AsofMergeArgs {
  leftTs: number;
  leftKeys: number;
  leftTable?: number;
  leftTableLength?: number;
  from: number;
  to: number;
  rightTs: number;
  rightKeys: number;
  rightTable?: number;
  rightTableLength?: number;
  rightFrom: number;
  rightCount: number;
  rightBase: number;
  /** Int32 per slot, `slotCount` of them: -1 until a right row of the slot is seen. */
  lastRow: number;
  slotCount: number;
  /** Int32 per left row (indexed like `leftTs`). */
  match: number;
  strict: boolean;
  more: boolean;
}

/** Where an ASOF merge step stopped: the first undecided left row, the right position reached. */
export interface AsofMergeStop {
  left: number;
  right: number;
}

/** Copies the rows a selection names, in selection order, to `out` (which must not overlap). */
export interface GatherArgs {
  width: RowWidth;
  data: number;
  rowCount: number;
  sel: number;
  selCount: number;
  out: number;
}

/**
 * out[j] = row match[j] of the column, or `nul` where match[j] is negative (an ASOF JOIN's
 * unmatched rows): `nul` is the type's NULL as raw bits, sign-extended to 64 (NaN's bits for
 * a DOUBLE, INT_MIN for an INT, -1 for a SYMBOL key).
 */
export interface GatherOrNullArgs {
  width: 1 | 2 | 4 | 8;
  data: number;
  rowCount: number;
  match: number;
  count: number;
  out: number;
  nul: bigint;
}

/** Copies rows [0, rowCount) to `out` in reverse order (no overlap). */
export interface ReverseArgs {
  width: RowWidth;
  data: number;
  rowCount: number;
  out: number;
}

/**
 * The union of two ascending selections (Int32 row indexes, `aCount` at `a`, `bCount` at `b`)
 * written to `out` ascending without repeats (room for aCount + bCount; overlapping neither).
 */
export interface SelUnionArgs {
  a: number;
  aCount: number;
  b: number;
  bCount: number;
  out: number;
}

/** Writes the Int32 sequence first, first + step, ... (count entries) to `out`. */
export interface SequenceArgs {
  out: number;
  first: number;
  count: number;
  step: number;
}

/** The hot-path operations; see the argument types for layouts and NULL rules. */
export interface Kernels {
  /**
   * Compares every visited row with constants following spec/sql.md §4: `=`/`!=` treat
   * NULL as a value (NULL = NULL, and `x != c` holds for a NULL x); `<`/`>` are false when
   * either side is NULL; `<=`/`>=` hold when both are NULL; BETWEEN with a NULL bound is
   * false. Fractional or out-of-range constants compare exactly (`int_col < 2.5`). FLOAT
   * rows are compared as their exact double values. Writes the matching row indexes to
   * `out` in ascending visit order, or only counts them; returns the number of matches.
   */
  filter(kind: "i64", args: FilterArgs<bigint | null>): number;
  filter(kind: "f64" | "f32" | "i32" | "i16" | "i8", args: FilterArgs<number | null>): number;
  /** Symbol key equality (`sym = 'a'`, `sym IS NULL` with key -1, and their negations). */
  filterKey(args: KeyFilterArgs): number;
  /** Symbol key membership through a byte table (`sym IN ('a', 'b')`). */
  filterKeySet(args: KeySetFilterArgs): number;
  /** count (non-NULL), sum, min and max of a DOUBLE or FLOAT column. */
  stats(kind: FloatKind, args: ColumnArgs): FloatStats;
  /** count (non-NULL), sum, min and max of an integer column. */
  stats(kind: IntKind, args: ColumnArgs): IntStats;
  /** Adds the number of visited rows per key to `counts`. */
  keyedCount(args: KeyedCountArgs): void;
  /** Adds non-NULL counts and sums per key. */
  keyedSum(kind: MeasureKind, args: KeyedSumArgs): void;
  /** Lowers each key's minimum by the visited non-NULL values. */
  keyedMin(kind: MeasureKind, args: KeyedExtremeArgs): void;
  /** Raises each key's maximum by the visited non-NULL values. */
  keyedMax(kind: MeasureKind, args: KeyedExtremeArgs): void;
  /** Rows, non-NULL counts, sums, minimums and maximums per key in one pass. */
  keyedStats(kind: MeasureKind, args: KeyedStatsArgs): void;
  /** Rows per key and NULLs, sums and (where asked) extremes of up to four columns in one pass. */
  keyedFold(args: KeyedFoldArgs): void;
  /** Numbers (bucket, key) groups of rows; the new group count, or -1 - row for a key outside the dictionary. */
  groupIds(args: GroupIdsArgs): number;
  /** Exact 128-bit sums of a LONG column by group. */
  sum128(args: Sum128Args): void;
  /** Per-segment count, sum, min, max, first and last. */
  segments(kind: MeasureKind, args: SegmentArgs): void;
  /** The first row in [from, to) whose value is >= `value`, or `to`. */
  lowerBound(args: BoundArgs): number;
  /** The first row in [from, to) whose value is > `value`, or `to`. */
  upperBound(args: BoundArgs): number;
  /** `lowerBound` of each of `count` ascending values, written to `out`. */
  lowerBounds(args: BoundsArgs): void;
  /** out[j] = row sel[j]. */
  gather(args: GatherArgs): void;
  /** out[j] = row match[j], or NULL where match[j] < 0. */
  gatherOrNull(args: GatherOrNullArgs): void;
  /** out[j] = row rowCount - 1 - j. */
  reverse(args: ReverseArgs): void;
  /** out[j] = first + j * step. */
  sequence(args: SequenceArgs): void;
  /** The union of two ascending selections; returns its length. See SelUnionArgs. */
  selUnion(args: SelUnionArgs): number;
  /** One step of the ASOF/LT JOIN forward merge. */
  asofMerge(args: AsofMergeArgs): AsofMergeStop;
  /** `out = a op b` over DOUBLE operands; see BinopArgs. */
  binop(args: BinopArgs): void;
  /** Rows of a DOUBLE column that can enter a top-N under its threshold; returns their count. */
  topNCandidates(args: TopNArgs): number;
  /** DOUBLE cells as text; returns the row it stopped at (a subnormal) or `count`. See FormatF64Args. */
  formatF64(args: FormatF64Args): number;
  /** LONG cells as text. See FormatI64Args. */
  formatI64(args: FormatI64Args): void;
  /** /exec JSON rows from cell text and values; returns the bytes written (< 0: a subnormal). See JsonRowsArgs. */
  jsonRows(args: JsonRowsArgs): number;
}
