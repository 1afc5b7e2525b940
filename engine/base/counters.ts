/**
 * Counters of what the engine did since the process started: statements per protocol (with
 * their errors and a latency histogram), commits and rows written, rows ingested. The metrics
 * endpoint (server/metrics) reads them; nothing in the engine reads them back.
 *
 * Process-wide on purpose: one process serves one data root (storage/root_lock.ts), and the
 * counters are QuestDB's "since the current database start" counters (its Prometheus page),
 * bumped from storage and the traffic cop alike without threading an object through both.
 */
/** Upper bounds (seconds) of the query latency histogram's buckets; +Inf is implied. */
export const LATENCY_BUCKETS_SECONDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60] as const;

/** Statements of one protocol: started, finished without error, failed, and their latency. */
export interface ProtocolStats {
  started: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Count of statements per bucket of LATENCY_BUCKETS_SECONDS (not cumulative), then +Inf. */
  latencyBuckets: number[];
  latencySumSeconds: number;
}

export interface EngineStats {
  /** Table commits of every kind (rows, schema, partitions). */
  commits: number;
  /** Rows appended by commits (QuestDB's committed rows; no WAL here, so also the rows applied). */
  committedRows: number;
  /** Writes undone before their commit point (a failed append, update or DDL). */
  rollbacks: number;
  /** Rows appended to WAL tables (here applied in the same commit: the WAL apply lag is 0). */
  walRows: number;
  /** Rows committed by the ingestion paths (ILP over TCP and HTTP, CSV import). */
  ingestedRows: number;
  /** Bytes of line protocol received, per transport. */
  lineBytes: { tcp: number; http: number };
  /** Statements by the protocol their session names (Session.protocol; "other" without). */
  protocols: Map<string, ProtocolStats>;
}

export const engineStats: EngineStats = {
  commits: 0,
  committedRows: 0,
  rollbacks: 0,
  walRows: 0,
  ingestedRows: 0,
  lineBytes: { tcp: 0, http: 0 },
  protocols: new Map(),
};

/** The counters of one protocol, created on first use. */
export function protocolStats(protocol: string): ProtocolStats {
  let s = engineStats.protocols.get(protocol);
  if (!s) {
    s = {
      started: 0,
      completed: 0,
      failed: 0,
      cancelled: 0,
      latencyBuckets: new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0),
      latencySumSeconds: 0,
    };
    engineStats.protocols.set(protocol, s);
  }
  return s;
}

/** Records one finished statement: its outcome and how long it ran (until its rows were drained). */
export function recordStatement(
  protocol: string,
  outcome: "completed" | "failed" | "cancelled",
  seconds: number,
): void {
  const s = protocolStats(protocol);
  s[outcome]++;
  let i = LATENCY_BUCKETS_SECONDS.findIndex((le) => seconds <= le);
  if (i < 0) i = LATENCY_BUCKETS_SECONDS.length;
  s.latencyBuckets[i]++;
  s.latencySumSeconds += seconds;
}
