/**
 * The child process of convert_crash_test.ts: opens the root given as argument and converts
 * the table's older partitions to Parquet and back, forever, until the parent SIGKILLs it.
 * It prints `ready` once open and `converted <format>` after each commit.
 */
import { adminSession, Engine } from "../../engine/mod.ts";

if (import.meta.main) {
  const engine = await Engine.open({ root: Deno.args[0], cacheBytes: 64 * 1024 * 1024 });
  console.log("ready");
  for (;;) {
    for (const format of ["PARQUET", "NATIVE"]) {
      await engine.execute(
        `ALTER TABLE t CONVERT PARTITION TO ${format} WHERE ts < '2024-01-04'`,
        adminSession(),
      );
      console.log(`converted ${format}`);
    }
  }
}
