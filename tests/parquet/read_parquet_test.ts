/**
 * read_parquet('file') / parquet_scan (issue #21): files DuckDB writes (every type that maps,
 * NULLs, dictionary and plain pages, several row groups, each codec) read under
 * cairo.sql.copy.root and compared with DuckDB's own answers; joins with a table; paths
 * outside the root refused.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type Value } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { openDuck } from "./duckdb.ts";

const DUCK_TABLE = `CREATE TABLE src AS SELECT
  i::INT id,
  CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 END b,
  (i % 100)::TINYINT t8,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 3)::SMALLINT END s16,
  CASE WHEN i % 11 = 0 THEN NULL ELSE i * 1000 END i32,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i::BIGINT * 10000000000 END i64,
  CASE WHEN i % 3 = 0 THEN NULL ELSE (i / 4)::FLOAT END f32,
  CASE WHEN i % 17 = 0 THEN NULL ELSE i / 8.0 END f64,
  CASE WHEN i % 19 = 0 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::INT END d,
  TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 1000003) ts,
  CASE WHEN i % 23 = 0 THEN NULL ELSE 'sym' || (i % 10) END lowcard,
  CASE WHEN i % 29 = 0 THEN NULL ELSE md5(i::VARCHAR) END highcard,
  CASE WHEN i % 31 = 0 THEN NULL ELSE uuid_extract_uuid(i) END u,
  CASE WHEN i % 37 = 0 THEN NULL ELSE ('\\x' || lpad(to_hex(i % 256), 2, '0'))::BLOB END bin
FROM range(1, 5001) r(i)`;

Deno.test("read_parquet reads what DuckDB writes, as DuckDB reads it", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_read_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const duck = await openDuck();
  try {
    await Deno.mkdir(`${root}/import/sub`, { recursive: true });
    await duck.run(DUCK_TABLE.replace("uuid_extract_uuid(i)", "md5(i::VARCHAR)::UUID"));
    const codecs = ["snappy", "zstd", "uncompressed", "gzip", "lz4_raw"];
    for (const codec of codecs) {
      await duck.run(
        `COPY src TO '${root}/import/sub/${codec}.parquet' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1024)`,
      );
    }
    const [{ n_groups: groups }] = await duck.rows(
      `SELECT count(DISTINCT row_group_id)::INT n_groups FROM parquet_metadata('${root}/import/sub/zstd.parquet')`,
    );
    assert.ok((groups as number) >= 3, `several row groups (${groups})`);
    const encodings = await duck.rows(
      `SELECT DISTINCT path_in_schema p, encodings e FROM parquet_metadata('${root}/import/sub/zstd.parquet')
       WHERE path_in_schema IN ('lowcard', 'highcard')`,
    );
    assert.ok(encodings.some((e) => e.p === "lowcard" && String(e.e).includes("DICTIONARY")), "dictionary");
    assert.ok(encodings.some((e) => e.p === "highcard" && !String(e.e).includes("DICTIONARY")), "plain");

    const want = await duck.rows(`SELECT id, b::VARCHAR b, t8::VARCHAR t8, s16::VARCHAR s16,
      i32::VARCHAR i32, i64::VARCHAR i64, f32::DOUBLE f32, f64, epoch_ms(d)::VARCHAR d, epoch_us(ts)::VARCHAR ts,
      lowcard, highcard, u::VARCHAR u, hex(bin) bin FROM src ORDER BY id`);
    const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("").toUpperCase();
    for (const codec of codecs) {
      const fn = codec === "zstd" ? "parquet_scan" : "read_parquet";
      const got = await rows(engine, `SELECT * FROM ${fn}('sub/${codec}.parquet') ORDER BY id`);
      assert.equal(got.length, 5000, codec);
      for (let r = 0; r < want.length; r++) {
        const w = want[r];
        const g = got[r];
        const text = (v: Value) => v === null ? null : String(v);
        const actual = {
          id: g[0],
          b: text(g[1]),
          t8: text(g[2]),
          s16: text(g[3]),
          i32: text(g[4]),
          i64: text(g[5]),
          f32: g[6],
          f64: g[7],
          d: text(g[8]),
          ts: text(g[9]),
          lowcard: g[10],
          highcard: g[11],
          u: g[12],
          bin: g[13] === null ? null : hex(g[13] as Uint8Array),
        };
        // BOOLEAN, BYTE and SHORT are not nullable in the engine (QuestDB): NULL reads as false / 0.
        assert.deepEqual(actual, { ...w, b: w.b ?? "false", s16: w.s16 ?? "0" }, `${codec} row ${r}`);
      }
    }
    // Joins with a table; filters and aggregates run over it like over any source.
    await engine.execute("CREATE TABLE names (k SYMBOL, label STRING)", adminSession());
    await engine.execute("INSERT INTO names VALUES ('sym1', 'one'), ('sym2', 'two')", adminSession());
    const joined = await rows(
      engine,
      `SELECT n.label, count(), sum(p.id) FROM read_parquet('sub/snappy.parquet') p JOIN names n ON p.lowcard = n.k
       WHERE p.id > 100 ORDER BY 1`,
    );
    const duckJoined = await duck.rows(
      `SELECT CASE lowcard WHEN 'sym1' THEN 'one' ELSE 'two' END lbl, count(*)::VARCHAR c, sum(id)::VARCHAR s
       FROM src WHERE lowcard IN ('sym1', 'sym2') AND id > 100 GROUP BY 1 ORDER BY 1`,
    );
    assert.deepEqual(
      joined.map((r) => [r[0], String(r[1]), String(r[2])]),
      duckJoined.map((r) => [r.lbl, r.c, r.s]),
    );
    // An absolute path inside the root is fine.
    const abs = await rows(engine, `SELECT count() FROM read_parquet('${root}/import/sub/gzip.parquet')`);
    assert.equal(abs[0][0], 5000n);
  } finally {
    duck.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("read_parquet refuses paths outside cairo.sql.copy.root and bad files with a position", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_read_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    await Deno.mkdir(`${root}/import`, { recursive: true });
    await Deno.writeTextFile(`${root}/import/not.parquet`, "hello, this is not parquet");
    for (
      const [sql, message, pos] of [
        ["SELECT * FROM read_parquet('../x.parquet')", /'\.\.' is not allowed/, 27],
        ["SELECT * FROM read_parquet('/etc/passwd')", /outside cairo.sql.copy.root/, 27],
        ["SELECT * FROM read_parquet('missing.parquet')", /could not open parquet file/, 27],
        ["SELECT * FROM read_parquet('not.parquet')", /not a parquet file/, 27],
        ["SELECT * FROM read_parquet(1)", /expects one argument, the file path/, 14],
      ] as const
    ) {
      await assert.rejects(engine.execute(sql, adminSession()), (e: Error & { position?: number }) => {
        assert.match(e.message, message, sql);
        assert.equal(e.position, pos, sql);
        return true;
      });
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
