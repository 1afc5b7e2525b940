/**
 * The pgwire message builder's text (server/pg/buffer_writer.ts): short strings are copied as
 * ASCII byte by byte and handed to TextEncoder at the first non-ASCII unit, so every string
 * must come out as its UTF-8 bytes whatever mix it holds.
 */
import assert from "node:assert/strict";
import { BufferWriter } from "../../../server/pg/buffer_writer.ts";

const CASES = [
  "",
  "0",
  "2024-01-01 00:00:00.000001",
  "-1.2345678901234567E-300",
  "é",
  "abcé",
  "caf\u00e9 au lait",
  "日本語のテキスト",
  "x😀y",
  "\u007f\u0080",
  "a".repeat(64),
  "a".repeat(63) + "é",
  "é" + "a".repeat(100),
  "b".repeat(200),
];

Deno.test("BufferWriter.string writes UTF-8 of ASCII, non-ASCII and long strings", () => {
  const w = new BufferWriter();
  for (const s of CASES) w.lengthPrefixedString(s).cstring(s);
  const out = w.take();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const decoder = new TextDecoder();
  let at = 0;
  for (const s of CASES) {
    const want = new TextEncoder().encode(s);
    const n = view.getInt32(at);
    assert.equal(n, want.length, `length of ${JSON.stringify(s)}`);
    assert.deepEqual(out.subarray(at + 4, at + 4 + n), want, JSON.stringify(s));
    at += 4 + n;
    assert.equal(decoder.decode(out.subarray(at, at + want.length)), s);
    assert.equal(out[at + want.length], 0, "cstring terminator");
    at += want.length + 1;
  }
  assert.equal(at, out.length);
});
