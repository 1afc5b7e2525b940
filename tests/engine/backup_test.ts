/**
 * BACKUP TABLE / DATABASE (spec/sql.md §5.5, engine/storage/backup.ts): the folder naming
 * `<backup root>/<yyyy-MM-dd>[.n]`, the errors, which tables are copied, and that an engine
 * opened on a backup folder answers what the source answered. Writes issued while a backup
 * copies wait for it and are not in the copy.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";
import { formatDate } from "../../engine/storage/backup.ts";
import { rows } from "./_result_rows.ts";

async function q(engine: Engine, sql: string): Promise<unknown[][]> {
  return await rows(engine, sql);
}

async function dirs(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(path)) out.push(e.name);
  return out.sort();
}

Deno.test("BACKUP: errors when the root is unset, for an unknown table, for another word", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_backup_err_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await assert.rejects(
      engine.execute("BACKUP DATABASE", adminSession()),
      /backup is disabled, server.conf property 'cairo.sql.backup.root' is not set/,
    );
    await assert.rejects(
      engine.execute("BACKUP something", adminSession()),
      /'table', 'materialized view' or 'database' expected/,
    );
  } finally {
    await engine.close();
  }
  const backupRoot = await Deno.makeTempDir({ prefix: "qdb_backup_root_" });
  const engine2 = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024, backupRoot });
  try {
    await q(engine2, "CREATE TABLE a (v INT)");
    await assert.rejects(
      engine2.execute("BACKUP TABLE a, nope", adminSession()),
      (e: Error & { position?: number }) => {
        assert.match(e.message, /table does not exist \[table=nope\]/);
        return true;
      },
    );
    assert.deepEqual(await dirs(backupRoot), [], "a failed BACKUP leaves nothing");
  } finally {
    await engine2.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(backupRoot, { recursive: true });
  }
});

Deno.test("BACKUP folder names follow the date pattern, numbered .1, .2 when taken", () => {
  const d = new Date(Date.UTC(2024, 5, 1, 7, 8, 9));
  assert.equal(formatDate(d, "yyyy-MM-dd"), "2024-06-01");
  assert.equal(formatDate(d, "yyyy-MM-dd-HH-mm-ss"), "2024-06-01-07-08-09");
});

Deno.test("BACKUP TABLE copies the named tables, BACKUP DATABASE all; a server on the folder answers the same", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_backup_src_" });
  const backupRoot = await Deno.makeTempDir({ prefix: "qdb_backup_root_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024, backupRoot });
  try {
    await q(
      engine,
      "CREATE TABLE a (ts TIMESTAMP, s SYMBOL, v DOUBLE, t VARCHAR) TIMESTAMP(ts) PARTITION BY DAY",
    );
    await q(
      engine,
      "INSERT INTO a SELECT timestamp_sequence('2024-01-01', 3600000000L), rnd_symbol('x','y','z'), rnd_double(), rnd_varchar(1, 8, 1) FROM long_sequence(500)",
    );
    await q(engine, "CREATE TABLE b (v LONG)");
    await q(engine, "INSERT INTO b SELECT x FROM long_sequence(10)");
    await q(engine, "BACKUP TABLE a");
    await q(engine, "BACKUP DATABASE");
    await q(engine, "backup table b, a");
    const today = formatDate(new Date(), "yyyy-MM-dd");
    assert.deepEqual(await dirs(backupRoot), [today, `${today}.1`, `${today}.2`]);

    const checks = [
      "SELECT count(), sum(v), min(ts), max(ts), count_distinct(s) FROM a",
      "SELECT s, count(), sum(length(t)) FROM a ORDER BY s",
      "SELECT * FROM a ORDER BY ts DESC LIMIT 3",
    ];
    const expected = [];
    for (const c of checks) expected.push(await q(engine, c));
    // Written after the backups: in no copy.
    await q(engine, "INSERT INTO a VALUES ('2025-01-01', 'new', 1.0, 'late')");

    const tableNames = async (e: Engine) => (await q(e, "SELECT table_name FROM tables() ORDER BY 1")).flat();
    for (
      const [dir, tables] of [[today, ["a"]], [`${today}.1`, ["a", "b"]], [`${today}.2`, ["a", "b"]]] as const
    ) {
      const copy = await Engine.open({ root: `${backupRoot}/${dir}`, cacheBytes: 16 * 1024 * 1024 });
      try {
        assert.deepEqual(await tableNames(copy), tables, dir);
        for (let i = 0; i < checks.length; i++) {
          assert.deepEqual(await q(copy, checks[i]), expected[i], checks[i]);
        }
        if (tables.length === 2) assert.deepEqual(await q(copy, "SELECT sum(v) FROM b"), [[55n]]);
      } finally {
        await copy.close();
      }
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(backupRoot, { recursive: true });
  }
});
