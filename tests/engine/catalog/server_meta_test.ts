/** functions(), memory_metrics(), reader_pool(), writer_pool(): QuestDB's columns, this server's state. */
import assert from "node:assert/strict";
import { rows } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

Deno.test("functions() lists the registry by kind; pools are empty; memory_metrics leads with TOTAL_USED", async () => {
  await withTempEngine({ prefix: "qdb_server_meta_" }, async (engine) => {
    const fns = await rows(
      engine,
      "SELECT name, runtime_constant, type FROM functions() WHERE name IN ('sum', 'now', 'tables')",
    );
    assert.deepEqual(fns, [["now", true, "STANDARD"], ["sum", false, "GROUP_BY"], [
      "tables",
      false,
      "CURSOR",
    ]]);
    assert.deepEqual(await rows(engine, "SELECT * FROM reader_pool()"), []);
    assert.deepEqual(await rows(engine, "SELECT * FROM writer_pool"), []);
    const tags = (await rows(engine, "SELECT memory_tag, bytes FROM memory_metrics()")).map((r) => r[0]);
    assert.deepEqual(tags.slice(0, 2), ["TOTAL_USED", "RSS"]);
  });
});
