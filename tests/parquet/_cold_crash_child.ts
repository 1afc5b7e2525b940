/**
 * The child process of cold_storage_crash_test.ts: opens the root (argument 1) with the cold
 * store at the endpoint (argument 2) and moves the table's older partitions to the store and
 * back to native, forever, until the parent SIGKILLs it. Prints `ready` once open and `moved`
 * after each commit.
 */
import { adminSession, Engine } from "../../engine/mod.ts";

if (import.meta.main) {
  const [root, endpoint] = Deno.args;
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 0,
    coldStorage: {
      objectStore: {
        endpoint,
        bucket: "cold",
        region: "us-east-1",
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        root: "qdb",
      },
      checkIntervalMs: 3_600_000,
    },
  });
  console.log("ready");
  for (;;) {
    for (const format of ["REMOTE", "NATIVE"]) {
      await engine.execute(
        `ALTER TABLE t CONVERT PARTITION TO ${format} WHERE ts < '2024-01-04'`,
        adminSession(),
      );
      console.log("moved");
    }
  }
}
