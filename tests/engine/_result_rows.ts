/** The rows of a statement run as admin, cells as `readValue` gives them (engine tests). */
import assert from "node:assert/strict";
import { adminSession, type Engine, readValue } from "../../engine/mod.ts";
import { setReferenceExecution } from "../../engine/exec/vector/physical.ts";

export async function rows(engine: Engine, sql: string): Promise<unknown[][]> {
  const out = await engine.execute(sql, adminSession());
  const result: unknown[][] = [];
  if (out.kind === "rows") {
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
    }
  }
  return result;
}

/** The EXPLAIN of `sql`, one plan line per line. */
export async function explain(engine: Engine, sql: string): Promise<string> {
  return (await rows(engine, `EXPLAIN ${sql}`)).map((r) => r[0]).join("\n");
}

/** JSON of result values with bigints marked (`5n`), for comparing whole results. */
export const resultKey = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));

/**
 * The rows of `sql` on the operators the planner picks and on the row-at-a-time reference
 * (`setReferenceExecution`), and the picked plan; the reference plan must not name a
 * vectorized hash operator.
 */
export async function bothWays(
  engine: Engine,
  sql: string,
): Promise<{ got: unknown[][]; want: unknown[][]; plan: string }> {
  setReferenceExecution(false);
  const plan = await explain(engine, sql);
  const got = await rows(engine, sql);
  setReferenceExecution(true);
  try {
    assert.doesNotMatch(await explain(engine, sql), /vectorized hash/);
    return { got, want: await rows(engine, sql), plan };
  } finally {
    setReferenceExecution(false);
  }
}
