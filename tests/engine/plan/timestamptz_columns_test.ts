/**
 * Result columns that are casts to timestamptz carry a flag (engine/plan/timestamptz_columns.ts),
 * set by the engine on executed and prepared queries: pgwire shows them in the session zone
 * (server/pg/time_zone.ts) without reading the select list itself (issue #18).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";

async function withEngine(fn: (engine: Engine) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_tstz_" });
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    await engine.execute("CREATE TABLE t (ts TIMESTAMP, x LONG) TIMESTAMP(ts)", adminSession());
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("casts to timestamptz are flagged in executed and prepared results", async () => {
  await withEngine(async (engine) => {
    const sql = "select ts::timestamptz a, ts b, cast(ts as timestamp with time zone) as c, x from t";
    const out = await engine.execute(sql, adminSession());
    assert.equal(out.kind, "rows");
    if (out.kind !== "rows") return;
    assert.deepEqual(out.columns.map((c) => c.timestamptz ?? false), [true, false, true, false]);
    const prepared = engine.prepare(sql, adminSession());
    assert.deepEqual(prepared.columns!.map((c) => c.timestamptz ?? false), [true, false, true, false]);
  });
});

Deno.test("shapes that do not map one to one, and casts inside calls, are not flagged", async () => {
  await withEngine(async (engine) => {
    for (
      const sql of ["select *, ts::timestamptz from t", "select dateadd('d', 1, ts::timestamptz) from t"]
    ) {
      const out = await engine.execute(sql, adminSession());
      assert.ok(out.kind === "rows" && out.columns.every((c) => !c.timestamptz), sql);
    }
    // A parenthesised query and a UNION read the first SELECT's items.
    const u = await engine.execute(
      "(select ts::timestamptz a from t) union all select ts from t",
      adminSession(),
    );
    assert.ok(u.kind === "rows" && u.columns[0].timestamptz);
  });
});
