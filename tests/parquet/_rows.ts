/**
 * The rows of a statement run as admin, cells as `readValue` gives them. Unlike
 * tests/engine/_result_rows.ts it throws when the statement answers no rows, so a Parquet test
 * cannot pass by comparing two empty answers.
 */
import { adminSession, type Engine, readValue, type Value } from "../../engine/mod.ts";

export async function rows(engine: Engine, sql: string): Promise<Value[][]> {
  const o = await engine.execute(sql, adminSession());
  if (o.kind !== "rows") throw new Error(`expected rows from ${sql}`);
  const out: Value[][] = [];
  for await (const b of o.batches) {
    for (let i = 0; i < b.rowCount; i++) out.push(b.columns.map((c) => readValue(c, i)));
  }
  return out;
}
