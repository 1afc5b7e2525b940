import assert from "node:assert/strict";
import type { AlterAction } from "../../../engine/sql/ast.ts";
import { parseStatement } from "../../../engine/sql/parser.ts";
import type { SqlError } from "../../../engine/base/errors.ts";
import { as, parseError, stripPositions } from "./_helpers.ts";

const action = (text: string): AlterAction =>
  as(parseStatement(`ALTER TABLE t ${text}`), "alterTable").action;
const bare = (text: string) => stripPositions(action(text));

/**
 * The error of an ALTER TABLE statement: a parse error, or the action's syntax error that the
 * parser keeps for the executor to raise once the table is known to exist (parse_alter.ts).
 */
function alterError(sql: string): SqlError {
  let s;
  try {
    s = as(parseStatement(sql), "alterTable");
  } catch {
    return parseError(sql);
  }
  assert.equal(s.action.kind, "invalid", `expected an error from ${sql}`);
  return (s.action as { error: SqlError }).error;
}

Deno.test("alter table names the table and the action position", () => {
  const s = as(parseStatement("ALTER TABLE 'my t' DROP COLUMN a"), "alterTable");
  assert.deepEqual(s.table, { name: "my t", pos: 12 });
  assert.equal(s.action.pos, 19);
});

Deno.test("alter table add, drop and rename columns", () => {
  const add = action("ADD COLUMN IF NOT EXISTS c SYMBOL CAPACITY 64 INDEX, d DOUBLE");
  assert.equal(add.kind, "addColumn");
  if (add.kind !== "addColumn") return;
  assert.equal(add.ifNotExists, true);
  assert.deepEqual(add.columns.map((c) => [c.name, c.type.name, c.symbolCapacity, c.indexed]), [
    ["c", "SYMBOL", 64, true],
    ["d", "DOUBLE", undefined, undefined],
  ]);
  assert.deepEqual(bare("DROP COLUMN a, b"), { kind: "dropColumn", names: [{ name: "a" }, { name: "b" }] });
  assert.deepEqual(bare("RENAME COLUMN a TO b"), {
    kind: "renameColumn",
    pairs: [{ from: { name: "a" }, to: { name: "b" } }],
  });
  // QuestDB renames a comma list in one statement.
  assert.deepEqual(bare("RENAME COLUMN a TO b, c TO d"), {
    kind: "renameColumn",
    pairs: [{ from: { name: "a" }, to: { name: "b" } }, { from: { name: "c" }, to: { name: "d" } }],
  });
});

Deno.test("alter table partitions", () => {
  assert.deepEqual(bare("DROP PARTITION LIST '2024-01-01', '2024-01-02'"), {
    kind: "dropPartition",
    list: [{ name: "2024-01-01" }, { name: "2024-01-02" }],
  });
  const where = action("DROP PARTITION WHERE ts < '2024'");
  assert.equal(where.kind, "dropPartition");
  assert.equal(where.kind === "dropPartition" && where.where?.kind, "binary");
  assert.deepEqual(bare("DETACH PARTITION LIST '2024-01'"), {
    kind: "detachPartition",
    list: [{ name: "2024-01" }],
  });
  assert.deepEqual(bare("ATTACH PARTITION LIST '2024-01'"), {
    kind: "attachPartition",
    list: [{ name: "2024-01" }],
  });
});

Deno.test("alter table column type, index and cache", () => {
  const t = action("ALTER COLUMN s TYPE SYMBOL CAPACITY 128 NOCACHE");
  assert.equal(t.kind, "alterColumnType");
  if (t.kind !== "alterColumnType") return;
  assert.deepEqual([t.column.name, t.def.name, t.def.type.name, t.def.symbolCapacity, t.def.symbolCache], [
    "s",
    "s",
    "SYMBOL",
    128,
    false,
  ]);
  assert.deepEqual(bare("ALTER COLUMN s ADD INDEX CAPACITY 256"), {
    kind: "addIndex",
    column: { name: "s" },
    capacity: 256,
  });
  // ADD INDEX TYPE POSTING [INCLUDE (...)] (QuestDB's symbol.md) reads as a plain index.
  assert.deepEqual(bare("ALTER COLUMN s ADD INDEX TYPE POSTING"), {
    kind: "addIndex",
    column: { name: "s" },
  });
  assert.deepEqual(bare("ALTER COLUMN s ADD INDEX TYPE POSTING INCLUDE (a, b)"), {
    kind: "addIndex",
    column: { name: "s" },
  });
  assert.deepEqual(bare("ALTER COLUMN s DROP INDEX"), { kind: "dropIndex", column: { name: "s" } });
  assert.deepEqual(bare("ALTER COLUMN s CACHE"), { kind: "symbolCache", column: { name: "s" }, cache: true });
  assert.deepEqual(bare("ALTER COLUMN s NOCACHE"), {
    kind: "symbolCache",
    column: { name: "s" },
    cache: false,
  });
});

Deno.test("alter table dedup, params, TTL and WAL type", () => {
  assert.deepEqual(bare("DEDUP ENABLE UPSERT KEYS(ts, k)"), {
    kind: "dedupEnable",
    keys: [{ name: "ts" }, { name: "k" }],
  });
  assert.deepEqual(bare("DEDUP DISABLE"), { kind: "dedupDisable" });
  assert.deepEqual(bare("SET PARAM maxUncommittedRows = 100"), {
    kind: "setParam",
    params: [{
      name: "maxUncommittedRows",
      value: { kind: "literal", type: "int", value: 100, text: "100" },
    }],
  });
  assert.deepEqual(bare("SET TTL 2 WEEKS"), { kind: "setTtl", amount: 2, unit: "WEEK" });
  assert.deepEqual(bare("SET TTL 12H"), { kind: "setTtl", amount: 12, unit: "HOUR" });
  assert.deepEqual(bare("SET TYPE BYPASS WAL"), { kind: "setType", wal: false });
  assert.deepEqual(bare("SET TYPE WAL"), { kind: "setType", wal: true });
});

Deno.test("alter table reads the WAL and partition maintenance forms", () => {
  assert.deepEqual(bare("SUSPEND WAL"), { kind: "suspendWal" });
  assert.deepEqual(bare("RESUME WAL"), { kind: "resumeWal" });
  assert.deepEqual(bare("RESUME WAL FROM TXN 5"), { kind: "resumeWal", fromTxn: { value: 5 } });
  assert.deepEqual(bare("RESUME WAL FROM TRANSACTION 7"), { kind: "resumeWal", fromTxn: { value: 7 } });
  assert.deepEqual(bare("SQUASH PARTITIONS"), { kind: "squashPartitions" });
  assert.deepEqual(bare("ALTER COLUMN s SYMBOL CAPACITY 10"), {
    kind: "symbolCapacity",
    column: { name: "s" },
    capacity: { value: 10 },
  });
});

Deno.test("alter table forms this server lacks parse as unsupported, named by their first words", () => {
  assert.deepEqual(bare("CONVERT PARTITION TO PARQUET LIST '2024-01-01'"), {
    kind: "convertPartition",
    format: "parquet",
    list: [{ name: "2024-01-01" }],
  });
  assert.equal(action("CONVERT PARTITION TO NATIVE WHERE ts < '2024'").kind, "convertPartition");
  assert.deepEqual(bare("SET FORMAT PARQUET"), { kind: "setFormat", format: "parquet" });
  assert.deepEqual(bare("set format Native"), { kind: "setFormat", format: "native" });
  assert.equal(alterError("ALTER TABLE t SET FORMAT csv").message, "'native' or 'parquet' expected");
  // QuestDB AlterTableO3MaxLagTest#setO3MaxLagWrongSetSyntax: SET takes PARAM, TTL or TYPE.
  assert.equal(alterError("ALTER TABLE t SET FROB 1").message, "'param', 'ttl' or 'type' expected");
  assert.equal(alterError("ALTER TABLE t SET FROB 1").position, 18);
  assert.deepEqual(bare("REFRESH"), { kind: "unsupported", what: "REFRESH" });
  assert.equal(alterError("ALTER TABLE t RESUME WAL FROM 5").message, "'transaction' or 'txn' expected");
  assert.equal(alterError("ALTER TABLE t SUSPEND WAL WITH 1, 'x'").message, "unexpected token [WITH]");
});

Deno.test("alter table errors", () => {
  // QuestDB SqlCompilerImpl.ALTER_TABLE_EXPECTED_TOKEN_DESCR
  const actions =
    "'add', 'alter', 'attach', 'detach', 'drop', 'convert', 'resume', 'rename', 'set' or 'squash' expected";
  assert.equal(alterError("ALTER TABLE t").message, actions);
  assert.equal(alterError("ALTER TABLE t FROB x").message, actions);
  assert.equal(alterError("ALTER TABLE t FROB x").position, 14);
  assert.equal(alterError("ALTER TABLE t RENAME").message, "'column' expected");
  assert.equal(alterError("ALTER TABLE t DROP").message, "'column' or 'partition' expected");
  assert.equal(
    alterError("ALTER TABLE t RENAME COLUMN a TO -").message,
    "new column name contains invalid characters",
  );
  assert.equal(alterError("ALTER TABLE t DROP PARTITION '2024'").message, "'list' or 'where' expected");
  assert.equal(alterError("ALTER TABLE t RENAME COLUMN a b").position, 30);
});
