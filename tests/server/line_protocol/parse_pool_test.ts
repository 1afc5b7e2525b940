/** Parsing ILP bodies on worker threads (server/line_protocol/parse_pool.ts) gives exactly what parsing in place does. */
import assert from "node:assert/strict";
import type { IngestBlock } from "../../../engine/mod.ts";
import { DoubleArray } from "../../../engine/base/double_array.ts";
import { blocksFromWire, blocksToWire } from "../../../server/line_protocol/block_wire.ts";
import { parseBody } from "../../../server/line_protocol/parse_body.ts";
import { ParsePool } from "../../../server/line_protocol/parse_pool.ts";

const enc = new TextEncoder();

const BODY = [
  'trades,symbol=BTC,side=buy price=42000.5,qty=3i,note="fïrst \\"q\\"",ok=t 1700000000000000000',
  "trades,symbol=ETH price=2500,qty=-7i,big=9223372036854775807i,h=0x1fi,n= 1700000001000000000",
  "",
  "other,tag=x v=1e5,at=1700000000000000t,v=2",
  "trades,side=sell,symbol=BTC price=1.5,qty=1i",
].join("\n");

/** Everything a block holds, in comparable form. */
function dump(blocks: IngestBlock[]) {
  return blocks.map((b) => ({
    table: b.table,
    rows: b.rowCount,
    lines: [...b.lines.subarray(0, b.rowCount)],
    timestamps: [...b.timestamps.subarray(0, b.rowCount)].map(String),
    columns: b.columns.map((c) => ({
      name: c.name,
      count: c.count,
      firstLine: c.firstLine,
      kinds: [...c.kinds.subarray(0, b.rowCount)],
      nums: [...c.nums.subarray(0, b.rowCount)].map(String),
      refs: Array.from({ length: b.rowCount }, (_, i) => c.refs[i] ?? null),
    })),
  }));
}

Deno.test("blocks survive the trip through transferable messages", () => {
  const parsed = parseBody([enc.encode(BODY)], "n");
  const expected = dump(parsed.blocks);
  const { wire } = blocksToWire(parsed.blocks);
  const back = blocksFromWire(structuredClone(wire));
  assert.deepEqual(dump(back), expected);
  // Restored blocks still take rows (a column lookup by name, a new column).
  const b = back[0];
  const row = b.beginRow(9);
  assert.ok(b.cell("PRICE", row, 9));
  assert.ok(b.cell("fresh", row, 9));
  b.endRow();
  assert.equal(b.rowCount, 4);
});

Deno.test("arrays and decimals survive the trip as DoubleArrays and decimal text", () => {
  const arr = new Uint8Array(3 + 8 + 16);
  const view = new DataView(arr.buffer);
  arr[0] = 14, arr[1] = 10, arr[2] = 2;
  view.setUint32(3, 1, true), view.setUint32(7, 2, true);
  view.setFloat64(11, 1.5, true), view.setFloat64(19, -2, true);
  const body = new Uint8Array([...enc.encode("t m=="), ...arr, ...enc.encode(",p=1.25d\n")]);
  const parsed = parseBody([body], "n");
  const back = blocksFromWire(structuredClone(blocksToWire(parsed.blocks).wire));
  const [m, p] = back[0].columns;
  assert.ok(m.refs[0] instanceof DoubleArray);
  assert.deepEqual([(m.refs[0] as DoubleArray).shape, [...(m.refs[0] as DoubleArray).data]], [[1, 2], [
    1.5,
    -2,
  ]]);
  assert.equal(p.refs[0], "1.25");
});

Deno.test("a worker parses a body into the same blocks and errors as parsing in place", async () => {
  const pool = new ParsePool(2);
  try {
    const expected = dump(parseBody([enc.encode(BODY)], "n").blocks);
    const body = enc.encode(BODY);
    const got = await pool.parse(body, [[0, body.length]], "n");
    assert.equal(got.error, undefined);
    assert.deepEqual(dump(got.blocks), expected);

    const bad = enc.encode("m a=1i 1000\nm a=2i 2000\nm a=1x 3000\n");
    assert.deepEqual(await pool.parse(bad, [[0, bad.length]], "n"), {
      error: { line: 3, message: "Could not parse entire line, field value is invalid. Field: a; value: 1x" },
      blocks: [],
    });

    // Parts end lines; a view into a larger buffer is copied, not detached.
    const whole = enc.encode("xxm a=1i 1000\nm a=2i 2000yy");
    const parts = whole.subarray(2, whole.length - 2);
    const r = await pool.parse(parts, [[0, 11], [12, parts.length]], "s");
    assert.deepEqual(
      dump(r.blocks),
      dump(parseBody([parts.subarray(0, 11), parts.subarray(12)], "s").blocks),
    );
    assert.equal(whole.length, 27); // not detached
  } finally {
    pool.close();
  }
});

Deno.test("more requests than workers wait their turn", async () => {
  const pool = new ParsePool(2);
  try {
    const bodies = Array.from({ length: 7 }, (_, k) => enc.encode(`t v=${k}i ${k}000\n`.repeat(1000 + k)));
    const results = await Promise.all(bodies.map((b) => pool.parse(b, [[0, b.length]], "n")));
    results.forEach((r, k) => {
      assert.equal(r.blocks[0].rowCount, 1000 + k);
      assert.equal(r.blocks[0].columns[0].nums[0], k);
    });
  } finally {
    pool.close();
  }
  // After close, parsing goes on in place.
  const b = enc.encode("t v=1i\n");
  assert.equal((await pool.parse(b, [[0, b.length]], "n")).blocks[0].rowCount, 1);
});
