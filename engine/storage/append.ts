/**
 * The append algorithm (docs/storage.md "Appends"): validate and encode the batch, sort it by
 * the designated timestamp, dedup it, split it by partition, then per partition either
 * append in place (rows at or after the partition's last timestamp: the fast path), write a
 * new partition, or merge into a new copy-on-write version of the partition.
 *
 * Only files are written here; the caller commits the returned partition list.
 */
import { isVarSize } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import { assert } from "../base/assert.ts";
import type { VectorData } from "../base/values.ts";
import type { AppendOptions, OnConflict, RowsToWrite, StoredColumn } from "./api.ts";
import type { TableState } from "./table_state.ts";
import { tsScale } from "./table_state.ts";
import { partitionDir, type PartitionState, topOf } from "./txn_file.ts";
import type { WriteSet } from "./write_set.ts";
import { type ColumnChunk, gatherChunk, rowKeyPart } from "./column_chunk.ts";
import { encodeFixed } from "./fixed_codec.ts";
import { encodeVar } from "./var_column.ts";
import {
  copyColumnPrefix,
  dataPath,
  readColumnRange,
  searchTimestamp,
  truncateColumn,
} from "./column_files.ts";
import { DEFAULT_PARTITION, partitionNameOf, partitionRangeOf } from "./partition_name.ts";
import {
  dedupSorted,
  dedupSortedFirst,
  identityOrder,
  matchExisting,
  mergeOrder,
  outOfOrderTieRanks,
  sortOrder,
  sortOrderPaced,
} from "./row_order.ts";
import { joinPath, syncDir } from "./_fs.ts";
import type { SymbolTable } from "./symbol_dict.ts";
import { forEachLimit } from "./_limit.ts";
import { checkNotNull } from "./not_null.ts";
import { parquetWriteError } from "./parquet_partition.ts";
import { makeSliced, rewriteTurn, writeGathered, writeRange } from "./column_rewrite.ts";

/** Rows from which an append gives `options.yieldTurn` a call after each column it encodes. */
const YIELD_ROWS = 65_536;

/** Columns written at once by a rewrite: bounds memory to a few whole columns. */
const REWRITE_COLUMNS_PARALLEL = 4;

/** An append's options as the table store gives them. */
export interface AppendRowsOptions extends AppendOptions {
  /**
   * The rows of local Parquet partition `p` as native column files in a new, uncommitted
   * version folder (parquet_merge.ts), which the append then writes into like any native
   * partition; without it a write into a Parquet partition is refused.
   */
  unpackParquet?: (p: PartitionState) => Promise<PartitionState>;
}

export interface AppendResult {
  /** The table's partitions after the append, sorted by time. */
  partitions: PartitionState[];
  /** Rows in the request after in-batch dedup. */
  written: number;
}

/** The rows of the batch going to one partition: `rows` in order, or the range [from, to) of the batch. */
interface Group {
  name: string;
  rows: Int32Array | null;
  from: number;
  to: number;
  minTs: bigint;
  maxTs: bigint;
}

/** Encodes one column of the input into file form. */
export function encodeChunk(
  column: StoredColumn,
  data: VectorData | null,
  rowCount: number,
  dict?: SymbolTable,
): ColumnChunk {
  return isVarSize(column.type)
    ? { kind: "var", col: encodeVar(column.type, data, rowCount) }
    : { kind: "fixed", bytes: encodeFixed(column.type, data, rowCount, dict) };
}

/** Checks the designated timestamps (never NULL, never negative: spec/sql.md §2.1) and returns them. */
function checkTimestamps(column: StoredColumn, data: VectorData | null, rowCount: number): BigInt64Array {
  if (data === null) throw new SqlError(`designated timestamp column cannot be NULL [column=${column.name}]`);
  const bytes = encodeFixed(column.type, data, rowCount);
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const ts = new BigInt64Array(aligned.buffer, aligned.byteOffset, rowCount);
  const hi = new Int32Array(aligned.buffer, aligned.byteOffset, rowCount * 2);
  for (let i = 0; i < rowCount; i++) {
    if (hi[2 * i + 1] >= 0) continue;
    if (ts[i] === -9223372036854775808n) {
      throw new SqlError(`designated timestamp column cannot be NULL [column=${column.name}]`);
    }
    throw new SqlError(
      `designated timestamp before 1970-01-01 is not allowed [column=${column.name}, value=${ts[i]}]`,
    );
  }
  return ts;
}

/** Writes the files of an append; returns the new partition list, or undefined for an empty batch. */
export async function appendRows(
  state: TableState,
  work: WriteSet,
  input: RowsToWrite,
  options: AppendRowsOptions = {},
): Promise<AppendResult | undefined> {
  const meta = state.meta;
  const n = input.rowCount;
  assert(input.columns.length === meta.columns.length, "append: one entry per table column expected");
  if (n === 0) return undefined;
  meta.columns.forEach((c, i) => checkNotNull(c, input.columns[i], n));
  const tsIndex = meta.timestampIndex;
  const ts = tsIndex >= 0 ? checkTimestamps(meta.columns[tsIndex], input.columns[tsIndex], n) : null;
  let chunks: ColumnChunk[] = [];
  const yieldTurn = n >= YIELD_ROWS ? options.yieldTurn : undefined;
  for (const [i, c] of meta.columns.entries()) {
    const data = input.columns[i], dict = state.dicts.get(c.id);
    chunks.push(
      i === tsIndex
        ? { kind: "fixed" as const, bytes: new Uint8Array(ts!.buffer, ts!.byteOffset, ts!.byteLength) }
        // Values as JS values (strings to encode, symbols to intern: a million hold the loop
        // ~100 ms) a slice at a time; typed vectors are the file bytes already.
        : yieldTurn && Array.isArray(data)
        ? await makeSliced(n, (from, to) => encodeChunk(c, data.slice(from, to), to - from, dict), yieldTurn)
        : encodeChunk(c, data, n, dict),
    );
    // Encoding a column of millions of rows takes ~10-100 ms: others get turns in between.
    if (yieldTurn) await yieldTurn();
  }
  const keyColumns = ts ? dedupColumns(state) : [];
  const batchKey = (row: number) => rowKey(state, chunks, keyColumns, row);
  // A large batch is sorted and written in pieces with turns between (the statement's, else
  // storage's own).
  const turn = rewriteTurn(options.yieldTurn);
  // Without dedup keys equal timestamps keep QuestDB's out-of-order commit order; with them
  // the batch order decides which duplicate wins, which stays insertion order.
  const ranks = ts && meta.dedupKeys.length === 0 ? tieRanks(state, ts) : null;
  let order = ts ? (n >= YIELD_ROWS ? await sortOrderPaced(ts, turn, ranks) : sortOrder(ts, ranks)) : null;
  const conflict = ts && meta.dedupKeys.length > 0 ? options.onConflict : undefined;
  if (conflict) {
    ({ order, chunks } = dedupConflicting(
      meta.columns,
      chunks,
      order ?? identityOrder(n),
      ts!,
      batchKey,
      conflict,
      options,
    ));
  } else if (ts && meta.dedupKeys.length > 0) {
    order = dedupSorted(order ?? identityOrder(n), ts, batchKey);
  }
  const dropped = { rows: 0 };
  const groups = ts ? groupByPartition(state, ts, order, order ? order.length : n) : [wholeBatch(n)];
  const byName = new Map(state.txn.partitions.map((p) => [p.name, p]));
  const dedup = meta.dedupKeys.length > 0;
  for (const g of groups) {
    let p = byName.get(g.name);
    // The group's rows of a column after `fileRows` rows of its files, a slice at a time with
    // turns between when the group is large (column_rewrite.ts).
    const writeGroup = (path: string, ci: number, fileRows: number) => {
      const c = meta.columns[ci];
      return g.rows
        ? writeGathered(path, c, fileRows, chunks[ci], null, g.rows, turn)
        : writeRange(path, c, fileRows, chunks[ci], g.from, g.to, turn);
    };
    let next: PartitionState;
    if (p?.parquet) {
      // A remote (cold) partition is refused: it would come back to local disk.
      if (!options.unpackParquet || p.parquet.remote !== undefined) {
        throw parquetWriteError(meta.name, p.name);
      }
      p = await options.unpackParquet(p);
    }
    if (!p) next = await writePartition(state, work, g, writeGroup);
    else if (!ts || g.minTs > p.maxTs || (g.minTs === p.maxTs && !dedup)) {
      next = await appendInPlace(state, work, p, g, writeGroup);
    } else {
      next = await mergePartition(
        state,
        work,
        p,
        g,
        ts,
        chunks,
        dedup ? batchKey : undefined,
        conflict,
        options,
        dropped,
      );
    }
    byName.set(g.name, next);
  }
  const partitions = [...byName.values()].sort(byMinTs);
  return { partitions, written: (order ? order.length : n) - dropped.rows };
}

/**
 * In-batch dedup under ON CONFLICT: the first of equal-key rows stays. DO NOTHING drops the
 * later ones; DO UPDATE copies the SET columns of the last of them onto the kept row, by
 * remapping those columns' chunks (row `kept` reads the duplicate's value).
 */
function dedupConflicting(
  columns: readonly StoredColumn[],
  chunks: ColumnChunk[],
  order: Int32Array,
  ts: BigInt64Array,
  batchKey: (row: number) => string,
  conflict: OnConflict,
  options: AppendOptions,
): { order: Int32Array; chunks: ColumnChunk[] } {
  let remap: Int32Array | undefined;
  const out = dedupSortedFirst(order, ts, batchKey, (kept, duplicate) => {
    if (conflict.action === "nothing") {
      if (options.skipped) options.skipped[duplicate] = 1;
      return;
    }
    remap ??= identityOrder(ts.length);
    remap[kept] = duplicate;
  });
  if (remap && conflict.action === "update") {
    const r = remap;
    chunks = chunks.map((c, ci) =>
      conflict.columns.includes(ci) ? gatherChunk(columns[ci].type, c, null, r) : c
    );
  }
  return { order: out, chunks };
}

function byMinTs(a: PartitionState, b: PartitionState): number {
  return a.minTs < b.minTs ? -1 : a.minTs > b.minTs ? 1 : 0;
}

function wholeBatch(n: number): Group {
  return { name: DEFAULT_PARTITION, rows: null, from: 0, to: n, minTs: 0n, maxTs: 0n };
}

/** Column indexes of the dedup keys other than the designated timestamp. */
function dedupColumns(state: TableState): number[] {
  const meta = state.meta;
  const names = new Set(meta.dedupKeys.map((k) => k.toLowerCase()));
  const out: number[] = [];
  meta.columns.forEach((c, i) => {
    if (i !== meta.timestampIndex && names.has(c.name.toLowerCase())) out.push(i);
  });
  return out;
}

function rowKey(
  state: TableState,
  chunks: ColumnChunk[] | Map<number, ColumnChunk>,
  keyColumns: number[],
  row: number,
): string {
  let key = "";
  for (const ci of keyColumns) {
    const chunk = Array.isArray(chunks) ? chunks[ci] : chunks.get(ci)!;
    const part = rowKeyPart(state.meta.columns[ci].type, chunk, row);
    key += part.length + ":" + part;
  }
  return key;
}

/** outOfOrderTieRanks for a batch appended to the table's committed rows. */
function tieRanks(state: TableState, ts: BigInt64Array): Uint8Array | null {
  let tableMax: bigint | null = null;
  for (const p of state.txn.partitions) if (tableMax === null || p.maxTs > tableMax) tableMax = p.maxTs;
  const unit = state.meta.partitionBy;
  const scale = tsScale(state.meta);
  return outOfOrderTieRanks(ts, tableMax, (t) => partitionRangeOf(unit, t / scale).hi);
}

/** Splits sorted rows into runs that fall in one partition each. */
function groupByPartition(
  state: TableState,
  ts: BigInt64Array,
  order: Int32Array | null,
  count: number,
): Group[] {
  const unit = state.meta.partitionBy;
  const scale = tsScale(state.meta);
  const at = order ? (i: number) => ts[order[i]] : (i: number) => ts[i];
  const groups: Group[] = [];
  for (let i = 0; i < count;) {
    const first = at(i);
    const hi = partitionRangeOf(unit, first / scale).hi * scale;
    let lo = i + 1, top = count;
    while (lo < top) {
      const mid = (lo + top) >>> 1;
      if (at(mid) < hi) lo = mid + 1;
      else top = mid;
    }
    groups.push({
      name: partitionNameOf(unit, first / scale),
      rows: order ? order.subarray(i, lo) : null,
      from: i,
      to: lo,
      minTs: first,
      maxTs: at(lo - 1),
    });
    i = lo;
  }
  return groups;
}

/** A partition the table does not have yet: a new folder with every column. */
async function writePartition(
  state: TableState,
  work: WriteSet,
  g: Group,
  writeGroup: (path: string, ci: number, fileRows: number) => Promise<void>,
): Promise<PartitionState> {
  const { version, path } = await work.createPartitionDir(g.name);
  await forEachLimit(
    state.meta.columns,
    REWRITE_COLUMNS_PARALLEL * 4,
    (_, ci) => writeGroup(path, ci, 0),
  );
  await syncDir(path);
  return { name: g.name, version, rowCount: g.to - g.from, minTs: g.minTs, maxTs: g.maxTs, tops: {} };
}

/** The fast path: rows at or after the partition's last timestamp go after its rows, in place. */
async function appendInPlace(
  state: TableState,
  work: WriteSet,
  p: PartitionState,
  g: Group,
  writeGroup: (path: string, ci: number, fileRows: number) => Promise<void>,
): Promise<PartitionState> {
  const path = joinPath(work.tablePath, partitionDir(p));
  let filesCreated = false;
  await forEachLimit(state.meta.columns, REWRITE_COLUMNS_PARALLEL * 4, async (c, ci) => {
    const fileRows = p.rowCount - topOf(p, c.id);
    filesCreated ||= fileRows === 0; // the first rows of a column added later create its files
    work.onRollback(() => truncateColumn(path, c, fileRows));
    await writeGroup(path, ci, fileRows);
  });
  if (filesCreated) await syncDir(path);
  const hasTs = state.meta.timestampIndex >= 0;
  return { ...p, rowCount: p.rowCount + g.to - g.from, maxTs: hasTs ? g.maxTs : 0n };
}

/**
 * Out-of-order rows (or dedup replacements) merged into a new version folder of the
 * partition; the old folder becomes obsolete when the commit is in force. Existing rows that
 * sort before every new row (the `split` prefix) are copied file to file; only the tail from
 * there on is merged in memory.
 */
async function mergePartition(
  state: TableState,
  work: WriteSet,
  p: PartitionState,
  g: Group,
  ts: BigInt64Array,
  chunks: ColumnChunk[],
  batchKey?: (row: number) => string,
  conflict?: OnConflict,
  options: AppendOptions = {},
  dropped = { rows: 0 },
): Promise<PartitionState> {
  const meta = state.meta;
  // The tail of a large partition is merged slice by slice with turns between (issue #17).
  const turn = rewriteTurn(options.yieldTurn);
  const oldPath = joinPath(work.tablePath, partitionDir(p));
  const tsColumn = meta.columns[meta.timestampIndex];
  // New rows go after existing rows with equal timestamps, unless dedup may replace those.
  const split = await searchTimestamp(
    dataPath(oldPath, tsColumn),
    p.rowCount,
    g.minTs,
    batchKey !== undefined,
  );
  const readTail = (ci: number) =>
    readColumnRange(oldPath, meta.columns[ci], topOf(p, meta.columns[ci].id), split, p.rowCount, turn);
  const tails = new Map<number, ColumnChunk>();
  const tsTail = await readTail(meta.timestampIndex);
  tails.set(meta.timestampIndex, tsTail);
  const tsBytes = (tsTail as { bytes: Uint8Array }).bytes;
  const existingTs = new BigInt64Array(tsBytes.buffer, tsBytes.byteOffset, p.rowCount - split);
  let rows = g.rows ?? identityRange(g.from, g.to);
  let replaced: Int32Array | undefined;
  if (batchKey) {
    const keyColumns = dedupColumns(state);
    for (const ci of keyColumns) tails.set(ci, await readTail(ci));
    const existingKey = (row: number) => rowKey(state, tails, keyColumns, row);
    ({ replaced, remaining: rows } = matchExisting(existingTs, ts, rows, existingKey, batchKey));
  }
  // ON CONFLICT: DO NOTHING keeps every matched existing row as it is and drops the batch
  // row; DO UPDATE keeps the existing row but for the SET columns (`mergedSet`).
  let mergedSet: Int32Array | undefined;
  if (conflict && replaced) {
    if (conflict.action === "update") mergedSet = await mergeOrder(existingTs, ts, rows, replaced, turn);
    // One batch row may match several existing rows: it is dropped once.
    for (const b of new Set(replaced)) {
      if (b < 0 || conflict.action !== "nothing") continue;
      dropped.rows++;
      if (options.skipped) options.skipped[b] = 1;
    }
    replaced = undefined;
  }
  const merged = await mergeOrder(existingTs, ts, rows, replaced, turn);
  const { version, path } = await work.createPartitionDir(p.name);
  const tops: Record<string, number> = {};
  await forEachLimit(meta.columns, REWRITE_COLUMNS_PARALLEL, async (c, ci) => {
    // A column top inside the prefix stays a top; the part of it in the tail is written out.
    const top = Math.min(topOf(p, c.id), split);
    if (top > 0) tops[c.id] = top;
    await copyColumnPrefix(oldPath, path, c, split - top);
    const tail = tails.get(ci) ?? await readTail(ci);
    const pick = mergedSet && conflict?.action === "update" && conflict.columns.includes(ci)
      ? mergedSet
      : merged;
    await writeGathered(path, c, split - top, tail, chunks[ci], pick, turn);
  });
  await syncDir(path);
  work.obsolete.push(partitionDir(p));
  const minTs = g.minTs < p.minTs ? g.minTs : p.minTs;
  const maxTs = g.maxTs > p.maxTs ? g.maxTs : p.maxTs;
  return { name: p.name, version, rowCount: split + merged.length, minTs, maxTs, tops };
}

function identityRange(from: number, to: number): Int32Array {
  const out = new Int32Array(to - from);
  for (let i = 0; i < out.length; i++) out[i] = from + i;
  return out;
}
