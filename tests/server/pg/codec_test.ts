/** The pg codec: BufferReader/BufferWriter, frontend message parsing, backend message framing. */
import assert from "node:assert/strict";
import { BufferReader, ProtocolError } from "../../../server/pg/buffer_reader.ts";
import { BufferWriter } from "../../../server/pg/buffer_writer.ts";
import * as M from "../../../server/pg/backend_messages.ts";
import { parseMessage, parseStartPacket } from "../../../server/pg/frontend_messages.ts";
import { MessageStream } from "../../../server/pg/message_stream.ts";
import { formatDateText, formatTimestampText } from "../../../server/pg/pg_time.ts";

const enc = new TextEncoder();

function body(build: (w: BufferWriter) => void): Uint8Array {
  const w = new BufferWriter();
  build(w);
  return w.take();
}

Deno.test("buffer writer patches the message length and reader reads fields back", () => {
  const w = new BufferWriter();
  w.begin("C").cstring("SELECT 1").end();
  const bytes = w.take();
  assert.equal(bytes[0], "C".charCodeAt(0));
  assert.equal(new DataView(bytes.buffer).getInt32(1), bytes.length - 1);
  const r = new BufferReader(bytes.subarray(5));
  assert.equal(r.cstring(), "SELECT 1");
  assert.equal(r.remaining, 0);
});

Deno.test("buffer writer grows past its initial size and writes multi-byte UTF-8", () => {
  const w = new BufferWriter();
  const s = "é".repeat(100_000);
  w.begin("D").lengthPrefixedString(s).end();
  const bytes = w.take();
  const r = new BufferReader(bytes.subarray(5));
  assert.equal(r.int32(), 200_000);
  assert.equal(new TextDecoder().decode(r.bytes(200_000)), s);
});

Deno.test("buffer reader refuses to read past the message", () => {
  const r = new BufferReader(new Uint8Array([0, 1]));
  assert.throws(() => r.int32(), ProtocolError);
  assert.throws(() => new BufferReader(new Uint8Array([65, 66])).cstring(), ProtocolError);
});

Deno.test("start packets: SSL request, cancel request and startup parameters", () => {
  assert.deepEqual(parseStartPacket(body((w) => w.int32(80877103))), { kind: "ssl" });
  assert.deepEqual(parseStartPacket(body((w) => w.int32(80877104))), { kind: "gssenc" });
  assert.deepEqual(parseStartPacket(body((w) => w.int32(80877102).int32(7).int32(-5))), {
    kind: "cancel",
    processId: 7,
    secretKey: -5,
  });
  const startup = parseStartPacket(
    body((w) => w.int32(196608).cstring("user").cstring("admin").cstring("database").cstring("qdb").byte(0)),
  );
  assert.equal(startup.kind, "startup");
  if (startup.kind === "startup") {
    assert.deepEqual([...startup.params], [["user", "admin"], ["database", "qdb"]]);
  }
  assert.deepEqual(parseStartPacket(body((w) => w.int32(1234))), { kind: "unknown", code: 1234 });
});

Deno.test("Bind carries formats, NULL and binary values, result formats", () => {
  const b = body((w) =>
    w.cstring("p1").cstring("s1").int16(1).int16(1).int16(2).int32(-1).int32(4).int32(42).int16(1).int16(1)
  );
  const msg = parseMessage("B".charCodeAt(0), b);
  assert.equal(msg.kind, "bind");
  if (msg.kind !== "bind") return;
  assert.equal(msg.portal, "p1");
  assert.equal(msg.statement, "s1");
  assert.deepEqual(msg.paramFormats, [1]);
  assert.equal(msg.values[0], null);
  assert.deepEqual([...msg.values[1]!], [0, 0, 0, 42]);
  assert.deepEqual(msg.resultFormats, [1]);
});

Deno.test("Bind with a value length beyond the message is a protocol error", () => {
  const b = body((w) => w.cstring("").cstring("").int16(0).int16(1).int32(1000).byte(1));
  assert.throws(() => parseMessage("B".charCodeAt(0), b), /beyond the message limit/);
});

Deno.test("Parse, Describe, Execute, Close and unknown messages", () => {
  const p = parseMessage(80, body((w) => w.cstring("s").cstring("select $1").int16(1).int32(23)));
  assert.deepEqual(p, { kind: "parse", name: "s", sql: "select $1", paramOids: [23] });
  assert.deepEqual(parseMessage(68, body((w) => w.byte(83).cstring("s"))), {
    kind: "describe",
    target: "S",
    name: "s",
  });
  assert.deepEqual(parseMessage(69, body((w) => w.cstring("").int32(10))), {
    kind: "execute",
    portal: "",
    maxRows: 10,
  });
  assert.deepEqual(parseMessage(67, body((w) => w.byte(80).cstring("p"))), {
    kind: "close",
    target: "P",
    name: "p",
  });
  assert.throws(() => parseMessage(68, body((w) => w.byte(88).cstring("s"))), ProtocolError);
  assert.deepEqual(parseMessage(70, new Uint8Array()), { kind: "unknown", code: 70 });
});

Deno.test("message stream frames pipelined messages and rejects bad lengths", async () => {
  const chunks = [enc.encode("Q\0\0\0\x0dselect 1\0S"), new Uint8Array([0, 0, 0, 4])];
  const source = {
    read: (p: Uint8Array) =>
      Promise.resolve(chunks.length ? (p.set(chunks[0]), chunks.shift()!.length) : null),
  };
  const stream = new MessageStream(source, 1024);
  const q = await stream.readMessage();
  assert.equal(String.fromCharCode(q!.code), "Q");
  assert.equal(new TextDecoder().decode(q!.body), "select 1\0");
  const s = await stream.readMessage();
  assert.equal(String.fromCharCode(s!.code), "S");
  assert.equal(await stream.readMessage(), null);
  const huge = new MessageStream({ read: (p) => (p.set([81, 0x7f, 0, 0, 0]), Promise.resolve(5)) }, 1024);
  await assert.rejects(huge.readMessage(), /message too large/);
  const tiny = new MessageStream({ read: (p) => (p.set([81, 0, 0, 0, 2]), Promise.resolve(5)) }, 1024);
  await assert.rejects(tiny.readMessage(), /invalid message length/);
});

Deno.test("ErrorResponse carries severity, SQLSTATE, message and position fields", () => {
  const w = new BufferWriter();
  M.errorResponse(w, {
    severity: "ERROR",
    code: "42P01",
    message: "table does not exist [table=x]",
    position: 15,
  });
  const text = new TextDecoder().decode(w.take().subarray(5));
  assert.equal(text, "SERROR\0VERROR\0C42P01\0Mtable does not exist [table=x]\0P15\0\0");
});

Deno.test("timestamp wire text of random times matches the calendar; texts of any length encode as UTF-8", () => {
  let seed = 3;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let ms = -2208988800000;
  for (let i = 0; i < 3000; i++) {
    ms += next() < 0.8 ? Math.floor(next() * 3_600_000) : Math.floor((next() - 0.4) * 1e12);
    const iso = new Date(ms).toISOString();
    const micro = Math.floor(next() * 1000);
    const wire = iso.slice(0, 10) + " " + iso.slice(11, 23);
    assert.equal(
      formatTimestampText(BigInt(ms) * 1000n + BigInt(micro)),
      wire + String(micro).padStart(3, "0"),
    );
    assert.equal(formatDateText(BigInt(ms)), wire);
  }
  const w = new BufferWriter();
  const texts = ["", "ascii", "ünïcödé", "x".repeat(63) + "é", "y".repeat(200), "emoji 😀", "z".repeat(64)];
  for (const t of texts) w.lengthPrefixedString(t);
  const bytes = w.take();
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const t of texts) {
    const len = view.getInt32(at);
    assert.equal(new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + len)), t);
    at += 4 + len;
  }
  assert.equal(at, bytes.length);
});
