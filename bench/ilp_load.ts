/**
 * Ingestion benchmark: loads the kit's `trades` dataset into a fresh server over ILP/HTTP
 * from pre-generated line-protocol files (`node bench/kit/gen.mjs --format ilp`, made here when
 * missing), the way the kit's server/load-ilp.mjs does, then counts the queryable rows over
 * /exec and reports rows/s. Every 204 means the rows of that request are committed, so the
 * figure is committed-and-queryable rows per second. Optionally times `/imp` of the CSV parts.
 *
 *   deno run -A bench/ilp_load.ts [--rows 10m] [--chunk-mib 8] [--clients 2] [--imp] [--main main.ts]
 *     [--cpu-prof DIR]   (profiles the server: a .cpuprofile in DIR when it stops)
 */
import { fileURLToPath } from "node:url";

const args = Deno.args;
const opt = (name: string, dflt: string) => {
  const i = args.indexOf("--" + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const repo = fileURLToPath(new URL("..", import.meta.url));
const size = opt("rows", "10m");
const rows = Number(size.replace(/m$/, "")) * (size.endsWith("m") ? 1_000_000 : 1);
const chunkBytes = Number(opt("chunk-mib", "8")) * 1024 * 1024;
const clients = Number(opt("clients", "2"));
const main = opt("main", "main.ts");
const cpuProfDir = opt("cpu-prof", "");
const ilpDir = `${repo}bench/data/trades-${size}-ilp`;
const csvDir = `${repo}bench/data/trades-${size}`;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function generate(dir: string, format: string): Promise<void> {
  if (await exists(`${dir}/manifest.json`)) return;
  console.log(`generating ${dir} ...`);
  const gen = new Deno.Command("node", {
    args: [
      `${repo}bench/kit/gen.mjs`,
      "--dataset",
      "trades",
      "--rows",
      String(rows),
      "--format",
      format,
      "--out",
      `${repo}bench/data`,
    ],
    stdout: "inherit",
    stderr: "inherit",
  });
  if (!(await gen.output()).success) throw new Error("gen.mjs failed");
}

/**
 * CPU seconds (user + system, all threads) used so far by process `pid`, from /proc (Linux);
 * NaN elsewhere. On a shared machine wall time mostly measures the wait for a core, while
 * CPU time per row stays comparable between runs.
 */
function cpuSeconds(pid: number | "self"): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
  } catch {
    return NaN;
  }
}

async function startChild(root: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--max-old-space-size=8192",
      ...(cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : []),
      main,
      "--root",
      root,
    ],
    cwd: repo,
    env: {
      QDB_HTTP_BIND_TO: "127.0.0.1:0",
      QDB_HTTP_MIN_BIND_TO: "127.0.0.1:0",
      QDB_PG_NET_BIND_TO: "127.0.0.1:0",
      QDB_LINE_TCP_NET_BIND_TO: "127.0.0.1:0",
      QDB_CAIRO_COLUMN_CACHE_BYTES: String(1024 * 1024 * 1024),
    },
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited: " + text);
    text += value;
    url = /http listening on (http:\/\/\S+)/.exec(text)?.[1] ?? "";
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Cuts the parts into newline-terminated chunks of about `chunkBytes`. */
async function* chunks(files: string[]): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  for (const file of files) {
    const f = await Deno.open(file);
    let carry = new Uint8Array(0);
    for (;;) {
      const buf = new Uint8Array(chunkBytes);
      let n = 0;
      while (n < chunkBytes) {
        const r = await f.read(buf.subarray(n));
        if (r === null) break;
        n += r;
      }
      if (n === 0) break;
      const data = new Uint8Array(carry.length + n);
      data.set(carry);
      data.set(buf.subarray(0, n), carry.length);
      const cut = data.lastIndexOf(10) + 1;
      carry = data.slice(cut);
      yield data.subarray(0, cut);
    }
    f.close();
    if (carry.length) throw new Error(`${file} does not end with a newline`);
  }
}

async function count(url: string, table: string): Promise<number> {
  const r = await fetch(`${url}/exec?query=${encodeURIComponent(`SELECT count() FROM ${table}`)}`);
  const body = await r.json();
  return Number(body.dataset?.[0]?.[0] ?? 0);
}

async function loadIlp(
  url: string,
  pid: number,
): Promise<{ rows: number; seconds: number; bytes: number; serverCpu: number; clientCpu: number }> {
  const manifest = JSON.parse(await Deno.readTextFile(`${ilpDir}/manifest.json`));
  const files = manifest.tables.trades.parts.map((p: string) => `${ilpDir}/${p}`);
  const source = chunks(files);
  let bytes = 0;
  const serverCpu0 = cpuSeconds(pid), clientCpu0 = cpuSeconds("self");
  const started = performance.now();
  // Several clients keep the server busy while one of them waits for its commit's fsync.
  const client = async () => {
    for (;;) {
      const next = await source.next();
      if (next.done) return;
      bytes += next.value.length;
      const r = await fetch(`${url}/write?precision=n`, {
        method: "POST",
        body: next.value as Uint8Array<ArrayBuffer>,
      });
      if (r.status !== 204) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = cpuSeconds(pid) - serverCpu0, clientCpu = cpuSeconds("self") - clientCpu0;
  return { rows: await count(url, "trades"), seconds, bytes, serverCpu, clientCpu };
}

async function loadCsv(url: string): Promise<{ rows: number; seconds: number }> {
  const manifest = JSON.parse(await Deno.readTextFile(`${csvDir}/manifest.json`));
  const started = performance.now();
  let first = true;
  for (const part of manifest.tables.trades.parts as string[]) {
    const form = new FormData();
    form.append("data", new File([await Deno.readFile(`${csvDir}/${part}`)], "trades_csv.csv"));
    const q = `name=trades_csv&timestamp=ts&partitionBy=DAY&fmt=json${first ? "&overwrite=true" : ""}`;
    const r = await fetch(`${url}/imp?${q}`, { method: "POST", body: form });
    const body = await r.json();
    if (body.status !== "OK") throw new Error(JSON.stringify(body));
    first = false;
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows: await count(url, "trades_csv"), seconds };
}

await generate(ilpDir, "ilp");
const root = await Deno.makeTempDir({ prefix: "qdb_ilp_bench_" });
const server = await startChild(root);
try {
  const ilp = await loadIlp(server.url, server.pid);
  console.log(
    `ILP/HTTP: ${ilp.rows} rows queryable (expected ${rows}) from ${(ilp.bytes / 1e6).toFixed(0)} MB in ${
      ilp.seconds.toFixed(1)
    } s ` +
      `= ${Math.round(ilp.rows / ilp.seconds).toLocaleString("en-US")} rows/s (${clients} clients, ${
        chunkBytes >> 20
      } MiB requests); CPU: server ${ilp.serverCpu.toFixed(2)} s, client ${
        ilp.clientCpu.toFixed(2)
      } s; load ${Deno.loadavg()[0].toFixed(2)}`,
  );
  if (args.includes("--imp")) {
    await generate(csvDir, "csv");
    const csv = await loadCsv(server.url);
    console.log(
      `/imp: ${csv.rows} rows queryable in ${csv.seconds.toFixed(1)} s = ${
        Math.round(csv.rows / csv.seconds).toLocaleString("en-US")
      } rows/s`,
    );
  }
} finally {
  await server.stop();
  await Deno.remove(root, { recursive: true });
}
