/**
 * CPU time of a whole process (every thread: main, worker heaps, GC helpers), read from
 * /proc/<pid>/stat. The bench reports it beside wall-clock time because the machine is shared:
 * with Linux's scheduler autogroups, each session gets a fair share of the cores, so while
 * other work runs a query's two worker heaps can share one core and take twice the wall time
 * for the same CPU (issue #16: in-process and HTTP timings measured minutes apart differed 2×
 * with equal CPU per query).
 */

/** Linux's USER_HZ: /proc times are in these ticks (100 on every Linux we run on). */
const TICKS_PER_S = 100;

/** utime + stime of `pid` ("self": this process) in ms; undefined where /proc is missing. */
export async function processCpuMs(pid: number | "self"): Promise<number | undefined> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces: fields are counted after its closing ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_S : undefined;
  } catch {
    return undefined;
  }
}
