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
