/**
 * In-process fuzzing of the pgwire decoders (issue 9): start packets, every frontend message
 * type and bind parameter values in text and binary form for every type OID we accept,
 * mutated from valid encodings. A decoder answers a value or throws a ProtocolError / SqlError
 * with a message; nothing else. (tests/e2e/pg_fuzz_test.ts drives the same over real sockets.)
 */
import assert from "node:assert/strict";
import { SqlError } from "../../engine/mod.ts";
import { ProtocolError } from "../../server/pg/buffer_reader.ts";
import { decodeBinaryParam, decodeTextParam } from "../../server/pg/decode_param.ts";
import { parseMessage, parseStartPacket } from "../../server/pg/frontend_messages.ts";
import { OID } from "../../server/pg/pg_types.ts";
import { fuzzInputs, fuzzSeed, mutateBytes, rng } from "./prng.ts";

const te = new TextEncoder();
const cstr = (s: string) => [...te.encode(s), 0];
const i16 = (n: number) => [(n >> 8) & 255, n & 255];
const i32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** Valid bodies per message code (the type byte and length are the stream's business). */
const VALID: [string, number[]][] = [
  ["Q", cstr("select 1")],
  ["P", [...cstr("s1"), ...cstr("select $1::int"), ...i16(1), ...i32(23)]],
  ["B", [
    ...cstr(""),
    ...cstr("s1"),
    ...i16(1),
    ...i16(1),
    ...i16(2),
    ...i32(4),
    ...i32(7),
    ...i32(-1),
    ...i16(1),
    ...i16(0),
  ]],
  ["D", [0x53, ...cstr("s1")]],
  ["E", [...cstr(""), ...i32(10)]],
  ["C", [0x50, ...cstr("p")]],
  ["p", cstr("quest")],
  ["S", []],
  ["H", []],
  ["X", []],
];
const STARTS: number[][] = [
  [...i32(196608), ...cstr("user"), ...cstr("admin"), ...cstr("database"), ...cstr("qdb"), 0],
  [...i32(80877103)],
  [...i32(80877102), ...i32(1234), ...i32(5678)],
];

const ALPHABET = new Uint8Array([
  0,
  1,
  0xff,
  0x7f,
  0x80,
  0x30,
  0x39,
  0x2d,
  0x2e,
  0x3a,
  0x20,
  0x65,
  0x54,
  0x5a,
]);

function allowed(e: unknown): boolean {
  return (e instanceof ProtocolError || e instanceof SqlError) && (e as Error).message.length > 0;
}

Deno.test("fuzz: pgwire start packets and messages decode or fail with a protocol error", () => {
  const r = rng(fuzzSeed() + 40);
  const n = fuzzInputs(10_000);
  let decoded = 0;
  for (let i = 0; i < n; i++) {
    const start = i % 5 === 0;
    const [code, body] = start ? ["", r.pick(STARTS)] : r.pick(VALID);
    const bytes = mutateBytes(r, new Uint8Array(body), ALPHABET);
    const actualCode = !start && r.chance(0.05) ? r.int(256) : code.charCodeAt(0);
    try {
      if (start) parseStartPacket(bytes);
      else parseMessage(actualCode, bytes);
      decoded++;
    } catch (e) {
      assert.ok(
        allowed(e),
        `input #${i} code ${actualCode} ${JSON.stringify([...bytes])}: ${(e as Error)?.stack}`,
      );
    }
  }
  console.log(`pg messages: ${n} inputs, ${decoded} decoded`);
  assert.ok(decoded > 0 && decoded < n, "both decodes and refusals were seen");
});

const PARAM_SEEDS: [number, string, number[]][] = [
  [OID.BOOL, "true", [1]],
  [OID.INT2, "-123", i16(-123)],
  [OID.INT4, "2147483647", i32(2147483647)],
  [OID.INT8, "-9223372036854775808", [128, 0, 0, 0, 0, 0, 0, 0]],
  [OID.FLOAT4, "1.5", [0x3f, 0xc0, 0, 0]],
  [OID.FLOAT8, "NaN", [0x7f, 0xf8, 0, 0, 0, 0, 0, 0]],
  [OID.NUMERIC, "12.345", [0, 2, 0, 0, 0, 0, 0, 3, 0, 12, 13, 122]],
  [OID.TIMESTAMP, "2024-01-01 12:00:00.123456", [0, 2, 0xb8, 0x8a, 0x7a, 0x9b, 0x3c, 0x40]],
  [OID.TIMESTAMPTZ, "2024-01-01T12:00:00+01:00", [0, 2, 0xb8, 0x8a, 0x7a, 0x9b, 0x3c, 0x40]],
  [OID.DATE, "2024-02-29", i32(8825)],
  [OID.UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", Array.from({ length: 16 }, (_, k) => k * 13)],
  [OID.BYTEA, "\\x00ff", [0, 255]],
  [OID.VARCHAR, "héllo", [...te.encode("héllo")]],
  [OID.BPCHAR, "x", [120]],
  [0, "42", [52, 50]],
];

Deno.test("fuzz: bind parameter values decode or fail with a clear error for every type", () => {
  const r = rng(fuzzSeed() + 50);
  const n = fuzzInputs(10_000);
  let decoded = 0;
  for (let i = 0; i < n; i++) {
    const [oid, text, binary] = r.pick(PARAM_SEEDS);
    const useOid = r.chance(0.05) ? r.int(5000) : oid;
    try {
      if (i % 2 === 0) {
        const mutated = new TextDecoder().decode(mutateBytes(r, te.encode(text), ALPHABET));
        decodeTextParam(mutated, useOid, r.int(3));
      } else {
        decodeBinaryParam(mutateBytes(r, new Uint8Array(binary), ALPHABET), useOid, r.int(3));
      }
      decoded++;
    } catch (e) {
      assert.ok(allowed(e), `input #${i} oid ${useOid}: ${(e as Error)?.stack}`);
    }
  }
  console.log(`pg params: ${n} inputs, ${decoded} decoded`);
  assert.ok(decoded > 0 && decoded < n, "both decodes and refusals were seen");
});
