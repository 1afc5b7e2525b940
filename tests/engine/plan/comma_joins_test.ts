/**
 * Comma joins connected by WHERE equalities are planned as hash equi-joins
 * (engine/plan/comma_joins.ts, issue #18), in an order where each source meets those before
 * it, with the same rows as the cross product filtered; other shapes stay cross joins.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";

async function rows(engine: Engine, sql: string): Promise<string[]> {
  const out = await engine.execute(sql, adminSession());
  const lines: string[] = [];
  if (out.kind !== "rows") return lines;
  for await (const b of out.batches) {
    for (let r = 0; r < b.rowCount; r++) lines.push(b.columns.map((c) => String(c.data[r])).join(" "));
  }
  return lines;
}

Deno.test("comma joins with equalities in WHERE become equi-joins with the same rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_comma_" });
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    await engine.execute("create table a (id long, k long)", adminSession());
    await engine.execute("create table b (id long, a_id long)", adminSession());
    await engine.execute("create table c (b_id long, v varchar)", adminSession());
    await engine.execute("insert into a select x, x % 3 from long_sequence(20)", adminSession());
    await engine.execute("insert into b select x, x % 20 + 1 from long_sequence(40)", adminSession());
    await engine.execute("insert into c select x % 40 + 1, 'v' || x from long_sequence(80)", adminSession());
    // a and c only meet through b: b is joined second although written last.
    const sql =
      "select a.id, c.v from a, c, b where a.k = 1 and c.b_id = b.id and b.a_id = a.id order by 1, 2";
    const plan = (await rows(engine, "explain " + sql)).join("\n");
    assert.match(plan, /Join \(vectorized hash\)[\s\S]*Join \(vectorized hash\)/, plan);
    assert.doesNotMatch(plan, /Cross/i, plan);
    const explicit = await rows(
      engine,
      "select a.id, c.v from a join b on b.a_id = a.id join c on c.b_id = b.id where a.k = 1 order by 1, 2",
    );
    assert.ok(explicit.length > 0);
    assert.deepEqual(await rows(engine, sql), explicit);
    // `*` keeps the written order (its columns follow FROM); an OR keeps the cross join.
    const star = await rows(engine, "select * from a, b where b.a_id = a.id and a.id = 1 order by b.id");
    assert.deepEqual(star, ["1 1 20 1", "1 1 40 1"]);
    const or = (await rows(engine, "explain select a.id from a, b where b.a_id = a.id or a.id = b.id")).join(
      "\n",
    );
    assert.doesNotMatch(or, /hash/, or);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
