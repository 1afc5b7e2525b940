/**
 * INSERT reads under access control (security.md T14): RETURNING and ON CONFLICT DO UPDATE
 * expressions that read the existing row need SELECT on those columns; `excluded.c` (the
 * writer's own values) needs nothing beyond INSERT and UPDATE.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: RETURNING and DO UPDATE reads need SELECT",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ env: ACL_ENV });
    const { ok, refused } = runner(server.httpUrl);
    const rex = basic("rex", "pw");
    try {
      await ok(
        "create table r (ts timestamp, k symbol, a int, secret string) timestamp(ts) partition by day wal dedup upsert keys(ts, k)",
      );
      await ok("insert into r values ('2024-01-01T00:00:00Z', 'x', 1, 's')");
      await ok("create user rex with password 'pw'");
      await ok("grant http to rex");
      await ok("grant insert on r to rex");
      await ok("grant update on r(a) to rex");

      await ok("insert into r values ('2024-01-02T00:00:00Z', 'y', 2, 't')", rex);
      await refused(
        "insert into r values ('2024-01-03T00:00:00Z', 'z', 3, 'u') returning secret",
        rex,
        "Access denied for rex [SELECT on r.secret]",
      );
      await refused(
        "insert into r values ('2024-01-03T00:00:00Z', 'z', 3, 'u') returning *",
        rex,
        "Access denied for rex [SELECT on r.k]",
      );
      await ok(
        "insert into r values ('2024-01-01T00:00:00Z', 'x', 5, 's') on conflict (ts, k) do update set a = excluded.a",
        rex,
      );
      await refused(
        "insert into r values ('2024-01-01T00:00:00Z', 'x', 5, 's') on conflict (ts, k) do update set a = length(secret)",
        rex,
        "Access denied for rex [SELECT on r.secret]",
      );
      await refused(
        "insert into r values ('2024-01-01T00:00:00Z', 'x', 5, 's') on conflict (ts, k) do update set a = a + excluded.a",
        rex,
        "Access denied for rex [SELECT on r.a]",
      );
      await ok("grant select on r(a) to rex");
      const back = await ok("insert into r values ('2024-01-04T00:00:00Z', 'w', 7, 'v') returning a", rex);
      assert.deepEqual(back.dataset, [[7]]);
      assert.equal((await ok("select count() from r")).dataset[0][0], 3);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
