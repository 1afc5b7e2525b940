/**
 * PIVOT / UNPIVOT (QuestDB 9; plan_pivot.ts, pivot_lists.ts, parse_pivot.ts): column names as
 * QuestDB gives them, rows filtered to the listed values, IN (SELECT ...) run before planning
 * with the CTEs in scope, QuestDB's error texts, and the GROUP BY rewrite shown by EXPLAIN.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function columns(engine: Engine, sql: string): Promise<string[]> {
  const out = await engine.execute(sql, adminSession());
  assert.equal(out.kind, "rows");
  if (out.kind !== "rows") return [];
  for await (const _ of out.batches) { /* drain */ }
  return out.columns.map((c) => c.name);
}

async function fails(engine: Engine, sql: string, message: string): Promise<void> {
  await assert.rejects(() => engine.execute(sql, adminSession()), (e: Error) => {
    assert.equal(e.message, message);
    return true;
  });
}

Deno.test("PIVOT and UNPIVOT as QuestDB 9 defines them", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pivot_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    const s = adminSession();
    await engine.execute("CREATE TABLE cities (country VARCHAR, name VARCHAR, year INT, population INT)", s);
    await engine.execute(
      "INSERT INTO cities VALUES ('NL', 'Amsterdam', 2000, 1005), ('NL', 'Amsterdam', 2010, 1065), " +
        "('US', 'Seattle', 2000, 564), ('US', 'Seattle', 2010, 608), ('US', 'New York City', 2000, 8015)",
      s,
    );
    const basic = "cities PIVOT (sum(population) FOR year IN (2000, 2010) GROUP BY country) ORDER BY country";
    assert.deepEqual(await columns(engine, basic), ["country", "2000", "2010"]);
    assert.deepEqual(await rows(engine, basic), [["NL", 1005n, 1065n], ["US", 8579n, 608n]]);

    // Aliases, several aggregates, several FOR lists, count() of no rows is 0.
    assert.deepEqual(
      await columns(
        engine,
        "cities PIVOT (sum(population) AS total, count() FOR year IN (2000 AS y2k) country IN ('NL'))",
      ),
      ["y2k_NL_total", "y2k_NL_count()"],
    );
    assert.deepEqual(
      await rows(engine, "cities PIVOT (count() FOR country IN ('NL', 'XX') GROUP BY year) ORDER BY year"),
      [[2000, 1n, 0n], [2010, 1n, 0n]],
    );
    // Only rows with a listed value reach the groups.
    assert.deepEqual(
      await rows(engine, "cities PIVOT (max(population) FOR country IN ('NL') GROUP BY name)"),
      [[
        "Amsterdam",
        1065,
      ]],
    );
    // A dynamic list runs first, seeing the statement's CTEs.
    const dynamic = "WITH c AS (SELECT * FROM cities WHERE year = 2010) " +
      "SELECT * FROM c PIVOT (sum(population) FOR country IN (SELECT DISTINCT country FROM c ORDER BY country))";
    assert.deepEqual(await columns(engine, dynamic), ["NL", "US"]);
    assert.deepEqual(await rows(engine, dynamic), [[1065n, 608n]]);

    await fails(
      engine,
      "cities PIVOT (sum(population) FOR country IN (SELECT country FROM cities WHERE year = 1))",
      "PIVOT IN subquery returned empty result set", // PivotTest#testPivotSubqueryReturnsEmptyResultSet
    );
    await fails(engine, "cities PIVOT (now() FOR year IN (2000))", "expected aggregate function [col=now()]");
    await fails(
      engine,
      "cities PIVOT (sum(population) FOR country IN ('a', 'a'))",
      "duplicate value in PIVOT IN list: 'a'",
    );
    await fails(engine, "cities PIVOT (sum(population) FOR country IN ())", "missing constant");

    const plan = (await rows(engine, `EXPLAIN ${basic}`)).map((r) => String(r[0])).join("\n");
    assert.match(
      plan,
      /GroupBy keys: 1 values: first_not_null,first_not_null[\s\S]*GroupBy keys: 2 values: sum/,
    );

    assert.deepEqual(
      await rows(engine, "(SELECT 'a' k, 1 x, NULL::int y) UNPIVOT (v FOR col IN (x, y AS why))"),
      [["a", "x", 1]],
    );
    assert.deepEqual(
      await rows(
        engine,
        "(SELECT 'a' k, 1 x, NULL::int y) UNPIVOT INCLUDE NULLS (v FOR col IN (x, y AS why))",
      ),
      [["a", "x", 1], ["a", "why", null]],
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
