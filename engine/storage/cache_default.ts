/**
 * The default column cache budget (`cairo.column.cache.bytes`), derived from the machine's
 * memory (issue #16). QuestDB reads through the OS page cache, i.e. all of RAM; our columns
 * live in WebAssembly heaps, so the budget decides how much of a large table stays resident
 * (the fixed 1.5 GiB of before gave each of the two worker heaps 0.75 GiB on a 24 GiB machine,
 * while four columns of a 100M-row table take 2.5-3.6 GB).
 *
 * A quarter of physical memory (a cgroup limit counts when lower): the worker heaps hold the
 * budget between them, the main heap up to 3.5 GiB more of it, each heap has 512 MiB of kernel
 * scratch beside it, and the JavaScript heaps, the OS page cache and other processes need the
 * rest; on 24 GiB that is ~5.9 GiB, at most ~11 GiB resident in the worst case. Bounded below
 * by 512 MiB and above by what the default worker heaps can address (wasm32: 4 GiB each less
 * scratch), past which more budget buys nothing. An explicit setting always wins.
 */
import { MEMORY_BYTES_MAX, SCRATCH_RESERVE_BYTES } from "../../engine-wasm/mod.ts";

const MIB = 1024 * 1024;
/** What the budget was before it depended on the machine: used when memory cannot be read. */
export const CACHE_BYTES_FALLBACK = 1536 * MIB;
export const CACHE_BYTES_MIN = 512 * MIB;
/** Worker heaps the default budget is sized for (cairo.sql.parallel.workers' default). */
const DEFAULT_HEAPS = 2;

/** The default budget for a machine of `totalBytes` of memory (undefined: unknown). */
export function cacheBytesFor(totalBytes: number | undefined): number {
  if (totalBytes === undefined || !(totalBytes > 0)) return CACHE_BYTES_FALLBACK;
  const max = DEFAULT_HEAPS * (MEMORY_BYTES_MAX - SCRATCH_RESERVE_BYTES);
  // Whole MiB, so that the setting prints as a round number.
  const quarter = Math.floor(totalBytes / 4 / MIB) * MIB;
  return Math.max(CACHE_BYTES_MIN, Math.min(max, quarter));
}

/** Physical memory, or the cgroup's limit when lower; undefined without the permissions. */
export function machineMemoryBytes(): number | undefined {
  let total: number | undefined;
  try {
    total = Deno.systemMemoryInfo().total;
  } catch {
    return undefined;
  }
  try {
    const limit = Number(Deno.readTextFileSync("/sys/fs/cgroup/memory.max").trim());
    if (Number.isFinite(limit) && limit > 0 && limit < total) total = limit;
  } catch {
    // No cgroup v2 limit (or not Linux): physical memory it is.
  }
  return total;
}

/**
 * Default column cache budget: a quarter of the machine's memory within what the worker
 * heaps can hold, read once at startup.
 */
export const CACHE_BYTES_DEFAULT = cacheBytesFor(machineMemoryBytes());
