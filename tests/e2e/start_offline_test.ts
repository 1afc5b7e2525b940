/**
 * The README's start command works without a network once installed, and the start path
 * fetches only what running needs: no test-only package (drivers, browser automation, the
 * identity provider) and not the WASM compiler, whose output is committed.
 *
 * Offline is a fresh network namespace with no interfaces but loopback (`unshare -rn`), so
 * npx (kept off the registry by the repository's .npmrc `prefer-offline`) and Deno must do
 * with their caches.
 */
import assert from "node:assert/strict";
import { freePort } from "./server_process.ts";

const REPO = new URL("../../", import.meta.url).pathname;

/** Runs `cmd` in the repository until its output shows the HTTP listener, then stops it. */
async function startsListening(
  cmd: string[],
  env: Record<string, string>,
): Promise<{ listening: boolean; out: string }> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: REPO,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const collect = async (s: ReadableStream<Uint8Array>) => {
    for await (const chunk of s.pipeThrough(new TextDecoderStream())) out += chunk;
  };
  const done = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const deadline = Date.now() + 120_000;
  while (!/http listening on/.test(out) && Date.now() < deadline) {
    const ended = await Promise.race([
      child.status.then(() => true),
      new Promise((r) => setTimeout(r, 200, false)),
    ]);
    if (ended) break;
  }
  const listening = /http listening on/.test(out);
  try {
    // The task runner's process group: stop the server it started too.
    Deno.kill(-child.pid, "SIGTERM");
  } catch {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
  }
  await child.status;
  await done.catch(() => {});
  return { listening, out };
}

function ports(): Record<string, string> {
  return {
    QDB_HTTP_BIND_TO: `127.0.0.1:${freePort()}`,
    QDB_HTTP_MIN_BIND_TO: `127.0.0.1:${freePort()}`,
    QDB_PG_NET_BIND_TO: `127.0.0.1:${freePort()}`,
    QDB_LINE_TCP_NET_BIND_TO: `127.0.0.1:${freePort()}`,
  };
}

Deno.test("npx -y deno@2.9.6 task start starts without a network once installed", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_offline_" });
  try {
    // setsid: the task and the server it spawns share one process group the test can stop.
    const r = await startsListening(
      ["setsid", "unshare", "-rn", "npx", "-y", "deno@2.9.6", "task", "start", "--root", root],
      ports(),
    );
    assert.ok(r.listening, `no listener without a network:\n${r.out}`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
Deno.test("the start task downloads only what running needs", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_start_" });
  const denoDir = await Deno.makeTempDir({ prefix: "qdb_denodir_" });
  try {
    const r = await startsListening(
      ["setsid", Deno.execPath(), "task", "start", "--root", root],
      { ...ports(), DENO_DIR: denoDir },
    );
    assert.ok(r.listening, r.out);
    const fetched = [...Deno.readDirSync(`${denoDir}/npm/registry.npmjs.org`)].map((e) => e.name);
    for (
      const testOnly of [
        "pg",
        "postgres",
        "playwright-core",
        "oidc-provider",
        "@questdb",
        "@influxdata",
        "@duckdb",
        "s3rver",
        "@aws-sdk",
      ]
    ) {
      assert.ok(!fetched.includes(testOnly), `start fetched the test-only package ${testOnly}`);
    }
    assert.ok(
      !fetched.includes("assemblyscript"),
      "start fetched the WASM compiler although the module is built",
    );
    assert.ok(fetched.includes("hono"), `the start path's own packages are fetched: ${fetched.join(" ")}`);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(denoDir, { recursive: true });
  }
});
