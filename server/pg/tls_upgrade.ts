/**
 * pgwire over TLS (issue 10; spec/protocols.md §12.1: an SSLRequest is answered `S` and TLS
 * starts on the same socket). Deno has no server-side `startTls` for an accepted `Deno.Conn`,
 * so with TLS configured the listener is a `node:net` server and the upgrade wraps the socket
 * in a server `node:tls` TLSSocket. `NodeConn` gives either socket the three methods the
 * connection uses of a `Deno.Conn` (read, write, close), so the rest of the wire layer does
 * not know which one it talks to.
 */
import net from "node:net";
import tls from "node:tls";
import { Buffer } from "node:buffer";

/** What a pg connection needs of its socket; a `Deno.Conn` is one. */
export interface WireConn {
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  close(): void;
  /** The client's address (a `Deno.Conn` has `remoteAddr` instead). */
  readonly remoteHostname?: string;
  /** Starts server-side TLS after `S` was sent; absent when TLS is not configured. */
  startTls?(): Promise<void>;
}

/** Certificate chain and private key, PEM. */
export interface TlsFiles {
  cert: string;
  key: string;
}

/** Bytes queued from the socket before reading pauses it (back-pressure). */
const QUEUED_BYTES_MAX = 256 * 1024;
/** A client that does not finish the TLS handshake in this time is dropped. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

/** A node socket (plain, later TLS) read and written like a `Deno.Conn`. */
export class NodeConn implements WireConn {
  #socket: net.Socket;
  readonly #context: tls.SecureContext;
  #chunks: Uint8Array[] = [];
  #queued = 0;
  #ended = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;
  readonly remoteHostname: string;

  constructor(socket: net.Socket, context: tls.SecureContext) {
    this.#socket = socket;
    this.remoteHostname = socket.remoteAddress ?? "";
    this.#context = context;
    socket.setNoDelay(true);
    this.#attach(socket);
  }

  #attach(socket: net.Socket): void {
    socket.on("data", (chunk: Buffer) => {
      this.#chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.#queued += chunk.byteLength;
      if (this.#queued > QUEUED_BYTES_MAX) socket.pause();
      this.#notify();
    });
    socket.on("end", () => {
      this.#ended = true;
      this.#notify();
    });
    socket.on("close", () => {
      this.#ended = true;
      this.#notify();
    });
    socket.on("error", (err: Error) => {
      this.#error ??= err;
      this.#notify();
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async read(p: Uint8Array): Promise<number | null> {
    while (this.#chunks.length === 0) {
      if (this.#error) throw new Deno.errors.ConnectionReset(this.#error.message);
      if (this.#ended) return null;
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    const head = this.#chunks[0];
    const n = Math.min(p.length, head.length);
    p.set(head.subarray(0, n));
    if (n === head.length) this.#chunks.shift();
    else this.#chunks[0] = head.subarray(n);
    this.#queued -= n;
    if (this.#queued <= QUEUED_BYTES_MAX && this.#socket.isPaused()) this.#socket.resume();
    return n;
  }

  write(p: Uint8Array): Promise<number> {
    if (this.#error || this.#socket.destroyed) {
      return Promise.reject(new Deno.errors.BrokenPipe("connection closed"));
    }
    // Copy: the caller may reuse its buffer before node has sent it.
    const bytes = Buffer.from(p);
    return new Promise((resolve, reject) => {
      this.#socket.write(
        bytes,
        (err) => err ? reject(new Deno.errors.BrokenPipe(err.message)) : resolve(p.length),
      );
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  /**
   * Wraps the socket in server TLS and resolves when the handshake is done. The caller has
   * checked that nothing arrived after the SSLRequest: bytes sent before the handshake would
   * otherwise be read as if they came encrypted (CVE-2021-23214).
   */
  startTls(): Promise<void> {
    const raw = this.#socket;
    raw.removeAllListeners("data");
    raw.removeAllListeners("end");
    raw.removeAllListeners("close");
    raw.removeAllListeners("error");
    if (this.#chunks.length > 0) return Promise.reject(new Error("data received before the TLS handshake"));
    const secure = new tls.TLSSocket(raw, { isServer: true, secureContext: this.#context });
    this.#socket = secure;
    this.#attach(secure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        secure.destroy();
        reject(new Deno.errors.TimedOut("TLS handshake timed out"));
      }, HANDSHAKE_TIMEOUT_MS);
      secure.once("secure", () => {
        clearTimeout(timer);
        resolve();
      });
      secure.once("error", (err: Error) => {
        clearTimeout(timer);
        reject(new Deno.errors.ConnectionReset(`TLS handshake failed: ${err.message}`));
      });
      secure.once("close", () => {
        clearTimeout(timer);
        reject(new Deno.errors.ConnectionReset("closed during the TLS handshake"));
      });
    });
  }
}

/** A TCP listener whose connections can start TLS: accepted sockets as `NodeConn`s. */
export interface TlsCapableListener extends AsyncIterable<NodeConn> {
  addr: { hostname: string; port: number };
  close(): void;
}

/** Listens with node:net; each connection may upgrade with the given certificate and key. */
export async function listenTlsCapable(
  hostname: string,
  port: number,
  files: TlsFiles,
): Promise<TlsCapableListener> {
  // Built once: a bad certificate or key fails the server start, not each handshake.
  const context = tls.createSecureContext({ cert: files.cert, key: files.key });
  const server = net.createServer({ pauseOnConnect: false });
  const waiting: NodeConn[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  server.on("connection", (socket: net.Socket) => {
    waiting.push(new NodeConn(socket, context));
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  return {
    addr: { hostname, port: address.port },
    close() {
      closed = true;
      server.close();
      for (const conn of waiting.splice(0)) conn.close();
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      while (!closed) {
        const next = waiting.shift();
        if (next) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => wake = resolve);
        wake = undefined;
      }
    },
  };
}
