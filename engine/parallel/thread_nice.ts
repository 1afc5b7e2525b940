/**
 * Lowers the scheduling priority of the calling thread (a worker heap). The main thread does
 * protocol I/O, parsing, planning and the short statements; the workers run the long scans.
 * When both want the same cores, Linux's scheduler then gives the main thread the larger share
 * (nice 10 weighs about a tenth of nice 0), so a `SELECT 1` or a health check does not queue
 * behind two heavy statements. Idle cores still go to the workers: niceness only matters when
 * threads compete.
 *
 * Linux applies setpriority(2) to one thread when given its thread id; /proc/thread-self
 * names it. Elsewhere (or without the permission) this does nothing.
 */
import { setPriority } from "node:os";

/** Returns whether the thread's nice value is now `nice` (0 or less: leaves it alone). */
export function niceThisThread(nice: number): boolean {
  if (!(nice > 0) || Deno.build.os !== "linux") return false;
  try {
    const tid = Number(Deno.readLinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, Math.trunc(nice)));
    return true;
  } catch {
    return false;
  }
}

/** The nice value of the calling thread (Linux), or undefined where it cannot be read. */
export function threadNice(): number | undefined {
  try {
    // Field 19 of /proc/<tid>/stat; the command name (field 2) may hold spaces, so count after ")".
    const stat = Deno.readTextFileSync("/proc/thread-self/stat");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  } catch {
    return undefined;
  }
}
