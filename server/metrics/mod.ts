/**
 * @module
 * The Prometheus `/metrics` page of the health listener (port 9003) when `metrics.enabled=true`
 * (spec/protocols.md §8). Names are QuestDB's where QuestDB has the metric (its Prometheus
 * page): queries per protocol, commits, rows, WAL transactions, connections, memory. What
 * QuestDB measures in the JVM is measured in V8 here (`questdb_memory_jvm_*` is the JavaScript
 * heap); what only this server has carries a name of its own under `questdb_`.
 * Entry point: `metricsPage`. Reaches the engine only through engine/mod.ts.
 */
import { type Engine, engineStats, LATENCY_BUCKETS_SECONDS } from "../../engine/mod.ts";
import { PrometheusText } from "./prometheus_text.ts";
import { gcObserved, openFileCount } from "./process_stats.ts";
import v8 from "node:v8";

/** Current connection counts of the listeners that run (absent listeners are not reported). */
export interface ConnectionGauges {
  http?: () => number;
  pg?: () => number;
  ilp?: () => number;
}

/** Protocol names of Session.protocol and the QuestDB metric prefix each maps to. */
const QUERY_PREFIXES: Record<string, string> = {
  http: "questdb_json_queries",
  pgwire: "questdb_pg_wire_queries",
};

/** Builds the page text of every metric as it is now. */
export function metricsPage(engine: Engine, connections: ConnectionGauges): string {
  const out = new PrometheusText();
  queries(out);
  storage(out, engine);
  if (connections.http) {
    out.add("questdb_http_connections", "gauge", "HTTP requests being served.", connections.http());
  }
  if (connections.pg) {
    out.add("questdb_pg_wire_connections", "gauge", "Open PGWire connections.", connections.pg());
  }
  if (connections.ilp) {
    out.add("questdb_line_tcp_connections", "gauge", "Open ILP TCP connections.", connections.ilp());
  }
  memory(out, engine);
  return out.toString();
}

function queries(out: PrometheusText): void {
  // Both protocols are always reported, so a dashboard sees 0 before the first query.
  const protocols = new Set(["http", "pgwire", ...engineStats.protocols.keys()]);
  for (const protocol of protocols) {
    const s = engineStats.protocols.get(protocol);
    const prefix = QUERY_PREFIXES[protocol];
    const started = s?.started ?? 0;
    const finished = s ? s.completed + s.failed + s.cancelled : 0;
    if (prefix) {
      out.add(`${prefix}_total`, "counter", `Statements started over ${protocol}.`, started);
      out.add(
        `${prefix}_completed_total`,
        "counter",
        `Statements over ${protocol} that succeeded.`,
        s?.completed ?? 0,
      );
    }
    const labels = { protocol };
    out.add("questdb_queries_total", "counter", "Statements finished, by protocol.", finished, labels);
    out.add(
      "questdb_query_errors_total",
      "counter",
      "Statements that failed, by protocol.",
      s?.failed ?? 0,
      labels,
    );
    out.add(
      "questdb_query_cancellations_total",
      "counter",
      "Statements cancelled (CANCEL QUERY, pgwire CancelRequest, client gone), by protocol.",
      s?.cancelled ?? 0,
      labels,
    );
    out.histogram("questdb_query_latency_seconds", "Statement run time until its last row was sent.", {
      bounds: LATENCY_BUCKETS_SECONDS,
      counts: s?.latencyBuckets ?? new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0),
      sum: s?.latencySumSeconds ?? 0,
      labels,
    });
  }
  const pg = engineStats.protocols.get("pgwire");
  out.add("questdb_pg_wire_errors_total", "counter", "Statements over PGWire that failed.", pg?.failed ?? 0);
}

function storage(out: PrometheusText, engine: Engine): void {
  const s = engineStats;
  out.add("questdb_commits_total", "counter", "Commits executed on tables.", s.commits);
  out.add("questdb_committed_rows_total", "counter", "Rows committed to tables.", s.committedRows);
  out.add(
    "questdb_physically_written_rows_total",
    "counter",
    "Rows written to disk by commits (equal to committed rows: no WAL apply step here).",
    s.committedRows,
  );
  out.add("questdb_rollbacks_total", "counter", "Writes undone before their commit.", s.rollbacks);
  out.add("questdb_wal_written_rows_total", "counter", "Rows written to WAL tables.", s.walRows);
  out.add("questdb_wal_apply_written_rows_total", "counter", "Rows applied to WAL tables.", s.walRows);
  const r = engine.resourceStats();
  out.add("questdb_wal_seq_txn", "gauge", "Sum of committed transaction numbers of WAL tables.", r.walSeqTxn);
  out.add(
    "questdb_wal_writer_txn",
    "gauge",
    "Sum of applied transaction numbers of WAL tables.",
    r.walWriterTxn,
  );
  out.add(
    "questdb_wal_apply_lag_txn",
    "gauge",
    "WAL transactions committed but not yet applied (seq_txn - writer_txn).",
    r.walSeqTxn - r.walWriterTxn,
  );
  out.add(
    "questdb_ingested_rows_total",
    "counter",
    "Rows committed by ILP (TCP and HTTP) and CSV import.",
    s.ingestedRows,
  );
  out.add(
    "questdb_line_received_bytes_total",
    "counter",
    "Bytes of line protocol received.",
    s.lineBytes.tcp,
    {
      transport: "tcp",
    },
  );
  out.add(
    "questdb_line_received_bytes_total",
    "counter",
    "Bytes of line protocol received.",
    s.lineBytes.http,
    {
      transport: "http",
    },
  );
  out.add("questdb_tables", "gauge", "Tables in the data root.", r.tableCount);
}

function memory(out: PrometheusText, engine: Engine): void {
  const m = Deno.memoryUsage();
  const heap = v8.getHeapStatistics();
  const r = engine.resourceStats();
  out.add("questdb_memory_rss", "gauge", "Resident set size of the process (bytes).", m.rss);
  // QuestDB's questdb_memory_jvm_total is a gauge with a counter's suffix, which promtool
  // rejects ("non-counter metrics should not have _total suffix"); same value, lint-clean name.
  out.add("questdb_memory_jvm_size", "gauge", "Current JavaScript (V8) heap size (bytes).", m.heapTotal);
  out.add("questdb_memory_jvm_free", "gauge", "Free JavaScript heap (bytes).", m.heapTotal - m.heapUsed);
  out.add(
    "questdb_memory_jvm_max",
    "gauge",
    "Largest JavaScript heap V8 allows (bytes).",
    heap.heap_size_limit,
  );
  out.add(
    "questdb_memory_mem_used",
    "gauge",
    "Memory V8 tracks outside the JavaScript heap, buffers included (bytes; WebAssembly heaps are reported apart).",
    m.external,
  );
  out.add("questdb_memory_wasm_heap_bytes", "gauge", "Size of a WebAssembly heap.", r.wasmHeapBytes, {
    heap: "main",
  });
  out.add(
    "questdb_memory_wasm_worker_heaps",
    "gauge",
    "Worker heaps running parallel scans.",
    engine.parallel.running,
  );
  out.add(
    "questdb_column_cache_used_bytes",
    "gauge",
    "Column data held by the main heap's cache.",
    r.cacheUsedBytes,
  );
  out.add(
    "questdb_column_cache_budget_bytes",
    "gauge",
    "What the main heap's cache may hold.",
    r.cacheBudgetBytes,
  );
  const files = openFileCount();
  if (files !== undefined) {
    out.add("questdb_open_files", "gauge", "File descriptors the process has open.", files);
  }
  out.add(
    "questdb_js_gc_observed_total",
    "counter",
    "Garbage collections seen by a finalization probe (a lower bound: V8 reports no GC count).",
    gcObserved(),
  );
}
