/**
 * The worker heaps run below the main thread's priority (cairo.sql.parallel.workers.nice,
 * engine/parallel/thread_nice.ts), read from the server process's threads as Linux reports
 * them, with the workers started at boot and with the setting off.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

/** Nice value of each thread of a process, from /proc/<pid>/task/<tid>/stat (field 19). */
async function threadNices(pid: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for await (const e of Deno.readDir(`/proc/${pid}/task`)) {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/task/${e.name}/stat`);
      out.set(Number(e.name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    } catch { /* the thread ended */ }
  }
  return out;
}

async function untilWorkersReady(log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!/parallel workers ready: 2/.test(log())) {
    if (Date.now() > deadline) throw new Error(`workers did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const linux = Deno.build.os === "linux";
if (!linux) console.log("worker_nice_test: skipped, thread priorities are read from Linux's /proc");

Deno.test({
  name: "worker threads run at nice 10 by default and the main thread at 0",
  ignore: !linux,
  async fn() {
    const server = await startServer({ env: { QDB_CAIRO_SQL_PARALLEL_WORKERS_WARM_UP: "true" } });
    try {
      await untilWorkersReady(server.log);
      const pid = server.child.pid;
      const nices = await threadNices(pid);
      assert.equal(nices.get(pid), 0, "the main thread keeps its priority");
      const niced = [...nices.values()].filter((n) => n === 10).length;
      assert.equal(niced, 2, `two worker threads at nice 10: ${JSON.stringify([...nices])}`);
      // A query that runs on the workers still answers (the priority changes nothing else).
      const r = await server.exec("SELECT sum(x) FROM long_sequence(5000000)");
      assert.deepEqual((await r.json()).dataset, [[12500002500000]]);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "cairo.sql.parallel.workers.nice=0 leaves the worker threads at the main thread's priority",
  ignore: !linux,
  async fn() {
    const server = await startServer({
      env: { QDB_CAIRO_SQL_PARALLEL_WORKERS_WARM_UP: "true", QDB_CAIRO_SQL_PARALLEL_WORKERS_NICE: "0" },
    });
    try {
      await untilWorkersReady(server.log);
      const nices = await threadNices(server.child.pid);
      assert.deepEqual([...new Set(nices.values())], [0], JSON.stringify([...nices]));
    } finally {
      await server.stop();
    }
  },
});
