/**
 * Every column type as a parameter and as a result through real drivers (issue #18): BOOLEAN,
 * SHORT, INT, LONG, FLOAT, DOUBLE, VARCHAR, SYMBOL, CHAR, BINARY, DATE, TIMESTAMP,
 * TIMESTAMP_NS, timestamptz, UUID, IPv4, LONG256, DOUBLE[] and DECIMAL, each inserted through
 * a parameter and read back equal, NULLs too:
 * - psycopg 3 with binary and with text parameters, each read with binary and text results,
 *   plus every type as a `col = $1` filter; asyncpg (binary both ways) — clients/pg_types_roundtrip_client.py;
 * - pgjdbc with text results (unnamed statements) and binary ones (prepareThreshold=-1) —
 *   clients/PgTypesRoundtrip.java;
 * - node pg (text parameters with OID 0 typed by the server, text results; Buffers as bytea) here.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import {
  DEBIAN_PYTHON,
  expectClientOk,
  JDBC_JAR,
  pgOptions,
  requireCommand,
  requireFile,
} from "./clients/pg_tools.ts";

const PY_CLIENT = new URL("./clients/pg_types_roundtrip_client.py", import.meta.url).pathname;
const JAVA_CLIENT = new URL("./clients/PgTypesRoundtrip.java", import.meta.url).pathname;
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "psycopg 3 (binary and text, both directions) and asyncpg round-trip every type",
  ...options,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    try {
      await expectClientOk(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort)], /OK types roundtrip/, {
        timeoutMs: 90_000,
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "pgjdbc round-trips every type with text and with binary results",
  ...options,
  async fn() {
    await requireCommand("java", "a Java runtime");
    await requireFile(JDBC_JAR, "libpostgresql-jdbc-java");
    const server = await startServer({ pg: true });
    try {
      await expectClientOk("java", ["-cp", JDBC_JAR, JAVA_CLIENT, String(server.pgPort)], /OK jdbc types/, {
        timeoutMs: 90_000,
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "node pg round-trips every type (text parameters typed by the server, text results)",
  ...options,
  async fn() {
    const server = await startServer({ pg: true });
    const c = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await c.connect();
      await c.query(
        "create table rtn (id int, b boolean, sh short, i int, l long, f float, d double, v varchar, s symbol, " +
          "c char, bin binary, dt date, ts timestamp, tsn timestamp_ns, tz timestamp, u uuid, ip ipv4, " +
          "l256 long256, arr double[], dec decimal(18,3))",
      );
      const cols = "b, sh, i, l, f, d, v, s, c, bin, dt, ts, tsn, tz, u, ip, l256, arr, dec";
      const marks = Array.from({ length: 20 }, (_, i) => `$${i + 1}`).join(", ");
      const insert = `insert into rtn (id, ${cols}) values (${marks})`;
      const l256 = "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
      const values = [
        true,
        12,
        -123456,
        "9007199254740993", // beyond 2^53: node pg has no bigint parameters, text keeps it exact
        1.5,
        -2.25,
        "héllo, wörld",
        "sym1",
        "x",
        new Uint8Array([0, 1, 0xfe, 0xff]),
        new Date(Date.UTC(2024, 0, 2)),
        "2024-01-02 03:04:05.123456",
        "2024-01-02 03:04:05.654321",
        "2024-01-02T05:04:05.001+02:00",
        "0123e4a5-6789-4bcd-8ef0-123456789abc",
        "10.1.2.3",
        l256,
        [1.5, null, -3],
        "12.345",
      ];
      await c.query(insert, [1, ...values]);
      await c.query(insert, [2, ...values.map(() => null)]);
      // Timestamps as text: node pg would parse them into JS Dates in the client's zone (ms only).
      const select =
        `select b, sh, i, l, f, d, v, s, c, bin, dt::varchar dt, ts::varchar ts, tsn::varchar tsn, ` +
        `tz::timestamptz tz, u, ip, l256, arr, dec from rtn where id = $1`;
      const row = (await c.query(select, [1])).rows[0];
      assert.deepEqual({ ...row, bin: [...row.bin], tz: row.tz.toISOString() }, {
        b: true,
        sh: 12,
        i: -123456,
        l: "9007199254740993",
        f: 1.5,
        d: -2.25,
        v: "héllo, wörld",
        s: "sym1",
        c: "x",
        bin: [0, 1, 0xfe, 0xff],
        dt: "2024-01-02T00:00:00.000Z",
        ts: "2024-01-02T03:04:05.123456Z",
        tsn: "2024-01-02T03:04:05.654321000Z",
        tz: "2024-01-02T03:04:05.001Z",
        u: "0123e4a5-6789-4bcd-8ef0-123456789abc",
        ip: "10.1.2.3",
        l256,
        arr: [1.5, null, -3],
        dec: "12.345",
      });
      const nulls = (await c.query(select, [2])).rows[0];
      // BOOLEAN and SHORT have no NULL in QuestDB: stored as false / 0.
      assert.deepEqual(nulls, {
        b: false,
        sh: 0,
        ...Object.fromEntries(cols.split(", ").slice(2).map((k) => [k, null])),
      });
      // Every value also selects its row as a parameter of a filter.
      for (const [k, col] of cols.split(", ").entries()) {
        if (["bin", "arr", "tz", "f"].includes(col)) continue;
        const r = await c.query(`select id from rtn where ${col} = $1`, [values[k]]);
        assert.deepEqual(r.rows, [{ id: 1 }], `filter ${col} = ${values[k]}`);
      }
    } finally {
      await c.end();
      await server.stop();
    }
  },
});
