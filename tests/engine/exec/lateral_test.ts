/**
 * LATERAL JOIN (spec/sql.md §11.6; plan_lateral.ts, exec/lateral.ts): QuestDB's results for
 * INNER/LEFT/CROSS, the aggregate rules (INNER drops an outer row without correlated rows,
 * LEFT keeps it with count() 0), per-row ORDER BY + LIMIT, ON conditions, nesting inside a
 * correlated subquery, and QuestDB's error texts with their positions.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, SqlError } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_lateral_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    const s = adminSession();
    await engine.execute("CREATE TABLE o (id INT, min_qty DOUBLE, ts TIMESTAMP) TIMESTAMP(ts)", s);
    await engine.execute("CREATE TABLE t (oid INT, qty DOUBLE, ts TIMESTAMP) TIMESTAMP(ts)", s);
    await engine.execute("INSERT INTO o VALUES (1, 15.0, 0), (2, 35.0, 1), (3, 5.0, 2), (NULL, 0.0, 3)", s);
    await engine.execute(
      "INSERT INTO t VALUES (1, 10.0, 0), (1, 20.0, 1), (1, 30.0, 2), (2, 40.0, 3), (2, 50.0, 4), (NULL, 7.0, 5)",
      s,
    );
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function fails(engine: Engine, sql: string, message: string, position: number): Promise<void> {
  await assert.rejects(rows(engine, sql), (e: unknown) => {
    assert.ok(e instanceof SqlError, String(e));
    assert.equal(e.message, message, sql);
    assert.equal(e.position, position, sql);
    return true;
  });
}

Deno.test("LATERAL: per-row scans, top-N per outer row, NULL keys match", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.qty FROM o JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id) x ORDER BY o.id, x.qty",
      ),
      [[null, 7], [1, 10], [1, 20], [1, 30], [2, 40], [2, 50]],
    );
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.qty FROM o LEFT JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id ORDER BY qty DESC LIMIT 2) x " +
          "WHERE o.id IS NOT NULL ORDER BY o.id, x.qty DESC",
      ),
      [[1, 30], [1, 20], [2, 50], [2, 40], [3, null]],
    );
    // The outer row's values as thresholds, and the comma and bare forms of CROSS.
    const cross = [[null, 7], [1, 20], [1, 30], [2, 40], [2, 50]];
    for (const from of ["o, LATERAL", "o CROSS JOIN LATERAL", "o LATERAL"]) {
      assert.deepEqual(
        await rows(
          engine,
          `SELECT o.id, x.qty FROM ${from} (SELECT qty FROM t WHERE oid = o.id AND qty > o.min_qty) x ORDER BY 1, 2`,
        ),
        cross,
        from,
      );
    }
    // ON filters the pairs; the left timestamp stays the designated one.
    const out = await engine.execute(
      "SELECT * FROM o JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id) x ON x.qty >= 30",
      adminSession(),
    );
    assert.equal(out.kind, "rows");
    if (out.kind === "rows") assert.equal(out.timestampIndex, 2);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.qty FROM o JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id) x ON x.qty >= 30",
      ),
      [[1, 30], [2, 40], [2, 50]],
    );
  });
});

Deno.test("LATERAL: aggregates follow QuestDB (INNER drops empty, LEFT count() is 0)", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.total FROM o JOIN LATERAL (SELECT sum(qty) total FROM t WHERE oid = o.id) x ORDER BY o.id",
      ),
      [[null, 7], [1, 60], [2, 90]],
    );
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.c, x.s FROM o LEFT JOIN LATERAL (SELECT count(*) c, sum(qty) s FROM t WHERE oid = o.id) x " +
          "ORDER BY o.id",
      ),
      [[null, 1n, 7], [1, 3n, 60], [2, 2n, 90], [3, 0n, null]],
    );
    // Under GROUP BY keys no row comes back, yet the count is 0 and the key NULL
    // (LateralJoinTest#testLeftLateralCountMixedPrefixColumns).
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, x.oid, x.c FROM o LEFT JOIN LATERAL (SELECT oid, count() c FROM t WHERE oid = o.id) x " +
          "ORDER BY o.id",
      ),
      [[null, null, 1n], [1, 1, 3n], [2, 2, 2n], [3, null, 0n]],
    );
    // Uncorrelated: every outer row with the one aggregate row.
    assert.deepEqual(
      await rows(engine, "SELECT o.id, x.c FROM o JOIN LATERAL (SELECT count() c FROM t) x ORDER BY o.id"),
      [[null, 6n], [1, 6n], [2, 6n], [3, 6n]],
    );
  });
});

Deno.test("LATERAL: nested inside a correlated subquery and inside another lateral", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, (SELECT max(y.q) FROM long_sequence(2) l JOIN LATERAL " +
          "(SELECT qty + l.x q FROM t WHERE oid = o.id) y) m FROM o WHERE o.id IS NOT NULL ORDER BY o.id",
      ),
      [[1, 32], [2, 52], [3, null]],
    );
    assert.deepEqual(
      await rows(
        engine,
        "SELECT o.id, a.n, b.qty FROM o JOIN LATERAL (SELECT count() n FROM t WHERE oid = o.id) a " +
          "JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id AND qty >= a.n * 10) b ORDER BY 1, 3",
      ),
      [[1, 3n, 30], [2, 2n, 40], [2, 2n, 50]],
    );
  });
});

Deno.test("LATERAL: QuestDB's errors and their positions; EXPLAIN names the operator", async () => {
  await withEngine(async (engine) => {
    await fails(engine, "SELECT * FROM o JOIN LATERAL t x", "LATERAL requires a subquery", 29);
    await fails(
      engine,
      "SELECT * FROM o RIGHT JOIN LATERAL (SELECT 1) x ON true",
      "LATERAL is only supported with INNER, LEFT, or CROSS joins",
      27,
    );
    await fails(
      engine,
      "SELECT * FROM o CROSS JOIN LATERAL (SELECT 1 v) x ON x.v = 1",
      "Cross joins cannot have join clauses",
      57,
    );
    await fails(
      engine,
      "SELECT 1 FROM o a, LATERAL (SELECT max(a.id) FROM t) x",
      "aggregate function max() over outer columns only is not allowed in a LATERAL subquery",
      27,
    );
    await fails(
      engine,
      "SELECT * FROM o JOIN LATERAL (SELECT qty FROM t WHERE oid = nope.id) x",
      // A qualifier naming no table in reach (QuestDB's FunctionBinder.resolveColumn).
      "Invalid table name or alias",
      60,
    );
    const plan =
      (await rows(engine, "EXPLAIN SELECT * FROM o LEFT JOIN LATERAL (SELECT qty FROM t WHERE oid = o.id) x"))
        .map((r) => String(r[0]).trim());
    assert.ok(plan.includes("Lateral Left Join (per outer values: 1)"), plan.join("\n"));
  });
});
