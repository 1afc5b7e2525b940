/**
 * read_parquet over ENUM and JSON columns (issue #21 bug): both read as VARCHAR text, as DuckDB
 * reads them, where they came back as byte lists ("115,97,100") and parsed objects
 * ("[object Object]"). DuckDB writes its ENUM type as UTF8 strings and JSON with the JSON
 * converted and logical types; the ENUM converted type (parquet-mr's, for Avro and Protobuf
 * enums) is written here with hyparquet-writer, and DuckDB's reading of that file is the
 * reference.
 */
import assert from "node:assert/strict";
import { parquetMetadata } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import { adminSession, Engine } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { openDuck } from "./duckdb.ts";

async function columnTypes(engine: Engine, sql: string): Promise<string[]> {
  const out = await engine.execute(sql, adminSession());
  if (out.kind !== "rows") throw new Error(`expected rows from ${sql}`);
  for await (const _ of out.batches) { /* drain */ }
  return out.columns.map((c) => c.type.tag);
}

Deno.test("read_parquet: ENUM and JSON columns read as VARCHAR text, as DuckDB reads them", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_text_types_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const duck = await openDuck();
  try {
    await Deno.mkdir(`${root}/import`, { recursive: true });
    // DuckDB's file: ENUM, JSON (objects, arrays, scalars, text kept as written), NULLs, with
    // dictionary pages for the low-cardinality columns and several row groups.
    await duck.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
    await duck.run(
      `COPY (SELECT i::INT id,
          CASE WHEN i % 4 = 0 THEN NULL ELSE (['sad', 'ok', 'happy'])[i % 3 + 1]::mood END m,
          CASE WHEN i % 5 = 0 THEN NULL
               WHEN i % 5 = 1 THEN ('{"a": ' || i || ', "b": [1.50, "x", null], "c": {"d": true}}')::JSON
               WHEN i % 5 = 2 THEN ('[' || i || ', "é"]')::JSON
               WHEN i % 5 = 3 THEN '"text"'::JSON
               ELSE (i * 1.25)::VARCHAR::JSON END j
        FROM range(6000) r(i)) TO '${root}/import/duck.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1024)`,
    );
    const duckMeta = parquetMetadata((await Deno.readFile(`${root}/import/duck.parquet`)).buffer);
    assert.equal(duckMeta.schema.find((e) => e.name === "j")?.converted_type, "JSON");
    assert.ok(duckMeta.row_groups.length >= 3, "several row groups");
    assert.deepEqual(
      await columnTypes(engine, "SELECT * FROM read_parquet('duck.parquet')"),
      ["INT", "VARCHAR", "VARCHAR"],
    );
    const want = await duck.rows(
      `SELECT id, m::VARCHAR m, j::VARCHAR j FROM read_parquet('${root}/import/duck.parquet') ORDER BY id`,
    );
    const got = await rows(engine, "SELECT id, m, j FROM read_parquet('duck.parquet') ORDER BY id");
    assert.equal(got.length, 6000);
    assert.deepEqual(got.map(([id, m, j]) => ({ id, m, j })), want);
    assert.equal(got[1][2], '{"a": 1, "b": [1.50, "x", null], "c": {"d": true}}', "JSON text as written");
    // The text works as text: filters and JSON functions over it.
    const [[n]] = await rows(engine, "SELECT count() FROM read_parquet('duck.parquet') WHERE m = 'happy'");
    assert.equal(n, BigInt(want.filter((r) => r.m === "happy").length));

    // The ENUM converted type (BYTE_ARRAY annotated ENUM), dictionary-encoded, with NULLs.
    const moods = ["sad", "ok", "happy", "très bien"];
    const values = Array.from({ length: 2500 }, (_, i) => i % 7 === 0 ? null : moods[i % 4]);
    const enc = new TextEncoder();
    const file = parquetWriteBuffer({
      schema: [
        { name: "root", num_children: 2 },
        { name: "id", type: "INT32", repetition_type: "REQUIRED" },
        {
          name: "e",
          type: "BYTE_ARRAY",
          repetition_type: "OPTIONAL",
          converted_type: "ENUM",
          logical_type: { type: "ENUM" },
        },
      ],
      columnData: [
        { name: "id", data: Int32Array.from({ length: 2500 }, (_, i) => i) },
        { name: "e", data: values.map((v) => v === null ? null : enc.encode(v)) },
      ],
      rowGroupSize: 1000,
    });
    await Deno.writeFile(`${root}/import/enum.parquet`, new Uint8Array(file));
    const enumMeta = parquetMetadata(file);
    assert.equal(enumMeta.schema[2].converted_type, "ENUM");
    assert.deepEqual(
      await columnTypes(engine, "SELECT * FROM read_parquet('enum.parquet')"),
      ["INT", "VARCHAR"],
    );
    const duckEnum = await duck.rows(
      `SELECT id, e::VARCHAR e FROM read_parquet('${root}/import/enum.parquet') ORDER BY id`,
    );
    assert.deepEqual(duckEnum.map((r) => r.e), values, "DuckDB reads the ENUM file as written");
    const gotEnum = await rows(engine, "SELECT id, e FROM read_parquet('enum.parquet') ORDER BY id");
    assert.deepEqual(gotEnum.map(([id, e]) => ({ id, e })), duckEnum);
    const grouped = await rows(
      engine,
      "SELECT e, count() FROM read_parquet('enum.parquet') WHERE e IS NOT NULL ORDER BY e",
    );
    assert.deepEqual(
      grouped.map(([e, c]) => [e, Number(c)]),
      [...moods].sort().map((m) => [m, values.filter((v) => v === m).length]),
    );
  } finally {
    duck.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
