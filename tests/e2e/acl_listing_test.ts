/**
 * Catalog listings under access control: tables(), SHOW TABLES, table_columns(), SHOW COLUMNS,
 * information_schema and pg_catalog show only the tables the user holds some permission on
 * (database-level table/column permissions show all; endpoint-only users see none).
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, pgConnect, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: listings hide tables the user has no permission on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, run } = runner(server.httpUrl);
    const eve = basic("eve", "pw");
    const names = async (sql: string, auth = eve) =>
      ((await ok(sql, auth)).dataset as unknown[][]).map((r) => r[0]).sort();
    try {
      await ok("create table pub (x int)");
      await ok("create table colonly (a int, b int)");
      await ok("create table hidden (s string)");
      await ok("create user eve with password 'pw'");
      await ok("grant http, pgwire to eve");

      assert.deepEqual(await names("select table_name from tables()"), []);
      await ok("grant select on pub to eve");
      await ok("grant update on colonly(b) to eve");
      const visible = ["colonly", "pub"];
      assert.deepEqual(await names("select table_name from tables()"), visible);
      assert.deepEqual(await names("show tables"), visible);
      assert.deepEqual(await names("select table_name from all_tables()"), visible);
      assert.deepEqual(await names("select table_name from information_schema.tables"), visible);
      assert.deepEqual(await names("select relname from pg_class where relnamespace = 2200"), visible);
      // A hidden table is missing for catalog reads of one table too, as for a table that does not exist.
      for (
        const sql of [
          "select \"column\" from table_columns('hidden')",
          "show columns from hidden",
          "show create table hidden",
        ]
      ) {
        const r = await run(sql, eve);
        assert.equal(r.status, 400, `${sql}: ${r.body}`);
        assert.equal(JSON.parse(r.body).error, "table does not exist [table=hidden]", sql);
      }
      assert.deepEqual(await names("select \"column\" from table_columns('pub')"), ["x"]);
      assert.deepEqual(await names("show columns from pub"), ["x"]);
      assert.deepEqual(await names("show tables", basic("admin", "quest")), ["colonly", "hidden", "pub"]);

      // /chk answers as if hidden tables did not exist.
      const chk = async (t: string) =>
        (await (await fetch(`${server.httpUrl}/chk?f=json&j=${t}`, { headers: { authorization: eve } }))
          .json())
          .status;
      assert.equal(await chk("pub"), "Exists");
      assert.equal(await chk("hidden"), "Does not exist");

      // Over pgwire too (psql's \dt reads pg_class).
      const client = await pgConnect(server.pgPort, "eve", "pw");
      try {
        const rows = (await client.query("select table_name from tables()")).rows.map((
          r: { table_name: string },
        ) => r.table_name).sort();
        assert.deepEqual(rows, visible);
      } finally {
        await client.end().catch(() => {});
      }

      // A database-level data permission covers every table, present and future.
      await ok("grant insert to eve");
      assert.deepEqual(await names("show tables"), ["colonly", "hidden", "pub"]);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
