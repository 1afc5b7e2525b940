/**
 * The ILP-over-TCP authentication handshake (security.md §5.3, protocols.md §11.1, T21):
 * the client sends `<keyId>\n`; the server answers a fresh 512-byte challenge of printable
 * ASCII and `\n`; the client sends `base64(ECDSA-P256-SHA256 signature)\n`, DER or raw. An
 * unknown key id still gets a challenge (no user enumeration); any failure closes the
 * connection without a message. Bytes after the signature line are the first ILP data.
 */
const KEY_ID_MAX = 255 + 1; // acl.entity.name.max.length plus the newline
const SIGNATURE_LINE_MAX = 96 + 2; // base64 of a 72-byte DER signature, with \r\n
export const CHALLENGE_BYTES = 512;

export interface HandshakeResult {
  keyId: string;
  /** Data the client sent after the signature line. */
  rest: Uint8Array;
}

/** A fresh challenge: 512 random printable ASCII characters. */
export function challenge(): Uint8Array {
  const random = crypto.getRandomValues(new Uint8Array(CHALLENGE_BYTES));
  return random.map((b) => 0x20 + (b % 95));
}

/**
 * Runs the handshake; `verify(keyId, challenge, signature)` decides. Undefined means the
 * connection must be closed. `timeoutMs` bounds the whole exchange.
 */
export async function ilpHandshake(
  conn: Deno.Conn,
  verify: (keyId: string, challenge: Uint8Array, signature: Uint8Array) => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<HandshakeResult | undefined> {
  const lines = new LineReader(conn);
  const timer = setTimeout(() => lines.abort(), timeoutMs);
  try {
    const kid = await lines.line(KEY_ID_MAX);
    if (kid === undefined) return undefined;
    const keyId = new TextDecoder().decode(kid).replace(/\r$/, "");
    if (keyId === "") return undefined;
    const c = challenge();
    const reply = new Uint8Array(CHALLENGE_BYTES + 1);
    reply.set(c);
    reply[CHALLENGE_BYTES] = 0x0a;
    await writeAll(conn, reply);
    const sigLine = await lines.line(SIGNATURE_LINE_MAX);
    if (sigLine === undefined) return undefined;
    const text = new TextDecoder().decode(sigLine).replace(/\r$/, "");
    if (text.length === 0 || text.length > 96) return undefined;
    let signature: Uint8Array;
    try {
      signature = Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
    } catch {
      return undefined;
    }
    if (!(await verify(keyId, c, signature))) return undefined;
    return { keyId, rest: lines.rest() };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/** Reads `\n`-terminated lines from a connection, keeping what follows the last one read. */
class LineReader {
  #buf = new Uint8Array(0);
  #aborted = false;
  constructor(readonly conn: Deno.Conn) {}

  abort(): void {
    this.#aborted = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  /** The next line without its `\n`; undefined at end of stream or when longer than `max`. */
  async line(max: number): Promise<Uint8Array | undefined> {
    for (;;) {
      const nl = this.#buf.indexOf(0x0a);
      if (nl >= 0) {
        if (nl + 1 > max) return undefined;
        const out = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        return out;
      }
      if (this.#buf.length >= max || this.#aborted) return undefined;
      const chunk = new Uint8Array(4096);
      const n = await this.conn.read(chunk);
      if (n === null) return undefined;
      const next = new Uint8Array(this.#buf.length + n);
      next.set(this.#buf);
      next.set(chunk.subarray(0, n), this.#buf.length);
      this.#buf = next;
    }
  }

  rest(): Uint8Array {
    return this.#buf;
  }
}
