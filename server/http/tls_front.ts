/**
 * The public side of an HTTPS listener (serve_connections.ts). Deno's TLS stack runs each
 * server handshake in a task of its own that holds the socket until the handshake ends, and
 * neither closing the connection nor cancelling its HTTP server stops that task: a client that
 * connects and never finishes its ClientHello would keep its socket for as long as it likes
 * (issue 24, slowloris on the TLS port). So the port is a plain TCP listener; each client
 * connection is piped to an internal TLS listener on loopback, and dropping a connection closes
 * both ends of the pipe: the internal handshake then reads end-of-file and ends, freeing its
 * socket. The price is a copy of every byte of HTTPS traffic in JavaScript; plain HTTP does not
 * pay it. Measured (2 shared cores): hello-world over TLS +0.06 ms a request and ~40 % less bulk
 * throughput than TLS served directly; the whole server, `SELECT 1` over /exec 0.55 -> 0.64 ms
 * sequential, ~2,350 -> ~2,400 requests/s from 20 clients, /exp 25 -> 21 MB/s (medians of 3).
 *
 * The internal connection is matched to its client by the loopback port it comes from, so the
 * server still sees the real client address.
 */
import { log } from "../../engine/base/log.ts";

/** A TLS connection from the internal listener, with its client's real address. */
export interface FrontedConn {
  conn: Deno.TlsConn;
  client: Deno.NetAddr;
  /** Closes the client's socket and the pipe (idempotent). */
  close(): void;
}

interface Pipe {
  client: Deno.Conn;
  close(): void;
}

/** How long an internal connection waits for its pipe to be registered before it is refused. */
const MATCH_TIMEOUT_MS = 5_000;

export class TlsFront {
  readonly addr: Deno.NetAddr;
  readonly #outer: Deno.Listener;
  readonly #inner: Deno.TlsListener;
  /** Pipes by the loopback port of their upstream socket. */
  readonly #pipes = new Map<number, Pipe>();
  readonly #waiting = new Map<number, (pipe: Pipe | undefined) => void>();
  #stopped = false;
  readonly #piping: Promise<void>;

  constructor(bind: { hostname: string; port: number }, tls: { cert: string; key: string }) {
    this.#outer = Deno.listen(bind);
    this.#inner = Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      ...tls,
      alpnProtocols: ["h2", "http/1.1"],
    });
    this.addr = this.#outer.addr as Deno.NetAddr;
    this.#piping = this.#acceptClients();
  }

  /** The internal TLS connections, each matched with its client. */
  async *connections(): AsyncGenerator<FrontedConn> {
    while (!this.#stopped) {
      let conn: Deno.TlsConn;
      try {
        conn = await this.#inner.accept();
      } catch (e) {
        if (this.#stopped || e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted) {
          return;
        }
        log("E", "http", `internal TLS accept failed: ${e instanceof Error ? e.message : String(e)}`);
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const pipe = await this.#pipeOf((conn.remoteAddr as Deno.NetAddr).port);
      if (!pipe) {
        // Not one of ours (another local process found the port): refused.
        try {
          conn.close();
        } catch { /* closed */ }
        continue;
      }
      yield { conn, client: pipe.client.remoteAddr as Deno.NetAddr, close: pipe.close };
    }
  }

  /** Stops accepting; pipes in use stay (their requests may finish). */
  stop(): void {
    this.#stopped = true;
    for (const l of [this.#outer, this.#inner]) {
      try {
        l.close();
      } catch { /* closed */ }
    }
    for (const resolve of this.#waiting.values()) resolve(undefined);
  }

  /** Stops accepting and closes every pipe left. */
  async close(): Promise<void> {
    this.stop();
    await this.#piping;
    for (const pipe of [...this.#pipes.values()]) pipe.close();
  }

  #pipeOf(port: number): Promise<Pipe | undefined> {
    const pipe = this.#pipes.get(port);
    if (pipe) return Promise.resolve(pipe);
    // The internal accept can come before the front's connect has resolved.
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(port);
        resolve(undefined);
      }, MATCH_TIMEOUT_MS);
      this.#waiting.set(port, (p) => {
        clearTimeout(timer);
        resolve(p);
      });
    });
  }

  async #acceptClients(): Promise<void> {
    while (!this.#stopped) {
      let client: Deno.Conn;
      try {
        client = await this.#outer.accept();
      } catch (e) {
        if (this.#stopped || e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted) {
          return;
        }
        log("E", "http", `accept failed: ${e instanceof Error ? e.message : String(e)}`);
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      this.#pipe(client).catch(() => {/* the client or the listener went away */});
    }
  }

  async #pipe(client: Deno.Conn): Promise<void> {
    let upstream: Deno.Conn;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: (this.#inner.addr as Deno.NetAddr).port });
    } catch (e) {
      client.close();
      throw e;
    }
    const port = (upstream.localAddr as Deno.NetAddr).port;
    let closed = false;
    const pipe: Pipe = {
      client,
      close: () => {
        if (closed) return;
        closed = true;
        this.#pipes.delete(port);
        for (const c of [client, upstream]) {
          try {
            c.close();
          } catch { /* closed */ }
        }
      },
    };
    this.#pipes.set(port, pipe);
    this.#waiting.get(port)?.(pipe);
    this.#waiting.delete(port);
    // Client to server: its end of input is passed on as a half-close, so a client that shuts
    // down its sending side after the request still gets the answer; a reset closes both.
    const up = client.readable.pipeTo(upstream.writable, { preventClose: true }).then(
      () => upstream.closeWrite().catch(() => {}),
      () => pipe.close(),
    );
    // Server to client: when the server's side ends (it closed, or was dropped), both go, after
    // the last bytes it wrote.
    await upstream.readable.pipeTo(client.writable, { preventClose: true }).catch(() => {});
    pipe.close();
    await up;
  }
}
