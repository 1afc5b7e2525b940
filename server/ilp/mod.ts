/**
 * @module
 * InfluxDB line protocol over TCP (spec/protocols.md §11), port 9009: newline-delimited ILP
 * text (with v2/v3 binary fields), no replies. Rows commit when a connection has
 * `cairo.max.uncommitted.rows` pending, every `line.tcp.commit.interval.default` ms, and when
 * the client disconnects; an incomplete last line at disconnect is dropped. A bad line is
 * logged and, with `line.tcp.disconnect.on.error` (default), closes the connection after the
 * lines before it are committed. Entry point: `startIlp`. Lines are parsed by
 * server/line_protocol (shared with ILP over HTTP) and written through the engine's ingest
 * door for the connection's session, which checks each table write (security.md §5.3, T15).
 */
import {
  adminSession,
  type Engine,
  engineStats,
  type IngestHandle,
  type IngestorOptions,
  log,
  type Session,
  SqlError,
} from "../../engine/mod.ts";
import type { IlpTcpAccess } from "../auth/mod.ts";
import type { Config } from "../config.ts";
import { ingestorOptions, LineParser, type Precision, precisionOf } from "../line_protocol/mod.ts";
import { PendingConnections, pendingLimitsOf } from "../pending_connections.ts";

export interface IlpListener {
  hostname: string;
  port: number;
  close(): Promise<void>;
  /** Open connections (questdb_line_tcp_connections). */
  connections(): number;
}

interface TcpSettings {
  precision: Precision;
  maxLineBytes: number;
  maxUncommittedRows: number;
  commitIntervalMs: number;
  disconnectOnError: boolean;
  connectionLimit: number;
  logErrors: boolean;
}

const READ_BYTES = 64 * 1024;

function settingsOf(config: Config): TcpSettings {
  const ts = config.get("line.tcp.timestamp") ?? "n";
  return {
    precision: precisionOf(ts) ?? "n",
    maxLineBytes: config.int("line.tcp.max.measurement.size", 32768),
    maxUncommittedRows: Math.max(1, config.int("cairo.max.uncommitted.rows", 500_000)),
    commitIntervalMs: Math.max(1, config.int("line.tcp.commit.interval.default", 1000)),
    disconnectOnError: config.get("line.tcp.disconnect.on.error")?.toLowerCase() !== "false",
    connectionLimit: config.int("line.tcp.net.connection.limit", 256),
    logErrors: config.get("line.log.message.on.error")?.toLowerCase() !== "false",
  };
}

/** Starts the TCP listener on `line.tcp.net.bind.to`. */
export function startIlp(engine: Engine, config: Config, access?: IlpTcpAccess): Promise<IlpListener> {
  const settings = settingsOf(config);
  const options = ingestorOptions(config);
  const bind = config.bind("line.tcp.net.bind.to");
  const listener = Deno.listen({ hostname: bind.hostname, port: bind.port, transport: "tcp" });
  const open = new Map<Deno.Conn, Promise<void>>();
  // line.tcp.net.connection.limit counts connections past their JWK handshake (or, without
  // access control, past their first byte); until then they are pending
  // (line.tcp.net.handshake.*: deadline, per-address and total caps, pending_connections.ts),
  // so idle or never-authenticating sockets hold nothing for long and lock nobody out.
  const pending = new PendingConnections(pendingLimitsOf(config, "line.tcp.net.handshake"));
  let active = 0;
  let closing = false;
  const accepting = (async () => {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch {
        return; // listener closed
      }
      if (closing) {
        conn.close();
        continue;
      }
      const ticket = pending.admit((conn.remoteAddr as Deno.NetAddr).hostname, () => conn.close());
      let counted = false;
      const admit = () => {
        ticket.done();
        if (active >= settings.connectionLimit) return false;
        active++;
        counted = true;
        return true;
      };
      const done = new Connection(conn, engine, options, settings, admit, access).run().finally(() => {
        ticket.done();
        if (counted) active--;
        open.delete(conn);
      });
      open.set(conn, done);
    }
  })();
  const addr = listener.addr as Deno.NetAddr;
  return Promise.resolve({
    hostname: addr.hostname,
    port: addr.port,
    connections: () => open.size,
    close: async () => {
      closing = true;
      listener.close();
      await accepting;
      // Closing a connection ends its read loop, which commits what it holds.
      for (const conn of open.keys()) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      await Promise.all(open.values());
    },
  });
}

/** One client: reads, parses, and commits by row count, by time and at the end. */
class Connection {
  readonly #conn: Deno.Conn;
  readonly #engine: Engine;
  readonly #options: IngestorOptions;
  /** The engine's ingest door for this connection's session (after the handshake). */
  #writer: IngestHandle;
  readonly #settings: TcpSettings;
  readonly #parser: LineParser;
  #commits: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Bytes that followed the handshake are parsed before the first read. */
  #pendingRest = true;
  #failed = false;
  readonly #access: IlpTcpAccess | undefined;
  /** Leaves the pending set; false: over line.tcp.net.connection.limit, the connection closes. */
  readonly #admit: () => boolean;
  #admitted = false;
  #session: Session = { ...adminSession(), protocol: "ilp" };

  constructor(
    conn: Deno.Conn,
    engine: Engine,
    options: IngestorOptions,
    settings: TcpSettings,
    admit: () => boolean,
    access?: IlpTcpAccess,
  ) {
    this.#access = access;
    this.#admit = admit;
    this.#conn = conn;
    this.#engine = engine;
    this.#options = options;
    this.#writer = engine.ingest(this.#session, options);
    this.#settings = settings;
    this.#parser = new LineParser({ precision: settings.precision, maxLineBytes: settings.maxLineBytes });
  }

  async run(): Promise<void> {
    let buf = new Uint8Array(READ_BYTES * 2);
    let filled = 0;
    if (this.#access) {
      const auth = await this.#access.handshake(this.#conn);
      if (!auth || !this.#enter()) {
        try {
          this.#conn.close();
        } catch { /* already closed */ }
        return;
      }
      this.#session = { principal: auth.principal, timeZone: "UTC", protocol: "ilp" };
      this.#writer = this.#engine.ingest(this.#session, this.#options);
      if (auth.rest.length > buf.length) buf = new Uint8Array(auth.rest.length + READ_BYTES);
      buf.set(auth.rest);
      filled = auth.rest.length;
    }
    try {
      for (;;) {
        if (buf.length - filled < READ_BYTES) {
          // An incomplete line fills the buffer: grow it (the parser bounds the line length).
          const bigger = new Uint8Array(Math.max(buf.length * 2, filled + READ_BYTES));
          bigger.set(buf.subarray(0, filled));
          buf = bigger;
        }
        let n: number | null;
        if (this.#pendingRest && filled > 0) {
          n = 0; // parse what came with the handshake before reading more
        } else {
          try {
            n = await this.#conn.read(buf.subarray(filled));
          } catch {
            n = null; // reset or closed by the server: same as end of stream
          }
        }
        this.#pendingRest = false;
        if (n === null) break; // an incomplete last line is dropped
        if (!this.#enter()) break; // first bytes without access control: over the limit, nothing parsed
        filled += n;
        engineStats.lineBytes.tcp += n;
        const r = this.#parser.parse(buf, 0, filled, false);
        if (r.error) {
          this.#log(`ilp: bad line [line=${r.error.line}]: ${r.error.message}`);
          if (this.#settings.disconnectOnError) break;
          const skip = nextLine(buf, r.next, filled);
          if (skip < 0) {
            filled = 0; // the bad line continues in the next read: drop what there is
            continue;
          }
          this.#parser.line++;
          buf.copyWithin(0, skip, filled);
          filled -= skip;
          continue;
        }
        buf.copyWithin(0, r.next, filled);
        filled -= r.next;
        if (this.#parser.rowCount >= this.#settings.maxUncommittedRows) await this.#commit();
        else if (this.#parser.rowCount > 0) this.#arm();
        if (this.#failed) break;
      }
    } finally {
      clearTimeout(this.#timer);
      await this.#commit();
      try {
        this.#conn.close();
      } catch { /* already closed */ }
    }
  }

  /** Counts the connection as active once; false when the listener is full. */
  #enter(): boolean {
    if (this.#admitted) return true;
    this.#admitted = this.#admit();
    return this.#admitted;
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#commit();
    }, this.#settings.commitIntervalMs);
  }

  /** Commits what the parser holds, after any commit already running. */
  #commit(): Promise<void> {
    const blocks = this.#parser.take();
    if (blocks.length === 0) return this.#commits;
    this.#commits = this.#commits.then(async () => {
      try {
        const refusal = this.#access?.endpointRefusal(this.#session.principal);
        if (refusal) return this.#refuse(refusal);
        const outcome = await this.#writer.commitBlocks(blocks, {
          mode: this.#settings.disconnectOnError ? "prefix" : "skip",
        });
        if (outcome.error) {
          this.#log(`ilp: bad line [line=${outcome.error.line}]: ${outcome.error.message}`);
          if (this.#settings.disconnectOnError) this.#fail();
        }
        if (outcome.failure) {
          this.#log(`ilp: ${outcome.failure}`);
          this.#fail();
        }
      } catch (e) {
        // A table permission the engine refused (INSERT, CREATE TABLE, ADD COLUMN): nothing committed.
        if (e instanceof SqlError && e.kind === "permission") return this.#refuse(e.message);
        this.#log(`ilp: commit failed: ${e instanceof Error ? e.message : e}`);
        this.#fail();
      }
    });
    return this.#commits;
  }

  /** A refused write closes the connection (TCP has no error channel). */
  #refuse(message: string): void {
    this.#log(`ilp: ${message}`);
    this.#fail();
  }

  /** A line that parsed but did not fit its table: lines after it must not commit either. */
  #fail(): void {
    this.#failed = true;
    this.#parser.take(); // rows parsed after the bad line
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }

  #log(message: string): void {
    if (this.#settings.logErrors) log("E", "ilp", message);
  }
}

/** Offset after the next line end at or after `from`, or -1. */
function nextLine(buf: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) if (buf[i] === 0x0a || buf[i] === 0x0d) return i + 1;
  return -1;
}
