/**
 * The messages the server sends (PostgreSQL protocol v3, spec/protocols.md §12.2-§12.9),
 * written into a BufferWriter. DataRow cells are written by the value encoders
 * (encode_text.ts, encode_binary.ts) directly, without an intermediate array per row.
 */
import type { BufferWriter } from "./buffer_writer.ts";
import type { PgColumnType } from "./pg_types.ts";

/** One RowDescription field. */
export interface FieldDescription {
  name: string;
  type: PgColumnType;
  /** 0 text, 1 binary. */
  format: number;
  /** 1-based column number (QuestDB sends it even with table OID 0, §12.7). */
  attributeNumber: number;
}

/** ErrorResponse / NoticeResponse fields (the single-letter codes of the protocol). */
export interface ErrorFields {
  severity: "ERROR" | "FATAL" | "WARNING" | "NOTICE";
  code: string;
  message: string;
  /** 1-based character position in the query text. */
  position?: number;
  detail?: string;
  hint?: string;
  routine?: string;
}

export function authenticationCleartextPassword(w: BufferWriter): void {
  w.begin("R").int32(3).end();
}

export function authenticationOk(w: BufferWriter): void {
  w.begin("R").int32(0).end();
}

export function parameterStatus(w: BufferWriter, name: string, value: string): void {
  w.begin("S").cstring(name).cstring(value).end();
}

export function backendKeyData(w: BufferWriter, processId: number, secretKey: number): void {
  w.begin("K").int32(processId).int32(secretKey).end();
}

/** `status`: I idle, T in a transaction block, E in a failed transaction block. */
export function readyForQuery(w: BufferWriter, status: "I" | "T" | "E"): void {
  w.begin("Z").byte(status.charCodeAt(0)).end();
}

export function rowDescription(w: BufferWriter, fields: FieldDescription[]): void {
  w.begin("T").int16(fields.length);
  for (const f of fields) {
    w.cstring(f.name).int32(0).int16(f.attributeNumber).int32(f.type.oid).int16(f.type.size).int32(
      f.type.modifier,
    )
      .int16(f.format);
  }
  w.end();
}

export function parameterDescription(w: BufferWriter, oids: number[]): void {
  w.begin("t").int16(oids.length);
  for (const oid of oids) w.int32(oid);
  w.end();
}

export function commandComplete(w: BufferWriter, tag: string): void {
  w.begin("C").cstring(tag).end();
}

export function emptyQueryResponse(w: BufferWriter): void {
  w.begin("I").end();
}

export function parseComplete(w: BufferWriter): void {
  w.begin("1").end();
}

export function bindComplete(w: BufferWriter): void {
  w.begin("2").end();
}

export function closeComplete(w: BufferWriter): void {
  w.begin("3").end();
}

export function noData(w: BufferWriter): void {
  w.begin("n").end();
}

export function portalSuspended(w: BufferWriter): void {
  w.begin("s").end();
}

/**
 * CopyInResponse (`G`) / CopyOutResponse (`H`): overall format 0 (text; CSV is text too) and a
 * format per column, all text.
 */
export function copyResponse(w: BufferWriter, direction: "in" | "out", columnCount: number): void {
  w.begin(direction === "in" ? "G" : "H").byte(0).int16(columnCount);
  for (let i = 0; i < columnCount; i++) w.int16(0);
  w.end();
}

export function copyData(w: BufferWriter, data: Uint8Array): void {
  w.begin("d").bytes(data).end();
}

export function copyDone(w: BufferWriter): void {
  w.begin("c").end();
}

function fields(w: BufferWriter, f: ErrorFields): void {
  w.byte(0x53).cstring(f.severity); // S
  w.byte(0x56).cstring(f.severity); // V: the non-localized severity (protocol 3, PG 9.6+)
  w.byte(0x43).cstring(f.code); // C
  w.byte(0x4d).cstring(f.message); // M
  if (f.detail) w.byte(0x44).cstring(f.detail); // D
  if (f.hint) w.byte(0x48).cstring(f.hint); // H
  if (f.position !== undefined) w.byte(0x50).cstring(String(f.position)); // P
  if (f.routine) w.byte(0x52).cstring(f.routine); // R
  w.byte(0);
}

export function errorResponse(w: BufferWriter, f: ErrorFields): void {
  w.begin("E");
  fields(w, f);
  w.end();
}

export function noticeResponse(w: BufferWriter, f: ErrorFields): void {
  w.begin("N");
  fields(w, f);
  w.end();
}
