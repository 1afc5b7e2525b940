import assert from "node:assert/strict";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { as, parseError, stripPositions } from "./_helpers.ts";

const noop = (sql: string) => stripPositions(as(parseStatement(sql), "noop"));

Deno.test("misc explain wraps any statement", () => {
  const s = as(parseStatement("EXPLAIN SELECT * FROM t"), "explain");
  assert.equal(s.statement.kind, "query");
  assert.equal(s.statement.pos, 8);
  assert.equal(as(parseStatement("EXPLAIN INSERT INTO t VALUES (1)"), "explain").statement.kind, "insert");
});

Deno.test("misc declare substitutes its variables into the statement when parsed", () => {
  const s = as(
    parseStatement(
      "DECLARE @x := 5, @y := '2024-01', @z := @x + 1 SELECT @z FROM t WHERE a = @x AND ts IN @y",
    ),
    "query",
  );
  const text = JSON.stringify(s);
  assert.doesNotMatch(text, /"@[xyz]"/);
  assert.match(text, /"value":5/);
  assert.match(text, /"2024-01"/);
  assert.equal(parseError("DECLARE x := 1 SELECT 1").message, "variable (@name) expected");
  assert.equal(parseError("DECLARE @x := 1 SELECT @y").message, "tried to use undeclared variable `@y`");
  assert.equal(parseError("DECLARE @x := 1 SELECT @y").position, 23);
  assert.equal(
    parseError("DECLARE @x := 1, @X := @x + 1 SELECT 1").message,
    "variable cannot reference itself `@x`",
  );
  // A later variable sees the earlier ones; an earlier one cannot see a later one.
  assert.equal(
    parseError("DECLARE @a := @b, @b := 1 SELECT @a").message,
    "tried to use undeclared variable `@b`",
  );
});

Deno.test("misc SET forms are no-ops with name and value", () => {
  assert.deepEqual(noop("SET x = y"), { kind: "noop", what: "set", name: "x", value: "y" });
  assert.deepEqual(noop("SET extra_float_digits TO 3"), {
    kind: "noop",
    what: "set",
    name: "extra_float_digits",
    value: "3",
  });
  assert.deepEqual(noop("SET TIME ZONE 'UTC'"), {
    kind: "noop",
    what: "set",
    name: "timezone",
    value: "UTC",
  });
  assert.deepEqual(noop("SET SESSION statement_timeout = 0"), {
    kind: "noop",
    what: "set",
    name: "statement_timeout",
    value: "0",
  });
  assert.deepEqual(noop("SET application_name = 'psql'"), {
    kind: "noop",
    what: "set",
    name: "application_name",
    value: "psql",
  });
  assert.deepEqual(noop("SET DateStyle TO ISO, MDY"), {
    kind: "noop",
    what: "set",
    name: "datestyle",
    value: "ISO, MDY",
  });
});

Deno.test("misc transaction and session statements are no-ops", () => {
  for (
    const sql of [
      "BEGIN",
      "BEGIN TRANSACTION",
      "begin work",
      "START TRANSACTION ISOLATION LEVEL READ COMMITTED",
    ]
  ) {
    assert.deepEqual(noop(sql), { kind: "noop", what: "begin" }, sql);
  }
  for (const sql of ["COMMIT", "END", "commit work"]) {
    assert.deepEqual(noop(sql), { kind: "noop", what: "commit" }, sql);
  }
  assert.deepEqual(noop("ROLLBACK"), { kind: "noop", what: "rollback" });
  assert.deepEqual(noop("DISCARD ALL"), { kind: "noop", what: "discard", name: "all" });
  assert.deepEqual(noop("DEALLOCATE PREPARE s1"), { kind: "noop", what: "deallocate", name: "s1" });
  assert.deepEqual(noop('DEALLOCATE "S_1"'), { kind: "noop", what: "deallocate", name: "S_1" });
  assert.deepEqual(noop("RESET ALL"), { kind: "noop", what: "reset", name: "all" });
  assert.deepEqual(noop("CLOSE c1"), { kind: "noop", what: "close", name: "c1" });
});

Deno.test("misc savepoint statements carry the savepoint name", () => {
  assert.deepEqual(noop("SAVEPOINT s1"), { kind: "noop", what: "savepoint", name: "s1" });
  assert.deepEqual(noop("RELEASE SAVEPOINT _EXEC_SVP_1"), {
    kind: "noop",
    what: "release",
    name: "_EXEC_SVP_1",
  });
  assert.deepEqual(noop("release s1"), { kind: "noop", what: "release", name: "s1" });
  assert.deepEqual(noop("ROLLBACK TO SAVEPOINT s1"), { kind: "noop", what: "rollbackTo", name: "s1" });
  assert.deepEqual(noop("ROLLBACK TO s1"), { kind: "noop", what: "rollbackTo", name: "s1" });
  assert.deepEqual(noop("ROLLBACK WORK TO SAVEPOINT s1"), { kind: "noop", what: "rollbackTo", name: "s1" });
  assert.deepEqual(noop("ABORT"), { kind: "noop", what: "rollback" });
  assert.equal(parseStatement("savepoint").kind, "query", "a bare word is a table name");
  assert.equal(parseStatement("release").kind, "query");
});

Deno.test("misc words like begin or close can still be table names", () => {
  assert.equal(parseStatement("close WHERE x = 1").kind, "query");
  assert.equal(parseStatement("start").kind, "query");
});

Deno.test("misc copy from stdin and to stdout", () => {
  const a = as(parseStatement("COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true, FREEZE)"), "copy");
  assert.deepEqual(stripPositions(a), {
    kind: "copy",
    table: { name: "t" },
    columns: [{ name: "a" }, { name: "b" }],
    direction: "from",
    target: "stdin",
    options: [{ name: "format", value: "csv" }, { name: "header", value: "true" }, { name: "freeze" }],
  });
  const b = as(parseStatement("COPY (SELECT * FROM t) TO STDOUT WITH (FORMAT csv)"), "copy");
  assert.deepEqual([b.query?.kind, b.direction, b.target, b.table], ["query", "to", "stdout", undefined]);
  assert.equal(as(parseStatement("COPY t TO STDOUT"), "copy").options.length, 0);
  const c = as(parseStatement("COPY weather FROM 'weather.csv' WITH HEADER true PARTITION BY MONTH"), "copy");
  assert.deepEqual(c.target, { file: "weather.csv" });
  assert.deepEqual(stripPositions(c.options), [
    { name: "header", value: "true" },
    { name: "partition_by", value: "MONTH" },
  ]);
  const d = as(
    parseStatement(
      "COPY t TO 'out' WITH FORMAT PARQUET COMPRESSION_CODEC zstd ROW_GROUP_SIZE -1 PARTITION_BY DAY",
    ),
    "copy",
  );
  assert.deepEqual(d.options, [
    { name: "format", value: "PARQUET", pos: 21, valuePos: 28 },
    { name: "compression_codec", value: "zstd", pos: 36, valuePos: 54 },
    { name: "row_group_size", value: "-1", pos: 59, valuePos: 74 },
    { name: "partition_by", value: "DAY", pos: 77, valuePos: 90 },
  ]);
  assert.equal(d.targetPos, 10);
  assert.equal(parseError("COPY t INTO x").message, "'from' or 'to' expected");
});

Deno.test("misc access-control statements keep verb and words", () => {
  const a = as(parseStatement("CREATE USER john WITH PASSWORD 'pw''d'"), "acl");
  assert.equal(a.verb, "create user");
  assert.deepEqual(a.words, [
    { text: "john", pos: 12, quoted: false },
    { text: "WITH", pos: 17, quoted: false },
    { text: "PASSWORD", pos: 22, quoted: false },
    { text: "pw'd", pos: 31, quoted: true },
  ]);
  const verbs = [
    ["CREATE GROUP g", "create group"],
    ["CREATE SERVICE ACCOUNT s", "create service account"],
    ["ALTER USER u ENABLE", "alter user"],
    ["ALTER GROUP g WITH EXTERNAL ALIAS 'x'", "alter group"],
    ["ALTER SERVICE ACCOUNT s ENABLE", "alter service account"],
    ["DROP USER u", "drop user"],
    ["DROP GROUP g", "drop group"],
    ["DROP SERVICE ACCOUNT s", "drop service account"],
    ["GRANT SELECT ON t TO u", "grant"],
    ["REVOKE SELECT ON t FROM u", "revoke"],
    ["ADD USER u TO g", "add user"],
    ["REMOVE USER u FROM g", "remove user"],
    ["ASSUME SERVICE ACCOUNT s", "assume service account"],
    ["EXIT SERVICE ACCOUNT s", "exit service account"],
  ];
  for (const [sql, verb] of verbs) assert.equal(as(parseStatement(sql), "acl").verb, verb, sql);
});
