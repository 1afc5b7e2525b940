/**
 * SHOW PERMISSIONS (security.md §4.6): own grants (origin G), grants inherited from groups
 * (origin = the group), implicit designated-timestamp rows (origin I); the same rows for
 * `SHOW PERMISSIONS` as the user itself and for `SHOW PERMISSIONS user` as an admin; groups
 * and service accounts show their own grants only.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, pgConnect, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: SHOW PERMISSIONS includes inherited and implicit rows",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, refused } = runner(server.httpUrl);
    const fay = basic("fay", "pw");
    const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    try {
      await ok("create table m (ts timestamp, v double, k symbol) timestamp(ts) partition by day");
      await ok("create user fay with password 'pw'");
      await ok("create user gus with password 'pw'");
      await ok("create group readers");
      await ok("grant http, pgwire to fay");
      await ok("grant select on m(v) to fay with grant option");
      await ok("grant select on m to readers");
      await ok("grant insert to readers with grant option");
      await ok("add user fay to readers");

      const expected = [
        ["HTTP", null, null, false, "G"],
        ["PGWIRE", null, null, false, "G"],
        ["SELECT", "m", "v", true, "G"],
        ["SELECT", "m", null, false, "readers"],
        ["INSERT", null, null, true, "readers"],
      ];
      const mine = await ok("show permissions", fay);
      assert.deepEqual(mine.columns.map((c: { name: string }) => c.name), [
        "permission",
        "table_name",
        "column_name",
        "grant_option",
        "origin",
      ]);
      assert.deepEqual(sorted(mine.dataset), sorted(expected));
      assert.deepEqual(sorted((await ok("show permissions fay")).dataset), sorted(expected));
      assert.deepEqual(
        sorted((await ok("show permissions readers")).dataset),
        sorted([
          ["SELECT", "m", null, false, "G"],
          ["INSERT", null, null, true, "G"],
        ]),
      );

      // Without the group, the column grant implies SELECT on the designated timestamp.
      await ok("remove user fay from readers");
      assert.deepEqual(
        sorted((await ok("show permissions fay")).dataset),
        sorted([
          ["HTTP", null, null, false, "G"],
          ["PGWIRE", null, null, false, "G"],
          ["SELECT", "m", "v", true, "G"],
          ["SELECT", "m", "ts", true, "I"],
        ]),
      );
      // Another user's permissions need USER DETAILS.
      await refused("show permissions gus", fay, "Access denied for fay [USER DETAILS]");
      assert.deepEqual((await ok("show permissions gus")).dataset, []);
      assert.deepEqual((await ok("show permissions admin")).dataset, [[
        "DATABASE ADMIN",
        null,
        null,
        true,
        "G",
      ]]);

      // pgwire returns grant_option as a boolean.
      const client = await pgConnect(server.pgPort, "fay", "pw");
      try {
        const rows = (await client.query("show permissions")).rows;
        const row = rows.find((r: { column_name: string }) => r.column_name === "v");
        assert.deepEqual(row, {
          permission: "SELECT",
          table_name: "m",
          column_name: "v",
          grant_option: true,
          origin: "G",
        });
      } finally {
        await client.end().catch(() => {});
      }
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
