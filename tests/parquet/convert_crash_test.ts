/**
 * Crash safety of CONVERT PARTITION (issue #21): a child process converts partitions to
 * Parquet and back in a loop; the parent SIGKILLs it at random moments, reopens the root and
 * checks that the table answers exactly as before and that recovery left no stray folder.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type Value } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { runAndKill } from "./_kill_loop.ts";

const QUERIES = [
  "SELECT sym, count(), sum(l), sum(d), count(vc), min(ts), max(ts) FROM t GROUP BY sym ORDER BY sym",
  "SELECT * FROM t WHERE l % 997 = 0",
];

async function answers(root: string): Promise<{ text: string; formats: Value[][] }> {
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const out: Value[][][] = [];
    for (const q of QUERIES) out.push(await rows(engine, q));
    const formats = await rows(engine, "SELECT name, isParquet FROM table_partitions('t')");
    return { text: JSON.stringify(out, (_, v) => typeof v === "bigint" ? `${v}n` : v), formats };
  } finally {
    await engine.close();
  }
}

Deno.test({
  name: "SIGKILL during CONVERT PARTITION leaves the table answering as before",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_pq_crash_" });
    try {
      const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
      await engine.execute(
        `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 4000000L) ts, rnd_symbol('A','B','C') sym,
           x l, CASE WHEN x % 9 = 0 THEN NULL ELSE x * 0.5 END d,
           CASE WHEN x % 6 = 0 THEN NULL ELSE 'v' || x END vc
         FROM long_sequence(100000)) TIMESTAMP(ts) PARTITION BY DAY`,
        adminSession(),
      );
      await engine.close();
      const before = await answers(root);
      let commits = 0;
      const rounds = 6;
      for (let round = 0; round < rounds; round++) {
        commits += await runAndKill({
          script: "./_convert_crash_child.ts",
          args: [root],
          commitWord: "converted",
          label: "converter",
          workMs: 50 + Math.floor(Math.random() * 900),
        });
        const after = await answers(root);
        assert.equal(after.text, before.text, `round ${round}: answers changed after the kill`);
        assert.equal(after.formats.length, before.formats.length);
        const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("t~"))!.name;
        const folders = [...Deno.readDirSync(`${root}/${tableDir}`)].filter((e) => e.isDirectory).length;
        assert.equal(folders, before.formats.length, `round ${round}: recovery left stray partition folders`);
      }
      // The kills must have landed both between and during conversions for the test to mean anything.
      console.log(`${rounds} kills, ${commits} conversions committed in between`);
      assert.ok(commits > 0, "no conversion ever committed: the child is too slow for the kill windows");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
