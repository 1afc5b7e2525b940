/**
 * What a newcomer meets at start: a second server on the same data root is refused (it would
 * acknowledge writes the first never sees, and one side's rows vanish at restart); a busy or
 * malformed bind setting is told in one line naming the setting, without a stack trace; a
 * port-only bind value is accepted.
 */
import assert from "node:assert/strict";
import { freePort, startServer } from "./server_process.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Runs main.ts to its end (it must refuse to start) and returns its exit code and output. */
async function runToExit(root: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--root", root],
    env: {
      QDB_HTTP_BIND_TO: "127.0.0.1:0",
      QDB_HTTP_MIN_BIND_TO: "127.0.0.1:0",
      QDB_PG_NET_BIND_TO: "127.0.0.1:0",
      QDB_LINE_TCP_NET_BIND_TO: "127.0.0.1:0",
      QDB_CAIRO_COLUMN_CACHE_BYTES: String(64 * 1024 * 1024),
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  });
  const timer = AbortSignal.timeout(60_000);
  const r = await cmd.output();
  assert.ok(!timer.aborted, "the refused server did not exit");
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

Deno.test("a second server on the same data root is refused, naming the root and the holder", async () => {
  const first = await startServer();
  try {
    assert.equal((await first.exec("CREATE TABLE t (x LONG)")).status, 200);
    const second = await runToExit(first.root, {});
    assert.equal(second.code, 1, second.out);
    const realRoot = await Deno.realPath(first.root);
    assert.match(
      second.out,
      new RegExp(`data root ${realRoot.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use`),
    );
    assert.match(second.out, new RegExp(`process ${first.child.pid}\\b`));
    assert.doesNotMatch(second.out, /\n\s+at /, "no stack trace");
    assert.doesNotMatch(second.out, /listening on/, "the refused server opened no listener");
    // The first server is untouched and still answers.
    const res = await first.exec("INSERT INTO t VALUES (1)");
    assert.equal(res.status, 200, await res.text());
  } finally {
    await first.kill();
  }
  // SIGKILL leaves the lock file behind, but the kernel released the lock with the process.
  const again = await startServer({ root: first.root });
  try {
    const res = await again.exec("SELECT count() FROM t");
    assert.deepEqual((await res.json()).dataset, [[1]]);
  } finally {
    await again.stop();
    await Deno.remove(first.root, { recursive: true });
  }
});

Deno.test("a busy port names the setting, its value and the variable to change, without a stack trace", async () => {
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (busy.addr as Deno.NetAddr).port;
  const root = await Deno.makeTempDir({ prefix: "qdb_e2e_" });
  try {
    const r = await runToExit(root, { QDB_PG_NET_BIND_TO: `127.0.0.1:${port}` });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, new RegExp(`pg\\.net\\.bind\\.to=127\\.0\\.0\\.1:${port} is in use`));
    assert.match(r.out, /set QDB_PG_NET_BIND_TO/);
    assert.doesNotMatch(r.out, /\n\s+at |AddrInUse|stack/i);
  } finally {
    busy.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a malformed bind value is explained; a port-only value listens on that port", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_e2e_" });
  try {
    const bad = await runToExit(root, { QDB_HTTP_BIND_TO: "localhost" });
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /http\.bind\.to=localhost is not a port or host:port .*set QDB_HTTP_BIND_TO/);
    assert.doesNotMatch(bad.out, /\n\s+at /);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const port = freePort();
  const server = await startServer({ env: { QDB_HTTP_BIND_TO: String(port) } });
  try {
    assert.equal(server.httpUrl, `http://localhost:${port}`);
    const res = await fetch(`http://127.0.0.1:${port}/exec?query=SELECT%201`);
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).dataset, [[1]]);
  } finally {
    await server.stop();
    await Deno.remove(server.root, { recursive: true });
  }
});

Deno.test("cold storage settings that cannot work stop the start in one line, without the credentials", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_cold_cfg_" });
  try {
    const missing = await runToExit(root, { QDB_COLD_STORAGE_ENABLED: "true" });
    assert.equal(missing.code, 1, missing.out);
    assert.match(missing.out, /cannot start: cold.storage.enabled=true needs cold.storage.object.store/);
    const noKeys = await runToExit(root, {
      QDB_COLD_STORAGE_ENABLED: "true",
      QDB_COLD_STORAGE_OBJECT_STORE: "s3::bucket=b;endpoint=http://127.0.0.1:9;secret_access_key=TOPSECRET;",
    });
    assert.equal(noKeys.code, 1, noKeys.out);
    assert.match(noKeys.out, /cannot start: cold.storage.object.store: credentials missing/);
    assert.doesNotMatch(noKeys.out, /TOPSECRET/);
    assert.doesNotMatch(noKeys.out, /\n\s+at /, "no stack trace");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
