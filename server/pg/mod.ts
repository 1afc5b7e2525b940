/**
 * @module
 * The PostgreSQL wire protocol listener (port 8812, spec/protocols.md §12): a `Deno.listen`
 * TCP server speaking protocol v3 to psql, pgjdbc, psycopg, asyncpg, node-postgres and
 * friends. Entry point: `startPg(engine, config)`. Reaches the engine only through
 * engine/mod.ts; must not import other listeners. Importing this module also registers the
 * pg_catalog / information_schema meta tables and the catalog functions drivers call.
 */
import type { Engine, Principal } from "../../engine/mod.ts";
import "../../engine/catalog/pg_catalog.ts";
import "../../engine/functions/pg_functions.ts";
import type { Config } from "../config.ts";
import { CancelRegistry } from "./cancel_registry.ts";
import { Connection, type ConnectionOptions } from "./connection.ts";
import * as M from "./backend_messages.ts";
import { BufferWriter } from "./buffer_writer.ts";
import { SQLSTATE } from "./sqlstate.ts";
import type { Authenticator } from "./startup.ts";

export type { Authenticator } from "./startup.ts";

/** The running listener. */
export interface PgListener {
  hostname: string;
  port: number;
  /** Stops accepting, closes every connection and waits for them to end. */
  close(): Promise<void>;
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

/** pg.user / pg.password (spec/protocols.md §13), with the read-only user when enabled. */
function configAuthenticator(config: Config): Authenticator {
  const user = config.get("pg.user") ?? "admin";
  const password = config.get("pg.password") ?? "quest";
  const readonlyEnabled = config.bool("pg.readonly.user.enabled");
  const roUser = config.get("pg.readonly.user") ?? "user";
  const roPassword = config.get("pg.readonly.password") ?? "quest";
  return (name, secret): Principal | undefined => {
    if (name === user && secret === password) return { name, groups: [] };
    if (readonlyEnabled && name === roUser && secret === roPassword) {
      return { name, groups: [], can: (permission) => /^(select|show)/i.test(permission) };
    }
    return undefined;
  };
}

/** Refuses a connection over the limit after reading nothing: one FATAL ErrorResponse. */
async function refuse(conn: Deno.Conn): Promise<void> {
  const w = new BufferWriter();
  M.errorResponse(w, { severity: "FATAL", code: SQLSTATE.TOO_MANY_CONNECTIONS, message: "too many connections" });
  try {
    await conn.write(w.take());
  } catch {
    // The peer left already.
  }
  conn.close();
}

/**
 * Starts the listener on `pg.net.bind.to`. `authenticate` replaces the pg.user/pg.password
 * check (server/auth plugs in access-control users here).
 */
export function startPg(engine: Engine, config: Config, authenticate?: Authenticator): Promise<PgListener> {
  const bind = config.bind("pg.net.bind.to");
  const listener = Deno.listen({ hostname: bind.hostname, port: bind.port, transport: "tcp" });
  const options: ConnectionOptions = {
    engine,
    authenticate: authenticate ?? configAuthenticator(config),
    cancels: new CancelRegistry(),
    messageBytesMax: parseSize(config.get("pg.recv.buffer.size"), 1024 * 1024),
    idleTimeoutMs: config.int("pg.net.connection.timeout", 300_000),
    namedStatementLimit: config.int("pg.named.statement.limit", 10_000),
    version: QUESTDB_VERSION,
  };
  const connectionLimit = config.int("pg.net.connection.limit", 64);
  const open = new Set<Deno.Conn>();
  const served = new Set<Promise<void>>();
  const accepting = (async () => {
    for await (const conn of listener) {
      if (open.size >= connectionLimit) {
        refuse(conn);
        continue;
      }
      open.add(conn);
      const done = new Connection(conn, options).serve().catch((err) => {
        console.error("pg connection failed:", err);
      }).finally(() => {
        open.delete(conn);
        served.delete(done);
      });
      served.add(done);
    }
  })().catch(() => {/* the listener was closed */});
  const addr = listener.addr as Deno.NetAddr;
  return Promise.resolve({
    hostname: addr.hostname,
    port: addr.port,
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
  });
}
