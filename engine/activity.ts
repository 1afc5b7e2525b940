/**
 * The registry of running statements: what `query_activity()` lists and what `CANCEL QUERY id`
 * stops (QuestDB's query registry). Engine.execute enters every statement here and removes it
 * when it ends (for a query: when its batches are drained or abandoned), and records its
 * outcome and latency in engine/stats.ts.
 *
 * Cancelling reuses the one mechanism the pipeline already checks between batches: the
 * statement runs under the signal of an abort controller of its own, which CANCEL QUERY fires
 * and which follows the listener's signal (pgwire CancelRequest, REST disconnect). The cancelled
 * client then gets the same "cancelled by user" error (pgwire SQLSTATE 57014).
 *
 * Process-wide like engine/stats.ts: one process serves one data root, and the meta table
 * generator (catalog/meta_tables.ts registerMetaTable) has no engine to ask.
 */
import { SqlError } from "./base/errors.ts";
import { T } from "./base/types.ts";
import type { Value } from "./base/values.ts";
import { registerMetaTable } from "./catalog/meta_tables.ts";
import type { Session } from "./session.ts";
import { protocolStats, recordStatement } from "./base/counters.ts";
import { log, logEnabled, redactSql, slowQueryMs } from "./base/log.ts";

/** One statement in the registry. */
export interface RunningStatement {
  readonly id: number;
  /** The listener the statement came through (Session.protocol): QuestDB's worker_pool column. */
  readonly pool: string;
  readonly username: string;
  readonly startMicros: bigint;
  stateChangeMicros: bigint;
  state: "active" | "cancelled";
  readonly query: string;
  /** The session the statement runs under: the caller's, with a signal CANCEL QUERY can fire. */
  readonly session: Session;
  readonly startMs: number;
  readonly controller: AbortController;
  /** Stops following the listener's signal (the statement ended). */
  readonly unlink?: () => void;
}

function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** QuestDB's query_activity() columns (its meta functions page), in its order. */
const COLUMNS = [
  { name: "query_id", type: T.LONG },
  { name: "worker_id", type: T.LONG },
  { name: "worker_pool", type: T.STRING },
  { name: "username", type: T.STRING },
  { name: "query_start", type: T.TIMESTAMP },
  { name: "state_change", type: T.TIMESTAMP },
  { name: "state", type: T.STRING },
  { name: "is_wal", type: T.BOOLEAN },
  { name: "query", type: T.STRING },
];

export class Activity {
  #next = 1;
  readonly #running = new Map<number, RunningStatement>();

  /** Enters a statement; the returned entry's session is the one to run it under. */
  begin(sql: string, session: Session): RunningStatement {
    const controller = new AbortController();
    // The statement's signal fires on CANCEL QUERY and follows the listener's: one listener
    // removed at the end costs less than AbortSignal.any's dependent signal per statement.
    const outer = session.signal;
    let unlink: (() => void) | undefined;
    if (outer?.aborted) controller.abort(outer.reason);
    else if (outer) {
      const follow = () => controller.abort(outer.reason);
      outer.addEventListener("abort", follow, { once: true });
      unlink = () => outer.removeEventListener("abort", follow);
    }
    const signal = controller.signal;
    const now = nowMicros();
    const entry: RunningStatement = {
      id: this.#next++,
      pool: session.protocol ?? "other",
      username: session.principal.name,
      startMicros: now,
      stateChangeMicros: now,
      state: "active",
      query: sql,
      session: { ...session, signal },
      startMs: performance.now(),
      controller,
      unlink,
    };
    this.#running.set(entry.id, entry);
    protocolStats(entry.pool).started++;
    return entry;
  }

  /** Removes a finished statement and records how it ended. */
  end(entry: RunningStatement, error?: unknown): void {
    entry.unlink?.();
    if (!this.#running.delete(entry.id)) return;
    const cancelled = error instanceof SqlError && error.kind === "cancelled";
    const outcome = error === undefined ? "completed" : cancelled ? "cancelled" : "failed";
    const ms = performance.now() - entry.startMs;
    recordStatement(entry.pool, outcome, ms / 1000);
    const slow = ms >= slowQueryMs();
    if (slow || logEnabled("D")) {
      const what =
        `${slow ? "slow query" : "query"} [id=${entry.id}, time=${Math.round(ms)}ms, outcome=${outcome}, ` +
        `user=${entry.username}, protocol=${entry.pool}]`;
      log(slow ? "I" : "D", "sql", `${what} ${redactSql(entry.query)}`);
    }
  }

  /**
   * CANCEL QUERY id: the owner may cancel its own statement; anyone else needs CANCEL ANY
   * COMMAND (or SQL ENGINE ADMIN, security.md §2.2). Unknown ids are an error, as in QuestDB.
   */
  cancel(id: number, session: Session, pos: number): void {
    if (id < 0) throw new SqlError(`non-negative integer literal expected as query id`, pos);
    if (!this.tryCancel(id, session, pos)) {
      throw new SqlError(`query to cancel not found in registry [id=${id}]`, pos);
    }
  }

  /**
   * cancel_query(id) (QuestDB's function form): false for a negative or unknown id, true once
   * the statement was told to stop; the permission rule and error are CANCEL QUERY's.
   */
  tryCancel(id: number, session: Session, pos: number): boolean {
    const entry = id < 0 ? undefined : this.#running.get(id);
    if (!entry) return false;
    const can = session.principal.can;
    const own = entry.username === session.principal.name;
    if (
      can && !own && !can.call(session.principal, "CANCEL ANY COMMAND") &&
      !can.call(session.principal, "SQL ENGINE ADMIN")
    ) {
      throw new SqlError(
        `Access denied for ${session.principal.name} [CANCEL ANY COMMAND]`,
        pos,
        "permission",
      );
    }
    entry.state = "cancelled";
    entry.stateChangeMicros = nowMicros();
    log("I", "sql", `cancel query [id=${id}, owner=${entry.username}, by=${session.principal.name}]`);
    entry.controller.abort();
    return true;
  }

  /** Rows of query_activity(), oldest statement first. */
  rows(): Value[][] {
    return [...this.#running.values()].map((e) => [
      BigInt(e.id),
      0n, // one JavaScript thread runs every statement's pipeline (parallel scans aside)
      e.pool,
      e.username,
      e.startMicros,
      e.stateChangeMicros,
      e.state,
      false,
      e.query,
    ]);
  }

  get size(): number {
    return this.#running.size;
  }
}

/** The registry of this process (see the module comment for why it is one). */
export const activity = new Activity();

registerMetaTable("query_activity", COLUMNS, () => activity.rows());

/** Yields `batches`, keeping the statement in the registry until they end or are abandoned. */
export async function* untilDone<B>(batches: AsyncIterable<B>, entry: RunningStatement): AsyncGenerator<B> {
  let error: unknown;
  try {
    yield* batches;
  } catch (err) {
    error = err;
    throw err;
  } finally {
    activity.end(entry, error);
  }
}
