/** The ILP parser (spec/protocols.md §10): escapes, typing by suffix, timestamps, binary values, errors. */
import assert from "node:assert/strict";
import { ValueKinds as K } from "../../../engine/mod.ts";
import { LineParser } from "../../../server/line_protocol/line_parser.ts";
import type { DoubleArray } from "../../../engine/base/double_array.ts";

const enc = new TextEncoder();

function parse(text: string | Uint8Array, final = true, options = {}) {
  const p = new LineParser(options);
  const bytes = typeof text === "string" ? enc.encode(text) : text;
  const r = p.parse(bytes, 0, bytes.length, final);
  return { r, blocks: p.take(), parser: p };
}

Deno.test("line parser reads escapes in table, tag and column names and string values", () => {
  const { r, blocks } = parse('my\\ table,ta\\,g=a\\ b\\=c fi\\ eld="say \\"hi\\"\\\\" 1000\n');
  assert.equal(r.error, undefined);
  assert.equal(blocks[0].table, "my table");
  const [tag, field] = blocks[0].columns;
  assert.equal(tag.name, "ta,g");
  assert.equal(tag.refs[0], "a b=c");
  assert.equal(field.name, "fi eld");
  assert.equal(field.refs[0], 'say "hi"\\');
});

Deno.test("line parser types field values by their suffix", () => {
  const { blocks } = parse(
    "t a=1i,b=-2.5e3,c=T,d=false,e=1700000000000000t,f=1700000000000000123n,g=1700000000000m,h=0x1fi,i=NaN,j=\n",
  );
  const kinds = blocks[0].columns.map((c) => c.kinds[0]);
  assert.deepEqual(kinds, [
    K.LONG,
    K.DOUBLE,
    K.BOOLEAN,
    K.BOOLEAN,
    K.TIMESTAMP,
    K.TIMESTAMP,
    K.TIMESTAMP,
    K.LONG256,
    K.DOUBLE,
    K.NULL,
  ]);
  const nums = blocks[0].columns.map((c) => c.nums[0]);
  assert.deepEqual(nums.slice(0, 7), [1, -2500, 1, 0, 1700000000000000, 1700000000000000, 1700000000000000]);
  assert.equal(blocks[0].columns[7].refs[0], 31n);
  assert.ok(Number.isNaN(nums[8]));
});

Deno.test("line parser keeps big integers exact and refuses ones beyond 64 bits", () => {
  const { blocks } = parse("t a=9223372036854775807i\n");
  assert.equal(blocks[0].columns[0].refs[0], 9223372036854775807n);
  assert.match(parse("t a=9223372036854775808i\n").r.error!.message, /field value is invalid/);
});

Deno.test("line parser reports bad lines with their numbers and stops there", () => {
  const { r, blocks } = parse('t a=1i\n\nt a=2i\nt a="open\nt a=3i\n');
  assert.deepEqual(r.error, {
    line: 4,
    message: "Could not parse entire line, field value is invalid. Field: a; value: missing closing quote",
  });
  assert.equal(blocks[0].rowCount, 2);
  assert.equal(parse("t\n").r.error!.message, "No fields were provided");
  assert.equal(
    parse("t,s= a=1\n").r.error!.message,
    "Could not parse entire line. Symbol value is missing: s",
  );
  assert.equal(parse("t a=1 abc\n").r.error!.message, "Could not parse timestamp: abc");
  assert.equal(parse("t a\n").r.error!.message, "Could not parse entire line. Field value is missing: a");
});

Deno.test("line parser waits for the rest of an incomplete line unless final", () => {
  const bytes = enc.encode("t a=1i 1000\nt a=2");
  const p = new LineParser();
  const r = p.parse(bytes, 0, bytes.length, false);
  assert.equal(r.next, 12);
  assert.equal(p.rowCount, 1);
  const whole = enc.encode("t a=2i 2000\n");
  assert.equal(p.parse(whole, 0, whole.length, false).next, whole.length);
  assert.equal(p.rowCount, 2);
});

Deno.test("line parser keeps the first value of a duplicate column", () => {
  const { blocks } = parse("t a=1i,A=2i,a=3i\n");
  assert.equal(blocks[0].columns.length, 1);
  assert.equal(blocks[0].columns[0].nums[0], 1);
});

Deno.test("line parser reads designated timestamps in the configured precision", () => {
  for (const [precision, ts] of [["n", "1000"], ["u", "1"], ["ms", "0.001"], ["s", "1"]] as const) {
    const { blocks, r } = parse(`t a=1 ${ts}\n`, true, { precision });
    if (precision === "ms") assert.ok(r.error);
    else assert.equal(blocks[0].timestamps[0], precision === "s" ? 1e6 : 1);
  }
});

Deno.test("line parser reads v2 binary doubles, longs and a NULL array", () => {
  const head = enc.encode("t d==");
  const dbl = new Uint8Array(9);
  dbl[0] = 16;
  new DataView(dbl.buffer).setFloat64(1, -0.125, true);
  const lng = new Uint8Array(9);
  lng[0] = 15;
  new DataView(lng.buffer).setBigInt64(1, 1n << 60n, true);
  const bytes = new Uint8Array([
    ...head,
    ...dbl,
    ...enc.encode(",l=="),
    ...lng,
    ...enc.encode(",arr=="),
    14,
    33,
    10,
  ]);
  const { r, blocks } = parse(bytes);
  assert.equal(r.error, undefined);
  assert.equal(blocks[0].columns[0].nums[0], -0.125);
  assert.equal(blocks[0].columns[1].refs[0], 1n << 60n);
  assert.equal(blocks[0].columns[2].kinds[0], K.NULL);
});

Deno.test("line parser refuses invalid UTF-8 and a slash in a name", () => {
  assert.ok(
    parse(new Uint8Array([0x74, 0x2c, 0x73, 0x3d, 0xc3, 0x28, 0x20, 0x61, 0x3d, 0x31, 0x0a])).r.error,
  );
  assert.ok(parse("a/b v=1\n").r.error);
});

/** `t name==` + a binary array of `shape` holding `values` (spec/protocols.md §10.4). */
function arrayLine(name: string, shape: number[], values: number[], elem = 10): Uint8Array {
  const body = new Uint8Array(3 + 4 * shape.length + 8 * values.length);
  const view = new DataView(body.buffer);
  body[0] = 14, body[1] = elem, body[2] = shape.length;
  shape.forEach((n, d) => view.setUint32(3 + 4 * d, n, true));
  values.forEach((v, k) => view.setFloat64(3 + 4 * shape.length + 8 * k, v, true));
  return new Uint8Array([...enc.encode(`t ${name}==`), ...body, 0x0a]);
}

Deno.test("line parser reads v2 binary arrays: shape, row-major values, NaN/Infinity as NULL", () => {
  const { r, blocks } = parse(arrayLine("m", [2, 3], [1, 2, 3, 4, Infinity, -0.5]));
  assert.equal(r.error, undefined);
  const col = blocks[0].columns[0];
  assert.equal(col.kinds[0], K.ARRAY);
  const a = col.refs[0] as DoubleArray;
  assert.deepEqual(a.shape, [2, 3]);
  assert.deepEqual([...a.data], [1, 2, 3, 4, NaN, -0.5]);
  assert.deepEqual(
    (parse(arrayLine("e", [0], [])).blocks[0].columns[0].refs[0] as DoubleArray).shape,
    [0],
  );
  assert.match(parse(arrayLine("x", [1], [1], 5)).r.error!.message, /unsupported array element type 5/);
  assert.match(parse(arrayLine("x", [], [])).r.error!.message, /invalid array dimension count 0/);
  // Fewer elements than the shape says: a truncated value.
  const short = arrayLine("x", [3], [1, 2]);
  assert.match(parse(short.slice(0, short.length - 1)).r.error!.message, /truncated binary value/);
});

Deno.test("line parser reads v3 DECIMAL: binary two's complement and text with the d suffix", () => {
  const dec = (scale: number, bytes: number[]) =>
    new Uint8Array([...enc.encode("t p=="), 23, scale, bytes.length, ...bytes, 0x0a]);
  const cell = (b: Uint8Array) => {
    const { r, blocks } = parse(b);
    assert.equal(r.error, undefined);
    return [blocks[0].columns[0].kinds[0], blocks[0].columns[0].refs[0]];
  };
  assert.deepEqual(cell(dec(3, [0x01, 0xe2, 0x40])), [K.DECIMAL, "123.456"]);
  assert.deepEqual(cell(dec(2, [0xff, 0x85])), [K.DECIMAL, "-1.23"]);
  assert.deepEqual(cell(dec(4, [0x05])), [K.DECIMAL, "0.0005"]);
  assert.equal(cell(dec(0, []))[0], K.NULL);
  assert.deepEqual(cell(enc.encode("t p=-12.50d\n")), [K.DECIMAL, "-12.50"]);
  assert.match(parse("t p=1.2.3d\n").r.error!.message, /field value is invalid/);
});
