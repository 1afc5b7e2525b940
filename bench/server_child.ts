/**
 * Our server as a child process on a bench root: every listener on an ephemeral loopback
 * port (so a developer's running server is never disturbed), the HTTP URL read from the
 * line main.ts prints, and the child's peak RSS read from /proc before it is stopped.
 */

export interface ServerChild {
  url: string;
  /** host:port of the pgwire listener (from the `pg listening on` line). */
  pg: string;
  pid: number;
  /** VmHWM of the child in MiB (Linux only; undefined elsewhere). */
  peakRssMib(): Promise<number | undefined>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

/** Starts `deno run -A main.ts --root <root>` from the repository and waits for its URL. */
export async function startServer(
  root: string,
  options: { repoDir: string; cacheBytes: number; workers?: number; env?: Record<string, string> },
): Promise<ServerChild> {
  const child = new Deno.Command(Deno.execPath(), {
    // The V8 flags are the ones `deno task start` uses, so the child runs as users run it.
    args: ["run", "-A", "--v8-flags=--max-old-space-size=8192,--always-sparkplug", "main.ts", "--root", root],
    cwd: options.repoDir,
    env: {
      QDB_HTTP_BIND_TO: "127.0.0.1:0",
      QDB_HTTP_MIN_BIND_TO: "127.0.0.1:0",
      QDB_PG_NET_BIND_TO: "127.0.0.1:0",
      QDB_LINE_TCP_NET_BIND_TO: "127.0.0.1:0",
      QDB_CAIRO_COLUMN_CACHE_BYTES: String(options.cacheBytes),
      QDB_CAIRO_SQL_PARALLEL_WORKERS: String(options.workers ?? 2),
      // Warm runs measure execution, not the reuse of memoized block partials (README).
      QDB_CAIRO_SQL_BLOCK_MEMO_ENABLED: "false",
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = collectTail(child.stderr);
  const { url, pg } = await waitForUrl(child.stdout, child.status).catch(async (e) => {
    kill(child, "SIGKILL");
    throw new Error(`server did not start: ${e.message}; stderr: ${(await stderr).slice(-500)}`);
  });
  return {
    url,
    pg,
    pid: child.pid,
    peakRssMib: () => peakRssMib(child.pid),
    stop: async () => {
      kill(child, "SIGTERM");
      const timer = setTimeout(() => kill(child, "SIGKILL"), STOP_TIMEOUT_MS);
      await child.status;
      clearTimeout(timer);
    },
  };
}

function kill(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch { /* already exited */ }
}

/**
 * Reads stdout until `http listening on http://HOST:PORT` and `pg listening on HOST:PORT`
 * (main.ts prints the pg line after the http one), then keeps draining it.
 */
async function waitForUrl(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
): Promise<{ url: string; pg: string }> {
  const reader = decodeText(stdout).getReader();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const exited = status.then((s) => ({ done: true, value: `[exited with code ${s.code}]` }));
  const timeout = new Promise<{ done: true; value: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ done: true, value: `[no URL within ${START_TIMEOUT_MS} ms]` }),
      START_TIMEOUT_MS,
    );
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), exited, timeout]);
      if (next.done) throw new Error(`${next.value ?? "stdout closed"}; stdout: ${text.slice(-300)}`);
      text += next.value;
      const m = /http listening on (http:\/\/[^\s]+)/.exec(text);
      const pg = /pg listening on ([^\s]+)/.exec(text);
      if (m && pg) {
        drain(reader);
        return { url: m[1], pg: pg[1] };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * UTF-8 chunks as text. Not TextDecoderStream: its declared types clash with Node's stream
 * types when a type-check also loads a module with Node typings (the bench is checked as one
 * program with the console's Playwright script).
 */
function decodeText(stream: ReadableStream<Uint8Array>): ReadableStream<string> {
  const decoder = new TextDecoder();
  return stream.pipeThrough(
    new TransformStream<Uint8Array, string>({
      transform: (chunk, out) => out.enqueue(decoder.decode(chunk, { stream: true })),
      flush: (out) => {
        const rest = decoder.decode();
        if (rest) out.enqueue(rest);
      },
    }),
  );
}

/** Keeps reading so that a full pipe never blocks the child. */
async function drain(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  try {
    while (!(await reader.read()).done) { /* discard */ }
  } catch { /* the child went away */ }
}

async function collectTail(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  try {
    for await (const s of decodeText(stream)) text = (text + s).slice(-4000);
  } catch { /* the child went away */ }
  return text;
}

/** Peak resident set size of a process, from VmHWM in /proc/<pid>/status. */
export async function peakRssMib(pid: number | "self"): Promise<number | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
