/**
 * DELETE and upsert permission checks (issue 10): DELETE needs TRUNCATE TABLE on the table
 * (no DELETE permission exists; removing rows is what TRUNCATE grants) and SELECT on what its
 * WHERE reads; ON CONFLICT DO UPDATE needs UPDATE on the SET columns besides INSERT.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: DELETE needs TRUNCATE TABLE and SELECT on its WHERE; DO UPDATE needs UPDATE",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ env: ACL_ENV });
    const { ok, refused } = runner(server.httpUrl);
    const eve = basic("eve", "pw");
    try {
      await ok(
        "create table d (ts timestamp, k symbol, a int, secret string) timestamp(ts) partition by day wal dedup upsert keys(ts, k)",
      );
      await ok(
        "insert into d values ('2024-01-01T00:00:00Z', 'x', 1, 's'), ('2024-01-02T00:00:00Z', 'y', 2, 't')",
      );
      await ok("create user eve with password 'pw'");
      await ok("grant http to eve");

      await refused("delete from d where a = 1", eve, "Access denied for eve [TRUNCATE TABLE on d]");
      await ok("grant truncate table on d to eve");
      await refused("delete from d where secret = 's'", eve, "Access denied for eve [SELECT on d.secret]");
      await ok("grant select on d(a) to eve");
      await ok("delete from d where a = 1", eve);
      assert.deepEqual((await ok("select k from d")).dataset, [["y"]]);

      await ok("grant insert on d to eve");
      await ok("insert into d values ('2024-01-02T00:00:00Z', 'y', 9, 'u') on conflict do nothing", eve);
      await refused(
        "insert into d values ('2024-01-02T00:00:00Z', 'y', 9, 'u') on conflict (ts, k) do update set a = excluded.a",
        eve,
        "Access denied for eve [UPDATE on d.a]",
      );
      assert.deepEqual((await ok("select a from d")).dataset, [[2]]);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
