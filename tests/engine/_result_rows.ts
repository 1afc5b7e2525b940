/** The rows of a statement run as admin, cells as `readValue` gives them (engine tests). */
import { adminSession, type Engine, readValue } from "../../engine/mod.ts";

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
