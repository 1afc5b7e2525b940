/**
 * Crash safety of partition rewrites written in slices (engine/storage/column_rewrite.ts,
 * issue #17): a child process rewrites a 150,000-row partition (three slices) in a loop —
 * UPDATE of every row, an out-of-order INSERT merged into it, a DELETE — and the parent
 * SIGKILLs it at random moments, reopens the root and checks that the table is one whole
 * committed state: every original row once with its own values, all rows updated the same
 * number of times, the merged row there or not, and no stray partition folder.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { runAndKill } from "../../parquet/_kill_loop.ts";

const N = 150_000;

async function check(root: string, round: number): Promise<void> {
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    const [[count, sum, wrongText, minN, maxN, merged]] = await rows(
      engine,
      "SELECT count(*) FILTER (WHERE x > 0), sum(x) FILTER (WHERE x > 0), " +
        "count(*) FILTER (WHERE x > 0 AND str <> cast(x AS STRING)), min(n) FILTER (WHERE x > 0), max(n) FILTER (WHERE x > 0), count(*) FILTER (WHERE x < 0) FROM t",
    );
    const state =
      `round ${round}: count ${count}, sum ${sum}, wrong text ${wrongText}, n ${minN}..${maxN}, merged ${merged}`;
    console.log(state);
    assert.equal(count, BigInt(N), state);
    assert.equal(sum, BigInt(N) * BigInt(N + 1) / 2n, state);
    assert.equal(wrongText, 0n, state);
    assert.equal(minN, maxN, state);
    assert.ok(merged === 0n || merged === 1n, state);
  } finally {
    await engine.close();
  }
  const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("t~"))!.name;
  const folders = [...Deno.readDirSync(`${root}/${tableDir}`)].filter((e) => e.isDirectory).length;
  assert.equal(folders, 1, `round ${round}: recovery left stray partition folders`);
}

Deno.test({
  name: "SIGKILL during sliced UPDATE, out-of-order merge and DELETE leaves one whole committed state",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_rewrite_crash_" });
    try {
      const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT dateadd('u', (x * 1000)::int, '2024-01-01'::timestamp) ts, x, " +
          `cast(x AS STRING) str, 0 n FROM long_sequence(${N})) TIMESTAMP(ts) PARTITION BY DAY`,
      );
      await engine.close();
      await check(root, -1);
      let commits = 0;
      for (let round = 0; round < 6; round++) {
        commits += await runAndKill({
          script: "../engine/storage/_rewrite_crash_child.ts",
          args: [root],
          commitWord: "committed",
          label: "rewriter",
          workMs: 200 + Math.floor(Math.random() * 2500),
        });
        await check(root, round);
      }
      console.log(`6 kills, ${commits} rewrites committed in between`);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
