/**
 * Argument checks shared by both kernel implementations, so that a bad call fails the same
 * way whichever one runs. A failure is our own bug (STYLE.md §4): it throws a RangeError
 * before any memory is touched.
 */
import type {
  AsofMergeArgs,
  ColumnArgs,
  GatherOrNullArgs,
  GroupIdsArgs,
  Rows,
  SelUnionArgs,
} from "./kernels.ts";

/** Largest count a kernel takes: its counts are signed 32-bit. */
export const COUNT_MAX = 0x7fff_ffff;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function fail(message: string, name: string, value: unknown): never {
  throw new RangeError(`engine-wasm: ${message} [${name}=${String(value)}]`);
}

/** Validates offsets and counts against the heap range [base, limit) of one memory. */
export class Checker {
  constructor(readonly base: number, readonly limit: number) {}

  /** An integer in 0..COUNT_MAX. */
  count(value: number, name: string): number {
    if (!Number.isInteger(value) || value < 0 || value > COUNT_MAX) fail("count out of range", name, value);
    return value;
  }

  /** `bytes` bytes at `ptr`, aligned to `align`, inside the heap; an empty region is only checked for alignment. */
  region(ptr: number | undefined, bytes: number, align: number, name: string): number {
    if (ptr === undefined || !Number.isInteger(ptr)) return fail("offset is not an integer", name, ptr);
    if (ptr % align !== 0) fail(`offset is not ${align}-byte aligned`, name, ptr);
    if (bytes > 0 && (ptr < this.base || ptr + bytes > this.limit)) {
      fail(`region outside the heap [${this.base}, ${this.limit}) bytes=${bytes}`, name, ptr);
    }
    return ptr;
  }

  /**
   * The visited rows of a column of `width`-byte elements: checks the column and the
   * selection, and returns how many rows a kernel visits and the selection offset (0: none).
   */
  rows(args: ColumnArgs, width: number, dataName = "data"): { visits: number; sel: number } {
    const rowCount = this.count(args.rowCount, "rowCount");
    this.region(args.data, rowCount * width, Math.min(width, 8), dataName);
    return this.selection(args);
  }

  /** The arguments of `groupIds` (kernels.ts GroupIdsArgs). */
  groupIds(args: GroupIdsArgs): void {
    const rowCount = this.count(args.rowCount, "rowCount");
    this.region(args.keys, rowCount * 4, 4, "keys");
    const to = this.count(args.to, "to"), from = this.count(args.from, "from");
    if (to > rowCount || from > to) fail("rows outside the column", "to", to);
    const segCount = this.count(args.segCount, "segCount");
    this.region(args.ends, segCount * 4, 4, "ends");
    this.count(args.idBase, "idBase");
    const keyCount = this.count(args.keyCount, "keyCount");
    if (keyCount === COUNT_MAX) fail("count out of range", "keyCount", keyCount + 1);
    this.region(args.stamp, (keyCount + 1) * 4, 4, "stamp");
    this.region(args.slotGroup, (keyCount + 1) * 4, 4, "slotGroup");
    const groups = this.count(args.groups, "groups");
    const capacity = this.count(args.capacity, "capacity");
    if (capacity < groups + (to - from)) fail("no room for the new groups", "capacity", capacity);
    this.region(args.gid, (to - from) * 4, 4, "gid");
    for (const name of ["gSlot", "gBucket", "firstRow", "lastRow"] as const) {
      this.region(args[name], capacity * 4, 4, name);
    }
    this.region(args.gRows, capacity * 8, 8, "gRows");
  }

  /** The selection of `args`, if any. */
  selection(args: Rows): { visits: number; sel: number } {
    if (args.sel === undefined) {
      if (args.selCount !== undefined) fail("selCount without sel", "selCount", args.selCount);
      return { visits: args.rowCount, sel: 0 };
    }
    const selCount = this.count(args.selCount ?? NaN, "selCount");
    this.region(args.sel, selCount * 4, 4, "sel");
    return { visits: selCount, sel: args.sel };
  }

  /** Source and target regions that must not overlap. */
  disjoint(a: number, aBytes: number, b: number, bBytes: number): void {
    if (aBytes > 0 && bBytes > 0 && a < b + bBytes && b < a + aBytes) {
      fail("source and target overlap", "out", b);
    }
  }

  /** A sequence first, first + step, ... of `count` Int32 terms. */
  sequence(first: number, step: number, count: number): void {
    const last = first + Math.max(count - 1, 0) * step;
    for (const [name, v] of [["first", first], ["step", step], ["last", last]] as const) {
      if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
        fail("sequence term outside Int32", name, v);
      }
    }
  }

  /** A symbol key: -1 (NULL) or a non-negative Int32. */
  key(key: number): number {
    if (!Number.isInteger(key) || key < -1 || key > INT32_MAX) fail("not a symbol key", "key", key);
    return key;
  }

  /** One of the allowed values. */
  oneOf<T>(value: T, allowed: readonly T[], name: string): T {
    if (!allowed.includes(value)) fail("unsupported value", name, value);
    return value;
  }

  /** The regions and ranges of an ASOF merge step (slot values are checked per row by the kernel). */
  asofMerge(a: AsofMergeArgs): void {
    const to = this.count(a.to, "to"), from = this.count(a.from, "from");
    if (from > to) fail("from after to", "from", from);
    const rightCount = this.count(a.rightCount, "rightCount"),
      rightFrom = this.count(a.rightFrom, "rightFrom");
    if (rightFrom > rightCount) fail("rightFrom after rightCount", "rightFrom", rightFrom);
    const slotCount = this.count(a.slotCount, "slotCount");
    this.count(a.rightBase + rightCount, "rightBase");
    this.region(a.leftTs, to * 8, 8, "leftTs");
    this.region(a.leftKeys, to * 4, 4, "leftKeys");
    this.keyTable(a.leftTable, a.leftTableLength, "leftTable");
    this.region(a.match, to * 4, 4, "match");
    this.region(a.rightTs, rightCount * 8, 8, "rightTs");
    this.region(a.rightKeys, rightCount * 4, 4, "rightKeys");
    this.keyTable(a.rightTable, a.rightTableLength, "rightTable");
    this.region(a.lastRow, slotCount * 4, 4, "lastRow");
    this.disjoint(a.match, to * 4, a.lastRow, slotCount * 4);
  }

  /** An optional key table: absent (0), or at least its NULL entry. */
  keyTable(ptr: number | undefined, length: number | undefined, name: string): void {
    if (!ptr) return;
    const n = this.count(length ?? NaN, `${name}Length`);
    if (n < 1) fail("a key table needs its NULL entry", `${name}Length`, n);
    this.region(ptr, n * 4, 4, name);
  }

  /** The regions of a gatherOrNull (match values are checked per row by the kernel). */
  gatherOrNull(a: GatherOrNullArgs): void {
    const width = this.oneOf(a.width, [1, 2, 4, 8] as const, "width");
    const rowCount = this.count(a.rowCount, "rowCount"), count = this.count(a.count, "count");
    this.region(a.data, rowCount * width, width, "data");
    this.region(a.match, count * 4, 4, "match");
    this.region(a.out, count * width, width, "out");
    this.disjoint(a.data, rowCount * width, a.out, count * width);
    this.disjoint(a.match, count * 4, a.out, count * width);
    if (typeof a.nul !== "bigint" || BigInt.asIntN(64, a.nul) !== a.nul) {
      fail("nul is not a 64-bit bigint", "nul", a.nul);
    }
  }

  /** The regions of a selUnion; gives its two counts. */
  selUnion(a: SelUnionArgs): { na: number; nb: number } {
    const na = this.count(a.aCount, "aCount"), nb = this.count(a.bCount, "bCount");
    this.region(a.a, na * 4, 4, "a");
    this.region(a.b, nb * 4, 4, "b");
    this.region(a.out, (na + nb) * 4, 4, "out");
    this.disjoint(a.a, na * 4, a.out, (na + nb) * 4);
    this.disjoint(a.b, nb * 4, a.out, (na + nb) * 4);
    return { na, nb };
  }
}
