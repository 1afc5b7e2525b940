/**
 * The quick soak (issue 9, every CI run): REST, pgwire and ILP clients against one server for
 * a few seconds, with a long scan running alongside. No failed request, every acknowledged
 * ILP row visible, health answered throughout, short queries not starved by the long one.
 */
import assert from "node:assert/strict";
import { formatReport, runSoak } from "./soak.ts";

Deno.test("quick soak: mixed REST, pgwire and ILP load with zero failures", async () => {
  const report = await runSoak({ seconds: 12, restClients: 10, pgClients: 5, longClients: 1 });
  console.log(formatReport(report));
  for (const [endpoint, s] of Object.entries(report.endpoints)) {
    assert.equal(s.failures, 0, `${endpoint}: ${s.firstFailure}`);
  }
  assert.ok(report.ilpRowsSent > 0, "ILP rows were acknowledged");
  assert.equal(report.ilpRowsVisible, report.ilpRowsSent, "every acknowledged ILP row is visible");
  assert.ok(report.endpoints["health"].requests >= 8, "health answered throughout");
  assert.ok(
    report.endpoints["rest /exec short"].requests > report.endpoints["rest /exec long scan"].requests * 10,
    "short queries kept flowing",
  );
  assert.ok(report.endpoints["health"].max < 2000, "health never waited behind the long scan");
});
