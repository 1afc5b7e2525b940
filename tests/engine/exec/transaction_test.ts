/**
 * QuestDB's transactions in the engine (spec/protocols.md §12.10): inside BEGIN … COMMIT the
 * session's inserts are held and appended at COMMIT, ROLLBACK drops them, savepoints roll
 * back statement by statement, and a failed block refuses statements until it ends.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, type Session, SqlError, Transaction } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(body: (engine: Engine, s: Session) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_tx_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const s: Session = { ...adminSession(), transaction: new Transaction() };
    await engine.execute("CREATE TABLE t (ts TIMESTAMP, x LONG, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY", s);
    await body(engine, s);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const tag = async (engine: Engine, sql: string, s: Session) => {
  const out = await engine.execute(sql, s);
  return out.kind === "ddl" ? out.command : out.kind;
};

const xs = async (engine: Engine) => (await rows(engine, "SELECT x FROM t ORDER BY x")).map((r) => r[0]);

Deno.test("transaction: inserts become visible at COMMIT, not before", async () => {
  await withEngine(async (engine, s) => {
    assert.equal(await tag(engine, "BEGIN", s), "BEGIN");
    assert.equal(s.transaction!.status, "open");
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    await engine.execute("INSERT INTO t SELECT '2024-01-02T00:00:00Z'::timestamp, 2, 'b'", s);
    assert.deepEqual(await xs(engine), [], "other readers see nothing before COMMIT");
    assert.deepEqual(await rows(engine, "SELECT count() FROM t"), [[0n]]);
    assert.equal(s.transaction!.pendingRows, 2);
    assert.equal(await tag(engine, "COMMIT", s), "COMMIT");
    assert.equal(s.transaction!.status, "idle");
    assert.deepEqual(await xs(engine), [1n, 2n]);
    assert.deepEqual(await rows(engine, "SELECT s FROM t ORDER BY x"), [["a"], ["b"]]);
  });
});

Deno.test("transaction: ROLLBACK discards the block's inserts; outside a block inserts commit at once", async () => {
  await withEngine(async (engine, s) => {
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    await engine.execute("BEGIN", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:01Z', 2, 'a')", s);
    assert.equal(await tag(engine, "ROLLBACK", s), "ROLLBACK");
    assert.deepEqual(await xs(engine), [1n]);
    assert.equal(await tag(engine, "ROLLBACK", s), "ROLLBACK", "ROLLBACK outside a block is a no-op");
  });
});

Deno.test("transaction: savepoints roll back the statements after them only", async () => {
  await withEngine(async (engine, s) => {
    await engine.execute("BEGIN", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    assert.equal(await tag(engine, "SAVEPOINT s1", s), "SAVEPOINT");
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:01Z', 2, 'a')", s);
    assert.equal(await tag(engine, "ROLLBACK TO SAVEPOINT s1", s), "ROLLBACK");
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:02Z', 3, 'a')", s);
    assert.equal(await tag(engine, "ROLLBACK TO s1", s), "ROLLBACK", "the mark stays after ROLLBACK TO");
    await engine.execute("SAVEPOINT _EXEC_SVP_1", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:03Z', 4, 'a')", s);
    assert.equal(await tag(engine, "RELEASE _EXEC_SVP_1", s), "RELEASE");
    await assert.rejects(
      engine.execute("RELEASE SAVEPOINT _EXEC_SVP_1", s),
      /savepoint "_EXEC_SVP_1" does not exist/,
    );
    assert.equal(s.transaction!.status, "failed", "an unknown savepoint fails the block");
    assert.equal(await tag(engine, "ROLLBACK TO SAVEPOINT S1", s), "ROLLBACK", "names are case-insensitive");
    assert.equal(s.transaction!.status, "open", "ROLLBACK TO brings a failed block back");
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:04Z', 5, 'a')", s);
    await engine.execute("COMMIT", s);
    assert.deepEqual(await xs(engine), [1n, 5n]);
  });
});

Deno.test("transaction: a failed block refuses statements until ROLLBACK; COMMIT then rolls back", async () => {
  await withEngine(async (engine, s) => {
    await engine.execute("BEGIN", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    await assert.rejects(engine.execute("SELECT * FROM missing", s), /table does not exist/);
    assert.equal(s.transaction!.status, "failed");
    const err = await engine.execute("SELECT 1", s).catch((e) => e);
    assert.ok(err instanceof SqlError);
    assert.equal(err.kind, "transaction");
    assert.match(err.message, /current transaction is aborted/);
    assert.equal(await tag(engine, "COMMIT", s), "ROLLBACK");
    assert.equal(s.transaction!.status, "idle");
    assert.deepEqual(await xs(engine), []);
  });
});

Deno.test("transaction: SAVEPOINT outside a block is refused; BEGIN inside a block is a no-op", async () => {
  await withEngine(async (engine, s) => {
    await assert.rejects(
      engine.execute("SAVEPOINT s1", s),
      /SAVEPOINT can only be used in transaction blocks/,
    );
    await assert.rejects(engine.execute("ROLLBACK TO s1", s), /can only be used in transaction blocks/);
    assert.equal(s.transaction!.status, "idle");
    await engine.execute("BEGIN", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    assert.equal(await tag(engine, "BEGIN", s), "BEGIN");
    assert.equal(s.transaction!.pendingRows, 1, "a second BEGIN keeps the pending rows");
    await engine.execute("END", s);
    assert.deepEqual(await xs(engine), [1n]);
  });
});

Deno.test("transaction: UPDATE and DDL inside a block apply at once and survive ROLLBACK", async () => {
  await withEngine(async (engine, s) => {
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", s);
    await engine.execute("BEGIN", s);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:01Z', 2, 'b')", s);
    await engine.execute("UPDATE t SET s = 'z'", s);
    await engine.execute("CREATE TABLE u (x INT)", s);
    await engine.execute("ALTER TABLE t ADD COLUMN y INT", s);
    await engine.execute("INSERT INTO t (ts, x, s, y) VALUES ('2024-01-01T00:00:02Z', 3, 'c', 7)", s);
    await engine.execute("COMMIT", s);
    assert.deepEqual(
      await rows(engine, "SELECT x, s, y FROM t ORDER BY x"),
      [
        [1n, "z", null],
        [2n, "b", null],
        [3n, "c", 7],
      ],
      "the UPDATE ran before the pending rows existed; a column added in the block reads NULL for earlier rows",
    );
    await engine.execute("BEGIN", s);
    await engine.execute("DROP TABLE u", s);
    await engine.execute("ROLLBACK", s);
    assert.deepEqual(await rows(engine, "SELECT count() FROM tables() WHERE table_name = 'u'"), [[0n]]);
  });
});

Deno.test("transaction: REST-like sessions without a Transaction treat BEGIN/COMMIT as no-ops", async () => {
  await withEngine(async (engine) => {
    const rest = adminSession();
    assert.equal(await tag(engine, "BEGIN", rest), undefined);
    await engine.execute("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 1, 'a')", rest);
    await engine.execute("ROLLBACK", rest);
    assert.deepEqual(await xs(engine), [1n], "no transaction: the insert committed at once");
    assert.equal(await tag(engine, "SAVEPOINT s1", rest), undefined);
  });
});

Deno.test("transaction: INSERT ... RETURNING inside a block returns the pending rows", async () => {
  await withEngine(async (engine, s) => {
    await engine.execute("BEGIN", s);
    assert.deepEqual(
      await rowsOf(engine, "INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 9, 'a') RETURNING x", s),
      [[9n]],
    );
    assert.deepEqual(await xs(engine), []);
    await engine.execute("COMMIT", s);
    assert.deepEqual(await xs(engine), [9n]);
  });
});

async function rowsOf(engine: Engine, sql: string, s: Session): Promise<unknown[][]> {
  const out = await engine.execute(sql, s);
  const result: unknown[][] = [];
  if (out.kind !== "rows") return result;
  for await (const b of out.batches) {
    for (let i = 0; i < b.rowCount; i++) {
      result.push(b.columns.map((c) => readValue(c, i)));
    }
  }
  return result;
}
