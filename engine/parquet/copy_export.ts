/**
 * `COPY table | (query) TO 'dest' WITH FORMAT PARQUET ...` (spec/sql.md §26.4): writes
 * Parquet files under cairo.sql.copy.export.root and answers with the export id, logging
 * each phase to `sys.copy_export_log` as QuestDB does.
 *
 * QuestDB runs the export in the background; here it runs before the statement returns, so
 * the `finished` (or `failed`) row is in the log when the id comes back and a client that polls
 * the log sees the same rows. Files are written into `<root>/tmp_<id>/` and moved when all
 * are complete: one file becomes `<root>/<dest>.parquet`, several `<root>/<dest>/<partition>.parquet`
 * (QuestDB's names); a partitioned source without rows exports no file.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import { T } from "../base/types.ts";
import { registerMetaTable } from "../catalog/meta_tables.ts";
import type { PartitionUnit } from "../sql/ast.ts";
import { DEFAULT_PARTITION, partitionNameOf } from "../storage/partition_name.ts";
import type { CopyExportOptions } from "./copy_options.ts";
import type { ParquetColumn } from "./writer.ts";
import { ParquetEncoderThread } from "./encoder_thread.ts";
import { yieldIfDue } from "../exec/event_loop_turn.ts";
import type { ColumnType } from "../base/types.ts";

/** One row of sys.copy_export_log. */
type LogRow = [bigint, string, string, string | null, number | null, string, string, string | null, bigint];

const LOG_COLUMNS = [
  { name: "ts", type: T.TIMESTAMP },
  { name: "id", type: T.VARCHAR },
  { name: "table_name", type: T.SYMBOL },
  { name: "export_path", type: T.SYMBOL },
  { name: "num_exported_files", type: T.INT },
  { name: "phase", type: T.SYMBOL },
  { name: "status", type: T.SYMBOL },
  { name: "message", type: T.VARCHAR },
  { name: "errors", type: T.LONG },
];

/** Log rows per data root, kept for cairo.sql.copy.log.retention.days (3) like QuestDB's table. */
const logs = new Map<string, LogRow[]>();
const RETENTION_MICROS = 3n * 86_400_000_000n;

registerMetaTable("sys.copy_export_log", LOG_COLUMNS, (storage) => (logs.get(storage.root) ?? []).slice());

function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** The export id: 16 hex digits, as QuestDB prints its 64-bit ids. */
function newExportId(): string {
  const b = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export interface CopyExportSource {
  /** "query" for COPY (query) TO. */
  tableName: string;
  columns: ParquetColumn[];
  timestampIndex: number;
  /** The partitioning a COPY table TO uses when PARTITION_BY is not given. */
  defaultPartitionBy: PartitionUnit;
  /** Rows come in designated-timestamp order (a table scan): a partition's file is finished when the next begins. */
  ordered: boolean;
  batches: () => AsyncIterable<Batch>;
}

/** Checks `dest` (relative, no `..`) and that exporting is enabled; returns the root. */
export function checkExportDest(root: string, dest: string, pos: number): void {
  if (root === "") throw new SqlError("COPY TO is disabled ['cairo.sql.copy.export.root' is not set?]", 0);
  if (dest.trim() === "") throw new SqlError("export destination is empty", pos);
  if (dest.startsWith("/") || dest.split(/[\\/]/).includes("..")) {
    throw new SqlError(
      `export destination must be a path under cairo.sql.copy.export.root [path=${dest}]`,
      pos,
    );
  }
}

/** Runs the export; returns its id (failures after validation are logged, as QuestDB's are). */
export async function runCopyExport(
  root: string,
  dest: string,
  source: CopyExportSource,
  options: CopyExportOptions,
  logRoot: string,
): Promise<{ id: string; rows: number; files: number }> {
  const id = newExportId();
  const log = logs.get(logRoot) ?? [];
  logs.set(logRoot, log);
  const cutoff = nowMicros() - RETENTION_MICROS;
  while (log.length > 0 && log[0][0] < cutoff) log.shift();
  const add = (
    phase: string,
    status: string,
    message: string | null = null,
    path: string | null = null,
    n: number | null = null,
  ) => log.push([nowMicros(), id, source.tableName, path, n, phase, status, message, 0n]);
  add("wait_to_run", "started", "queued");
  add("wait_to_run", "finished");
  const unit = options.partitionBy ?? source.defaultPartitionBy;
  const tmp = `${root}/tmp_${id}`;
  let rows = 0;
  try {
    if (unit !== "NONE" && source.timestampIndex < 0) {
      throw new SqlError("partitioning is possible only on tables with designated timestamps", 0);
    }
    add("converting_partitions", "started");
    await Deno.mkdir(tmp, { recursive: true });
    const names = await writePartitions(tmp, source, options, unit, (n) => rows += n);
    add("converting_partitions", "finished");
    add("move_files", "started");
    const path = await moveFiles(root, tmp, dest, names);
    add("move_files", "finished");
    add("success", "finished", null, path, names.length);
    return { id, rows, files: names.length };
  } catch (e) {
    add("failed", "failed", (e as Error).message);
    return { id, rows, files: 0 };
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/** Requests a file's encoder may hold (batches, the footer): bounds memory between the threads. */
const IN_FLIGHT = 3;
/** Rows of a batch handed to an encoder at once. */
const SLICE_ROWS = 8192;

/** Writes one file per partition (one `default` file for NONE); returns the partition names. */
async function writePartitions(
  dir: string,
  source: CopyExportSource,
  options: CopyExportOptions,
  unit: PartitionUnit,
  counted: (rows: number) => void,
): Promise<string[]> {
  const open = new Map<string, { writer: ParquetEncoderThread; file: Deno.FsFile }>();
  const done: string[] = [];
  let last: string | undefined;
  // Row groups are encoded on a worker (issue #17: a group held the event loop for hundreds
  // of milliseconds), one file at a time: rows that interleave partitions keep their files
  // open together and are encoded in place.
  const onWorker = unit === "NONE" || source.ordered;
  const finish = async (name: string) => {
    const w = open.get(name)!;
    open.delete(name);
    done.push(name);
    try {
      w.writer.finish();
      for (let r = await w.writer.next();; r = await w.writer.next()) {
        await writeAll(w.file, r.bytes);
        if (r.last) break;
      }
    } finally {
      w.writer.close();
      w.file.close();
    }
  };
  const ensure = async (name: string) => {
    let w = open.get(name);
    if (!w) {
      if (done.includes(name)) throw new Error(`rows of partition ${name} arrived out of order`);
      const file = await Deno.open(`${dir}/${name}.parquet`, { write: true, create: true, truncate: true });
      const writer = new ParquetEncoderThread(source.columns, source.timestampIndex, options.write, onWorker);
      w = { writer, file };
      open.set(name, w);
    }
    return w;
  };
  let since = performance.now();
  /**
   * Hands rows to a file's encoder in slices, with a turn for other clients between them when
   * due (copying and cloning 65,536 rows of text at once held the loop for tens of
   * milliseconds), writing what it gave back while too many are in flight.
   */
  const add = async (
    w: { writer: ParquetEncoderThread; file: Deno.FsFile },
    b: Batch,
    from: number,
    to: number,
  ) => {
    for (let at = from; at < to;) {
      since = await yieldIfDue(since);
      const end = Math.min(to, at + SLICE_ROWS);
      w.writer.add(b, at, end);
      at = end;
      while (w.writer.inFlight >= IN_FLIGHT) await writeAll(w.file, (await w.writer.next()).bytes);
    }
  };
  try {
    if (unit === "NONE") await ensure(DEFAULT_PARTITION); // a query without rows still exports its schema
    const tsType: ColumnType | undefined = source.columns[source.timestampIndex]?.type;
    const nanos = tsType?.tag === "TIMESTAMP_NS";
    for await (const b of source.batches()) {
      counted(b.rowCount);
      if (unit === "NONE") {
        await add(open.get(DEFAULT_PARTITION)!, b, 0, b.rowCount);
        continue;
      }
      // Rows of one partition arrive together from a table scan; a query may interleave them.
      const ts = b.columns[source.timestampIndex].data as BigInt64Array;
      let from = 0;
      while (from < b.rowCount) {
        const micros = (v: bigint) => nanos ? v / 1000n : v;
        const name = partitionNameOf(unit, micros(ts[from]));
        let to = from + 1;
        while (to < b.rowCount && partitionNameOf(unit, micros(ts[to])) === name) to++;
        if (source.ordered && last !== undefined && last !== name) await finish(last);
        last = name;
        await add(await ensure(name), b, from, to);
        from = to;
      }
    }
    for (const name of [...open.keys()]) await finish(name);
    return done.sort();
  } finally {
    for (const w of open.values()) {
      w.writer.close();
      w.file.close();
    }
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await file.write(bytes.subarray(done));
}

/** Moves the finished files to their names; returns the log's export_path. */
async function moveFiles(root: string, tmp: string, dest: string, names: string[]): Promise<string | null> {
  const base = dest.replace(/\.parquet$/i, "");
  if (names.length === 0) return null;
  if (names.length === 1) {
    const target = `${root}/${base}.parquet`;
    await ensureParent(target);
    await Deno.rename(`${tmp}/${names[0]}.parquet`, target);
    return target;
  }
  const dir = `${root}/${base}`;
  await Deno.mkdir(dir, { recursive: true });
  for (const n of names) await Deno.rename(`${tmp}/${n}.parquet`, `${dir}/${n}.parquet`);
  return `${dir}/`;
}

async function ensureParent(path: string): Promise<void> {
  const parent = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(parent, { recursive: true });
}
