/**
 * LATEST ON over a table scan keyed only by SYMBOL columns, without a filter: reads the int32
 * key columns backwards (zero-copy views of the cached columns) from the newest row, remembers
 * the first row met per key combination, and stops once every combination has been met. Only
 * the chosen rows are read in full. With a single key, once every dictionary value has been
 * met only the NULL key can still be missing; the older rows are then searched for it by the
 * WASM key kernel over the cached column regions, so nothing is materialised.
 */
import { kernels } from "../../engine-wasm/mod.ts";
import type { Batch, Value } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { rowOf } from "./batch_util.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";
import { partitionRanges } from "./scan.ts";

type LatestNode = Extract<PlanNode, { kind: "latestBy" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** Key combinations beyond this are tracked in a Set instead of a byte table. */
const TABLE_MAX = 1 << 24;
/** Rows between cancellation checks. */
const CHECK_ROWS = 1 << 16;

/** One row of the scan's columns as a one-row batch. */
export async function readRow(snap: TableSnapshot, scan: ScanNode, p: number, row: number): Promise<Batch> {
  const columns = await Promise.all(scan.columnIndexes.map((c) => snap.read(p, c, row, row + 1)));
  return { rowCount: 1, columns };
}

/**
 * The newest row with a NULL key in rows [from, to) of partition p's symbol column, or -1.
 * The partition version's memo (TableSnapshot.blockMemo, true for every later snapshot of it)
 * keeps how many of its first rows are known to hold no NULL key: only rows past them are
 * searched, so a LATEST ON over a table still receiving rows searches only the rows added since
 * its last run, and over closed partitions none (over 10M trades by `side`: every row, each run).
 */
async function lastNullIn(
  snap: TableSnapshot,
  p: number,
  col: number,
  from: number,
  to: number,
): Promise<number> {
  const memo = snap.blockMemo?.(p, [col]);
  const clean = (memo?.get(NULL_FREE) as number | undefined) ?? 0;
  const row = await lastNullInRange(snap, p, col, Math.max(from, clean), to);
  if (row < 0 && memo && from <= clean && to > clean) memo.set(NULL_FREE, to);
  return row;
}

/** The block memo tag of a partition's NULL-free prefix (rows [0, n) hold no NULL key). */
const NULL_FREE = "nullFreePrefix";

/** Rows searched for a NULL key since start-up (tests: a rerun searches only new rows). */
export const nullSearch = { rows: 0 };

async function lastNullInRange(
  snap: TableSnapshot,
  p: number,
  col: number,
  from: number,
  to: number,
): Promise<number> {
  if (to <= from) return -1;
  nullSearch.rows += to - from;
  const region = await snap.region(p, col);
  if (region && to <= region.rowCount) {
    const count = kernels().filterKey({
      data: region.ptr + from * 4,
      rowCount: to - from,
      op: "eq",
      key: -1,
    });
    if (count === 0) return -1;
  }
  const keys = (await snap.read(p, col, from, to)).data as Int32Array;
  for (let i = to - from - 1; i >= 0; i--) if (keys[i] < 0) return from + i;
  return -1;
}

/**
 * The newest row with a NULL key in storage column `col` older than row `lo` of range `r` of
 * partition `p` (ranges as partitionRanges gives them for the scan's intervals).
 */
export async function findNullKeyRow(
  snap: TableSnapshot,
  scan: ScanNode,
  col: number,
  p: number,
  r: number,
  lo: number,
  ctx: ExecContext,
): Promise<{ p: number; row: number } | undefined> {
  let ranges = await partitionRanges(snap, p, scan.intervals);
  for (let q = p; q >= 0; q--) {
    if (q !== p) ranges = await partitionRanges(snap, q, scan.intervals);
    for (let s = q === p ? r : ranges.length - 1; s >= 0; s--) {
      checkCancelled(ctx);
      const [from, to] = ranges[s];
      const row = await lastNullIn(snap, q, col, from, q === p && s === r ? lo : to);
      if (row >= 0) return { p: q, row };
    }
  }
  return undefined;
}

/**
 * The SYMBOL key columns of a LATEST BY as one code space: a row's code is the sum over keys
 * of (key code + 1) * radix (0 for a NULL key), and `seen` marks the codes met so far.
 */
export interface SymbolKeySpace {
  /** The scan's column index of each key. */
  cols: number[];
  radix: number[];
  /** Key combinations, NULL keys included. */
  combos: number;
  /** Key combinations without a NULL key. */
  nonNull: number;
  seen: Uint8Array | Set<number>;
}

/**
 * The key code space when every key is a SYMBOL column of the scan and the combinations fit
 * 2^48 codes (exact in a double); undefined otherwise.
 */
export function symbolKeySpace(
  n: LatestNode,
  scan: ScanNode,
  snap: TableSnapshot,
): SymbolKeySpace | undefined {
  if (n.keys.length === 0) return undefined;
  const cols: number[] = [];
  const radix: number[] = [];
  let combos = 1, nonNull = 1;
  for (const k of n.keys) {
    if (k.kind !== "column" || scan.columns[k.index].type.tag !== "SYMBOL") return undefined;
    const col = scan.columnIndexes[k.index];
    const size = snap.symbols(col).size;
    cols.push(col);
    radix.push(combos);
    combos *= size + 1;
    nonNull *= size;
  }
  if (combos > 2 ** 48) return undefined;
  const seen = combos <= TABLE_MAX ? new Uint8Array(combos) : new Set<number>();
  return { cols, radix, combos, nonNull, seen };
}

/** Marks `code` seen; false when it already was. */
export function markSeen(seen: Uint8Array | Set<number>, code: number): boolean {
  if (seen instanceof Uint8Array) {
    if (seen[code]) return false;
    seen[code] = 1;
    return true;
  }
  if (seen.has(code)) return false;
  seen.add(code);
  return true;
}

/**
 * Runs the keyed backward read when every key is a SYMBOL column of the scan; fills `latest`
 * exactly as the generic backward read would (newest first) and returns true, or returns
 * false when it does not apply.
 */
export async function latestBySymbolKeys(
  n: LatestNode,
  scan: ScanNode,
  snap: TableSnapshot,
  ctx: ExecContext,
  latest: Map<unknown, { ts: bigint; row: Value[] }>,
  hashOf: (b: Batch, i: number) => unknown,
): Promise<boolean> {
  const space = symbolKeySpace(n, scan, snap);
  if (!space) return false;
  const { cols, radix, combos, nonNull, seen: marks } = space;
  const single = cols.length === 1;
  let seen = 0;
  const chosen: { p: number; row: number }[] = [];
  let nullSearch: { p: number; r: number; lo: number } | undefined;
  scan: for (let p = snap.partitions.length - 1; p >= 0; p--) {
    const ranges = await partitionRanges(snap, p, scan.intervals);
    for (let r = ranges.length - 1; r >= 0; r--) {
      const [from, to] = ranges[r];
      const views = await Promise.all(
        cols.map(async (c) => (await snap.read(p, c, from, to)).data as Int32Array),
      );
      const v0 = views[0];
      for (let i = to - from - 1; i >= 0; i--) {
        if ((i & (CHECK_ROWS - 1)) === 0) checkCancelled(ctx);
        let code = v0[i] < 0 ? 0 : v0[i] + 1;
        for (let j = 1; j < views.length; j++) {
          const key = views[j][i];
          if (key >= 0) code += (key + 1) * radix[j];
        }
        if (!markSeen(marks, code)) continue;
        seen++;
        chosen.push({ p, row: from + i });
        if (seen === combos) break scan;
        if (single && seen === nonNull && !(marks instanceof Uint8Array ? marks[0] : marks.has(0))) {
          nullSearch = { p, r, lo: from + i };
          break scan;
        }
      }
    }
  }
  if (nullSearch) {
    const found = await findNullKeyRow(snap, scan, cols[0], nullSearch.p, nullSearch.r, nullSearch.lo, ctx);
    if (found) chosen.push(found);
  }
  const tsIndex = n.tsIndex;
  for (const { p, row } of chosen) {
    checkCancelled(ctx);
    const b = await readRow(snap, scan, p, row);
    const h = hashOf(b, 0);
    if (!latest.has(h)) {
      latest.set(h, { ts: (b.columns[tsIndex].data as BigInt64Array)[0], row: rowOf(b, 0) });
    }
  }
  return true;
}
