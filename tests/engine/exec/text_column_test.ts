/**
 * Expressions of one STRING or VARCHAR column evaluated once per distinct text of a batch
 * (engine/exec/vector/text_column.ts) against the row-at-a-time reference (`bothWays`): text
 * functions, LIKE, comparisons, numbers of the texts, as projections (asserted batch loops),
 * GROUP BY keys and filters; NULLs, empty texts, non-ASCII texts, an empty table, and a column
 * of distinct texts (after a batch of mostly new texts the rest goes row by row).
 */
import { adminSession, Engine } from "../../../engine/mod.ts";
import { batchFormsAgree } from "../_batch_agree.ts";
import { rng } from "../../fuzz/prng.ts";

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_textcol_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    const ddl = "(ts TIMESTAMP, str STRING, vc VARCHAR, uid VARCHAR, i INT) TIMESTAMP(ts)";
    await engine.execute(`CREATE TABLE t ${ddl} PARTITION BY DAY`, adminSession());
    await engine.execute(`CREATE TABLE e ${ddl}`, adminSession());
    const r = rng(99);
    const rows: string[] = [];
    const nul = (x: string) => r.chance(0.12) ? "NULL" : x;
    for (let n = 0; n < 5000; n++) {
      // Day 1 holds 3000 rows (a batch past 1024 rows of distinct uids), the others fewer.
      const day = n < 3000 ? 1 : 2 + (n % 3);
      const ts = `'2024-01-0${day}T00:00:00.${String(n).padStart(6, "0")}Z'`;
      rows.push(
        `(${ts}, ${nul(r.pick(["'a'", "''", "'abc'", "' pad '", "'Ünï'", "'x_y%'"]))}, ${
          nul(r.pick(["'v'", "''", "'ünï'", "'BTC-USD'", "'  '"]))
        }, ${nul(`'id${n}-${r.int(1000)}'`)}, ${r.chance(0.1) ? "NULL" : r.int(10)})`,
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

Deno.test("expressions of one STRING/VARCHAR column agree with the row path", () =>
  withTable((engine) =>
    batchFormsAgree(engine, [
      "upper(str)",
      "lower(vc)",
      "length(str)",
      "length(vc) * 2 + i",
      "substring(vc, 2, 2)",
      "left(str, 1)",
      "right(vc, 2)",
      "replace(str, 'a', 'b')",
      "trim(str)",
      "strpos(str, 'b')",
      "starts_with(vc, 'ü')",
      "str LIKE 'a%'",
      "vc ILIKE '%Ü%'",
      "str = ''",
      "str IS NULL",
      "coalesce(str, 'none')",
      "concat(upper(str), i)",
      "length(uid)",
      "upper(uid)",
    ], [
      "length(str) > 1",
      "str LIKE '%a%'",
      "vc ILIKE 'ü%'",
      "starts_with(str, 'a') AND i > 5",
      "str = '' OR i = 3",
      "NOT (upper(vc) = 'V')",
      "upper(uid) LIKE '%1-%'",
      "length(uid) = 9",
    ], 5000)
  ));
