/**
 * A pgwire client on a raw socket that runs one simple query and reads its result as fast as
 * the socket delivers it, counting DataRow messages and keeping none: node-pg buffers a whole
 * result in memory, so it cannot stand for a fast reader of a huge result (issue #17).
 */

export interface RawStream {
  /** DataRow messages read so far. */
  rows(): number;
  /** Settles when the result ends, the server closes, or the stream is stopped. */
  done: Promise<void>;
  /** Closes the socket (the server sees the client gone and stops the statement). */
  stop(): void;
}

const encoder = new TextEncoder();

function message(code: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = code.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

function startPacket(user: string, database: string): Uint8Array {
  const body = encoder.encode(`user\0${user}\0database\0${database}\0\0`);
  const out = new Uint8Array(8 + body.length);
  const view = new DataView(out.buffer);
  view.setInt32(0, out.length);
  view.setInt32(4, 196608); // protocol 3.0
  out.set(body, 8);
  return out;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/**
 * Logs in with the cleartext password (the server's default), sends `sql` as a simple query
 * and reads until ReadyForQuery, counting DataRows. Resolves once the query is sent.
 */
export async function streamQuery(
  port: number,
  sql: string,
  auth = { user: "admin", password: "quest" },
): Promise<RawStream> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await writeAll(conn, startPacket(auth.user, "qdb"));
  let rows = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const buf = new Uint8Array(256 * 1024);
  let pending = new Uint8Array(0);
  const { promise: loggedIn, resolve: ready } = Promise.withResolvers<void>();
  const { promise: failed, reject: onError } = Promise.withResolvers<never>();
  failed.catch(() => {}); // reported through the race below, or irrelevant after login
  // Walks whole messages in `chunk` (with what was left of the previous read); returns true at
  // the ReadyForQuery that ends the query.
  let readyCount = 0;
  const consume = (chunk: Uint8Array): boolean => {
    let data = chunk;
    if (pending.length > 0) {
      data = new Uint8Array(pending.length + chunk.length);
      data.set(pending);
      data.set(chunk, pending.length);
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    while (at + 5 <= data.length) {
      const code = data[at];
      const length = view.getInt32(at + 1);
      if (at + 1 + length > data.length) break;
      if (code === 0x44) rows++; // 'D'
      else if (code === 0x52 && view.getInt32(at + 5) === 3) {
        // AuthenticationCleartextPassword
        writeAll(conn, message("p", encoder.encode(`${auth.password}\0`))).catch(onError);
      } else if (code === 0x45) { // 'E'
        const text = new TextDecoder().decode(data.subarray(at + 5, at + 1 + length));
        if (readyCount === 0) throw new Error(`login failed: ${text}`);
      } else if (code === 0x5a) { // 'Z'
        readyCount++;
        if (readyCount === 1) ready();
        else return true;
      }
      at += 1 + length;
    }
    pending = data.slice(at);
    return false;
  };
  const done = (async () => {
    try {
      while (!stopped) {
        const n = await conn.read(buf);
        if (n === null) return;
        if (consume(buf.subarray(0, n))) return;
      }
    } catch (e) {
      if (!stopped) onError(e);
    } finally {
      stop();
    }
  })();
  await Promise.race([loggedIn, failed]);
  await writeAll(conn, message("Q", encoder.encode(`${sql}\0`)));
  return { rows: () => rows, done, stop };
}
