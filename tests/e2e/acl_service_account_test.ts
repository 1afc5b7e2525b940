/**
 * Service accounts (security.md §1, §3.4, §3.9, §4.2, §4.5, T12): they log in with their own
 * grants only; ASSUME needs an explicit grant (or DATABASE ADMIN) and replaces the session's
 * permissions until EXIT; the creator (or OWNED BY) may assume with grant option; grant
 * option is needed to pass the right on; SHOW SERVICE ACCOUNTS <entity>.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, pgConnect, pgRefused, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: service accounts are assumed only with a grant, and replace permissions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, refused, run } = runner(server.httpUrl);
    const kim = basic("kim", "pw");
    try {
      await ok("create table feed (ts timestamp, v int) timestamp(ts) partition by day");
      await ok("create table notes (txt string)");
      await ok("insert into feed values ('2024-01-01T00:00:00Z', 1)");
      await ok("insert into notes values ('n')");
      await ok("create service account ingest with password 'sapw'");
      await ok("grant http to ingest");
      await ok("grant select on feed to ingest");
      await ok("create user kim with password 'pw'");
      await ok("create user lee with password 'pw'");
      await ok("grant http, pgwire to kim");
      await ok("grant select on notes to kim");

      // A service account logs in with its own grants.
      assert.equal((await ok("select count() from feed", basic("ingest", "sapw"))).dataset[0][0], 1);
      // No permission of the account names notes: it answers as a missing table (issue #24).
      const hidden = await run("select * from notes", basic("ingest", "sapw"));
      assert.equal(hidden.status, 400, hidden.body);
      assert.equal(JSON.parse(hidden.body).error, "table does not exist [table=notes]");
      assert.equal((await ok("add user ingest to nogroup").catch((e) => e)) instanceof Error, true);

      const client = await pgConnect(server.pgPort, "kim", "pw");
      try {
        await pgRefused(
          client,
          "assume service account ingest",
          "Access denied for kim [ASSUME SERVICE ACCOUNT ingest]",
        );
        await refused(
          "grant assume service account ingest to lee",
          kim,
          "Access denied for kim [ASSUME SERVICE ACCOUNT ingest WITH GRANT OPTION]",
        );
        await ok("grant assume service account ingest to kim");
        assert.deepEqual((await ok("show service accounts kim")).dataset, [["ingest", false]]);
        await refused(
          "grant assume service account ingest to lee",
          kim,
          "Access denied for kim [ASSUME SERVICE ACCOUNT ingest WITH GRANT OPTION]",
        );

        await client.query("assume service account ingest");
        assert.equal((await client.query("select current_user() u")).rows[0].u, "ingest");
        assert.equal(Number((await client.query("select count() c from feed")).rows[0].c), 1);
        // The assumer cannot mint the account's own credentials (they would outlive the grant).
        await pgRefused(
          client,
          "alter service account ingest create token type rest with ttl '1d'",
          "Access denied for ingest [CREATE REST TOKEN]",
        );
        // Replaced, not a union: kim's own SELECT on notes does not apply now.
        await assert.rejects(client.query("select * from notes"), {
          code: "42P01",
          message: "table does not exist [table=notes]",
        });
        await client.query("exit service account ingest");
        assert.equal((await client.query("select current_user() u")).rows[0].u, "kim");
        assert.deepEqual((await client.query("select txt from notes")).rows, [{ txt: "n" }]);
        await assert.rejects(client.query("select v from feed"), {
          code: "42P01",
          message: "table does not exist [table=feed]",
        });
        await assert.rejects(client.query("exit service account"), /no service account is assumed/);

        // Disabling the account stops an open assumption at the next statement.
        await client.query("assume service account ingest");
        await ok("alter service account ingest disable");
        // A disabled account holds no permission, so it sees no table at all (issue #24).
        await assert.rejects(client.query("select v from feed"), {
          code: "42P01",
          message: "table does not exist [table=feed]",
        });
        await client.query("exit service account");
        await pgRefused(client, "assume service account ingest", "service account is disabled [name=ingest]");
        await ok("alter service account ingest enable");

        // Revoking the grant stops new assumptions.
        await ok("revoke assume service account ingest from kim");
        await pgRefused(
          client,
          "assume service account ingest",
          "Access denied for kim [ASSUME SERVICE ACCOUNT ingest]",
        );
      } finally {
        await client.end().catch(() => {});
      }

      // The creator may assume its service account with grant option, so it may pass it on.
      await ok("grant create service account to kim");
      await ok("create service account etl", kim);
      assert.deepEqual((await ok("show service accounts kim")).dataset, [["etl", true]]);
      await ok("grant assume service account etl to lee", kim);
      assert.deepEqual((await ok("show service accounts lee")).dataset, [["etl", false]]);
      // OWNED BY a group: its members may assume.
      await ok("create group ops");
      await ok("add user lee to ops");
      await ok("create service account batch owned by ops");
      assert.deepEqual((await ok("show service accounts ops")).dataset, [["batch", true]]);
      assert.deepEqual((await ok("show service accounts lee")).dataset, [["batch", true], ["etl", false]]);
      await refused("show service accounts lee", kim, "Access denied for kim [USER DETAILS]");
      // Service accounts cannot assume service accounts.
      const r = await ok("grant assume service account batch to etl").catch((e) => e);
      assert.ok(r instanceof Error);
      // Dropping the account removes the grants on it.
      await ok("drop service account etl");
      assert.deepEqual((await ok("show service accounts lee")).dataset, [["batch", true]]);
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
