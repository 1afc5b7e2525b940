/**
 * The soak harness (issue 9): one server, many REST and pgwire clients and continuous ILP
 * ingestion at once for a while. Counts every failed request, samples the server's RSS,
 * polls the health endpoint throughout, and reports p50/p99 latency per endpoint. Used by the
 * quick CI test (seconds) and by `deno task soak` (minutes).
 */
import pg from "pg";
import { Sender } from "@questdb/nodejs-client";
import { startServer } from "../e2e/server_process.ts";

export interface SoakOptions {
  seconds: number;
  restClients: number;
  pgClients: number;
  /** REST clients that run a long scan in a loop (to show short queries are not starved). */
  longClients: number;
  log?: (line: string) => void;
}

export interface EndpointStats {
  requests: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  firstFailure?: string;
}

export interface SoakReport {
  seconds: number;
  endpoints: Record<string, EndpointStats>;
  ilpRowsSent: number;
  ilpRowsVisible: number;
  /** RSS samples in MiB, one per second. */
  rssMiB: number[];
  /** RSS growth from the end of warm-up (first quarter) to the end, in MiB. */
  rssGrowthMiB: number;
}

class Recorder {
  readonly #lat = new Map<string, number[]>();
  readonly #fail = new Map<string, { n: number; first?: string }>();

  async time<T>(endpoint: string, fn: () => Promise<T>): Promise<T | undefined> {
    const t0 = performance.now();
    try {
      const v = await fn();
      this.#push(endpoint, performance.now() - t0);
      return v;
    } catch (e) {
      const f = this.#fail.get(endpoint) ?? { n: 0 };
      f.n++;
      f.first ??= String((e as Error)?.message ?? e).slice(0, 300);
      this.#fail.set(endpoint, f);
      this.#push(endpoint, performance.now() - t0);
      return undefined;
    }
  }

  /** A latency for a breakdown row (failures count on the endpoint `time` recorded). */
  note(endpoint: string, ms: number): void {
    this.#push(endpoint, ms);
  }

  #push(endpoint: string, ms: number) {
    const l = this.#lat.get(endpoint) ?? [];
    l.push(ms);
    this.#lat.set(endpoint, l);
  }

  stats(): Record<string, EndpointStats> {
    const out: Record<string, EndpointStats> = {};
    for (const [k, l] of this.#lat) {
      const s = [...l].sort((a, b) => a - b);
      const q = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
      const f = this.#fail.get(k);
      out[k] = {
        requests: s.length,
        failures: f?.n ?? 0,
        p50: q(0.5),
        p99: q(0.99),
        max: q(1),
        firstFailure: f?.first,
      };
    }
    return out;
  }
}

async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function okJson(r: Response): Promise<{ dataset?: unknown[][] }> {
  const text = await r.text();
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const log = o.log ?? (() => {});
  const server = await startServer({ pg: true, ilp: true });
  const rec = new Recorder();
  const until = Date.now() + o.seconds * 1000;
  const running = () => Date.now() < until;
  const rss: number[] = [];
  let ilpRowsSent = 0;
  try {
    const exec = (sql: string, headers: Record<string, string> = {}) =>
      fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, { headers }).then(okJson);
    await exec(
      "CREATE TABLE soak (ts TIMESTAMP, sym SYMBOL, price DOUBLE, qty LONG) TIMESTAMP(ts) PARTITION BY HOUR WAL",
    );
    const shortQueries = [
      "SELECT 1",
      "SELECT count() FROM soak",
      "SELECT sym, avg(price), sum(qty) FROM soak GROUP BY sym ORDER BY sym",
      "SELECT ts, avg(price) FROM soak SAMPLE BY 1m LIMIT -5",
      "SELECT * FROM soak LATEST ON ts PARTITION BY sym",
      "SELECT * FROM soak WHERE sym = 'S3' ORDER BY ts DESC LIMIT 10",
    ];
    const tasks: Promise<void>[] = [];
    // This process's own event-loop lag (a 10 ms timer's lateness): every latency above includes
    // it, so a lagging client shows as server latency on every endpoint at once.
    tasks.push((async () => {
      while (running()) {
        const t0 = performance.now();
        await new Promise((r) => setTimeout(r, 10));
        rec.note("client loop lag (10 ms timer)", Math.max(0, performance.now() - t0 - 10));
      }
    })());
    // ILP: one sender over HTTP, flushing every 500 rows; acknowledged rows must all be visible.
    tasks.push((async () => {
      const sender = await Sender.fromConfig(`http::addr=${new URL(server.httpUrl).host};auto_flush=off`);
      let ts = Date.UTC(2024, 0, 1) * 1000;
      try {
        while (running()) {
          for (let i = 0; i < 500; i++) {
            sender.table("soak").symbol("sym", `S${i % 10}`).floatColumn("price", 100 + (i % 97)).intColumn(
              "qty",
              i,
            )
              .at(BigInt(ts += 1000), "us");
          }
          const ok = await rec.time("ilp/http flush", () => sender.flush());
          if (ok !== undefined) ilpRowsSent += 500;
        }
      } finally {
        await sender.close().catch(() => {});
      }
    })());
    for (let c = 0; c < o.restClients; c++) {
      tasks.push((async () => {
        for (let i = c; running(); i++) {
          const sql = shortQueries[i % shortQueries.length];
          const t0 = performance.now();
          await rec.time("rest /exec short", () => exec(sql));
          // Per statement too: says whether the slow ones are some statements or all of them.
          rec.note(`  short: ${sql.slice(0, 48)}`, performance.now() - t0);
        }
      })());
    }
    for (let c = 0; c < o.longClients; c++) {
      tasks.push((async () => {
        while (running()) {
          await rec.time("rest /exec long scan", () => exec("SELECT sum(x) FROM long_sequence(30000000)"));
        }
      })());
    }
    for (let c = 0; c < o.pgClients; c++) {
      tasks.push((async () => {
        const client = new pg.Client({
          host: "127.0.0.1",
          port: server.pgPort,
          user: "admin",
          password: "quest",
          database: "qdb",
        });
        await rec.time("pgwire connect", () => client.connect());
        try {
          for (let i = c; running(); i++) {
            if (i % 2 === 0) {
              await rec.time("pgwire extended", async () => {
                const r = await client.query("SELECT $1::int + 1 AS x", [i]);
                if (r.rows[0].x !== i + 1) throw new Error(`wrong answer ${JSON.stringify(r.rows)}`);
              });
            } else {
              await rec.time("pgwire simple", () => client.query(shortQueries[i % shortQueries.length]));
            }
          }
        } finally {
          await client.end().catch(() => {});
        }
      })());
    }
    tasks.push((async () => {
      while (running()) {
        await rec.time("health", async () => {
          const r = await fetch(server.healthUrl, { signal: AbortSignal.timeout(2000) });
          const t = await r.text();
          if (!t.includes("Healthy")) throw new Error(`health said ${t}`);
        });
        rss.push(Math.round(await rssMiB(server.child.pid)));
        const s = rss.length;
        if (s % 10 === 0) log(`${s}s: rss ${rss[s - 1]} MiB, ilp rows ${ilpRowsSent}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })());
    await Promise.all(tasks);
    const visible = Number((await exec("SELECT count() FROM soak")).dataset?.[0]?.[0] ?? -1);
    const warm = rss[Math.floor(rss.length / 4)] ?? 0;
    return {
      seconds: o.seconds,
      endpoints: rec.stats(),
      ilpRowsSent,
      ilpRowsVisible: visible,
      rssMiB: rss,
      rssGrowthMiB: (rss.at(-1) ?? 0) - warm,
    };
  } finally {
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
}

export function formatReport(r: SoakReport): string {
  const lines = [
    `soak: ${r.seconds}s; ILP rows acknowledged ${r.ilpRowsSent}, visible ${r.ilpRowsVisible}; RSS start ${
      r.rssMiB[0]
    } MiB, ` +
    `peak ${Math.max(...r.rssMiB)} MiB, end ${
      r.rssMiB.at(-1)
    } MiB, growth after warm-up ${r.rssGrowthMiB} MiB`,
    "| endpoint | requests | failed | p50 ms | p99 ms | max ms |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const [k, s] of Object.entries(r.endpoints)) {
    lines.push(`| ${k} | ${s.requests} | ${s.failures} | ${s.p50} | ${s.p99} | ${s.max} |`);
  }
  for (const [k, s] of Object.entries(r.endpoints)) {
    if (s.firstFailure) lines.push(`first failure on ${k}: ${s.firstFailure}`);
  }
  return lines.join("\n");
}
