/**
 * concat / || over numbers, times, symbols and texts, and cast(... AS STRING | VARCHAR) of
 * numbers, booleans and times, evaluated over whole batches (engine/exec/vector/text_batch.ts)
 * against the row-at-a-time reference (`bothWays`): projections (asserted to run as batch
 * loops), GROUP BY keys, NULLs of every type, empty texts, -0, non-finite results, LONGs past
 * 2^53, and an empty table.
 */
import { adminSession, Engine } from "../../../engine/mod.ts";
import { batchFormsAgree } from "../_batch_agree.ts";
import { rng } from "../../fuzz/prng.ts";

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_textbatch_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    const ddl = "(ts TIMESTAMP, s SYMBOL, str STRING, vc VARCHAR, i INT, l LONG, d DOUBLE, f FLOAT, " +
      "h SHORT, b BYTE, bo BOOLEAN, dt DATE) TIMESTAMP(ts)";
    await engine.execute(`CREATE TABLE t ${ddl} PARTITION BY DAY`, adminSession());
    await engine.execute(`CREATE TABLE e ${ddl}`, adminSession());
    const r = rng(2024);
    const rows: string[] = [];
    const nul = (x: string) => r.chance(0.12) ? "NULL" : x;
    for (let n = 0; n < 1500; n++) {
      const ts = `'2024-01-0${1 + (n % 3)}T${String(n % 24).padStart(2, "0")}:00:00.${n}Z'`;
      rows.push(
        `(${ts}, ${nul(r.pick(["'a'", "''", "'BTC-USD'", "'ü'"]))}, ${nul(r.pick(["'x'", "''", "'y z'"]))}, ${
          nul(r.pick(["'v'", "''", "'ünï'"]))
        }, ${nul(r.pick(["0", "-1", "2147483647", "-2147483647", String(r.int(100000))]))}, ${
          nul(
            r.pick(["0", "-9007199254740993", "9007199254740993", "123456789012", "-5", String(r.int(1e6))]),
          )
        }, ${
          nul(
            r.pick([
              "0.0",
              "-0.0",
              "1e7",
              "9999999.5",
              "0.001",
              "0.0001",
              "1e300",
              "-2.5",
              String(r.next() * 1000),
            ]),
          )
        }, ${nul(r.pick(["0.1", "-3.5", "1e10", "7.0"]))}, ${nul(r.pick(["0", "-300", "32767"]))}, ${
          nul(r.pick(["0", "-7", "127"]))
        }, ${r.pick(["true", "false"])}, ${
          nul(r.pick(["'2024-02-29T10:00:00.123Z'", "'1969-12-31T23:59:59.999Z'"]))
        })`,
      );
    }
    for (let at = 0; at < rows.length; at += 500) {
      await engine.execute(`INSERT INTO t VALUES ${rows.slice(at, at + 500).join(", ")}`, adminSession());
    }
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const EXPRS = [
  "cast(i AS STRING)",
  "cast(l AS VARCHAR)",
  "cast(d AS STRING)",
  "cast(f AS STRING)",
  "cast(h AS STRING)",
  "cast(b AS VARCHAR)",
  "cast(bo AS STRING)",
  "cast(ts AS STRING)",
  "cast(dt AS VARCHAR)",
  "cast(d * 1e308 AS STRING)",
  "cast(round(d, 1) AS STRING)",
  "cast(l + 1 AS STRING)",
  "concat(s, d)",
  "s || '-' || i",
  "concat(d, l)",
  "concat(str, i)",
  "concat(vc, s, d)",
  "concat(NULL, d)",
  "concat(d, 1.5, 'x', 7, NULL)",
  "str || vc",
  "concat(ts, s)",
  "concat(f, h, b, bo, dt)",
  // Constants as the row path's concat writes them: a DATE as epoch ms, a NULL DECIMAL as `null`.
  "concat(i, cast('2024-02-29' AS DATE), cast(NULL AS DECIMAL(5, 2)))",
  "concat(i * 2, '/', l % 7)",
];

Deno.test("concat and casts to text over batches agree with the row path", () =>
  withTable((engine) => batchFormsAgree(engine, EXPRS, [], 1500)));

Deno.test("text CASE with column and expression branches agrees with the row path", () =>
  withTable((engine) =>
    batchFormsAgree(
      engine,
      [
        "CASE WHEN d > 0 THEN s ELSE str END",
        "CASE WHEN i IS NULL THEN vc WHEN d < 0 THEN 'neg' ELSE concat(s, i) END",
        "CASE WHEN s = 'a' THEN NULL ELSE cast(d AS STRING) END",
        "CASE WHEN bo THEN str END",
        "CASE WHEN i > 50000 THEN upper(vc) WHEN i > 100 THEN s ELSE cast(l AS STRING) END",
      ],
      [],
      1500,
    )
  ));
