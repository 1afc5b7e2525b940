/**
 * Engine-level SQL tests of the PostgreSQL catalog spellings (pg_*_test.ts): run a statement as
 * admin and read its result as column names, type tags and raw cell data; open an engine on a
 * temporary root with a few set-up statements.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";

export async function query(
  engine: Engine,
  sql: string,
): Promise<{ names: string[]; types: string[]; rows: unknown[][] }> {
  const out = await engine.execute(sql, adminSession());
  assert.equal(out.kind, "rows");
  if (out.kind !== "rows") return { names: [], types: [], rows: [] };
  const rows: unknown[][] = [];
  for await (const b of out.batches) {
    for (let r = 0; r < b.rowCount; r++) rows.push(b.columns.map((c) => c.data[r]));
  }
  return { names: out.columns.map((c) => c.name), types: out.columns.map((c) => c.type.tag), rows };
}

/** Runs `fn` on a fresh engine (no worker heaps) after `setup`; removes the root after. */
export async function withEngine(
  prefix: string,
  setup: string[],
  fn: (engine: Engine) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix });
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    for (const sql of setup) await engine.execute(sql, adminSession());
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}
