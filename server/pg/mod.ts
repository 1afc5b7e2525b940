/**
 * @module
 * The PostgreSQL wire protocol listener (port 8812, spec/protocols.md §12): a `Deno.listen`
 * TCP server (node:net when `pg.tls.enabled`, see tls_upgrade.ts) speaking protocol v3 to psql, pgjdbc, psycopg, asyncpg, node-postgres and
 * friends. Entry point: `startPg(engine, config)`. Reaches the engine only through
 * engine/mod.ts; must not import other listeners. The pg_catalog / information_schema
 * relations and the catalog functions drivers call are the engine's (always registered).
 */
import { type Engine, log, type Principal } from "../../engine/mod.ts";
import type { Config } from "../config.ts";
import { CancelRegistry } from "./cancel_registry.ts";
import { Connection, type ConnectionOptions } from "./connection.ts";
import type { Authenticator, ScramAuthenticator } from "./startup.ts";
import { constantTimeEqual, type ScramVerifier, scramVerifier } from "../scram.ts";
import { listenTlsCapable, type WireConn } from "./tls_upgrade.ts";
import { PendingConnections, pendingLimitsOf } from "../pending_connections.ts";

export type { Authenticator, ScramAuthenticator } from "./startup.ts";

const enc = new TextEncoder();

/** The running listener. */
export interface PgListener {
  hostname: string;
  port: number;
  /** True when SSLRequest is answered `S` (pg.tls.enabled). */
  tls: boolean;
  /** Stops accepting, closes every connection and waits for them to end. */
  close(): Promise<void>;
  /** Open connections, logged in or not (questdb_pg_wire_connections). */
  connections(): number;
}

/** Server version reported as `questdb_version`. */
export const QUESTDB_VERSION = "9.0.0";

/** `512k`, `1M`, `2g` or plain bytes (QuestDB size settings). */
export function parseSize(text: string | undefined, fallback: number): number {
  const m = /^\s*(\d+)\s*([kmg]?)b?\s*$/i.exec(text ?? "");
  if (!m) return fallback;
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as "" | "k" | "m" | "g"];
  return Number(m[1]) * unit;
}

/** The users of pg.user / pg.password and pg.readonly.* (spec/protocols.md §13). */
function configUsers(config: Config): { name: string; password: string; principal: Principal }[] {
  const users = [{
    name: config.get("pg.user") ?? "admin",
    password: config.get("pg.password") ?? "quest",
    principal: { name: config.get("pg.user") ?? "admin", groups: [] } as Principal,
  }];
  if (config.bool("pg.readonly.user.enabled")) {
    const name = config.get("pg.readonly.user") ?? "user";
    const can = (permission: string) => /^(select|show)/i.test(permission);
    users.push({
      name,
      password: config.get("pg.readonly.password") ?? "quest",
      principal: { name, groups: [], can },
    });
  }
  return users;
}

/** pg.user / pg.password, with the read-only user when enabled, checked in constant time. */
function configAuthenticator(config: Config): Authenticator {
  const users = configUsers(config);
  return (name, secret): Principal | undefined => {
    let found: Principal | undefined;
    for (const u of users) {
      // Every user's password is compared, so the time does not tell which name exists.
      if (constantTimeEqual(enc.encode(secret), enc.encode(u.password)) && name === u.name) {
        found ??= u.principal;
      }
    }
    return found;
  };
}

/** The same users for SCRAM: their verifiers are derived once at start. */
async function configScram(config: Config): Promise<ScramAuthenticator> {
  const users = new Map<string, { verifier: ScramVerifier; principal: Principal }>();
  for (const u of configUsers(config)) {
    if (!users.has(u.name)) {
      users.set(u.name, { verifier: await scramVerifier(u.password), principal: u.principal });
    }
  }
  return { verifier: (name) => users.get(name)?.verifier, principal: (name) => users.get(name)?.principal };
}

/** `pg.auth.method`: `password` (cleartext, the default, as QuestDB) or `scram` (SCRAM-SHA-256). */
function scramEnabled(config: Config): boolean {
  const method = (config.get("pg.auth.method") ?? "password").toLowerCase();
  if (method === "scram" || method === "scram-sha-256") return true;
  if (method === "password" || method === "cleartext") return false;
  throw new Error(`pg.auth.method must be password or scram [value=${method}]`);
}

/** The client's address, the key of the per-address cap on connections still logging in. */
function clientAddress(conn: WireConn): string {
  const addr = (conn as Partial<Deno.Conn>).remoteAddr as Deno.NetAddr | undefined;
  return addr?.hostname ?? conn.remoteHostname ?? "";
}

/**
 * Starts the listener on `pg.net.bind.to`. `authenticate` and `scram` replace the
 * pg.user/pg.password check (server/auth plugs in access-control users here); `scram` is
 * used only with pg.auth.method=scram.
 */
export async function startPg(
  engine: Engine,
  config: Config,
  authenticate?: Authenticator,
  scram?: ScramAuthenticator,
): Promise<PgListener> {
  const bind = config.bind("pg.net.bind.to");
  // With TLS configured the listener must be able to upgrade a socket after SSLRequest
  // (node:net + node:tls); without it, Deno's own TCP listener and SSLRequest answered `N`.
  const tls = config.tls("pg");
  const listener: AsyncIterable<WireConn> & {
    close(): void;
    addr: Deno.Addr | { hostname: string; port: number };
  } = tls
    ? await listenTlsCapable(bind.hostname, bind.port, {
      cert: await Deno.readTextFile(tls.certPath),
      key: await Deno.readTextFile(tls.keyPath),
    })
    : Deno.listen({ hostname: bind.hostname, port: bind.port, transport: "tcp" });
  const options: ConnectionOptions = {
    engine,
    authenticate: authenticate ?? configAuthenticator(config),
    cancels: new CancelRegistry(),
    messageBytesMax: parseSize(config.get("pg.recv.buffer.size"), 1024 * 1024),
    idleTimeoutMs: config.int("pg.net.connection.timeout", 300_000),
    namedStatementLimit: config.int("pg.named.statement.limit", 10_000),
    version: QUESTDB_VERSION,
    statementTimeoutMs: config.durationMs("query.timeout", 60_000),
    scram: scramEnabled(config) ? scram ?? await configScram(config) : undefined,
    selectCache: config.get("pg.select.cache.enabled")?.trim().toLowerCase() !== "false",
  };
  // pg.net.connection.limit counts authenticated connections only; those still in startup or
  // authentication are pending (pg.net.handshake.*): deadline, per-address and total caps
  // (server/pending_connections.ts), so a flood of half-open connections locks nobody out.
  const connectionLimit = config.int("pg.net.connection.limit", 64);
  const pending = new PendingConnections(pendingLimitsOf(config, "pg.net.handshake"));
  let authenticated = 0;
  const open = new Set<WireConn>();
  const served = new Set<Promise<void>>();
  const accepting = (async () => {
    for await (const conn of listener) {
      const ticket = pending.admit(clientAddress(conn), () => conn.close());
      let counted = false;
      open.add(conn);
      const admission = {
        started: () => ticket.progressed(),
        authenticated: () => {
          ticket.done();
          if (authenticated >= connectionLimit) return false;
          authenticated++;
          counted = true;
          return true;
        },
      };
      const done = new Connection(conn, options, admission).serve().catch((err) => {
        // A bug, not a client's mistake (those are answered on the wire): keep the stack, on one line.
        log("E", "pg", `connection failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      }).finally(() => {
        ticket.done();
        if (counted) authenticated--;
        open.delete(conn);
        served.delete(done);
      });
      served.add(done);
    }
  })().catch(() => {/* the listener was closed */});
  const addr = listener.addr as { hostname: string; port: number };
  return {
    hostname: addr.hostname,
    port: addr.port,
    tls: tls !== undefined,
    connections: () => open.size,
    async close() {
      listener.close();
      await accepting;
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // Closed by its own loop meanwhile.
        }
      }
      await Promise.allSettled([...served]);
    },
  };
}
