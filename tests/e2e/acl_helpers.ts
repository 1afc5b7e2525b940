/**
 * Shared helpers for the access-control end-to-end tests: Basic headers, /exec calls that
 * return status and body, and a node-pg client against the server's pgwire port.
 */
import assert from "node:assert/strict";
import pg from "pg";

export const ACL_ENV = { QDB_ACL_ENABLED: "true" };

export function basic(user: string, password: string): string {
  return "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)));
}

export async function call(
  httpUrl: string,
  sql: string,
  auth?: string,
): Promise<{ status: number; body: string }> {
  const res = await fetch(`${httpUrl}/exec?query=${encodeURIComponent(sql)}`, {
    headers: auth ? { authorization: auth } : {},
  });
  return { status: res.status, body: await res.text() };
}

export async function pgConnect(port: number, user: string, password: string): Promise<pg.Client> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database: "qdb" });
  await client.connect();
  return client;
}

/** `run(sql, auth)`, `ok(sql, auth)` (asserts 200, returns the JSON) and `refused(sql, auth, error)`. */
export function runner(httpUrl: string, admin = basic("admin", "quest")) {
  const run = (sql: string, auth = admin) => call(httpUrl, sql, auth);
  const ok = async (sql: string, auth = admin) => {
    const r = await run(sql, auth);
    assert.equal(r.status, 200, `${sql}: ${r.body}`);
    return JSON.parse(r.body);
  };
  /** Asserts 403 with exactly `error` as the JSON error message. */
  const refused = async (sql: string, auth: string, error: string) => {
    const r = await run(sql, auth);
    assert.equal(r.status, 403, `${sql}: ${r.body}`);
    assert.equal(JSON.parse(r.body).error, error, sql);
  };
  return { run, ok, refused };
}

/** Asserts a pg query fails with SQLSTATE 42501 and exactly `message`. */
export async function pgRefused(client: pg.Client, sql: string, message: string): Promise<void> {
  await assert.rejects(client.query(sql), (e: { code?: string; message: string }) => {
    assert.equal(e.code, "42501", sql);
    assert.equal(e.message, message, sql);
    return true;
  });
}
