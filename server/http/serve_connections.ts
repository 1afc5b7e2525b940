/**
 * Serves HTTP on connections this module accepts itself, so that a connection that has not
 * sent a request is never free to hold (issue 24, threat model N3: slowloris). Deno.serve has
 * no header timeout: a client that sends half a request line and stalls keeps its socket until
 * it leaves. Here each accepted connection is pending (server/pending_connections.ts) until its
 * first request's headers are parsed: it must get there within `http.request.header.timeout`,
 * and a new one over the per-address or total cap evicts the oldest pending one. Between
 * requests a keep-alive connection is idle, in a set of its own with the same caps
 * (idle_connections.ts), under the idle timeout (`http.net.connection.timeout`, QuestDB's idle
 * key), counted from the end of the last response. Pending and idle connections are apart
 * from the request slots of http.net.connection.limit (request_limit.ts).
 *
 * How: the accepted connection goes, before any byte is read from it, to Deno's own HTTP
 * machinery for one connection (`serveHttpOnConnection`, the fast path Deno.serve runs on,
 * reached through Deno's internal namespace), with a signal that closes it. The first call of
 * the handler means the request headers are in; `info.completed` means the response went out.
 * No byte is read by us, so none can be lost; HTTP/2 (ALPN) and the real client address
 * (`info.remoteAddr`) work as with Deno.serve. HTTPS goes through tls_front.ts (a stalled TLS
 * handshake cannot be dropped otherwise).
 *
 * Measured against the alternatives (Deno 2.9.6, 2 shared cores, hello-world handler, same
 * minute; median of 3 runs): Deno.serve 0.05 ms per sequential request and ~18,000 requests/s
 * from 16 clients; this path the same (0.05 ms, ~19,500/s); `Deno.serveHttp(conn)` (the old
 * HttpConn API, still present but untyped and deprecated) 0.28 ms and ~4,500/s; a TCP front
 * piping to an internal Deno.serve on loopback 0.10-0.12 ms and ~5,000/s with a copy of every
 * byte. The whole server before and after, plain HTTP (`SELECT 1` over /exec, 20 clients; /exp
 * of 68 MB; medians of 3, load average 10): 0.41 / 0.40 ms sequential, ~2,600 / ~3,300
 * requests/s, 28 / 35 MB/s, i.e. no change beyond the noise. Should a later Deno drop the
 * internal function, `serveConnections` falls back to Deno.serve without the deadlines and logs
 * that it did (tests/e2e/http_flood_test.ts then fails).
 */
import { log } from "../../engine/base/log.ts";
import { PendingConnections, type PendingLimits, type PendingTicket } from "../pending_connections.ts";
import { IdleConnections, type IdleTicket } from "./idle_connections.ts";
import { type FrontedConn, TlsFront } from "./tls_front.ts";

export type Handler = (
  request: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
) => Response | Promise<Response>;

export interface Served {
  hostname: string;
  port: number;
  /** Stops accepting, closes idle and pending connections, lets requests in progress finish. */
  close(): Promise<void>;
}

export interface ConnectionLimits {
  /** Before the first request: deadline (`http.request.header.timeout`) and caps. */
  header: PendingLimits;
  /** Between requests on a keep-alive connection: deadline (idle timeout) and caps. */
  idle: PendingLimits;
}

type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: Handler,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => { finished: Promise<void>; shutdown(): Promise<void> };

/** Deno's per-connection server (ext/http/00_serve.ts), or undefined when this Deno lacks it. */
function serveOnConnection(): ServeOnConnection | undefined {
  const internal = (Deno as unknown as Record<symbol | string, unknown>)[
    (Deno as unknown as { internal: symbol }).internal
  ] as { serveHttpOnConnection?: ServeOnConnection } | undefined;
  return typeof internal?.serveHttpOnConnection === "function" ? internal.serveHttpOnConnection : undefined;
}

/** Deno.serve's default: log the handler's exception, answer 500. */
function onError(error: unknown): Response {
  log(
    "E",
    "http",
    `request failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`,
  );
  return new Response("Internal Server Error", { status: 500 });
}

/**
 * Milliseconds between the accept and the admission to the pending set (see `serveOne`); the
 * header deadline runs from then. Short next to any deadline, long next to parsing headers that
 * have arrived.
 */
const ADMIT_AFTER_MS = 100;

/** One accepted connection: pending until a request arrives, idle-pending after each response. */
function serveOne(
  conn: Deno.Conn,
  serveOn: ServeOnConnection,
  handler: Handler,
  sets: { headers: PendingConnections; idle: IdleConnections },
  fronted?: FrontedConn,
): { finished: Promise<void>; close(): void } {
  const client = fronted?.client ?? conn.remoteAddr as Deno.NetAddr;
  const address = client.hostname;
  // Deno's per-connection server closes the connection at once when its signal fires, by a
  // listener that throws (BadResource, an uncaught error that would end the process) if the
  // connection is already gone. So it gets a stand-in signal whose listener is called here,
  // inside try, and only while the connection is open. Before that server has the connection
  // (the TLS handshake) the front's pipe is closed instead (tls_front.ts says why).
  let cancel: (() => void) | undefined;
  let gone = false;
  let server: ReturnType<ServeOnConnection> | undefined;
  const signal = { addEventListener: (_type: string, listener: () => void) => void (cancel = listener) };
  const drop = () => {
    if (gone) return;
    gone = true;
    try {
      if (server) cancel?.();
      else (fronted?.close ?? (() => conn.close()))();
    } catch {
      // Closed by the client meanwhile.
    }
  };
  let ticket: PendingTicket | undefined;
  let idle: IdleTicket | undefined;
  // Admitted to the pending set a moment after the accept, not at once: after a pause of the
  // event loop (a long synchronous step) the backlog is accepted in one burst, before Deno has
  // parsed the headers already waiting on those sockets, and a burst over the per-address cap
  // would evict complete requests. A handler call within the moment cancels the admission.
  let admission: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    admission = undefined;
    ticket = sets.headers.admit(address, drop);
  }, ADMIT_AFTER_MS);
  /** Requests whose response has not gone out yet (several at once with HTTP/2). */
  let active = 0;
  let closing = false;
  const responded = () => {
    if (--active > 0 || closing) return;
    idle = sets.idle.enter(address, drop);
  };
  const serveIt = (): Promise<void> => {
    server = serveOn(
      conn,
      signal as unknown as AbortSignal,
      (request, info) => {
        clearTimeout(admission);
        admission = undefined;
        ticket?.done();
        ticket = undefined;
        idle?.leave();
        idle = undefined;
        active++;
        info.completed.then(responded, responded);
        // Behind the TLS front Deno sees the loopback pipe: the client's own address is passed.
        return handler(request, fronted ? { remoteAddr: client, completed: info.completed } : info);
      },
      onError,
      () => {},
    );
    return server.finished;
  };
  const started = fronted
    // The handshake runs under the header deadline too; a failed one just closes.
    ? (conn as Deno.TlsConn).handshake().then(() => gone ? undefined : serveIt(), () => drop())
    // A synchronous throw (the client already gone) becomes a rejection, not the accept loop's.
    : new Promise<void>((resolve) => resolve(serveIt()));
  const finished = started.catch(() => {/* reset by the client */}).finally(() => {
    closing = true;
    gone = true;
    clearTimeout(admission);
    ticket?.done();
    idle?.leave();
  });
  return {
    finished,
    close() {
      closing = true;
      // Requests in progress finish (graceful); a connection with none closes now.
      if (server && active > 0) server.shutdown().catch(() => {});
      else drop();
    },
  };
}

/** Serves `handler` on `bind` (TLS with `tls`) under `limits`. */
export function serveConnections(
  handler: Handler,
  bind: { hostname: string; port: number },
  limits: ConnectionLimits,
  tls?: { cert: string; key: string },
): Promise<Served> {
  const serveOn = serveOnConnection();
  if (!serveOn) return serveWithoutDeadlines(handler, bind, tls);
  const sets = { headers: new PendingConnections(limits.header), idle: new IdleConnections(limits.idle) };
  const open = new Set<{ finished: Promise<void>; close(): void }>();
  const track = (one: { finished: Promise<void>; close(): void }) => {
    open.add(one);
    one.finished.finally(() => open.delete(one));
  };
  let stopped = false;
  let addr: Deno.NetAddr;
  let accepting: Promise<void>;
  let stopAccepting: () => void;
  let closeListener: () => Promise<void>;
  if (tls) {
    const front = new TlsFront(bind, tls);
    addr = front.addr;
    stopAccepting = () => front.stop();
    closeListener = () => front.close();
    accepting = (async () => {
      for await (const fronted of front.connections()) {
        track(serveOne(fronted.conn, serveOn, handler, sets, fronted));
      }
    })();
  } else {
    const listener = Deno.listen(bind);
    addr = listener.addr as Deno.NetAddr;
    stopAccepting = () => listener.close();
    closeListener = () => Promise.resolve();
    accepting = (async () => {
      while (!stopped) {
        let conn: Deno.Conn;
        try {
          conn = await listener.accept();
        } catch (e) {
          if (stopped || e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted) return;
          // Out of file descriptors and the like: the listener stays, accepting again shortly.
          log("E", "http", `accept failed: ${e instanceof Error ? e.message : String(e)}`);
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        track(serveOne(conn, serveOn, handler, sets));
      }
    })();
  }
  return Promise.resolve({
    hostname: addr.hostname,
    port: addr.port,
    async close() {
      stopped = true;
      stopAccepting();
      await accepting;
      const all = [...open];
      for (const one of all) one.close();
      await Promise.allSettled(all.map((one) => one.finished));
      await closeListener();
      sets.idle.stop();
    },
  });
}

/** The fallback on a Deno without serveHttpOnConnection: Deno.serve, no header or idle deadline. */
function serveWithoutDeadlines(
  handler: Handler,
  bind: { hostname: string; port: number },
  tls?: { cert: string; key: string },
): Promise<Served> {
  log(
    "E",
    "http",
    "this Deno has no per-connection HTTP server: http.request.header.timeout is not enforced",
  );
  return new Promise((resolve) => {
    const server = Deno.serve({
      ...bind,
      ...tls,
      onListen: (addr) =>
        resolve({ hostname: addr.hostname, port: addr.port, close: () => server.shutdown() }),
    }, handler);
  });
}
