/**
 * Starts the real server (`main.ts`) as a child process on free loopback ports with a
 * temporary data root, for end-to-end tests. Nothing here uses the default ports.
 */

export interface ServerProcess {
  root: string;
  httpUrl: string;
  healthUrl: string;
  /** Port of the pgwire listener (only when started with `pg: true`). */
  pgPort: number;
  /** Port of the ILP TCP listener (only when started with `ilp: true`). */
  ilpPort: number;
  child: Deno.ChildProcess;
  /** Sends SIGKILL and waits for the process to end. */
  kill(): Promise<void>;
  /** Sends SIGTERM and waits. */
  stop(): Promise<void>;
  exec(sql: string, extra?: string): Promise<Response>;
  /** Everything the server wrote to stdout and stderr so far (for tests that inspect the log). */
  log(): string;
}

// QDB_E2E_MAIN lets a developer point the tests at another entry point while wiring a listener.
const MAIN = Deno.env.get("QDB_E2E_MAIN") ?? new URL("../../main.ts", import.meta.url).pathname;

export async function startServer(
  opts: {
    root?: string;
    env?: Record<string, string>;
    pg?: boolean;
    ilp?: boolean;
    /** Caps every file the server writes at this many bytes (RLIMIT_FSIZE, SIGXFSZ ignored): a full disk. */
    fileSizeLimitBytes?: number;
    /**
     * The limit of open file descriptors the server runs under (`ulimit -n`: soft and hard, since
     * Deno raises its soft limit to the hard one at start).
     */
    openFilesLimit?: number;
  } = {},
): Promise<ServerProcess> {
  const root = opts.root ?? await Deno.makeTempDir({ prefix: "qdb_e2e_" });
  const serverArgs = ["run", "-A", MAIN, "--root", root];
  const limits: string[] = [];
  // `ulimit -f` counts 512-byte blocks in sh; with SIGXFSZ ignored a write past the cap fails with EFBIG.
  if (opts.fileSizeLimitBytes !== undefined) {
    limits.push(`trap '' XFSZ; ulimit -f ${Math.ceil(opts.fileSizeLimitBytes / 512)}`);
  }
  if (opts.openFilesLimit !== undefined) limits.push(`ulimit -n ${opts.openFilesLimit}`);
  const limited = limits.length > 0;
  const script = `${limits.join("; ")}; exec "$0" "$@"`;
  const child = new Deno.Command(limited ? "sh" : Deno.execPath(), {
    args: limited ? ["-c", script, Deno.execPath(), ...serverArgs] : serverArgs,
    env: {
      QDB_HTTP_BIND_TO: "127.0.0.1:0",
      QDB_HTTP_MIN_BIND_TO: "127.0.0.1:0",
      QDB_PG_NET_BIND_TO: "127.0.0.1:0",
      QDB_LINE_TCP_NET_BIND_TO: "127.0.0.1:0",
      QDB_CAIRO_COLUMN_CACHE_BYTES: String(256 * 1024 * 1024),
      NO_COLOR: "1",
      // Most tests need no worker at start: the ~0.4 s of CPU each start would cost is saved
      // (log_lines_test.ts checks the default, on).
      QDB_CAIRO_SQL_PARALLEL_WORKERS_WARM_UP: "false",
      ...opts.env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let httpUrl = "", healthUrl = "", buffered = "", pgPort = 0, ilpPort = 0;
  const deadline = Date.now() + 60_000;
  while (!(httpUrl && healthUrl && (pgPort || !opts.pg) && (ilpPort || !opts.ilp))) {
    if (Date.now() > deadline) throw new Error("server did not start within 60 s");
    const { value, done } = await lines.read();
    if (done) {
      const err = await new Response(child.stderr).text();
      throw new Error(`server exited before listening:\n${buffered}\n${err}`);
    }
    buffered += value;
    httpUrl ||= /http listening on (https?:\/\/\S+)/.exec(buffered)?.[1] ?? "";
    healthUrl ||= /health listening on (https?:\/\/\S+)/.exec(buffered)?.[1] ?? "";
    pgPort ||= Number(/pg listening on \S+:(\d+)/.exec(buffered)?.[1] ?? 0);
    ilpPort ||= Number(/ilp listening on \S+:(\d+)/.exec(buffered)?.[1] ?? 0);
  }
  // Keep draining both pipes so the child never blocks on a full pipe; keep the text for log().
  let logText = buffered;
  (async () => {
    try {
      for (let r = await lines.read(); !r.done; r = await lines.read()) logText += r.value;
    } catch { /* closed */ }
  })();
  child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (logText += chunk) }),
  ).catch(() => {});
  const wait = async (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
    await child.status;
  };
  return {
    root,
    httpUrl,
    healthUrl,
    pgPort,
    ilpPort,
    child,
    kill: () => wait("SIGKILL"),
    stop: () => wait("SIGTERM"),
    exec: (sql, extra = "") => fetch(`${httpUrl}/exec?query=${encodeURIComponent(sql)}${extra}`),
    log: () => logText,
  };
}

/** A loopback port free right now, for a server or provider whose URL must be known first. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
