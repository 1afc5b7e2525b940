/**
 * One client connection: the handshake, then a loop reading messages and answering them
 * (spec/protocols.md §12.3-§12.5). The simple query runs each statement of the text in turn;
 * the extended protocol keeps prepared statements and portals and, after an error, skips to
 * the next Sync. Every message is handled inside one try: nothing a client sends may stop
 * the server, and a protocol violation closes only this connection.
 */
import {
  type ColumnType,
  type Engine,
  type Principal,
  type ScriptStatement,
  type Session,
  splitScript,
  StatementCache,
  Transaction,
  type Value,
} from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import { ProtocolError } from "./buffer_reader.ts";
import { BufferWriter } from "./buffer_writer.ts";
import type { CancelRegistry } from "./cancel_registry.ts";
import { type FrontendMessage, parseMessage } from "./frontend_messages.ts";
import { MessageStream } from "./message_stream.ts";
import { fieldsOf, resultFormats, RowCursor } from "./row_cursor.ts";
import { type ConnectionState, runStatement, type StatementText } from "./run_statement.ts";
import { startupParameters } from "./server_settings.ts";
import { errorFieldsOf, SQLSTATE } from "./sqlstate.ts";
import { type Authenticator, handshake, type ScramAuthenticator } from "./startup.ts";
import { sessionTimeoutMs } from "./statement_timeout.ts";
import type { WireConn } from "./tls_upgrade.ts";
import { ExtendedQuery } from "./extended_query.ts";
import { copyIn } from "./copy_in.ts";
import { copyOut } from "./copy_out.ts";
import type { CopySpec } from "./copy_statement.ts";

export interface ConnectionOptions {
  engine: Engine;
  authenticate: Authenticator;
  cancels: CancelRegistry;
  /** Largest message accepted (pg.recv.buffer.size). */
  messageBytesMax: number;
  /** Idle connections are closed after this long without a message (pg.net.connection.timeout). */
  idleTimeoutMs: number;
  /** Named statements one connection may hold (pg.named.statement.limit). */
  namedStatementLimit: number;
  version: string;
  /** Statement timeout without a session statement_timeout (query.timeout); 0 means none. */
  statementTimeoutMs?: number;
  /** Set when pg.auth.method=scram: SCRAM-SHA-256 replaces the cleartext password. */
  scram?: ScramAuthenticator;
  /**
   * pg.select.cache.enabled: a simple query that is one SELECT reuses the parse and plan the
   * engine's query cache keeps for its text (engine/query_cache.ts); false plans it each time.
   */
  selectCache?: boolean;
}

/**
 * The listener's accounting of one connection (mod.ts, server/pending_connections.ts):
 * `started` when the StartupMessage arrives, `authenticated` once the login succeeded; false
 * means pg.net.connection.limit is reached and the client is refused.
 */
export interface Admission {
  started(): void;
  authenticated(): boolean;
}

const ADMIT_ALL: Admission = { started: () => {}, authenticated: () => true };

export class Connection implements ConnectionState {
  readonly engine: Engine;
  /** BEGIN … COMMIT state; the engine holds a block's inserts in it (§12.10). */
  readonly transaction = new Transaction();
  readonly settings = new Map<string, string>();
  readonly out = new BufferWriter();
  readonly #conn: WireConn;
  readonly #options: ConnectionOptions;
  readonly #extended: ExtendedQuery;
  readonly #admission: Admission;
  #principal: Principal = { name: "", groups: [] };
  /** Prepared statements by SQL text (Engine.prepare's per-session cache). */
  readonly #statements = new StatementCache();
  #abort = new AbortController();
  #closed = false;
  /** When the read under the idle timeout began (performance.now()), -1 when not reading. */
  #readingSince = -1;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The message stream, once the handshake is done (COPY FROM reads its data from it). */
  #stream: MessageStream | undefined;

  constructor(conn: WireConn, options: ConnectionOptions, admission: Admission = ADMIT_ALL) {
    this.#conn = conn;
    this.#options = options;
    this.#admission = admission;
    this.engine = options.engine;
    this.#extended = new ExtendedQuery(this, options.namedStatementLimit);
    // SHOW statement_timeout tells the timeout that applies (query.timeout) until a SET.
    if (options.statementTimeoutMs) {
      this.settings.set("statement_timeout", String(options.statementTimeoutMs));
    }
  }

  /** A session for the next statement, with a fresh cancellation signal. */
  session(params: Value[] = []): Session {
    this.#abort = new AbortController();
    const timeoutMs = sessionTimeoutMs(this.settings, this.#options.statementTimeoutMs ?? 0);
    const timeZone = this.settings.get("timezone") ?? "UTC"; // SET TIME ZONE (time_zone.ts)
    const transaction = this.transaction;
    return {
      principal: this.#principal,
      timeZone,
      signal: this.#abort.signal,
      params,
      timeoutMs,
      transaction,
      protocol: "pgwire",
      statements: this.#statements,
      ...(this.#options.selectCache === false ? { queryCache: false } : {}),
    };
  }

  /** ReadyForQuery status: I idle, T in a transaction block, E in a failed one. */
  get txStatus(): "I" | "T" | "E" {
    const status = this.transaction.status;
    return status === "idle" ? "I" : status === "open" ? "T" : "E";
  }

  /** The signal of the statement running now (checked while rows stream). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  deallocate(name: string | null): void {
    this.#extended.deallocate(name);
  }

  parameterStatus(name: string, value: string): void {
    M.parameterStatus(this.out, name, value);
  }

  /** COPY FROM STDIN / TO STDOUT: the sub-protocol runs inside the statement (copy_in.ts). */
  copy(spec: CopySpec, session: Session): Promise<string> {
    const host = {
      engine: this.engine,
      out: this.out,
      flush: () => this.flush(),
      readMessage: async () => {
        const raw = await this.#withIdleTimeout(() => this.#stream!.readMessage());
        return raw ? parseMessage(raw.code, raw.body) : null;
      },
    };
    return spec.direction === "from" ? copyIn(host, spec, session) : copyOut(host, spec, session);
  }

  /** Writes everything buffered to the socket. */
  async flush(): Promise<void> {
    if (this.out.length === 0 || this.#closed) return;
    const bytes = this.out.take();
    let offset = 0;
    while (offset < bytes.length) offset += await this.#conn.write(bytes.subarray(offset));
  }

  /** Serves the connection until the client leaves, misbehaves or idles out. */
  async serve(): Promise<void> {
    const stream = new MessageStream(this.#conn, this.#options.messageBytesMax);
    let processId = 0;
    try {
      const start = await this.#withIdleTimeout(() =>
        handshake(stream, this.out, () => this.flush(), {
          ...this.#options,
          startTls: this.#conn.startTls?.bind(this.#conn),
          started: this.#admission.started,
        })
      );
      if (!start) return;
      if (!this.#admission.authenticated()) {
        M.errorResponse(this.out, {
          severity: "FATAL",
          code: SQLSTATE.TOO_MANY_CONNECTIONS,
          message: "too many connections",
        });
        await this.flush();
        return;
      }
      this.#principal = start.principal;
      this.#stream = stream;
      for (const [k, v] of start.params) this.settings.set(k, v);
      M.authenticationOk(this.out);
      for (const [k, v] of startupParameters(this.#options.version)) M.parameterStatus(this.out, k, v);
      const key = this.#options.cancels.register(() => this.#abort.abort());
      processId = key.processId;
      M.backendKeyData(this.out, key.processId, key.secretKey);
      M.readyForQuery(this.out, "I");
      await this.flush();
      while (true) {
        const raw = await this.#withIdleTimeout(() => stream.readMessage());
        if (!raw) return;
        const msg = parseMessage(raw.code, raw.body);
        if (msg.kind === "terminate") return;
        await this.#dispatch(msg);
      }
    } catch (err) {
      await this.#fatal(err);
    } finally {
      if (processId) this.#options.cancels.unregister(processId);
      await this.#extended.closeAll();
      this.#close();
    }
  }

  /**
   * Closes the connection when a read waits longer than the idle timeout. One timer per idle
   * period, not one per message: it fires, and is armed again for what is left of the timeout
   * when the read it watches has not waited long enough (most reads come from the buffer).
   */
  async #withIdleTimeout<R>(read: () => Promise<R>): Promise<R> {
    this.#readingSince = performance.now();
    if (this.#idleTimer === undefined) this.#armIdle(this.#options.idleTimeoutMs);
    try {
      return await read();
    } finally {
      this.#readingSince = -1;
    }
  }

  #armIdle(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.#closed || this.#readingSince < 0) return; // not reading: the next read arms it
      const waited = performance.now() - this.#readingSince;
      if (waited >= this.#options.idleTimeoutMs) this.#close();
      else this.#armIdle(this.#options.idleTimeoutMs - waited);
    }, ms);
  }

  #close(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch {
      // Already closed by the peer.
    }
  }

  /** A protocol violation or a broken socket: report if possible, then close. */
  async #fatal(err: unknown): Promise<void> {
    if (this.#closed) return;
    if (!(err instanceof ProtocolError)) {
      if (
        err instanceof Deno.errors.BadResource || err instanceof Deno.errors.ConnectionReset ||
        err instanceof Deno.errors.BrokenPipe || err instanceof Deno.errors.Interrupted
      ) return;
    }
    try {
      const fields = errorFieldsOf(err);
      M.errorResponse(this.out, { ...fields, severity: "FATAL" });
      await this.flush();
    } catch {
      // The peer is gone; nothing more to tell it.
    }
  }

  async #dispatch(msg: FrontendMessage): Promise<void> {
    switch (msg.kind) {
      case "query":
        await this.#extended.closeUnnamed();
        await this.#simpleQuery(msg.sql);
        return;
      case "sync":
        await this.#extended.sync();
        M.readyForQuery(this.out, this.txStatus);
        await this.flush();
        return;
      case "flush":
        await this.flush();
        return;
      case "copyData":
      case "copyDone":
      case "copyFail":
        return; // the rest of a COPY that already failed: Postgres ignores it too
      case "password":
      case "unknown": {
        const type = msg.kind === "unknown" ? String.fromCharCode(msg.code) : "p";
        M.errorResponse(this.out, {
          severity: "ERROR",
          code: SQLSTATE.PROTOCOL_VIOLATION,
          message: `unknown message [type=${type}]`,
        });
        M.readyForQuery(this.out, this.txStatus);
        await this.flush();
        return;
      }
      default:
        await this.#extended.handle(msg);
    }
  }

  /** Reports an error of a statement; inside a transaction block the block fails. */
  reportError(err: unknown, text = "", offset = 0): void {
    if (err instanceof ProtocolError) throw err;
    M.errorResponse(this.out, errorFieldsOf(err, text, offset));
    this.transaction.fail();
  }

  /**
   * Runs one statement; a cancelled or failed one throws. `paramTypes`: the types of values
   * whose JavaScript form does not say it (a timestamp is a bigint of microseconds).
   */
  run(
    stmt: StatementText,
    params: Value[] = [],
    paramTypes?: (ColumnType | undefined)[],
  ): ReturnType<typeof runStatement> {
    const session = this.session(params);
    if (paramTypes) session.paramTypes = paramTypes;
    return runStatement(this, stmt, session);
  }

  async #simpleQuery(sql: string): Promise<void> {
    const statements = this.#scriptOf(sql);
    if (statements.length === 0) M.emptyQueryResponse(this.out);
    for (const s of statements) {
      let cursor: RowCursor | undefined;
      try {
        const result = await this.run(s);
        if (result.kind === "command") {
          M.commandComplete(this.out, result.tag);
          continue;
        }
        cursor = new RowCursor(result.columns, result.batches, resultFormats(result.columns, []));
        M.rowDescription(this.out, fieldsOf(cursor.columns, cursor.formats));
        const rows = await cursor.write(this.out, 0, () => this.flush(), this.signal);
        M.commandComplete(this.out, `${result.tag} ${rows}`);
      } catch (err) {
        await cursor?.close();
        this.reportError(err, sql, s.offset);
        break;
      }
    }
    M.readyForQuery(this.out, this.txStatus);
    await this.flush();
  }

  /**
   * The statements of a simple query. A script that is one query, from its first character,
   * goes through the engine's query cache by its whole text (pg.select.cache.enabled, on by
   * default; the session says when it is off): once kept, the same text is neither split
   * nor parsed nor, while the tables' metadata stays the same, planned again.
   */
  #scriptOf(sql: string): (ScriptStatement & { cached?: boolean })[] {
    if (this.#options.selectCache !== false) {
      const kept = this.engine.keptQuery(sql, this.session());
      if (kept) {
        return [{ kind: "query", statement: kept, text: sql, offset: 0, paramCount: 0, cached: true }];
      }
    }
    const statements = splitScript(sql);
    const only = statements.length === 1 ? statements[0] : undefined;
    if (this.#options.selectCache !== false && only?.kind === "query" && only.offset === 0) {
      // The parse's positions are relative to the script: the whole text is the cache's key.
      return [{ ...only, text: sql, cached: true }];
    }
    return statements;
  }
}
