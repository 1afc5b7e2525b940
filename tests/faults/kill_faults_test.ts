/** The quick kill run (issue 9, every CI run); `deno task faults` runs 100+ kills. */
import assert from "node:assert/strict";
import { runKills } from "./kill_harness.ts";

Deno.test("every acknowledged write survives SIGKILL during inserts, merges, ILP, UPDATE, DELETE, ALTER and DROP PARTITION", async () => {
  const report = await runKills({ kills: 8, seed: 9001 });
  console.log(JSON.stringify(report));
  assert.equal(report.kills, 8);
  assert.ok(report.operationsAcknowledged > 8, "writes were acknowledged between kills");
  assert.ok(
    Object.keys(report.byOperation).length >= 4,
    `several kinds of write ran: ${Object.keys(report.byOperation)}`,
  );
});
