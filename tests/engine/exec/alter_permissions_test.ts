/**
 * The maintenance forms of ALTER TABLE (SUSPEND/RESUME WAL, SQUASH PARTITIONS, SYMBOL CAPACITY,
 * and the forms this server lacks) ask for a permission like every other ALTER (security.md
 * §2.2, engine/exec/permissions.ts) before they touch or even name the table.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type Session } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

/** A session whose principal holds only `granted` ("PERMISSION" or "PERMISSION on table"). */
function sessionWith(granted: string[]): Session {
  return {
    ...adminSession(),
    principal: {
      name: "bob",
      groups: [],
      can(permission: string, table?: string) {
        return granted.includes(permission) || granted.includes(`${permission} on ${table}`);
      },
    },
  };
}

Deno.test("alter table maintenance forms need their permission, then act or fail as not supported", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_alter_perm_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE w (ts TIMESTAMP, sym SYMBOL) TIMESTAMP(ts) PARTITION BY DAY WAL",
      adminSession(),
    );
    const nobody = sessionWith([]);
    const cases: [string, string][] = [
      ["ALTER TABLE w SUSPEND WAL", "RESUME WAL on w"],
      ["ALTER TABLE w RESUME WAL", "RESUME WAL on w"],
      ["ALTER TABLE w SQUASH PARTITIONS", "VACUUM TABLE on w"],
      ["ALTER TABLE w ALTER COLUMN sym SYMBOL CAPACITY 512", "ALTER COLUMN TYPE on w.sym"],
      ["ALTER TABLE w CONVERT PARTITION TO PARQUET LIST '2024-01-01'", "SET TABLE PARAM on w"],
      ["ALTER TABLE w SET FORMAT PARQUET", "SET TABLE PARAM on w"],
      ["ALTER TABLE w REFRESH", "REFRESH MATERIALIZED VIEW on w"],
    ];
    for (const [sql, what] of cases) {
      await assert.rejects(engine.execute(sql, nobody), (e: Error & { kind?: string }) => {
        assert.equal(e.message, `Access denied for bob [${what}]`, sql);
        assert.equal(e.kind, "permission");
        return true;
      });
    }
    const wal = sessionWith(["RESUME WAL on w"]);
    await engine.execute("ALTER TABLE w SUSPEND WAL", wal);
    assert.deepEqual(await rows(engine, "SELECT name, suspended FROM wal_tables()"), [["w", true]]);
    const params = sessionWith(["SET TABLE PARAM"]);
    await assert.rejects(
      engine.execute("ALTER TABLE w SET FROB 1", params),
      /'param', 'ttl' or 'type' expected/,
    );
    await assert.rejects(
      engine.execute("ALTER TABLE nope CONVERT PARTITION TO PARQUET LIST '2024-01-01'", params),
      /table does not exist \[table=nope\]/,
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
