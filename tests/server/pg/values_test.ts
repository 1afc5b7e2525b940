/** Wire value encodings: text and binary result cells, parameter decoding, timestamp text. */
import assert from "node:assert/strict";
import { T } from "../../../engine/mod.ts";
import { BufferWriter } from "../../../server/pg/buffer_writer.ts";
import { decodeBinaryParam, decodeTextParam } from "../../../server/pg/decode_param.ts";
import { writeBinaryCell } from "../../../server/pg/encode_binary.ts";
import { textOf, writeTextCell } from "../../../server/pg/encode_text.ts";
import { OID, pgTypeOf } from "../../../server/pg/pg_types.ts";
import { formatTimestampText, parseTimestampText, PG_EPOCH_MICROS } from "../../../server/pg/pg_time.ts";

const TS = 1704164645678901n; // 2024-01-02T03:04:05.678901Z

function cell(write: (w: BufferWriter) => void): number[] {
  const w = new BufferWriter();
  write(w);
  return [...w.take()];
}

Deno.test("timestamps are text with a space and six digits, DATE with three", () => {
  assert.equal(textOf(TS, T.TIMESTAMP), "2024-01-02 03:04:05.678901");
  assert.equal(textOf(0n, T.TIMESTAMP), "1970-01-01 00:00:00.000000");
  assert.equal(textOf(-1n, T.TIMESTAMP), "1969-12-31 23:59:59.999999");
  assert.equal(textOf(1704164645678n, T.DATE), "2024-01-02 03:04:05.678");
  assert.equal(textOf(TS * 1000n + 999n, T.TIMESTAMP_NS), "2024-01-02 03:04:05.678901");
  assert.equal(textOf(-1n, T.TIMESTAMP_NS), "1969-12-31 23:59:59.999999");
});

Deno.test("timestamp text parses ISO and PostgreSQL forms with zones", () => {
  assert.equal(parseTimestampText("2024-01-02 03:04:05.678901"), TS);
  assert.equal(parseTimestampText("2024-01-02T03:04:05.678901Z"), TS);
  assert.equal(parseTimestampText("2024-01-02 05:04:05.678901+02"), TS);
  assert.equal(parseTimestampText("2024-01-02 03:04:05.678901+00:00"), TS);
  assert.equal(parseTimestampText("2024-01-02"), 1704153600000000n);
  assert.equal(parseTimestampText("not a time"), undefined);
  assert.equal(formatTimestampText(parseTimestampText("0005-03-01 00:00:00")!), "0005-03-01 00:00:00.000000");
});

Deno.test("text cells: booleans, numbers, NULL as length -1", () => {
  assert.equal(textOf(true, T.BOOLEAN), "t");
  assert.equal(textOf(-5, T.INT), "-5");
  assert.equal(textOf(9007199254740993n, T.LONG), "9007199254740993");
  assert.deepEqual(cell((w) => writeTextCell(w, null, T.INT)), [255, 255, 255, 255]);
  assert.deepEqual(cell((w) => writeTextCell(w, "ab", T.VARCHAR)), [0, 0, 0, 2, 97, 98]);
});

Deno.test("binary cells: big-endian integers, floats, µs since 2000, 16-byte UUIDs", () => {
  assert.deepEqual(cell((w) => writeBinaryCell(w, 258, T.INT)), [0, 0, 0, 4, 0, 0, 1, 2]);
  assert.deepEqual(cell((w) => writeBinaryCell(w, 3, T.SHORT)), [0, 0, 0, 2, 0, 3]);
  assert.deepEqual(cell((w) => writeBinaryCell(w, true, T.BOOLEAN)), [0, 0, 0, 1, 1]);
  const f8 = cell((w) => writeBinaryCell(w, 1.5, T.DOUBLE));
  assert.equal(new DataView(new Uint8Array(f8).buffer).getFloat64(4), 1.5);
  const ts = cell((w) => writeBinaryCell(w, TS, T.TIMESTAMP));
  assert.equal(new DataView(new Uint8Array(ts).buffer).getBigInt64(4), TS - PG_EPOCH_MICROS);
  // TIMESTAMP_NS goes out as a timestamp floored to the microsecond, as its text form is.
  const ns = (v: bigint) =>
    new DataView(new Uint8Array(cell((w) => writeBinaryCell(w, v, T.TIMESTAMP_NS))).buffer);
  assert.equal(ns(TS * 1000n + 999n).getBigInt64(4), TS - PG_EPOCH_MICROS);
  assert.equal(ns(-1n).getBigInt64(4), -1n - PG_EPOCH_MICROS);
  assert.equal(ns(-1000n).getBigInt64(4), -1n - PG_EPOCH_MICROS);
  assert.equal(ns(0n).getInt32(0), 8);
  const uuid = cell((w) => writeBinaryCell(w, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", T.UUID));
  assert.deepEqual(uuid.slice(0, 6), [0, 0, 0, 16, 0xa0, 0xee]);
  assert.equal(uuid.length, 20);
});

Deno.test("result column OIDs follow the type mapping", () => {
  assert.equal(pgTypeOf(T.SYMBOL).oid, OID.VARCHAR);
  assert.equal(pgTypeOf(T.DATE).oid, OID.TIMESTAMP);
  assert.equal(pgTypeOf(T.LONG).oid, OID.INT8);
  assert.deepEqual(pgTypeOf(T.CHAR), { oid: OID.BPCHAR, size: -1, modifier: 5 });
  assert.equal(pgTypeOf(T.IPV4).oid, OID.VARCHAR);
});

Deno.test("text parameters are parsed by their type; bad values are errors", () => {
  assert.equal(decodeTextParam("42", OID.INT4, 0), 42);
  assert.equal(decodeTextParam("42", OID.INT8, 0), 42n);
  assert.equal(decodeTextParam("1.5", OID.FLOAT8, 0), 1.5);
  assert.equal(decodeTextParam("t", OID.BOOL, 0), true);
  assert.equal(decodeTextParam("2024-01-02 03:04:05.678901", OID.TIMESTAMP, 0), TS);
  assert.deepEqual(decodeTextParam("\\x0102", OID.BYTEA, 0), new Uint8Array([1, 2]));
  assert.equal(decodeTextParam("abc", OID.VARCHAR, 0), "abc");
  assert.throws(() => decodeTextParam("x1", OID.INT4, 0), /inconvertible value/);
});

Deno.test("binary parameters are decoded by OID and their length is checked", () => {
  const be = (n: number, bytes: number) => {
    const b = new Uint8Array(bytes);
    const v = new DataView(b.buffer);
    if (bytes === 2) v.setInt16(0, n);
    else v.setInt32(0, n);
    return b;
  };
  assert.equal(decodeBinaryParam(be(-7, 4), OID.INT4, 0), -7);
  assert.equal(decodeBinaryParam(be(5, 2), OID.INT2, 0), 5);
  const ts = new Uint8Array(8);
  new DataView(ts.buffer).setBigInt64(0, TS - PG_EPOCH_MICROS);
  assert.equal(decodeBinaryParam(ts, OID.TIMESTAMPTZ, 0), TS);
  assert.equal(decodeBinaryParam(be(0, 4), OID.DATE, 0), "2000-01-01");
  assert.throws(
    () => decodeBinaryParam(be(1, 2), OID.INT4, 3),
    /bad parameter value length \[sizeRequired=4, sizeActual=2, variableIndex=3\]/,
  );
  const numeric = new Uint8Array([0, 2, 0, 0, 0x40, 0, 0, 2, 0, 12, 0x13, 0x88]); // -12.5
  // NUMERIC keeps its digits and dscale: it binds as DECIMAL (typedParam), not as a double.
  assert.equal(decodeBinaryParam(numeric, OID.NUMERIC, 0), "-12.50");
  assert.equal(decodeBinaryParam(new TextEncoder().encode("hé"), OID.TEXT, 0), "hé");
});
