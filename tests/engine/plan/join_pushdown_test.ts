/**
 * WHERE conjuncts over one side of a join filter that side before the join
 * (engine/plan/join_pushdown.ts): the same rows as the WHERE applied to the joined rows (a
 * subquery around the join keeps it above), for INNER, LEFT, RIGHT, CROSS and FULL joins,
 * with NULL keys and values, ORs across sides, constants and timestamp intervals; EXPLAIN
 * shows the pushed conjuncts under the join (LEFT keeps right-side conjuncts above it, FULL
 * keeps all).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { explain, resultKey, rows } from "../_result_rows.ts";

const CASES: { join: string; where: string; pushed: RegExp; above: boolean }[] = [
  { join: "JOIN", where: "a.v > 3 AND b.w < 8", pushed: /Join[^\n]*\n\s+Filter[\s\S]*Filter/, above: false },
  { join: "JOIN", where: "a.ts IN '2024-01-02' AND b.w IS NOT NULL", pushed: /intervals/, above: false },
  { join: "JOIN", where: "a.v > 3 OR b.w < 8", pushed: /^/, above: true },
  { join: "LEFT JOIN", where: "a.v > 3 AND b.w IS NULL", pushed: /Join[^\n]*\n\s+Filter/, above: true },
  { join: "RIGHT JOIN", where: "b.w > 2", pushed: /Join[\s\S]*Filter/, above: false },
  { join: "CROSS JOIN", where: "a.v = 5 AND b.w = 5", pushed: /Join[\s\S]*Filter/, above: false },
  { join: "FULL JOIN", where: "a.v > 3", pushed: /^/, above: true },
  { join: "JOIN", where: "1 = 1 AND a.v + b.w > 6", pushed: /^/, above: true },
];

Deno.test("WHERE conjuncts over one side of a join are applied below it, same rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_join_push_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024, parallelWorkers: 0 });
  try {
    const make = async (t: string, v: string, seed: number) => {
      const values: string[] = [];
      let s = seed;
      const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let r = 0; r < 300; r++) {
        const k = rnd() < 0.1 ? "NULL" : `'k${Math.floor(rnd() * 6)}'`;
        const x = rnd() < 0.15 ? "NULL" : String(Math.floor(rnd() * 10));
        values.push(`('${new Date(Date.UTC(2024, 0, 1) + r * 900_000).toISOString()}', ${k}, ${x})`);
      }
      await engine.execute(
        `CREATE TABLE ${t} (ts TIMESTAMP, k SYMBOL, ${v} INT) TIMESTAMP(ts) PARTITION BY DAY`,
        adminSession(),
      );
      await engine.execute(`INSERT INTO ${t} VALUES ${values.join(", ")}`, adminSession());
    };
    await make("a", "v", 1);
    await make("b", "w", 2);
    for (const c of CASES) {
      const on = c.join === "CROSS JOIN" ? "" : " ON a.k = b.k";
      const sql = `SELECT a.ts, a.k, a.v, b.ts, b.k, b.w FROM a ${c.join} b${on} WHERE ${c.where}`;
      const where = c.where.replace(/\ba\.(\w+)/g, "a_$1").replace(/\bb\.(\w+)/g, "b_$1");
      const kept = `SELECT * FROM (SELECT a.ts a_ts, a.k a_k, a.v a_v, b.ts b_ts, b.k b_k, b.w b_w ` +
        `FROM a ${c.join} b${on}) WHERE ${where}`;
      const sort = (rs: unknown[][]) => rs.map((r) => r.map(resultKey).join("|")).sort();
      const got = await rows(engine, sql), want = await rows(engine, kept);
      assert.deepEqual(sort(got), sort(want), sql);
      assert.ok(want.length > 0, `${sql}: some rows`);
      const plan = await explain(engine, sql);
      assert.match(plan, c.pushed, `${sql}\n${plan}`);
      // A Filter above the join only when some conjunct must stay there.
      assert.equal(
        /Filter[^\n]*\n\s+(Inner|Left|Right|Full|Cross)[^\n]*Join/.test(plan),
        c.above,
        `${sql}\n${plan}`,
      );
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
