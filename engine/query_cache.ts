/**
 * The engine's cache of SQL-text queries (issue #17; QuestDB's `http.query.cache.enabled` /
 * `pg.select.cache.enabled`): dashboards send the same text again and again, and for a short
 * query parsing and planning cost more than running it. A text query is kept here as a
 * PreparedStatement (engine/prepared.ts), so later executions of the same text by the same
 * principal in the same time zone skip the parse, and reuse the plan on the terms prepared
 * statements reuse theirs (Engine #reusablePlan):
 * - every table's metadata is the same frozen object (CREATE/DROP/ALTER/RENAME/TRUNCATE replace
 *   it), else it is planned again;
 * - planning read no clock or random value, read no Parquet file, and access control is off
 *   (with it, what a principal sees may change with a GRANT: planned per execution, and the
 *   reads are checked per execution either way);
 * - plans take their table snapshots when they run, never when they are made, so rows
 *   committed after the plan was made are read by the next execution.
 * An entry is used by one execution at a time (a plan's clock is pointed at the running
 * execution's): a second execution of the same text while the first still streams is planned
 * apart. Only queries are kept: other statements are parsed per execution.
 */
import type * as A from "./sql/ast.ts";
import { PreparedStatement, StatementCache } from "./prepared.ts";
import type { Session } from "./session.ts";

/** Texts kept engine-wide, least recently used first out. */
export const QUERY_CACHE_CAPACITY_DEFAULT = 256;

/** Longer texts are not kept (bulk statements are not repeated, and keys stay small). */
const SQL_CACHED_MAX = 16_384;

export class QueryCache {
  readonly #entries: StatementCache;
  /** Entries an execution is using now. */
  readonly #busy = new WeakSet<PreparedStatement>();
  /** Executions that found their text kept (tests, diagnostics). */
  hits = 0;

  constructor(capacity = QUERY_CACHE_CAPACITY_DEFAULT) {
    this.#entries = new StatementCache(capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The key of `sql` for `session`, or undefined when the text is not kept. */
  keyOf(sql: string, session: Session): string | undefined {
    if (sql.length > SQL_CACHED_MAX || session.queryCache === false) return undefined;
    // What the parse and plan depend on besides the text: who plans it (current_user() folds,
    // visibility), the session zone, and the types of bind variables (pgwire simple query).
    let key = `${session.principal.name}\u0000${session.timeZone}\u0000`;
    if (session.params?.length) key += session.params.map((v) => typeof v).join(",");
    return `${key}\u0000${sql}`;
  }

  /**
   * The kept parse for `key` when an execution may use it now, without taking it (pgwire's
   * simple query asks before splitting a script: a kept text is one query).
   */
  peek(key: string): A.Query | undefined {
    const hit = this.#entries.get(key);
    return hit && !this.#busy.has(hit) && hit.statement.kind === "query" ? hit.statement : undefined;
  }

  /** The kept statement for `key`, marked in use; undefined when absent or in use. */
  acquire(key: string): PreparedStatement | undefined {
    const hit = this.#entries.get(key);
    if (!hit || this.#busy.has(hit)) return undefined;
    this.#busy.add(hit);
    this.hits++;
    return hit;
  }

  /**
   * Keeps a parsed query under `key`, marked in use by the caller's execution. Only queries
   * without PIVOT ... IN (SELECT ...) lists (those rewrite their parse per execution).
   */
  add(key: string, sql: string, stmt: A.Query): PreparedStatement {
    const entry = new PreparedStatement(sql, stmt, [], null, [], false);
    this.#entries.set(key, entry);
    this.#busy.add(entry);
    return entry;
  }

  /** The execution using `entry` ended. */
  release(entry: PreparedStatement): void {
    this.#busy.delete(entry);
  }

  /** flush_query_cache(), tests. */
  clear(): void {
    this.#entries.clear();
  }
}
