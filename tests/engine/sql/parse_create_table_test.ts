import assert from "node:assert/strict";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { as, parseError, stripPositions } from "./_helpers.ts";

const create = (sql: string) => as(parseStatement(sql), "createTable");

Deno.test("create table with columns, designated timestamp and partitioning", () => {
  const s = create(
    "CREATE TABLE trades (ts TIMESTAMP, sym SYMBOL, price DOUBLE, qty LONG) TIMESTAMP(ts) PARTITION BY DAY",
  );
  assert.deepEqual([s.name, s.namePos, s.ifNotExists], ["trades", 13, false]);
  assert.deepEqual(s.columns.map((c) => [c.name, c.type.name, c.pos]), [
    ["ts", "TIMESTAMP", 21],
    ["sym", "SYMBOL", 35],
    ["price", "DOUBLE", 47],
    ["qty", "LONG", 61],
  ]);
  assert.deepEqual(s.timestamp, { name: "ts", pos: 81 });
  assert.deepEqual(s.partitionBy, { unit: "DAY", pos: 98 });
  assert.equal(s.wal, undefined);
});

Deno.test("create table symbol options and index clauses", () => {
  const s = create(
    "CREATE TABLE IF NOT EXISTS t (s SYMBOL CAPACITY 32768 NOCACHE INDEX CAPACITY 4, u SYMBOL CACHE, v SYMBOL INDEX), INDEX(u CAPACITY 512)",
  );
  assert.equal(s.ifNotExists, true);
  assert.deepEqual(stripPositions(s.columns.map(({ type: _t, ...c }) => c)), [
    { name: "s", symbolCapacity: 32768, symbolCache: false, indexed: true, indexCapacity: 4 },
    { name: "u", symbolCache: true },
    { name: "v", indexed: true },
  ]);
  assert.deepEqual(stripPositions(s.indexes), [{ column: "u", capacity: 512 }]);
});

Deno.test("create table accepts ATOMIC and BATCH prefixes", () => {
  assert.equal(create("CREATE ATOMIC TABLE t (a INT)").name, "t");
  assert.equal(create("CREATE BATCH 100 o3MaxLag 10s TABLE t (a INT)").name, "t");
});

Deno.test("create table clauses: TTL, WAL, dedup, WITH, volume, owner", () => {
  const s = create(
    "CREATE TABLE t (ts TIMESTAMP, k SYMBOL) TIMESTAMP(ts) PARTITION BY HOUR TTL 3 DAYS FORMAT NATIVE WAL " +
      "DEDUP UPSERT KEYS(ts, k) WITH maxUncommittedRows=250000, o3MaxLag=600s IN VOLUME vol OWNED BY admin",
  );
  assert.deepEqual([s.ttl?.amount, s.ttl?.unit], [3, "DAY"]);
  assert.equal(s.wal, true);
  assert.deepEqual(s.dedupKeys?.map((k) => k.name), ["ts", "k"]);
  assert.deepEqual(stripPositions(s.withParams), [
    { name: "maxUncommittedRows", value: { kind: "literal", type: "int", value: 250000, text: "250000" } },
    { name: "o3MaxLag", value: { kind: "literal", type: "string", value: "600s", text: "600s" } },
  ]);
  assert.deepEqual([s.volume, s.ownedBy], ["vol", "admin"]);
  assert.equal(create("CREATE TABLE t (ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY BYPASS WAL").wal, false);
});

Deno.test("create table TTL shorthand", () => {
  const ttl = (t: string) =>
    create(`CREATE TABLE t (ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY HOUR TTL ${t}`).ttl;
  assert.deepEqual([ttl("3H")?.amount, ttl("3H")?.unit], [3, "HOUR"]);
  assert.equal(ttl("2M")?.unit, "MONTH");
  assert.equal(ttl("1 YEAR")?.unit, "YEAR");
  assert.equal(ttl("2 weeks")?.unit, "WEEK");
  assert.equal(parseError("CREATE TABLE t (ts TIMESTAMP) TTL 3 MINUTES").position, 36);
});

Deno.test("create table as select with casts and indexes", () => {
  const s = create(
    "CREATE TABLE t2 AS (SELECT * FROM t), CAST(a AS LONG), CAST(b AS SYMBOL), INDEX(b CAPACITY 128) TIMESTAMP(ts)",
  );
  assert.equal(s.asSelect?.kind, "query");
  assert.deepEqual(s.columns, []);
  assert.deepEqual(s.casts.map((c) => [c.column, c.type.name]), [["a", "LONG"], ["b", "SYMBOL"]]);
  assert.deepEqual(stripPositions(s.indexes), [{ column: "b", capacity: 128 }]);
  assert.equal(s.timestamp?.name, "ts");
  // Out-of-line `INDEX(col TYPE POSTING)` (QuestDB create-table page) reads as a plain index.
  const posting = create("CREATE TABLE t (s SYMBOL, ts TIMESTAMP), INDEX(s TYPE POSTING) TIMESTAMP(ts)");
  assert.deepEqual(stripPositions(posting.indexes), [{ column: "s" }]);
  assert.equal(create("CREATE TABLE x AS SELECT 1 a").asSelect?.kind, "query");
});

Deno.test("create table like another", () => {
  const s = create("CREATE TABLE t3 (LIKE trades)");
  assert.deepEqual(s.like, { name: "trades", pos: 22 });
  assert.deepEqual(s.columns, []);
});

Deno.test("create table keeps column names that are keywords elsewhere", () => {
  const s = create(
    'CREATE TABLE sbf_prim (b BOOLEAN, by BYTE, timestamp TIMESTAMP, "Quoted Name" VARCHAR, g GEOHASH(8c))',
  );
  assert.deepEqual(s.columns.map((c) => c.name), ["b", "by", "timestamp", "Quoted Name", "g"]);
  assert.equal(s.columns[4].type.geoBits, 40);
});

Deno.test("create or replace table is an ordinary create table, as QuestDB's parser reads it", () => {
  assert.deepEqual(
    stripPositions(create("CREATE OR REPLACE TABLE t (a INT)")),
    stripPositions(create("CREATE TABLE t (a INT)")),
  );
  assert.equal(parseError("CREATE OR REPLACE FUNCTION f()").message, "'table' expected");
  assert.equal(parseError("CREATE OR REPLACE FUNCTION f()").position, 18);
});

Deno.test("create table errors", () => {
  assert.equal(parseError("CREATE TABLE (a INT)").message, "table name expected");
  assert.equal(parseError("CREATE TABLE t").message, "'(' or 'as' expected");
  assert.equal(parseError("CREATE TABLE t (a INT").message, "missing closing ')'");
  assert.equal(parseError("CREATE TABLE t (a INT) PARTITION BY SECOND").position, 36);
  assert.equal(parseError("CREATE TABLE t (a INT) WAL WAL").position, 27);
  // Views and materialized views are refused by name at the word naming the kind.
  for (
    const [sql, message, position] of [
      ["CREATE VIEW v AS (SELECT 1)", "views are not supported", 7],
      ["CREATE OR REPLACE VIEW v AS (SELECT 1)", "views are not supported", 18],
      ["CREATE MATERIALIZED VIEW v AS (SELECT 1)", "materialized views are not supported", 7],
      ["DROP VIEW v", "views are not supported", 5],
      ["DROP MATERIALIZED VIEW IF EXISTS v", "materialized views are not supported", 5],
      ["ALTER MATERIALIZED VIEW v SET TTL 2 DAYS", "materialized views are not supported", 6],
      ["REFRESH MATERIALIZED VIEW v FULL", "materialized views are not supported", 8],
    ] as const
  ) {
    const e = parseError(sql);
    assert.deepEqual([e.message, e.position], [message, position], sql);
  }
  // A kind QuestDB does not have keeps its parser's words.
  assert.equal(parseError("CREATE MATERIALIZED x").message, "'table' expected");
  assert.equal(
    parseError("DROP MATERIALIZED x").message,
    "'table' or 'view' or 'materialized view' or 'all' expected",
  );
  // No computed columns in QuestDB: a clear refusal at GENERATED (QuestDB's pivot_generated.test uses one).
  const generated = parseError("CREATE TABLE p (d INT, c INT GENERATED ALWAYS AS (d * 5))");
  assert.deepEqual([generated.message, generated.position], ["generated columns are not supported", 29]);
});
