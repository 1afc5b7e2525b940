/**
 * ILP over TCP with access control (security.md §5.3, protocols.md §11.1, T15, T21): the
 * QuestDB Node.js client authenticates with the private key from `ALTER USER u CREATE TOKEN
 * TYPE JWK`; rows land only with ILP plus INSERT (existing table) or CREATE TABLE (new one,
 * which the writer then owns); anything else — no handshake, a wrong key, a dropped key, a
 * missing permission, a disabled user — closes the connection and writes nothing.
 */
import assert from "node:assert/strict";
import { Sender } from "@questdb/nodejs-client";
import { ACL_ENV, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "acl: ILP over TCP needs the JWK handshake, ILP and the table permissions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ilp: true, env: ACL_ENV });
    const { ok } = runner(server.httpUrl);
    const count = async (table: string) => {
      const r = await ok(`select count() from tables() where table_name = '${table}'`);
      if (r.dataset[0][0] === 0) return -1;
      return (await ok(`select count() from '${table}'`)).dataset[0][0] as number;
    };
    type Key = { x: string; y: string; d: string };
    /**
     * Writes one row as `user` with `key`; errors (a closed connection) are swallowed. The
     * full JWK is passed: the client's `username=…;token=<d>` form pairs d with a fixed
     * sample public key, which Deno's node:crypto rejects as inconsistent.
     */
    const write = async (user: string, key: Key, table: string, v = 1) => {
      const sender = new Sender({
        protocol: "tcp",
        protocol_version: "1",
        host: "127.0.0.1",
        port: server.ilpPort,
        jwk: { kid: user, ...key, kty: "EC", crv: "P-256" },
        log: () => {},
      });
      try {
        await sender.connect();
        await sender.table(table).symbol("s", "x").floatColumn("v", v).at(Date.now(), "ms");
        await sender.flush();
      } catch { /* refused: the server closed the connection */ }
      await sender.close().catch(() => {});
      await sleep(300); // TCP has no reply: give the server time to commit (or not)
    };
    try {
      await ok("create user ivan with password 'pw'");
      const jwk = await ok("alter user ivan create token type jwk");
      assert.deepEqual(jwk.columns.map((c: { name: string }) => c.name), [
        "name",
        "public_key_x",
        "public_key_y",
        "private_key",
      ]);
      const [name, x, y, d] = jwk.dataset[0];
      assert.equal(name, "ivan");
      for (const v of [x, y, d]) assert.match(v, /^[A-Za-z0-9_-]{43}$/);
      const key: Key = { x, y, d };
      assert.deepEqual((await ok("show user ivan")).dataset[1], ["JWK Token", true]);
      const stored = await Deno.readTextFile(`${server.root}/acl.json`);
      assert.ok(stored.includes(x) && !stored.includes(d), "only the public key is stored");

      // Authenticated but no ILP permission.
      await write("ivan", key, "jwk_new");
      assert.equal(await count("jwk_new"), -1);
      await ok("grant ilp to ivan");
      await write("ivan", key, "jwk_new");
      assert.equal(await count("jwk_new"), -1); // CREATE TABLE missing
      await ok("grant create table to ivan");
      await write("ivan", key, "jwk_new");
      assert.equal(await count("jwk_new"), 1);
      await write("ivan", key, "jwk_new", 2); // the creator owns the table: INSERT is implied
      assert.equal(await count("jwk_new"), 2);

      // An existing table needs INSERT on it.
      await ok(
        "create table jwk_old (s symbol, v double, timestamp timestamp) timestamp(timestamp) partition by day wal",
      );
      await write("ivan", key, "jwk_old");
      assert.equal(await count("jwk_old"), 0);
      await ok("grant insert on jwk_old to ivan");
      await write("ivan", key, "jwk_old");
      assert.equal(await count("jwk_old"), 1);

      // A wrong key, an unknown key id, a disabled user, a dropped key: nothing lands.
      await ok("create user other");
      const [, ox, oy, od] = (await ok("alter user other create token type jwk")).dataset[0];
      await write("ivan", { x: ox, y: oy, d: od }, "jwk_old");
      await write("nobody", key, "jwk_old");
      await ok("alter user ivan disable");
      await write("ivan", key, "jwk_old");
      await ok("alter user ivan enable");
      assert.equal(await count("jwk_old"), 1);

      // Plain ILP without the handshake is not data: the first line is taken as a key id.
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
      await conn.write(new TextEncoder().encode("jwk_old,s=x v=9\njwk_old,s=x v=9\njwk_old,s=x v=9\n"));
      await sleep(300);
      conn.close();
      await sleep(200);
      assert.equal(await count("jwk_old"), 1);

      await ok("alter user ivan drop token type jwk");
      await write("ivan", key, "jwk_old");
      assert.equal(await count("jwk_old"), 1);
      assert.ok(!server.log().includes(d), "the private key reached the log");
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
