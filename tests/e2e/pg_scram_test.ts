/**
 * pgwire SCRAM-SHA-256 (issue 10, pg.auth.method=scram): the server asks for SASL, node-postgres,
 * psycopg2 and psycopg 3 log in with it (also over TLS, where libpq announces channel-binding
 * support it does not get), a wrong password or unknown user is 28P01, and with access control
 * the stored users' verifiers follow CREATE / ALTER USER while DISABLE still refuses.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, pgOptions, requireFile, run } from "./clients/pg_tools.ts";
import { makeTestCert } from "./clients/test_certs.ts";

const PY_CLIENT = new URL("./clients/pg_tls_client.py", import.meta.url).pathname;

/** The authentication request code the server sends after a StartupMessage (10 = SASL). */
async function authRequest(port: number): Promise<{ code: number; mechanisms: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const params = new TextEncoder().encode("user\0admin\0database\0qdb\0\0");
    const start = new Uint8Array(8 + params.length);
    new DataView(start.buffer).setInt32(0, start.length);
    new DataView(start.buffer).setInt32(4, 196608);
    start.set(params, 8);
    await conn.write(start);
    const buf = new Uint8Array(256);
    let n = 0;
    while (n < 9) n += (await conn.read(buf.subarray(n))) ?? 0;
    const view = new DataView(buf.buffer);
    assert.equal(String.fromCharCode(buf[0]), "R");
    const length = view.getInt32(1);
    while (n < 1 + length) n += (await conn.read(buf.subarray(n))) ?? 0;
    return { code: view.getInt32(5), mechanisms: new TextDecoder().decode(buf.subarray(9, 1 + length)) };
  } finally {
    conn.close();
  }
}

async function login(
  port: number,
  user: string,
  password: string,
  ssl?: pg.ClientConfig["ssl"],
): Promise<unknown> {
  const client = new pg.Client({ host: "localhost", port, user, password, database: "qdb", ssl });
  await client.connect();
  try {
    return (await client.query("select 1 as one")).rows[0].one;
  } finally {
    await client.end();
  }
}

async function rejected(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (err: { code?: string }) => {
    assert.equal(err.code, code);
    return true;
  });
}

Deno.test({
  name: "pg SCRAM-SHA-256 with the configured user: node-postgres, psycopg2, psycopg 3, over TLS too",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const cert = await makeTestCert();
    const server = await startServer({
      pg: true,
      env: {
        QDB_PG_AUTH_METHOD: "scram",
        QDB_PG_PASSWORD: "s3cret-pässword",
        QDB_PG_TLS_ENABLED: "true",
        QDB_PG_TLS_CERT_PATH: cert.certPath,
        QDB_PG_TLS_PRIVATE_KEY_PATH: cert.keyPath,
      },
    });
    try {
      const request = await authRequest(server.pgPort);
      assert.equal(request.code, 10);
      assert.equal(request.mechanisms, "SCRAM-SHA-256\0\0");

      assert.equal(await login(server.pgPort, "admin", "s3cret-pässword"), 1);
      assert.equal(await login(server.pgPort, "admin", "s3cret-pässword", { ca: cert.ca }), 1);
      await rejected(login(server.pgPort, "admin", "quest"), "28P01");
      await rejected(login(server.pgPort, "nobody", "s3cret-pässword"), "28P01");

      for (const mode of ["disable", "require"]) {
        const r = await run(DEBIAN_PYTHON, [
          PY_CLIENT,
          String(server.pgPort),
          mode,
          "-",
          "admin",
          "s3cret-pässword",
        ], { timeoutMs: 60_000 });
        assert.equal(r.code, 0, `sslmode=${mode} failed:\n${r.stdout}\n${r.stderr}`);
        assert.match(r.stdout, /OK psycopg2/);
        assert.match(r.stdout, /OK psycopg ssl=/);
      }
      const wrong = await run(DEBIAN_PYTHON, [
        PY_CLIENT,
        String(server.pgPort),
        "disable",
        "-",
        "admin",
        "wrong",
      ], { timeoutMs: 60_000 });
      assert.notEqual(wrong.code, 0);
      assert.match(wrong.stderr, /invalid username\/password/);
      // The server log never shows a password.
      assert.doesNotMatch(server.log(), /s3cret|wrong/);
    } finally {
      await server.stop();
      await Deno.remove(cert.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "pg SCRAM-SHA-256 with access control: created, altered and disabled users",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      pg: true,
      env: { QDB_ACL_ENABLED: "true", QDB_PG_AUTH_METHOD: "scram" },
    });
    const admin = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await admin.connect();
      await admin.query("create user bob with password 'b0b-pw'");
      await admin.query("grant pgwire to bob");
      assert.equal(await login(server.pgPort, "bob", "b0b-pw"), 1);
      await rejected(login(server.pgPort, "bob", "b0b-PW"), "28P01");

      await admin.query("alter user bob with password 'n3w-pw'");
      assert.equal(await login(server.pgPort, "bob", "n3w-pw"), 1);
      await rejected(login(server.pgPort, "bob", "b0b-pw"), "28P01");

      await admin.query("alter user bob disable");
      await rejected(login(server.pgPort, "bob", "n3w-pw"), "42501");
      await admin.query("alter user bob enable");
      await admin.query("alter user bob with no password");
      await rejected(login(server.pgPort, "bob", "n3w-pw"), "28P01");

      // Without PGWIRE the proof is right but the login is refused.
      await admin.query("create user carol with password 'c-pw'");
      await rejected(login(server.pgPort, "carol", "c-pw"), "42501");
    } finally {
      await admin.end();
      await server.stop();
    }
  },
});
