/**
 * The differential check of the batch expression forms (engine/exec/vector/batch_eval.ts) used by
 * several tests: over a table `t` of `rows` rows and an empty table `e` of the same columns, each
 * expression as a projection (asserted to run as `[batch loops]` over t) and as a GROUP BY key,
 * and each filter (asserted to run as `Filter [batch loop]` over t), give the row reference's
 * answer.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../engine/mod.ts";
import { bothWays, resultKey } from "./_result_rows.ts";

export async function batchFormsAgree(
  engine: Engine,
  exprs: string[],
  filters: string[],
  rows: number,
): Promise<void> {
  for (const x of exprs) {
    for (
      const sql of [
        `SELECT ${x} FROM t`,
        `SELECT ${x} k, count(*) FROM t GROUP BY k ORDER BY k`,
        `SELECT ${x} FROM e`,
      ]
    ) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.equal(resultKey(got), resultKey(want), sql);
      if (sql.endsWith("FROM t")) {
        assert.equal(got.length, rows, sql);
        assert.match(plan, /\[batch loops\]/, `${sql}\n${plan}`);
      }
    }
  }
  for (const w of filters) {
    for (const sql of [`SELECT count(*), sum(i) FROM t WHERE ${w}`, `SELECT count(*) FROM e WHERE ${w}`]) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.equal(resultKey(got), resultKey(want), sql);
      if (sql.includes("FROM t")) assert.match(plan, /Filter \[batch loop\]/, `${sql}\n${plan}`);
    }
  }
}
