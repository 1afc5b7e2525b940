/**
 * The child process of rewrite_crash_test.ts: opens the root given as argument and rewrites
 * table t's one large partition in slices, forever, until the parent SIGKILLs it: a DELETE of
 * the merged row, an UPDATE of every row, an out-of-order INSERT merged into the partition. It
 * prints `ready` once open and `committed` after each statement.
 */
import { adminSession, Engine } from "../../../engine/mod.ts";

if (import.meta.main) {
  const engine = await Engine.open({ root: Deno.args[0], cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  console.log("ready");
  for (;;) {
    for (
      // The DELETE first: a child killed between its INSERT and DELETE leaves one merged row,
      // which the next child removes before it inserts again, so there is never more than one.
      const sql of [
        "DELETE FROM t WHERE x < 0",
        "UPDATE t SET n = n + 1",
        "INSERT INTO t VALUES ('2024-01-01T00:00:00.000001', -1, 'o3', 0)",
      ]
    ) {
      const out = await engine.execute(sql, adminSession());
      if (out.kind === "rows") { for await (const _ of out.batches) { /* drained */ } }
      console.log("committed");
    }
  }
}
