/**
 * The line parser's fast paths (server/line_protocol/line_parser.ts): names recognised by comparing
 * bytes with the previous line's layout, plain numbers and timestamps read in one pass. Each
 * case is parsed whole and one byte at a time (TCP), and must give what a fresh parser gives
 * for each line alone.
 */
import assert from "node:assert/strict";
import type { IngestBlock } from "../../../engine/mod.ts";
import { LineParser } from "../../../server/line_protocol/line_parser.ts";

const enc = new TextEncoder();

function cells(blocks: IngestBlock[]) {
  const out: unknown[] = [];
  for (const b of blocks) {
    for (let r = 0; r < b.rowCount; r++) {
      const row: unknown[] = [];
      for (const c of b.columns) {
        if (c.kinds[r] === 0) continue;
        row.push([c.name.toLowerCase(), c.kinds[r], String(c.nums[r]), c.refs[r] ?? null]);
      }
      // Column order and case are those of first sight in the block: compare cells by name.
      row.sort((x, y) => String((x as string[])[0]).localeCompare(String((y as string[])[0])));
      out.push([b.table, b.lines[r], String(b.timestamps[r]), ...row]);
    }
  }
  return out.sort((x, y) => (x as [string, number])[1] - (y as [string, number])[1]);
}

/** The rows of `text` read one line per parser: no previous layout to lean on. */
function lineByLine(text: string) {
  const rows: unknown[] = [];
  text.split("\n").forEach((line, k) => {
    if (line === "") return;
    const p = new LineParser();
    p.line = k;
    const bytes = enc.encode(line + "\n");
    const r = p.parse(bytes, 0, bytes.length, true);
    assert.equal(r.error, undefined, line);
    rows.push(...cells(p.take()));
  });
  return rows;
}

function check(text: string) {
  const expected = lineByLine(text);
  const bytes = enc.encode(text);
  const whole = new LineParser();
  assert.equal(whole.parse(bytes, 0, bytes.length, true).error, undefined);
  assert.deepEqual(cells(whole.take()), expected);
  // Byte by byte, keeping the unparsed rest as TCP does.
  const tcp = new LineParser();
  let buf = new Uint8Array(0);
  for (let i = 0; i < bytes.length; i++) {
    const next = new Uint8Array(buf.length + 1);
    next.set(buf);
    next[buf.length] = bytes[i];
    const r = tcp.parse(next, 0, next.length, false);
    assert.equal(r.error, undefined);
    buf = next.slice(r.next);
  }
  assert.deepEqual(cells(tcp.take()), expected);
}

Deno.test("lines that repeat, change or escape their layout parse as if alone", () => {
  check(
    [
      "trades,symbol=A,side=buy price=1.5,qty=2i 1000000",
      "trades,symbol=B,side=sell price=2.5,qty=3i 2000000",
      "trades,side=buy,symbol=C qty=4i,price=3.5 3000000", // same names, other order
      "trades,sym=D price=1 4000000", // a name that is a prefix of the previous one
      "trades,symbol=E,side=x price=2", // no timestamp
      "trade,symbol=F price=3 5000000", // a table that is a prefix
      "trades2,symbol=G price=4 6000000",
      "trades\\,x,symbol=H price=5 7000000", // escaped table name starting like the last one
      "trades,symbo\\l=I,si\\=de=y pr\\ ice=6,q\\,ty=7i 8000000", // escaped names
      "trades,symbo\\l=J,si\\=de=z pr\\ ice=7,q\\,ty=8i 9000000",
      "trades,symbol=K price=8,price=9 10000000", // duplicate field: the first one counts
      "trades,symbol=L PRICE=10 11000000", // case folds into the same column
      "trades price=11 12000000", // no tags: the field takes ordinal 0
      "trades,symbol=M price=12i 13000000",
      "tradés,symbolé=N,sidé=ü pricé=13 14000000", // split inside characters when fed bytewise
      "tradés,symbolé=O,sidé=ü pricé=14,qtü=1i 15000000",
    ].join("\n") + "\n",
  );
});

Deno.test("numbers and timestamps off the fast paths parse as if alone", () => {
  check(
    [
      "t a=1.5,b=-2i,c=1e3,d=+4,e=.5,f=1234567890123456,g=0.1234567890123456 1704067202007036000",
      "t a=1.,b=-0i,c=-0,d=T,e=false,f=0x1fi,g=1700000000000000t 1704067202007036000n",
      "t a=1.5 1704067202007036t",
      "t a=1.5 1704067202007m",
      "t a=1.5 -1704067202007036001",
      "t a=1.5 0000000000000001000",
      "t a=1.5 1704067202007036000   ",
      "t a=1.5   1704067202007036000",
      't a="s,t r",b=1.5 1704067202007036000',
    ].join("\n") + "\n",
  );
});

Deno.test("a layout learnt before take() still works for the next blocks", () => {
  const p = new LineParser();
  const one = enc.encode("t,s=a v=1i 1000\n");
  p.parse(one, 0, one.length, true);
  assert.equal(p.take()[0].rowCount, 1);
  const two = enc.encode("t,s=b v=2i 2000\nt,s=c v=3i 3000\n");
  p.parse(two, 0, two.length, true);
  const [b] = p.take();
  assert.equal(b.rowCount, 2);
  assert.deepEqual(b.columns.map((c) => c.name), ["s", "v"]);
  assert.deepEqual([...b.lines.subarray(0, 2)], [2, 3]);
});

Deno.test("timestamp errors keep their messages on the fast path", () => {
  const parse = (text: string) => {
    const bytes = enc.encode(text);
    return new LineParser().parse(bytes, 0, bytes.length, true).error;
  };
  assert.deepEqual(parse("t a=1 1000\nt a=1 12345678901234567890\n"), {
    line: 2,
    message: "Could not parse timestamp: 12345678901234567890",
  });
  assert.deepEqual(parse("t a=1 -\n"), { line: 1, message: "Could not parse timestamp: -" });
  assert.deepEqual(parse("t a=1 9007199254740992000\n"), {
    line: 1,
    message: "Could not parse timestamp: 9007199254740992000",
  });
});
