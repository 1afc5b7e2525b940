/**
 * Issue 24: 1,500 half-open pgwire connections (each sends two bytes of a start packet and
 * then nothing) must not lock out logins. Connections still in startup/authentication are
 * counted apart from pg.net.connection.limit, capped per address (new ones evict the oldest
 * that made no progress) and dropped after pg.net.handshake.timeout; so the admin logs in
 * during and right after the flood, and with access control a normal user does too.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { assertFileLimit, flood } from "./flood_clients.ts";
import { pgOptions } from "./clients/pg_tools.ts";

const SOCKETS = 1500;
const HALF_START = new Uint8Array([0, 0]); // the first two bytes of an int32 length

async function login(port: number, user = "admin", password = "quest"): Promise<number> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database: "qdb" });
  try {
    await client.connect();
    return (await client.query("SELECT 1 AS x")).rows[0].x;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Floods the port and logs in during and after it, all within 15 s of the flood's start. */
async function loginsThroughFlood(port: number, users: [string, string][]): Promise<void> {
  const started = Date.now();
  const flooding = flood(port, SOCKETS, HALF_START);
  // A login while the flood is still opening sockets from the same address.
  await new Promise((r) => setTimeout(r, 300));
  const during = await Promise.all(users.map(([u, p]) => login(port, u, p)));
  const f = await flooding;
  try {
    assert.equal(f.opened, SOCKETS);
    const after = await Promise.all(users.map(([u, p]) => login(port, u, p)));
    const seconds = (Date.now() - started) / 1000;
    assert.deepEqual([...during, ...after], [...users, ...users].map(() => 1), "every login ran SELECT 1");
    assert.ok(seconds < 15, `logins took ${seconds} s from the start of the flood`);
    // The deadline (5 s by default) drops what the per-address cap left open.
    const closed = await f.closedByServer(8000);
    assert.equal(closed, SOCKETS, "every half-open connection was closed by the server");
  } finally {
    f.close();
  }
}

Deno.test({
  name: "pgwire: the admin logs in through a 1,500-connection half-open flood",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(SOCKETS);
    const server = await startServer({ pg: true });
    try {
      await loginsThroughFlood(server.pgPort, [["admin", "quest"]]);
      assert.equal(await login(server.pgPort), 1);
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "pgwire with acl.enabled: the admin and a normal user log in through the flood",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(SOCKETS);
    const server = await startServer({ pg: true, env: { QDB_ACL_ENABLED: "true" } });
    try {
      const admin = "Basic " + btoa("admin:quest");
      for (const sql of ["create user bob with password 'b0b'", "grant pgwire to bob"]) {
        const r = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, {
          headers: { authorization: admin },
        });
        assert.equal(r.status, 200, await r.text());
      }
      await loginsThroughFlood(server.pgPort, [["admin", "quest"], ["bob", "b0b"]]);
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "pgwire: a stalled login is dropped after pg.net.handshake.timeout; logged-in sessions stay",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      pg: true,
      env: { QDB_PG_NET_HANDSHAKE_TIMEOUT: "700", QDB_PG_NET_CONNECTION_LIMIT: "1" },
    });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    const stalled = await flood(server.pgPort, 3, HALF_START);
    try {
      // Half-open connections do not use the single authenticated slot.
      await client.connect();
      const began = Date.now();
      assert.equal(await stalled.closedByServer(3000), 3);
      const waited = Date.now() - began;
      assert.ok(waited < 2500, `stalled logins closed after ${waited} ms`);
      // The authenticated session outlives the handshake deadline.
      assert.deepEqual((await client.query("SELECT 2 AS x")).rows, [{ x: 2 }]);
      // The limit of one authenticated connection still holds.
      await assert.rejects(login(server.pgPort), /too many connections/);
    } finally {
      stalled.close();
      await client.end().catch(() => {});
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});
