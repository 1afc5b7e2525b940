/**
 * The rows of touch(SELECT ...) (plan/bind_touch.ts): one STRING counting the memory pages of
 * the page frames the query reads, QuestDB's TouchTableFunctionFactory: a frame is the rows of
 * one partition inside one designated-timestamp interval, and each selected column of a frame
 * spans ceil(bytes / 4096) pages of its data vector. The bytes are those QuestDB's column files
 * hold for the rows (fixed width × rows; the data vector of a var-size column), so a table gives
 * QuestDB's count. No symbol index is built here (symbol_index.ts): no index pages.
 */
import { fixedSize } from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import { DoubleArray } from "../base/double_array.ts";
import type { Storage, TableSnapshot } from "../storage/api.ts";
import { registerMetaTable } from "./meta_tables.ts";

/** The generator's name: not an identifier, so no FROM clause can name it. */
export const TOUCH_GENERATOR = "touch(cursor)";

/** Files.PAGE_SIZE on the platforms QuestDB runs on. */
const PAGE_SIZE = 4096;

const UTF8 = new TextEncoder();

/** args: table name, comma-separated column indexes, then the intervals (none: every row). */
async function touchRows(storage: Storage, args: Value[]): Promise<Value[][]> {
  const table = storage.table(String(args[0]));
  let dataPages = 0;
  if (table) {
    const snap = table.snapshot();
    try {
      const columns = String(args[1]).split(",").filter((s) => s !== "").map(Number);
      const intervals = args.slice(2) as Interval[];
      for (const [p, from, to] of await frames(snap, intervals)) {
        for (const c of columns) dataPages += Math.ceil((await dataBytes(snap, p, c, from, to)) / PAGE_SIZE);
      }
    } finally {
      snap.release();
    }
  }
  return [[`{"data_pages": ${dataPages}, "index_key_pages":0, "index_values_pages": 0}`]];
}

/** [partition, from, to) row ranges: each partition's rows inside each interval. */
async function frames(snap: TableSnapshot, intervals: Interval[]): Promise<[number, number, number][]> {
  const out: [number, number, number][] = [];
  const ts = snap.meta.timestampIndex;
  for (const [p, part] of snap.partitions.entries()) {
    if (part.rowCount === 0) continue;
    if (intervals.length === 0 || ts < 0) {
      out.push([p, 0, part.rowCount]);
      continue;
    }
    let times: ArrayLike<bigint> | undefined;
    for (const iv of intervals) {
      if (iv.hi < part.minTs || iv.lo > part.maxTs) continue;
      if (iv.lo <= part.minTs && iv.hi >= part.maxTs) {
        out.push([p, 0, part.rowCount]);
        continue;
      }
      times ??= (await snap.read(p, ts, 0, part.rowCount)).data as BigInt64Array;
      const from = lowerBound(times, iv.lo);
      const to = lowerBound(times, iv.hi + 1n);
      if (to > from) out.push([p, from, to]);
    }
  }
  return out;
}

function lowerBound(a: ArrayLike<bigint>, v: bigint): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Bytes of the data vector of rows [from, to): QuestDB's layouts. STRING: a 4-byte length and
 * UTF-16 chars; BINARY: an 8-byte length and the bytes; VARCHAR: only values too long to inline
 * in the 16-byte aux entry (over 9 UTF-8 bytes) reach it; ARRAY: the elements (shapes live in aux).
 */
async function dataBytes(
  snap: TableSnapshot,
  p: number,
  c: number,
  from: number,
  to: number,
): Promise<number> {
  const type = snap.meta.columns[c].type;
  const width = fixedSize(type);
  if (width > 0) return (to - from) * width;
  const values = (await snap.read(p, c, from, to)).data as Value[];
  let bytes = 0;
  for (const v of values) {
    if (type.tag === "STRING") bytes += 4 + (typeof v === "string" ? 2 * v.length : 0);
    else if (type.tag === "BINARY") bytes += 8 + (v instanceof Uint8Array ? v.length : 0);
    else if (type.tag === "VARCHAR" && typeof v === "string") {
      const n = UTF8.encode(v).length;
      if (n > 9) bytes += n;
    } else if (v instanceof DoubleArray) bytes += 8 * v.data.length;
  }
  return bytes;
}

export function registerTouch(): void {
  registerMetaTable(TOUCH_GENERATOR, [], touchRows);
}
