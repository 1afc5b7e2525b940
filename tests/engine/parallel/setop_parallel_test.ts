/**
 * UNION, INTERSECT and EXCEPT of two table scans as row chunks on the workers
 * (engine/exec/vector/setop_parallel.ts): each query runs on an engine that sends every scan
 * to the workers (EXPLAIN must show `parallel 2`) and on the row-at-a-time reference of an
 * engine without workers; the rows must be the same, in the same order (first appearances,
 * left rows before right rows). The tables have NULLs in every column (set operations treat
 * NULLs as equal), duplicates, SYMBOL columns of two dictionaries (cast to STRING by the
 * planner) and of one, DOUBLE -0/NaN, an empty table, and interval-narrowed scans.
 */
import assert from "node:assert/strict";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import {
  assertSame,
  explain,
  parallelEngine,
  rows,
  rowsWithJobs,
  run,
  singleEngine,
} from "./_parallel_util.ts";

/** [query, whether the workers run the set operation]. */
const QUERIES: [string, boolean][] = [
  ["SELECT s, i FROM a UNION SELECT s, i FROM b", true],
  ["SELECT s, i FROM a INTERSECT SELECT s, i FROM b", true],
  ["SELECT s, i FROM a EXCEPT SELECT s, i FROM b", true],
  ["SELECT count(*) FROM (SELECT s, l FROM a UNION SELECT s, l FROM b)", true],
  ["SELECT count(*) FROM (SELECT s, l FROM a INTERSECT SELECT s, l FROM b)", true],
  ["SELECT count(*) FROM (SELECT s, l FROM a EXCEPT SELECT s, l FROM b)", true],
  // Both sides from one table: one dictionary, SYMBOL kept; an interval-narrowed left scan.
  ["SELECT s, bo FROM a WHERE ts IN '2024-03-01' UNION SELECT s, bo FROM a", true],
  ["SELECT s, bo, i FROM a UNION SELECT s, bo, i FROM a", true],
  // DOUBLE (-0 equals 0, NaN is NULL), TIMESTAMP, SHORT.
  ["SELECT d, sh FROM a UNION SELECT d, sh FROM b", true],
  ["SELECT d FROM a INTERSECT SELECT d FROM b", true],
  ["SELECT ts FROM a EXCEPT SELECT ts FROM b", true],
  // An empty side.
  ["SELECT s, i FROM a UNION SELECT s, i FROM e", true],
  ["SELECT s, i FROM a INTERSECT SELECT s, i FROM e", true],
  ["SELECT s, i FROM a EXCEPT SELECT s, i FROM e", true],
  ["SELECT s, i FROM e UNION SELECT s, i FROM a", false],
  // ALL forms, STRING columns and computed columns stay on this heap.
  ["SELECT s, i FROM a UNION ALL SELECT s, i FROM b", false],
  ["SELECT s, i FROM a INTERSECT ALL SELECT s, i FROM b", false],
  ["SELECT str FROM a UNION SELECT str FROM b", false],
  ["SELECT i + 1 FROM a UNION SELECT i FROM b", false],
];

async function makeTables(engine: Parameters<typeof run>[0]): Promise<void> {
  await run(
    engine,
    "CREATE TABLE a AS (SELECT timestamp_sequence('2024-03-01', 20_000_000L) ts, " +
      "rnd_symbol('p','q','r',null) s, rnd_int(0, 40, 5) i, rnd_long(0, 30, 5) l, " +
      "rnd_boolean() bo, rnd_short(0, 3) sh, rnd_str('u','v',null) str, " +
      "CASE WHEN x % 7 = 0 THEN -0.0 WHEN x % 11 = 0 THEN NaN ELSE (x % 5) * 0.5 END d " +
      "FROM long_sequence(30000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  // Another dictionary order, a symbol the left lacks; timestamps overlapping a's.
  await run(
    engine,
    "CREATE TABLE b AS (SELECT timestamp_sequence('2024-03-01', 40_000_000L) ts, " +
      "rnd_symbol('r','z','p',null) s, rnd_int(0, 50, 4) i, rnd_long(0, 40, 4) l, " +
      "rnd_short(0, 5) sh, rnd_str('v','w',null) str, " +
      "CASE WHEN x % 5 = 0 THEN 0.0 WHEN x % 13 = 0 THEN NaN ELSE (x % 9) * 0.5 END d " +
      "FROM long_sequence(5000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "CREATE TABLE e (ts TIMESTAMP, s SYMBOL, i INT) TIMESTAMP(ts) PARTITION BY DAY");
}

Deno.test("set operations as hash partitions on the workers equal the row reference, in order", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_setoppar_" });
  try {
    const par = await parallelEngine(root);
    const got: unknown[][][] = [];
    try {
      await makeTables(par);
      for (const [sql, parallel] of QUERIES) {
        const text = await explain(par, sql);
        if (parallel) {
          assert.match(text, /(Union|Intersect|Except) \[vectorized hash, parallel 2\]/, `${sql}\n${text}`);
        } else assert.doesNotMatch(text, /(Union|Intersect|Except).*parallel/, `${sql}\n${text}`);
        got.push(await rows(par, sql));
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < QUERIES.length; q++) {
        const sql = QUERIES[q][0];
        // The single heap's hash sets and the row reference: same rows, same order.
        assertSame(got[q], await rows(single, sql), `${sql} (single heap)`);
        setReferenceExecution(true);
        try {
          assert.doesNotMatch(await explain(single, sql), /vectorized hash|parallel/);
          assertSame(got[q], await rows(single, sql), `${sql} (reference)`);
        } finally {
          setReferenceExecution(false);
        }
      }
    } finally {
      await single.close();
    }
    // The data exercises what the queries claim.
    const of = (sql: string) => got[QUERIES.findIndex(([q]) => q === sql)];
    const union = of("SELECT s, i FROM a UNION SELECT s, i FROM b");
    assert.ok(union.some((r) => r[0] === null && r[1] === null), "a row of NULLs");
    assert.ok(union.some((r) => r[0] === "z"), "a right-only symbol");
    assert.ok(of("SELECT s, i FROM a INTERSECT SELECT s, i FROM b").length > 0, "an intersection");
    assert.equal(of("SELECT s, i FROM a INTERSECT SELECT s, i FROM e").length, 0, "intersect with empty");
    assert.deepEqual(
      of("SELECT s, i FROM a EXCEPT SELECT s, i FROM e"),
      of("SELECT s, i FROM a UNION SELECT s, i FROM e"),
      "EXCEPT of an empty side is the distinct left rows",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * [GROUP BY over UNION ALL, how it runs]: `parallel`, the hash aggregation over both sides'
 * morsels on the workers (expression arguments, several keys); `branches`, each side its own
 * table-scan aggregate on the WASM kernels (union_aggregate.ts, tested in union_aggregate_test);
 * `single`, one heap.
 */
const UNION_ALL: [string, "parallel" | "branches" | "single"][] = [
  // Two tables' symbols (cast to STRING by the planner): grouped by code, merged by text.
  [
    "SELECT s, count(*), sum(i + 1), min(d), max(l), avg(d * 2) FROM " +
    "(SELECT s, i, d, l FROM a UNION ALL SELECT s, i, d, l FROM b) GROUP BY s",
    "parallel",
  ],
  ["SELECT s, count(*) FROM (SELECT s FROM a UNION ALL SELECT s FROM b) GROUP BY s ORDER BY s", "branches"],
  // One table on both sides, a WHERE inside a side, a BOOLEAN key, no key, an empty side.
  [
    "SELECT s, bo, count(*), sum(sh) FROM (SELECT s, bo, sh FROM a UNION ALL " +
    "SELECT s, bo, sh FROM a WHERE i > 20) GROUP BY s, bo",
    "parallel",
  ],
  ["SELECT count(*), sum(i + 1), max(d) FROM (SELECT i, d FROM a UNION ALL SELECT i, d FROM b)", "parallel"],
  [
    "SELECT s, count(*), sum(i * 2) FROM (SELECT s, i FROM a UNION ALL SELECT s, i FROM e) GROUP BY s",
    "parallel",
  ],
  [
    "SELECT s, count(*), sum(i) FROM (SELECT s, i FROM a UNION ALL SELECT s, i FROM e) GROUP BY s",
    "branches",
  ],
  // A key of no known small domain stays on this heap.
  ["SELECT i, count(*) FROM (SELECT i FROM a UNION ALL SELECT i FROM b) GROUP BY i", "single"],
];

Deno.test("GROUP BY over UNION ALL of two scans runs both sides' morsels on the workers, same rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_unionall_" });
  try {
    const par = await parallelEngine(root);
    const got: unknown[][][] = [];
    try {
      await makeTables(par);
      for (const [sql, how] of UNION_ALL) {
        const text = await explain(par, sql);
        if (how === "parallel") {
          assert.match(text, /GroupBy .*parallel 2\][\s\S]*Union All \[append\]/, `${sql}\n${text}`);
        } else if (how === "branches") {
          assert.match(
            text,
            // Each branch's scan on the workers, as the plan chose (fast_aggregate_parallel.ts).
            /GroupBy .*union branches 2, parallel 2\][\s\S]*Union All \[per branch\]/,
            `${sql}\n${text}`,
          );
        } else assert.doesNotMatch(text, /parallel|union branches/, `${sql}\n${text}`);
        // Each side's morsels are one parallel job (an empty table's none).
        const jobs = how === "parallel" ? (sql.includes("FROM e") ? 1 : 2) : how === "single" ? 0 : undefined;
        got.push(await rowsWithJobs(par, sql, jobs));
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      setReferenceExecution(true);
      for (let q = 0; q < UNION_ALL.length; q++) {
        const want = await rows(single, UNION_ALL[q][0]);
        // The branches merge by key text: the same groups, not in first-appearance order.
        const order = (rs: unknown[][]) =>
          UNION_ALL[q][1] === "branches" ? [...rs].sort((x, y) => (String(x) < String(y) ? -1 : 1)) : rs;
        assertSame(order(got[q]), order(want), UNION_ALL[q][0]);
      }
    } finally {
      setReferenceExecution(false);
      await single.close();
    }
    assert.ok(
      got[1].some((r) => r[0] === "z") && got[1].some((r) => r[0] === null),
      "both tables' symbols, NULL",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
