/**
 * The messages a client sends (PostgreSQL protocol v3, spec/protocols.md §12.1, §12.3), parsed
 * from their bodies into plain objects. The start packet has no type byte and is parsed by
 * `parseStartPacket`; every later message by `parseMessage`.
 */
import { BufferReader, ProtocolError } from "./buffer_reader.ts";

export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;
export const PROTOCOL_V3 = 196608;

export type StartPacket =
  | { kind: "ssl" }
  | { kind: "gssenc" }
  | { kind: "cancel"; processId: number; secretKey: number }
  | { kind: "startup"; params: Map<string, string> }
  | { kind: "unknown"; code: number };

export type FrontendMessage =
  | { kind: "parse"; name: string; sql: string; paramOids: number[] }
  | {
    kind: "bind";
    portal: string;
    statement: string;
    paramFormats: number[];
    /** null for SQL NULL. */
    values: (Uint8Array | null)[];
    resultFormats: number[];
  }
  | { kind: "describe"; target: "S" | "P"; name: string }
  | { kind: "execute"; portal: string; maxRows: number }
  | { kind: "close"; target: "S" | "P"; name: string }
  | { kind: "sync" }
  | { kind: "flush" }
  | { kind: "query"; sql: string }
  | { kind: "password"; password: string }
  | { kind: "terminate" }
  // COPY FROM STDIN sub-protocol (copy_in.ts); ignored outside copy mode, as Postgres does.
  | { kind: "copyData"; data: Uint8Array }
  | { kind: "copyDone" }
  | { kind: "copyFail"; message: string }
  | { kind: "unknown"; code: number };

/** Parses the first packet's body (after its int32 length). */
export function parseStartPacket(body: Uint8Array): StartPacket {
  const r = new BufferReader(body);
  const code = r.int32();
  switch (code) {
    case SSL_REQUEST_CODE:
      return { kind: "ssl" };
    case GSSENC_REQUEST_CODE:
      return { kind: "gssenc" };
    case CANCEL_REQUEST_CODE:
      return { kind: "cancel", processId: r.int32(), secretKey: r.int32() };
    case PROTOCOL_V3: {
      const params = new Map<string, string>();
      while (r.remaining > 0) {
        const key = r.cstring();
        if (key === "") break;
        params.set(key, r.cstring());
      }
      return { kind: "startup", params };
    }
    default:
      return { kind: "unknown", code };
  }
}

function target(r: BufferReader): "S" | "P" {
  const t = String.fromCharCode(r.byte());
  if (t !== "S" && t !== "P") throw new ProtocolError(`invalid describe/close target [target=${t}]`);
  return t;
}

function int16Array(r: BufferReader): number[] {
  const n = r.int16();
  if (n < 0) throw new ProtocolError(`negative count [count=${n}]`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(r.int16());
  return out;
}

function parseBind(r: BufferReader): FrontendMessage {
  const portal = r.cstring();
  const statement = r.cstring();
  const paramFormats = int16Array(r);
  const count = r.int16();
  if (count < 0) throw new ProtocolError(`negative parameter count [count=${count}]`);
  const values: (Uint8Array | null)[] = [];
  for (let i = 0; i < count; i++) {
    const len = r.int32();
    if (len < -1) throw new ProtocolError(`invalid parameter length [length=${len}, index=${i + 1}]`);
    if (len > r.remaining) {
      throw new ProtocolError(
        `bind variable value is beyond the message limit [variableIndex=${i}, length=${len}]`,
      );
    }
    values.push(len === -1 ? null : r.bytes(len));
  }
  const resultFormats = r.remaining > 0 ? int16Array(r) : [];
  return { kind: "bind", portal, statement, paramFormats, values, resultFormats };
}

/** Parses one message after startup; `code` is its type byte. */
export function parseMessage(code: number, body: Uint8Array): FrontendMessage {
  const r = new BufferReader(body);
  switch (String.fromCharCode(code)) {
    case "P": {
      const name = r.cstring();
      const sql = r.cstring();
      const n = r.int16();
      if (n < 0) throw new ProtocolError(`negative parameter count [count=${n}]`);
      const paramOids: number[] = [];
      for (let i = 0; i < n; i++) paramOids.push(r.int32() >>> 0);
      return { kind: "parse", name, sql, paramOids };
    }
    case "B":
      return parseBind(r);
    case "D":
      return { kind: "describe", target: target(r), name: r.cstring() };
    case "E":
      return { kind: "execute", portal: r.cstring(), maxRows: r.int32() };
    case "C":
      return { kind: "close", target: target(r), name: r.cstring() };
    case "S":
      return { kind: "sync" };
    case "H":
      return { kind: "flush" };
    case "Q":
      return { kind: "query", sql: r.cstring() };
    case "p":
      return { kind: "password", password: r.cstring() };
    case "X":
      return { kind: "terminate" };
    case "d":
      return { kind: "copyData", data: r.bytes(r.remaining).slice() }; // the stream reuses its buffer
    case "c":
      return { kind: "copyDone" };
    case "f":
      return { kind: "copyFail", message: r.cstring() };
    default:
      return { kind: "unknown", code };
  }
}
