/**
 * UPDATE and INSERT permission checks (security.md §2.2, T14): UPDATE needs UPDATE on each
 * SET column and SELECT on every column the SET expressions and WHERE read, subqueries
 * included; `SET a = 1` alone needs no SELECT. Checked over REST (403) and pgwire (42501).
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, pgConnect, pgRefused, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: UPDATE is column-aware and reads need SELECT; INSERT needs INSERT",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, refused, run } = runner(server.httpUrl);
    const dan = basic("dan", "pw");
    try {
      await ok(
        "create table u (ts timestamp, a int, b int, secret string) timestamp(ts) partition by day wal",
      );
      await ok("create table other (x int, hidden string)");
      await ok("insert into u values ('2024-01-01T00:00:00Z', 1, 10, 's')");
      await ok("insert into other values (1, 'h')");
      await ok("create user dan with password 'pw'");
      await ok("grant http, pgwire to dan");

      await refused("update u set a = 2", dan, "Access denied for dan [UPDATE on u.a]");
      await ok("grant update on u(a) to dan");
      await ok("update u set a = 2", dan); // no column read: UPDATE alone is enough
      await refused("update u set b = 3", dan, "Access denied for dan [UPDATE on u.b]");
      await refused("update u set a = 3, b = 3", dan, "Access denied for dan [UPDATE on u.b]");
      // Reading columns (SET expression, WHERE, subquery) needs SELECT on them.
      await refused("update u set a = b", dan, "Access denied for dan [SELECT on u.b]");
      await refused(
        "update u set a = 1 where secret = 's'",
        dan,
        "Access denied for dan [SELECT on u.secret]",
      );
      // A table dan holds no permission on reads as missing (issue #24), never as "Access denied".
      // (In the WHERE: QuestDB refuses a subquery in a SET value, UpdateTest.)
      const hidden = await run("update u set a = 2 where 1 in (select x from other)", dan);
      assert.equal(hidden.status, 400, hidden.body);
      assert.equal(JSON.parse(hidden.body).error, "table does not exist [table=other]");
      await refused("update u set a = 5 where a = 2", dan, "Access denied for dan [SELECT on u.a]");
      await ok("grant select on u(a, b) to dan");
      await ok("update u set a = b + 1 where a = 2", dan);
      await ok("update u set a = 7 where ts > '2000-01-01'", dan); // the designated timestamp is implicit
      await refused(
        "update u set a = 1 where secret = 's'",
        dan,
        "Access denied for dan [SELECT on u.secret]",
      );
      // A table-level grant covers every column, present and future.
      await ok("grant update on u to dan");
      await ok("update u set b = 4", dan);
      assert.deepEqual((await ok("select a, b from u")).dataset, [[7, 4]]);
      // UPDATE ... FROM reads its source: a hidden table reads as missing, its columns need SELECT.
      const fromHidden = await run("update u set b = other.x from other", dan);
      assert.equal(fromHidden.status, 400, fromHidden.body);
      assert.equal(JSON.parse(fromHidden.body).error, "table does not exist [table=other]");
      await ok("grant select on other(x) to dan");
      await ok("update u set b = other.x + 1 from other where other.x = 1", dan);
      await refused(
        "update u set b = 1 from other where other.hidden = 'h'",
        dan,
        "Access denied for dan [SELECT on other.hidden]",
      );
      assert.deepEqual((await ok("select a, b from u")).dataset, [[7, 2]]);

      await refused("insert into u(ts, a) values (now(), 1)", dan, "Access denied for dan [INSERT on u]");
      await refused("insert into u select * from u", dan, "Access denied for dan [INSERT on u]");
      await ok("grant insert on u to dan");
      await refused(
        "insert into u select ts, a, b, secret from u",
        dan,
        "Access denied for dan [SELECT on u.secret]",
      );
      await ok("insert into u(ts, a) values ('2024-01-02T00:00:00Z', 1)", dan);

      const client = await pgConnect(server.pgPort, "dan", "pw");
      try {
        await pgRefused(
          client,
          "update u set a = 1 where secret = 's'",
          "Access denied for dan [SELECT on u.secret]",
        );
        await ok("revoke update on u from dan");
        await pgRefused(client, "update u set b = 1", "Access denied for dan [UPDATE on u.b]");
        await pgRefused(
          client,
          "insert into other values (2, 'x')",
          "Access denied for dan [INSERT on other]",
        );
        // T10: a disabled user's open connection runs nothing, not even a table-less statement.
        await ok("alter user dan disable");
        await pgRefused(client, "select 1", "Access denied for dan [user is disabled]");
        await ok("alter user dan enable");
        assert.deepEqual((await client.query("select 1 x")).rows, [{ x: 1 }]);
      } finally {
        await client.end().catch(() => {});
      }
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
