/**
 * The cost of the REST path itself: `/exec` of `SELECT 1`, once as the median latency of
 * sequential requests and once as requests per second from concurrent clients. The clients
 * run in this process, so on a small machine they compete with the server for the cores;
 * the figure is a floor, not the server's ceiling.
 */
import { median, r2 } from "./run_queries.ts";

export interface HttpLoad {
  sequential: { requests: number; median_ms: number; p99_ms: number };
  concurrent: {
    clients: number;
    seconds: number;
    requests: number;
    requests_per_s: number;
    errors: number;
  };
}

const QUERY = "/exec?query=" + encodeURIComponent("SELECT 1");

export async function measureHttpLoad(
  baseUrl: string,
  options: { requests: number; clients: number; seconds: number },
): Promise<HttpLoad> {
  const url = baseUrl + QUERY;
  for (let i = 0; i < 20; i++) await request(url); // warm-up: JIT and connection pool
  const times: number[] = [];
  for (let i = 0; i < options.requests; i++) {
    const t = performance.now();
    await request(url);
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  let requests = 0;
  let errors = 0;
  const until = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < until) {
      try {
        await request(url);
        requests++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  const elapsedS = (performance.now() - started) / 1000;
  return {
    sequential: {
      requests: options.requests,
      median_ms: r2(median(times)),
      p99_ms: r2(sorted[Math.floor(sorted.length * 0.99)]),
    },
    concurrent: {
      clients: options.clients,
      seconds: options.seconds,
      requests,
      requests_per_s: Math.round(requests / elapsedS),
      errors,
    },
  };
}

async function request(url: string): Promise<void> {
  const res = await fetch(url);
  const body = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
}
