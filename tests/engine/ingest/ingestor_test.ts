/** The Ingestor: table and column creation on first sight, per-row checks, prefix commits (spec/protocols.md §10.5). */
import assert from "node:assert/strict";
import {
  adminSession,
  Engine,
  IngestBlock,
  readValue,
  type Value,
  ValueKinds as K,
} from "../../../engine/mod.ts";
import { storageOf } from "../../../engine/engine.ts";
import { Ingestor } from "../../../engine/ingest/mod.ts";

async function withEngine(fn: (e: Engine, rows: (sql: string) => Promise<Value[][]>) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_ingest_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  const rows = async (sql: string) => {
    const out = await engine.execute(sql, adminSession());
    const result: Value[][] = [];
    if (out.kind === "rows") {
      for await (const b of out.batches) {
        for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
      }
    }
    return result;
  };
  try {
    await fn(engine, rows);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

function block(
  table: string,
  cells: [string, number, number | string | bigint][][],
  ts: number[],
): IngestBlock {
  const b = new IngestBlock(table);
  cells.forEach((row, r) => {
    const i = b.beginRow(r + 1);
    b.timestamps[i] = ts[r];
    for (const [name, kind, v] of row) {
      const c = b.cell(name, i, r + 1)!;
      if (typeof v === "number") c.setNum(i, kind as never, v);
      else c.setRef(i, kind as never, v);
    }
    b.endRow();
  });
  return b;
}

Deno.test("ingestor creates a DAY-partitioned table with timestamp last", async () => {
  await withEngine(async (engine, rows) => {
    const ing = new Ingestor(storageOf(engine));
    const n = await ing.ingest(
      block("t", [[["s", K.SYMBOL, "a"], ["v", K.DOUBLE, 1.5], ["n", K.LONG, 7]]], [86400000000]),
    );
    assert.equal(n, 1);
    const meta = storageOf(engine).table("t")!.meta;
    assert.equal(meta.partitionBy, "DAY");
    assert.deepEqual(meta.columns.map((c) => `${c.name}:${c.type.tag}`), [
      "s:SYMBOL",
      "v:DOUBLE",
      "n:LONG",
      "timestamp:TIMESTAMP",
    ]);
    assert.equal(meta.timestampIndex, 3);
    assert.deepEqual(await rows("SELECT * FROM t"), [["a", 1.5, 7n, 86400000000n]]);
  });
});

Deno.test("ingestor prepare touches nothing and finds the first bad row", async () => {
  await withEngine(async (engine) => {
    const ing = new Ingestor(storageOf(engine));
    await ing.ingest(block("t", [[["v", K.LONG, 1]]], [1]));
    const p = ing.prepare(
      block("t", [[["v", K.LONG, 2]], [["v", K.STRING, "x"]], [["w", K.LONG, 3]]], [2, 3, 4]),
    );
    assert.equal(p.error?.row, 1);
    assert.match(p.error!.message, /cast error from protocol type: STRING to column type: LONG/);
    assert.equal(storageOf(engine).table("t")!.meta.columns.length, 2, "column w not added by prepare");
    assert.equal(await ing.commit(p), 1);
  });
});

Deno.test("ingestor prepares again when the table changed since prepare", async () => {
  await withEngine(async (engine, rows) => {
    const ing = new Ingestor(storageOf(engine));
    await ing.ingest(block("t", [[["v", K.LONG, 1]]], [1]));
    const p = ing.prepare(block("t", [[["v", K.LONG, 2], ["x", K.LONG, 5]]], [2]));
    await engine.execute("ALTER TABLE t ADD COLUMN x DOUBLE", adminSession());
    assert.equal(await ing.commit(p), 1);
    assert.deepEqual(await rows("SELECT v, x FROM t"), [[1n, null], [2n, 5]]);
  });
});

Deno.test("ingestor rejects negative designated timestamps per row and can skip bad rows", async () => {
  await withEngine(async (engine, rows) => {
    const ing = new Ingestor(storageOf(engine));
    const bad = ing.prepare(block("t", [[["v", K.LONG, 1]], [["v", K.LONG, 2]]], [1, -5]));
    assert.match(bad.error!.message, /before 1970/);
    assert.equal(bad.rowCount, 1);
    const skip = ing.prepare(
      block("t", [[["v", K.LONG, 1]], [["v", K.BOOLEAN, 1]], [["v", K.LONG, 3]]], [1, 2, 3]),
      { onBad: "skipRow" },
    );
    assert.equal(await ing.commit(skip), 2);
    assert.deepEqual(await rows("SELECT v FROM t"), [[1n], [3n]]);
  });
});
