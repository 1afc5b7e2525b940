/**
 * COPY ... TO 'dest' WITH FORMAT PARQUET (issue #21, spec/sql.md §26.4): files land under
 * cairo.sql.copy.export.root with QuestDB's names (one file `<dest>.parquet`, several
 * `<dest>/<partition>.parquet`), sys.copy_export_log holds QuestDB's phase rows, options are
 * validated with QuestDB's texts and positions, and DuckDB reads every file with the same answers.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type SqlError } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import pg from "pg";
import { startServer } from "../e2e/server_process.ts";
import { openDuck } from "./duckdb.ts";

async function failure(engine: Engine, sql: string): Promise<[string, number]> {
  try {
    await engine.execute(sql, adminSession());
  } catch (e) {
    return [(e as SqlError).message, (e as SqlError).position];
  }
  throw new Error(`expected an error from ${sql}`);
}

async function withEngine(fn: (engine: Engine, root: string) => Promise<void>, exportRoot?: string) {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_copy_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, copyExportRoot: exportRoot });
  try {
    await fn(engine, root);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const TABLE = `CREATE TABLE trades AS (
  SELECT timestamp_sequence('2024-01-01', 3600000000L) ts,
         rnd_symbol('A','B','C') sym, x * 1.5 price, x qty,
         CASE WHEN x % 7 = 0 THEN NULL ELSE 'n' || x END note
  FROM long_sequence(100)) TIMESTAMP(ts) PARTITION BY DAY`;

Deno.test("COPY table TO writes one file per partition that DuckDB reads back", async () => {
  await withEngine(async (engine, root) => {
    await engine.execute(TABLE, adminSession());
    const [[id]] = await rows(engine, "COPY trades TO 'trades_export' WITH FORMAT PARQUET");
    assert.match(String(id), /^[0-9a-f]{16}$/);
    const files = [...Deno.readDirSync(`${root}/export/trades_export`)].map((e) => e.name).sort();
    assert.deepEqual(files, [
      "2024-01-01.parquet",
      "2024-01-02.parquet",
      "2024-01-03.parquet",
      "2024-01-04.parquet",
      "2024-01-05.parquet",
    ]);
    assert.ok(
      ![...Deno.readDirSync(`${root}/export`)].some((e) => e.name.startsWith("tmp_")),
      "temp folder removed",
    );

    const log = await rows(
      engine,
      `SELECT export_path, num_exported_files, phase, status FROM sys.copy_export_log WHERE id = '${id}'`,
    );
    assert.deepEqual(log.at(-1), [`${root}/export/trades_export/`, 5, "success", "finished"]);
    assert.deepEqual(log[0].slice(2), ["wait_to_run", "started"]);
    const quoted = await rows(engine, `SELECT count() FROM 'sys.copy_export_log'`);
    assert.equal(quoted[0][0], BigInt(log.length));

    const duck = await openDuck();
    try {
      const got = await duck.rows(
        `SELECT epoch_us(ts)::VARCHAR ts, sym, price, qty::VARCHAR qty, note
         FROM read_parquet('${root}/export/trades_export/*.parquet') ORDER BY ts`,
      );
      const want = await rows(engine, "SELECT ts, sym, price, qty, note FROM trades ORDER BY ts");
      assert.equal(got.length, 100);
      assert.deepEqual(
        got.map((r) => [r.ts, r.sym, r.price, r.qty, r.note]),
        want.map((r) => [String(r[0]), r[1], r[2], String(r[3]), r[4]]),
      );
      const perFile = await duck.rows(
        `SELECT count(*)::INT n FROM read_parquet('${root}/export/trades_export/2024-01-02.parquet')`,
      );
      assert.equal(perFile[0].n, 24);
    } finally {
      duck.close();
    }
  });
});

Deno.test("COPY (query) TO writes one <dest>.parquet; PARTITION_BY re-partitions a query", async () => {
  await withEngine(async (engine, root) => {
    await engine.execute(TABLE, adminSession());
    const [[id]] = await rows(
      engine,
      "COPY (SELECT ts, qty FROM trades WHERE qty > 90) TO 'top' WITH FORMAT PARQUET COMPRESSION_CODEC zstd ROW_GROUP_SIZE 4",
    );
    const [[path, n, table]] = await rows(
      engine,
      `SELECT export_path, num_exported_files, table_name FROM sys.copy_export_log WHERE id = '${id}' AND phase = 'success'`,
    );
    assert.deepEqual([path, n, table], [`${root}/export/top.parquet`, 1, "query"]);
    // The file reads back here too (read_parquet under a copy root set to the export root).
    const back = await Engine.open({ root: `${root}/other`, copyRoot: `${root}/export` });
    try {
      assert.deepEqual(await rows(back, "SELECT sum(qty), count() FROM read_parquet('top.parquet')"), [[
        955n,
        10n,
      ]]);
    } finally {
      await back.close();
    }
    const duck = await openDuck();
    try {
      const meta = await duck.rows(
        `SELECT DISTINCT compression, row_group_id FROM parquet_metadata('${root}/export/top.parquet') ORDER BY 2`,
      );
      assert.equal(meta.length, 3, "10 rows in groups of 4");
      assert.equal(meta[0].compression, "ZSTD");
      await rows(
        engine,
        "COPY (SELECT * FROM trades) TO 'monthly/by_day' WITH FORMAT PARQUET PARTITION_BY DAY",
      );
      const days = await duck.rows(
        `SELECT filename.split('/')[-1] f, count(*)::INT n FROM read_parquet('${root}/export/monthly/by_day/*.parquet', filename = true)
         GROUP BY 1 ORDER BY 1`,
      );
      assert.deepEqual(days.map((d) => [d.f, d.n]), [
        ["2024-01-01.parquet", 24],
        ["2024-01-02.parquet", 24],
        ["2024-01-03.parquet", 24],
        ["2024-01-04.parquet", 24],
        ["2024-01-05.parquet", 4],
      ]);
      await rows(engine, "COPY trades TO 'single' WITH FORMAT PARQUET PARTITION_BY NONE");
      const all = await duck.rows(
        `SELECT count(*)::INT n FROM read_parquet('${root}/export/single.parquet')`,
      );
      assert.equal(all[0].n, 100);
    } finally {
      duck.close();
    }
  });
});

Deno.test("COPY of an empty partitioned table exports no file; an empty query one file", async () => {
  await withEngine(async (engine, root) => {
    await engine.execute(
      "CREATE TABLE e (ts TIMESTAMP, x INT) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const [[id]] = await rows(engine, "COPY e TO 'e' WITH FORMAT PARQUET");
    const log = await rows(
      engine,
      `SELECT export_path, num_exported_files, status FROM sys.copy_export_log WHERE id = '${id}' LIMIT -1`,
    );
    assert.deepEqual(log, [[null, 0, "finished"]]);
    await rows(engine, "COPY (SELECT * FROM e) TO 'q' WITH FORMAT PARQUET");
    const duck = await openDuck();
    try {
      const cols = await duck.rows(`DESCRIBE SELECT * FROM read_parquet('${root}/export/q.parquet')`);
      assert.deepEqual(cols.map((c) => c.column_name), ["ts", "x"]);
    } finally {
      duck.close();
    }
  });
});

Deno.test("COPY TO options are checked with QuestDB's texts and positions", async () => {
  await withEngine(async (engine) => {
    await engine.execute(
      "CREATE TABLE test_table (ts TIMESTAMP, x INT) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const cases: [string, string, number][] = [
      [
        "copy test_table to 'test_table'  with format parquet1;",
        "unsupported format, only 'parquet' is supported",
        45,
      ],
      [
        "copy test_table to 'test_table'  with partition_by Day;",
        "export format must be specified, supported formats: 'parquet'",
        0,
      ],
      ["copy test_table to 'test_table'  with partition_by Day1;", "invalid partition by option: Day1", 51],
      [
        "copy test_table to 'test_table'  with partition_by1 Day1;",
        "unrecognised option [option=partition_by1]",
        38,
      ],
      ["copy test_table to 'test_table'  with size_limit aa;", "size limit is not yet supported", 38],
      [
        "copy test_table to 'test_table'  with compression_codec aa;",
        "invalid compression codec[aa], expected one of: uncompressed, snappy, gzip, brotli, zstd, lz4_raw",
        56,
      ],
      [
        "copy test_table to 'test_table'  with format parquet compression_codec uncompressed compression_level aa;",
        "found [tok='aa', len=2] bad integer",
        102,
      ],
      [
        "copy test_table to 'test_table'  with format parquet compression_codec zstd compression_level 120;",
        "ZSTD compression level must be between 1 and 22",
        94,
      ],
      [
        "copy test_table to 'test_table'  with format parquet compression_codec GZIP compression_level 120;",
        "GZIP compression level must be between 0 and 9",
        94,
      ],
      [
        "copy test_table to 'test_table'  with format parquet parquet_version 3;",
        "invalid parquet version: 3, expected 1 or 2",
        69,
      ],
      ["copy (select 1) to 'tmp' with format csv", "unsupported format, only 'parquet' is supported", 37],
      [
        "copy (select x from non_existing_table) to 'tmp' with format parquet",
        "table does not exist [table=non_existing_table]",
        20,
      ],
      ["copy nope to 'x' with format parquet", "table does not exist [table=nope]", 5],
      [
        "copy test_table to '../escape' with format parquet",
        "export destination must be a path under cairo.sql.copy.export.root [path=../escape]",
        19,
      ],
      [
        "copy (select 1 x) to 'x' with format parquet partition_by DAY",
        "partitioning is possible only on tables with designated timestamps",
        0,
      ],
    ];
    for (const [sql, message, position] of cases) {
      if (message.startsWith("partitioning")) {
        // Not a validation error in QuestDB either: the export fails and the log says why.
        const [[id]] = await rows(engine, sql);
        const [[status, msg]] = await rows(
          engine,
          `SELECT status, message FROM sys.copy_export_log WHERE id = '${id}' LIMIT -1`,
        );
        assert.deepEqual([status, msg], ["failed", message]);
        continue;
      }
      assert.deepEqual(await failure(engine, sql), [message, position], sql);
    }
  });
});

Deno.test("a blank cairo.sql.copy.export.root disables COPY TO", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual(await failure(engine, "COPY (SELECT 1) TO 'x' WITH FORMAT PARQUET"), [
      "COPY TO is disabled ['cairo.sql.copy.export.root' is not set?]",
      0,
    ]);
  }, "");
});

Deno.test("COPY TO a file over pgwire and REST answers the export id; TO STDOUT stays the wire's", async () => {
  const server = await startServer({ pg: true });
  const client = new pg.Client({
    host: "127.0.0.1",
    port: server.pgPort,
    user: "admin",
    password: "quest",
    database: "qdb",
  });
  try {
    await client.connect();
    await client.query("CREATE TABLE t AS (SELECT x FROM long_sequence(3))");
    const simple = await client.query("COPY t TO 't_simple' WITH FORMAT PARQUET");
    assert.match(simple.rows[0].id, /^[0-9a-f]{16}$/);
    // The extended protocol describes the row before running it.
    const extended = await client.query({ text: "COPY t TO 't_ext' WITH FORMAT PARQUET", values: [] });
    assert.deepEqual(extended.fields.map((f: { name: string }) => f.name), ["id"]);
    assert.ok(Deno.statSync(`${server.root}/export/t_simple.parquet`).size > 0);
    assert.ok(Deno.statSync(`${server.root}/export/t_ext.parquet`).size > 0);
    const rest = await (await server.exec("COPY t TO 't_rest' WITH FORMAT PARQUET")).json();
    assert.deepEqual(rest.columns, [{ name: "id", type: "VARCHAR" }]);
    assert.match(rest.dataset[0][0], /^[0-9a-f]{16}$/);
    const log = await (await server.exec(
      `SELECT status FROM sys.copy_export_log WHERE id = '${rest.dataset[0][0]}' LIMIT -1`,
    )).json();
    assert.deepEqual(log.dataset, [["finished"]]);
    // COPY ... TO STDOUT is still answered by the wire layer (CopyOut, tag COPY 3).
    const out = await client.query("COPY t TO STDOUT");
    assert.deepEqual([out.command, out.rowCount], ["COPY", 3]);
  } finally {
    await client.end().catch(() => {});
    await server.stop();
  }
});
