/**
 * pgwire TLS (issue 10): with `pg.tls.enabled` the server answers SSLRequest with `S` and
 * speaks TLS on the same socket; node-postgres, psycopg2 and psycopg 3 connect with
 * sslmode=require / verify-full, plain clients still work, and without TLS configured
 * SSLRequest is answered `N` (sslmode=require fails, sslmode=prefer falls back to plain).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "./clients/pg_tools.ts";
import { makeTestCert } from "./clients/test_certs.ts";

const PY_CLIENT = new URL("./clients/pg_tls_client.py", import.meta.url).pathname;

/** Sends an SSLRequest on a raw socket and returns the one-byte answer. */
async function sslAnswer(port: number): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new Uint8Array([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]));
    const b = new Uint8Array(1);
    assert.equal(await conn.read(b), 1);
    return String.fromCharCode(b[0]);
  } finally {
    conn.close();
  }
}

Deno.test({
  name: "pg over TLS: node-postgres, psycopg2 and psycopg 3 with sslmode=require and verify-full",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const cert = await makeTestCert();
    const server = await startServer({
      pg: true,
      env: {
        QDB_PG_TLS_ENABLED: "true",
        QDB_PG_TLS_CERT_PATH: cert.certPath,
        QDB_PG_TLS_PRIVATE_KEY_PATH: cert.keyPath,
      },
    });
    try {
      assert.equal(await sslAnswer(server.pgPort), "S");

      // node-postgres: verified against the test CA, then "require" semantics (no verification).
      for (const ssl of [{ ca: cert.ca, servername: "localhost" }, { rejectUnauthorized: false }]) {
        const client = new pg.Client({
          host: "localhost",
          port: server.pgPort,
          user: "admin",
          password: "quest",
          ssl,
        });
        await client.connect();
        try {
          assert.deepEqual((await client.query("select 1 as one")).rows, [{ one: 1 }]);
          assert.deepEqual((await client.query("select $1::int as n", [7])).rows, [{ n: 7 }]);
          // Many rows cross many TLS records.
          const many = await client.query("select x from long_sequence(50000)");
          assert.equal(many.rows.length, 50000);
        } finally {
          await client.end();
        }
      }

      // A certificate the client does not trust fails the handshake, not the server.
      const untrusted = new pg.Client({
        host: "localhost",
        port: server.pgPort,
        user: "admin",
        password: "quest",
        ssl: { rejectUnauthorized: true },
      });
      await assert.rejects(untrusted.connect());

      // Plain connections keep working on the same port.
      const plain = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "admin",
        password: "quest",
      });
      await plain.connect();
      assert.deepEqual((await plain.query("select 2 as two")).rows, [{ two: 2 }]);
      await plain.end();

      for (const [mode, root] of [["require", "-"], ["verify-full", cert.caPath]]) {
        const r = await run(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort), mode, root], {
          timeoutMs: 60_000,
        });
        assert.equal(r.code, 0, `sslmode=${mode} failed:\n${r.stdout}\n${r.stderr}`);
        assert.match(r.stdout, /OK psycopg2 ssl=True/);
        assert.match(r.stdout, /OK psycopg ssl=True/);
      }
      // A failed handshake is the client's business: nothing in the server log.
      assert.doesNotMatch(server.log(), /pg connection failed|error/i);
    } finally {
      await server.stop();
      await Deno.remove(cert.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "pg without TLS configured answers SSLRequest with N",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    try {
      assert.equal(await sslAnswer(server.pgPort), "N");
      const required = await run(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort), "require"], {
        timeoutMs: 60_000,
      });
      assert.notEqual(required.code, 0);
      assert.match(required.stderr, /does not support SSL/);
      const preferred = await run(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort), "prefer"], {
        timeoutMs: 60_000,
      });
      assert.equal(preferred.code, 0, preferred.stderr);
      assert.match(preferred.stdout, /OK psycopg ssl=False/);
    } finally {
      await server.stop();
    }
  },
});
