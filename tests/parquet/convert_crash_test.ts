/**
 * Crash safety of CONVERT PARTITION (issue #21): a child process converts partitions to
 * Parquet and back in a loop; the parent SIGKILLs it at random moments, reopens the root and
 * checks that the table answers exactly as before and that recovery left no stray folder.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";
import { CRASH_TABLE, killRounds } from "./_kill_loop.ts";

Deno.test({
  name: "SIGKILL during CONVERT PARTITION leaves the table answering as before",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_pq_crash_" });
    try {
      const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
      await engine.execute(CRASH_TABLE, adminSession());
      await engine.close();
      const rounds = 6;
      const commits = await killRounds(root, {
        script: "./_convert_crash_child.ts",
        args: [root],
        commitWord: "converted",
        label: "converter",
        rounds,
        workMsMax: 900,
        formatsMayChange: true,
      });
      // The kills must have landed both between and during conversions for the test to mean anything.
      console.log(`${rounds} kills, ${commits} conversions committed in between`);
      assert.ok(commits > 0, "no conversion ever committed: the child is too slow for the kill windows");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
