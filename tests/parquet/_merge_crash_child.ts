/**
 * The child process of parquet_merge_test.ts: opens the root given as argument and re-inserts
 * rows of one of the table's Parquet partitions (equal to the stored ones: the table deduplicates on
 * ts and sym) forever, until the parent SIGKILLs it. Each commit rewrites that partition as a new
 * Parquet version. It prints `ready` once open and `merged` after each commit.
 */
import { adminSession, Engine } from "../../engine/mod.ts";

if (import.meta.main) {
  const engine = await Engine.open({ root: Deno.args[0], cacheBytes: 64 * 1024 * 1024 });
  console.log("ready");
  for (let k = 0;; k++) {
    await engine.execute(
      `INSERT INTO t SELECT * FROM t WHERE ts IN '2024-01-02' AND l % 97 = ${k % 97}`,
      adminSession(),
    );
    console.log("merged");
  }
}
