/**
 * The Prometheus endpoint (issue 22): with QDB_METRICS_ENABLED=true, GET /metrics on the health
 * port is accepted by `promtool check metrics`, carries QuestDB's metric names with values that
 * follow what the server did, and a real Prometheus server (Debian's package, on loopback)
 * scrapes it: a series read back through Prometheus's HTTP API has the value the page shows.
 */
import assert from "node:assert/strict";
import { freePort, startServer } from "./server_process.ts";

/** Runs `promtool check metrics` on `text`; returns its exit code and output. */
async function promtool(text: string): Promise<{ code: number; output: string }> {
  const child = new Deno.Command("promtool", {
    args: ["check", "metrics"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, output: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** The value of an unlabelled sample of the page. */
function sample(page: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, "m").exec(page);
  assert.ok(m, `${name} is on the page`);
  return Number(m[1]);
}

Deno.test({
  name: "metrics: /metrics passes promtool and a real Prometheus scrapes QuestDB's series",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ilp: true, env: { QDB_METRICS_ENABLED: "true" } });
    const promDir = await Deno.makeTempDir({ prefix: "qdb_prom_" });
    let prometheus: Deno.ChildProcess | undefined;
    try {
      const create = await server.exec(
        "CREATE TABLE m AS (SELECT x, timestamp_sequence(0, 1000000) ts FROM long_sequence(25)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      assert.equal(create.status, 200, await create.text());
      assert.equal((await server.exec("SELECT count() FROM m")).status, 200);
      assert.equal((await server.exec("SELECT nope FROM m")).status, 400);
      const write = await fetch(`${server.httpUrl}/write`, { method: "POST", body: "w,s=a v=1i 1000\n" });
      assert.equal(write.status, 204);
      const tcp = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
      await tcp.write(new TextEncoder().encode("t2 v=1i\n"));
      // Wait until the TCP row is committed, so that the page's counters are final.
      for (let i = 0; i < 100; i++) {
        const r = await (await server.exec("select count() from t2")).json();
        if (r.dataset?.[0]?.[0] === 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }

      const health = await fetch(`${server.healthUrl}/`);
      assert.equal(await health.text(), "Status: Healthy", "other paths still answer the health check");
      const res = await fetch(`${server.healthUrl}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      const page = await res.text();
      const lint = await promtool(page);
      assert.equal(lint.code, 0, `promtool check metrics:\n${lint.output}`);

      assert.ok(sample(page, "questdb_json_queries_total") >= 3);
      assert.ok(sample(page, "questdb_json_queries_completed_total") >= 2);
      // The SELECT of a missing column, and polls of t2 before the ILP row created it.
      const errors = /^questdb_query_errors_total\{protocol="http"\} (\d+)$/m.exec(page);
      assert.ok(errors && Number(errors[1]) >= 1, "failed statements are counted");
      assert.ok(sample(page, "questdb_commits_total") >= 2, "CREATE TABLE AS and the ILP write commit");
      assert.ok(sample(page, "questdb_committed_rows_total") >= 26);
      assert.equal(sample(page, "questdb_ingested_rows_total"), 2, "one row over HTTP, one over TCP");
      assert.match(page, /^questdb_line_received_bytes_total\{transport="http"\} 16$/m);
      assert.match(page, /^questdb_line_received_bytes_total\{transport="tcp"\} 8$/m);
      assert.equal(sample(page, "questdb_line_tcp_connections"), 1);
      tcp.close();
      assert.equal(sample(page, "questdb_wal_seq_txn"), sample(page, "questdb_wal_writer_txn"));
      assert.ok(sample(page, "questdb_memory_rss") > 0);
      assert.ok(sample(page, "questdb_column_cache_budget_bytes") > 0);
      assert.ok(sample(page, "questdb_open_files") > 0);
      assert.match(page, /^questdb_query_latency_seconds_bucket\{protocol="http",le="\+Inf"\} \d+$/m);
      assert.match(page, /^# TYPE questdb_query_latency_seconds histogram$/m);

      // A real Prometheus on loopback scrapes the health port every second.
      const target = new URL(server.healthUrl).host;
      const promPort = freePort();
      await Deno.writeTextFile(
        `${promDir}/prometheus.yml`,
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: questdb\n    static_configs:\n      - targets: ['${target}']\n`,
      );
      prometheus = new Deno.Command("prometheus", {
        args: [
          `--config.file=${promDir}/prometheus.yml`,
          `--storage.tsdb.path=${promDir}/data`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ],
        stdout: "null",
        stderr: "null",
      }).spawn();
      const expected = sample(page, "questdb_committed_rows_total");
      const deadline = Date.now() + 60_000;
      let value: number | undefined;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        try {
          const q = await fetch(
            `http://127.0.0.1:${promPort}/api/v1/query?query=${
              encodeURIComponent("questdb_committed_rows_total")
            }`,
          );
          const body = await q.json();
          const result = body?.data?.result?.[0];
          if (result) {
            assert.equal(result.metric.job, "questdb");
            value = Number(result.value[1]);
            break;
          }
        } catch {
          // Prometheus still starting.
        }
      }
      assert.equal(value, expected, "Prometheus read the value the page shows");
    } finally {
      try {
        prometheus?.kill("SIGTERM");
        await prometheus?.status;
      } catch { /* never started */ }
      await server.stop();
      await Deno.remove(promDir, { recursive: true }).catch(() => {});
    }
  },
});
