/**
 * What a statement runs as: the principal, its settings and its cancellation.
 * Created by a listener per connection or request and passed to `Engine.execute`.
 */

export interface Principal {
  /** User name (or the external identity's `sub`/name for OIDC). */
  name: string;
  /** Groups the principal belongs to (resolved by server/auth). */
  groups: string[];
  /**
   * Permission check; undefined means access control is off and everything is allowed.
   * Called by the engine with a permission name (security.md §2), and the table/column
   * it applies to when there is one.
   */
  can?(permission: string, table?: string, column?: string): boolean;
  /**
   * Whether catalog listings (tables(), SHOW TABLES, pg_catalog, information_schema) show a
   * table: true when the principal holds any permission on it. Undefined = everything shows.
   */
  sees?(table: string): boolean;
  /**
   * False once the principal was disabled or dropped: every later statement of an open
   * connection is refused (security.md T10), even one that touches no table.
   */
  active?(): boolean;
}

export interface Session {
  principal: Principal;
  /** IANA name or offset; "UTC" by default. */
  timeZone: string;
  /** Aborts the running statement: it stops within one batch with a "cancelled" error. */
  signal?: AbortSignal;
  /**
   * Statement timeout in milliseconds (`query.timeout`, REST `Statement-Timeout`, pgwire
   * `statement_timeout`): a statement running longer stops within one batch with a
   * "timeout, query aborted" error. A deadline, not a timer, so idle sessions cost nothing.
   */
  timeoutMs?: number;
  /**
   * The listener the statement came through ("http", "pgwire"): query_activity().worker_pool
   * and the per-protocol query metrics (engine/activity.ts, engine/stats.ts).
   */
  protocol?: string;
  /** Values for `$n` / `?` / `:name` placeholders, already in scalar form. */
  params?: unknown[];
  /**
   * Types of the placeholders when the client said them (pgwire Parse/Bind OIDs); without
   * them a type is inferred from the value (bigint → LONG, number → INT or DOUBLE, ...).
   */
  paramTypes?: (import("./base/types.ts").ColumnType | undefined)[];
  /**
   * The connection's transaction (spec/protocols.md §12.10), kept by the listener across
   * statements: inside BEGIN … COMMIT inserts are held until COMMIT. Without one (REST),
   * BEGIN/COMMIT/ROLLBACK/SAVEPOINT are accepted and do nothing.
   */
  transaction?: import("./exec/transaction.ts").Transaction;
  /**
   * The session's prepared statements by SQL text (Engine.prepare), kept by the listener
   * across statements (pgwire: per connection). Without one every prepare parses anew.
   */
  statements?: import("./prepared.ts").StatementCache;
  /**
   * False: text queries of this session skip the engine's query cache (engine/query_cache.ts;
   * `http.query.cache.enabled=false`, `pg.select.cache.enabled=false`). Kept by default.
   */
  queryCache?: boolean;
}

/**
 * An access-control statement or an access-control SHOW, as the engine hands it to the
 * registered AccessControl (the parser keeps ACL statements as words; server/auth reads them).
 */
export type AclRequest =
  | { kind: "acl"; pos: number; verb: string; words: { text: string; pos: number; quoted: boolean }[] }
  | { kind: "show"; pos: number; what: string; target?: { name: string; pos: number } };

/** What an access-control statement returns: OK, or rows of the given columns. */
export type AclResult =
  | { kind: "ddl" }
  | {
    kind: "rows";
    columns: { name: string; type: import("./base/types.ts").ColumnType }[];
    rows: unknown[][];
  };

/**
 * The seam for access control (security.md): the server registers one with
 * `Engine.setAccessControl` when `acl.enabled=true`; without it ACL statements are refused.
 * The engine itself only asks `Principal.can` before running a statement.
 */
export interface AccessControl {
  execute(request: AclRequest, session: Session): Promise<AclResult>;
  /** A table was created by the session's principal: owner grants (security.md §3.4). */
  tableCreated?(table: string, session: Session): Promise<void>;
}

export function adminSession(signal?: AbortSignal): Session {
  return { principal: { name: "admin", groups: [] }, timeZone: "UTC", signal };
}
