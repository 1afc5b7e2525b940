/**
 * The query cache seen over REST /exec (engine/query_cache.ts, issue #17): the same text sent
 * again sees rows inserted in between, a column added or dropped, a table dropped and created
 * again with other columns, a rename; and with access control, a GRANT or REVOKE between two
 * executions of the same text changes what each of two users gets at once.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "query cache over /exec: inserts, ALTER, DROP + CREATE and RENAME are seen by the same text",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer();
    const { ok, run } = runner(server.httpUrl);
    const all = async (sql: string) => {
      const r = await ok(sql);
      return { columns: r.columns.map((c: { name: string }) => c.name), dataset: r.dataset };
    };
    try {
      await ok("create table t (ts timestamp, x int) timestamp(ts) partition by day wal");
      const q = "select * from t";
      assert.deepEqual(await all(q), { columns: ["ts", "x"], dataset: [] });
      for (let i = 1; i <= 3; i++) {
        await ok(`insert into t values (${i}, ${i})`);
        assert.equal((await all(q)).dataset.length, i, "each insert is read by the next execution");
        assert.deepEqual((await ok("select count(*) from t")).dataset, [[i]]);
      }
      await ok("alter table t add column y double");
      assert.deepEqual((await all(q)).columns, ["ts", "x", "y"]);
      await ok("alter table t drop column x");
      assert.deepEqual((await all(q)).columns, ["ts", "y"]);
      await ok("drop table t");
      assert.equal((await run(q)).status, 400);
      await ok("create table t (s string, b boolean)");
      await ok("insert into t values ('a', true)");
      assert.deepEqual(await all(q), { columns: ["s", "b"], dataset: [["a", true]] });
      await ok("rename table t to u");
      assert.match((await run(q)).body, /table does not exist/);
      assert.deepEqual((await all("select * from u")).dataset, [["a", true]]);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});

Deno.test({
  name: "query cache over /exec with access control: GRANT and REVOKE apply to the next execution, per user",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ env: ACL_ENV });
    const { ok, run } = runner(server.httpUrl);
    const bob = basic("bob", "pw"), eve = basic("eve", "pw");
    try {
      await ok("create table t (a int, b int)");
      await ok("insert into t values (1, 2)");
      for (const u of ["bob", "eve"]) {
        await ok(`create user ${u} with password 'pw'`);
        await ok(`grant http to ${u}`);
      }
      await ok("grant select on t to bob");
      await ok("grant select on t(a) to eve");
      const q = "select * from t";
      for (let i = 0; i < 2; i++) {
        assert.deepEqual((await ok(q, bob)).dataset, [[1, 2]]);
        assert.equal((await run(q, eve)).status, 403, "eve may not read b");
        assert.deepEqual((await ok("select a from t", eve)).dataset, [[1]]);
      }
      await ok("revoke select on t from bob");
      await ok("grant select on t to eve");
      assert.notEqual((await run(q, bob)).status, 200, "bob's grant is gone");
      assert.deepEqual((await ok(q, eve)).dataset, [[1, 2]]);
      await ok("grant select on t(a) to bob");
      assert.equal((await run(q, bob)).status, 403);
      assert.deepEqual((await ok("select a from t", bob)).dataset, [[1]]);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
