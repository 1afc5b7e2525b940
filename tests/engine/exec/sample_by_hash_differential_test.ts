/**
 * SAMPLE BY as a vectorized hash aggregation (engine/exec/sample_by_hash.ts) against the row
 * path (`collectRows` and `emit` in sample_by.ts, forced by `setReferenceExecution`): generated
 * SAMPLE BY over inputs the WASM paths do not take (a subquery, a filter with an expression,
 * a join), with keys, every FILL kind, FROM/TO, calendar alignment with a time zone and an
 * offset, aggregates of strings, NULL timestamps in the input and empty inputs. Rows must
 * agree in order.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { type Rng, rng } from "../../fuzz/prng.ts";
import { resultKey, rows } from "../_result_rows.ts";

const SEEDS = (Deno.env.get("SAMPLE_DIFF_SEEDS") ?? "1,2,3").split(",").map(Number);
const SHAPES_PER_SEED = 60;

function rowLiterals(r: Rng, n: number): string {
  const nul = () => r.chance(0.15);
  const day = 1 + r.int(3);
  const ts = `'2024-01-0${day}T${String(r.int(24)).padStart(2, "0")}:${
    String(r.int(60)).padStart(2, "0")
  }:00.${n}Z'`;
  return `(${ts}, ${nul() ? "NULL" : `'k${r.int(4)}'`}, ${nul() ? "NULL" : String(r.int(100) - 50)}, ` +
    `${nul() ? "NULL" : (r.next() * 100).toFixed(2)}, ${nul() ? "NULL" : `'s${r.int(3)}'`}, ` +
    `${nul() ? "NULL" : `'2024-01-0${day}T12:00:00Z'`})`;
}

function shapeOf(r: Rng): string {
  const input = r.pick([
    "(SELECT * FROM t WHERE i % 3 != 1)",
    "(SELECT * FROM t WHERE d > 20 OR s = 'k1')",
    "(SELECT t.* FROM t JOIN (SELECT DISTINCT s k FROM t) u ON t.s = u.k)",
    "(SELECT * FROM t WHERE i > 1000)",
  ]);
  const keys = r.pick(["", "s, ", "str, ", "s, str, ", "concat(s, 'x') k, "]);
  const aggs = [
    ...new Set(Array.from({ length: 1 + r.int(3) }, () =>
      r.pick([
        "count(*)",
        "sum(i)",
        "avg(d)",
        "min(d)",
        "max(i)",
        "first(str)",
        "last(d)",
        "count(DISTINCT s)",
        "sum(d * 2)",
      ]))),
  ];
  // FILL: one mode for all (NONE, NULL, PREV, LINEAR) or one value per aggregate.
  const fills = aggs.map(() => r.pick(["NULL", "PREV", "LINEAR", "0"]));
  const fill = r.chance(0.6)
    ? ` FILL(${r.chance(0.5) ? fills.join(", ") : r.pick(["NONE", "NULL", "PREV", "LINEAR"])})`
    : "";
  const stride = r.pick(["1h", "30m", "3h", "1d", "90m"]);
  const range = r.chance(0.3) ? ` FROM '2024-01-01T06:00:00Z' TO '2024-01-03T18:00:00Z'` : "";
  const align = r.pick([
    "",
    " ALIGN TO CALENDAR",
    " ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'",
    " ALIGN TO CALENDAR WITH OFFSET '00:15'",
    ...(range ? [] : [" ALIGN TO FIRST OBSERVATION"]),
  ]);
  // FROM/TO needs the subquery's timestamp declared (QuestDB: "Sample by requires a designated TIMESTAMP").
  const source = range ? `${input} TIMESTAMP(ts)` : input;
  return `SELECT ts, ${keys}${aggs.join(", ")} FROM ${source} SAMPLE BY ${stride}${range}${fill}${align}`;
}

const key = resultKey;

for (const seed of SEEDS) {
  Deno.test(`SAMPLE BY on the hash aggregation agrees with the row path (seed ${seed})`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_sbdiff_" });
    const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
    try {
      await engine.execute(
        "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, i INT, d DOUBLE, str STRING, t2 TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY",
        adminSession(),
      );
      const r = rng(seed * 6151);
      const values = Array.from({ length: 600 }, (_, n) => rowLiterals(r, n));
      await engine.execute(`INSERT INTO t VALUES ${values.join(", ")}`, adminSession());
      let compared = 0, nonEmpty = 0;
      for (let i = 0; i < SHAPES_PER_SEED; i++) {
        const sql = shapeOf(r);
        setReferenceExecution(false);
        let got: unknown[][];
        try {
          got = await rows(engine, sql);
        } catch (e) {
          // A shape the dialect refuses must be refused by the reference too.
          if (Deno.env.get("SB_VERBOSE")) console.log(String(e).slice(0, 160), sql);
          setReferenceExecution(true);
          await assert.rejects(rows(engine, sql), Error, `${sql}: hash path failed with ${e}`);
          setReferenceExecution(false);
          continue;
        }
        setReferenceExecution(true);
        let want: unknown[][];
        try {
          want = await rows(engine, sql);
        } finally {
          setReferenceExecution(false);
        }
        assert.equal(key(got), key(want), sql);
        compared++;
        if (got.length > 0) nonEmpty++;
      }
      assert.ok(compared >= SHAPES_PER_SEED * 0.8, `only ${compared} shapes compared`);
      assert.ok(nonEmpty >= SHAPES_PER_SEED / 2, `only ${nonEmpty} shapes returned rows`);
    } finally {
      setReferenceExecution(false);
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
