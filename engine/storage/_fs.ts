/**
 * File helpers with the durability rules of docs/storage.md: positioned writes and reads that
 * loop until done, fsync of files and directories, and atomic replacement (write a temp file,
 * fsync it, rename it over the target, fsync the directory).
 */
import { SqlError } from "../base/errors.ts";

/** Joins path segments with `/` (Deno accepts it on every platform). */
export function joinPath(...parts: string[]): string {
  return parts.join("/");
}

/** True when `path` exists (file or directory). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** The size of a file in bytes, or -1 when it does not exist. */
export async function fileSize(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return -1;
    throw e;
  }
}

/** Writes all of `bytes` at the current position of `file`. */
export async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await file.write(bytes.subarray(done));
}

/**
 * Writes `chunks` one after another starting at byte `offset` of `path` (created when missing)
 * and fsyncs the file before returning, so that a commit naming these bytes can follow.
 */
export async function writeAtSynced(path: string, offset: number, chunks: Uint8Array[]): Promise<void> {
  const file = await Deno.open(path, { read: true, write: true, create: true });
  try {
    await file.seek(offset, Deno.SeekMode.Start);
    for (const c of chunks) await writeAll(file, c);
    await file.syncData();
  } finally {
    file.close();
  }
}

/**
 * Fills `target` with the bytes of `path` starting at `offset`. Reads land directly in
 * `target`, which may be a view of WebAssembly memory (ARCHITECTURE.md "Storage": no
 * intermediate copy). A file shorter than required is an io error: recovery guarantees that
 * committed bytes exist.
 */
export async function readInto(path: string, offset: number, target: Uint8Array): Promise<void> {
  if (target.length === 0) return;
  if (target.length <= SYNC_READ_MAX_BYTES) return readIntoSync(path, offset, target);
  const file = await Deno.open(path, { read: true });
  try {
    await file.seek(offset, Deno.SeekMode.Start);
    let done = 0;
    while (done < target.length) {
      const n = await file.read(target.subarray(done));
      if (n === null || n === 0) {
        throw new SqlError(`column file is shorter than committed [file=${path}]`, -1, "io");
      }
      done += n;
    }
  } finally {
    file.close();
  }
}

/**
 * Reads up to this size are done with synchronous calls. Four async file ops cost ~20 µs of the
 * main thread's time (more on a busy machine, where each wakes a blocking-pool thread) against
 * ~3 µs synchronously; a read this small from the page cache is microseconds, and even a miss
 * blocks the event loop for about one disk access. Growing tables re-read only their new tail,
 * so under ingestion nearly every read is this small.
 */
const SYNC_READ_MAX_BYTES = 256 * 1024;

function readIntoSync(path: string, offset: number, target: Uint8Array): void {
  const file = Deno.openSync(path, { read: true });
  try {
    file.seekSync(offset, Deno.SeekMode.Start);
    let done = 0;
    while (done < target.length) {
      const n = file.readSync(target.subarray(done));
      if (n === null || n === 0) {
        throw new SqlError(`column file is shorter than committed [file=${path}]`, -1, "io");
      }
      done += n;
    }
  } finally {
    file.close();
  }
}

/** Reads `length` bytes of `path` from `offset` into a new buffer. */
export async function readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  await readInto(path, offset, out);
  return out;
}

/** Shortens `path` to `length` bytes when it is longer; returns true when it changed. */
export async function truncateTo(path: string, length: number): Promise<boolean> {
  const size = await fileSize(path);
  if (size <= length) return false;
  await Deno.truncate(path, length);
  return true;
}

/** Fsyncs a directory so that entries created, renamed or removed in it are durable. */
export async function syncDir(path: string): Promise<void> {
  const dir = await Deno.open(path, { read: true });
  try {
    await dir.sync();
  } catch (e) {
    // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
    if (!(e instanceof Deno.errors.PermissionDenied) && !(e instanceof Deno.errors.NotSupported)) throw e;
  } finally {
    dir.close();
  }
}

/** Writes a new file with `bytes` and fsyncs it (the directory entry is synced by the caller). */
export async function writeFileSynced(path: string, bytes: Uint8Array): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    await writeAll(file, bytes);
    await file.sync();
  } finally {
    file.close();
  }
}

/** Replaces `path` with `bytes` atomically and durably: temp file, fsync, rename, fsync dir. */
export async function replaceFileAtomic(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  const temp = joinPath(dir, name + ".tmp");
  await writeFileSynced(temp, bytes);
  await Deno.rename(temp, joinPath(dir, name));
  await syncDir(dir);
}

/** Removes a file or directory tree; a missing path is not an error. */
export async function removePath(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/** Hard-links `source` to `target` (an immutable prefix shared by two partition versions), copying when links are unsupported. */
export async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await Deno.link(source, target);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw e;
    await Deno.copyFile(source, target);
  }
}

/** Names of the entries of a directory with their kind. */
export async function listDir(path: string): Promise<{ name: string; isDirectory: boolean }[]> {
  const out: { name: string; isDirectory: boolean }[] = [];
  for await (const e of Deno.readDir(path)) out.push({ name: e.name, isDirectory: e.isDirectory });
  return out;
}
