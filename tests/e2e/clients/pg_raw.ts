/**
 * A minimal hand-rolled pgwire client for tests that must send what no driver would:
 * truncated, oversized and random messages. Also builds the well-formed ones.
 */

const enc = new TextEncoder();

/** A typed frontend message: type byte, int32 length, body. */
export function message(type: string, body: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

export function cstr(s: string): Uint8Array {
  return enc.encode(s + "\0");
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function startupPacket(user = "admin"): Uint8Array {
  const body = concat(cstr("user"), cstr(user), cstr("database"), cstr("qdb"), new Uint8Array([0]));
  const out = new Uint8Array(8 + body.length);
  const v = new DataView(out.buffer);
  v.setInt32(0, out.length);
  v.setInt32(4, 196608);
  out.set(body, 8);
  return out;
}

export const password = (p = "quest") => message("p", cstr(p));
export const query = (sql: string) => message("Q", cstr(sql));

/** Reads whatever arrives within `ms` (or until the peer closes); null when closed with nothing. */
export async function readSome(conn: Deno.Conn, ms: number): Promise<Uint8Array | null> {
  const buf = new Uint8Array(64 * 1024);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), ms));
  try {
    const got = await Promise.race([conn.read(buf), timeout]);
    if (got === "timeout") return new Uint8Array();
    return got === null ? null : buf.slice(0, got);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads until a ReadyForQuery arrives or `ms` pass; returns the message types seen. */
export async function readUntilReady(conn: Deno.Conn, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  let bytes: Uint8Array = new Uint8Array();
  while (Date.now() < deadline) {
    const chunk = await readSome(conn, deadline - Date.now());
    if (chunk === null) break;
    bytes = concat(bytes, chunk);
    const types = messageTypes(bytes);
    if (types.endsWith("Z")) return types;
  }
  return messageTypes(bytes);
}

/** The type letters of the backend messages in `bytes` (incomplete tail ignored). */
export function messageTypes(bytes: Uint8Array): string {
  let at = 0, out = "";
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at + 5 <= bytes.length) {
    const len = v.getInt32(at + 1);
    if (at + 1 + len > bytes.length) break;
    out += String.fromCharCode(bytes[at]);
    at += 1 + len;
  }
  return out;
}

/** Connects, authenticates and returns the connection ready for queries. */
export async function login(port: number): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(startupPacket());
  await readSome(conn, 2000);
  await conn.write(password());
  const types = await readUntilReady(conn, 5000);
  if (!types.endsWith("Z")) throw new Error(`login failed: ${types}`);
  return conn;
}

/** True when a fresh connection can log in and run SELECT 1. */
export async function serverAnswers(port: number): Promise<boolean> {
  let conn: Deno.Conn | undefined;
  try {
    conn = await login(port);
    await conn.write(query("select 1"));
    return (await readUntilReady(conn, 5000)).includes("D");
  } catch {
    return false;
  } finally {
    try {
      conn?.close();
    } catch { /* closed */ }
  }
}
