/**
 * Helpers for the pgwire end-to-end tests: find the Debian client tools that
 * .ci/install_pg_clients.sh installs (failing loudly when one is missing, never skipping),
 * and run a client program to completion with a time limit.
 */
import assert from "node:assert/strict";

/** Debian's interpreter: python3-psycopg2/-psycopg/-asyncpg load there, not in a pyenv python. */
export const DEBIAN_PYTHON = "/usr/bin/python3";
export const JDBC_JAR = "/usr/share/java/postgresql.jar";

/** Connection options of a test server's pgwire listener, as node `pg` and postgres.js take them. */
export function pgOptions(port: number) {
  return { host: "127.0.0.1", port, user: "admin", password: "quest", database: "qdb" };
}

/** Throws a clear error when `path` does not exist. */
export async function requireFile(path: string, what: string): Promise<void> {
  try {
    await Deno.stat(path);
  } catch {
    throw new Error(`${what} is missing (${path}); run .ci/install_pg_clients.sh`);
  }
}

/** Throws a clear error when `command` is not on PATH. */
export async function requireCommand(command: string, what: string): Promise<void> {
  const out = await new Deno.Command("sh", {
    args: ["-c", `command -v ${command}`],
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`${what} (${command}) is not installed; run .ci/install_pg_clients.sh`);
}

/** Runs a program; returns its exit status and output. Killed after `timeoutMs`. */
export async function run(
  command: string,
  args: string[],
  opts: { timeoutMs?: number; env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(command, {
    args,
    env: opts.env,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
  }, opts.timeoutMs ?? 60_000);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Runs a client program that prints an "OK ..." line when every check it makes passed, and asserts
 * that it exited 0 and printed `ok`; its whole output is the failure message.
 */
export async function expectClientOk(
  command: string,
  args: string[],
  ok: RegExp,
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  const r = await run(command, args, opts);
  assert.equal(r.code, 0, `client failed:\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, ok);
}
