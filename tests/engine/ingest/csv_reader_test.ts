/**
 * The engine's one CSV reader (engine/ingest/csv_reader.ts), used by /imp and pgwire COPY FROM:
 * records and line numbers, which fields were quoted (COPY's NULL rule), unclosed quotes, and
 * the same records whatever the chunking.
 */
import assert from "node:assert/strict";
import { CsvReader, type CsvReaderOptions, type CsvRecord, detectDelimiter } from "../../../engine/mod.ts";

function readAll(text: string, options: CsvReaderOptions = { delimiter: "," }): CsvRecord[] {
  return new CsvReader(options).push(text, true);
}

/** The same text pushed in chunks cut at every offset, then in single characters. */
function chunked(text: string, cuts: number[], options: CsvReaderOptions = { delimiter: "," }): CsvRecord[] {
  const r = new CsvReader(options);
  const out: CsvRecord[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(...r.push(text.slice(from, c), false));
    from = c;
  }
  out.push(...r.push(text.slice(from), true));
  return out;
}

Deno.test("csv reader: records, quoted fields with delimiters, doubled quotes and line ends", () => {
  const text = 'a,b\n1,"x,y"\n2,"say ""hi"""\n3,"two\nlines"\r\n4,\r5,z';
  assert.deepEqual(readAll(text), [
    { line: 1, fields: ["a", "b"] },
    { line: 2, fields: ["1", "x,y"], quoted: [false, true] },
    { line: 3, fields: ["2", 'say "hi"'], quoted: [false, true] },
    { line: 4, fields: ["3", "two\nlines"], quoted: [false, true] },
    { line: 6, fields: ["4", ""] },
    { line: 7, fields: ["5", "z"] },
  ]);
});

Deno.test("csv reader: a quoted empty field is told from an unquoted one (COPY's NULL rule)", () => {
  assert.deepEqual(readAll('"",\n,""\n""'), [
    { line: 1, fields: ["", ""], quoted: [true, false] },
    { line: 2, fields: ["", ""], quoted: [false, true] },
    { line: 3, fields: [""], quoted: [true] },
  ]);
  // A quote inside an unquoted field is text.
  assert.deepEqual(readAll('a"b,c'), [{ line: 1, fields: ['a"b', "c"] }]);
});

Deno.test("csv reader: an unclosed quote keeps the rest of the text and says so", () => {
  assert.deepEqual(readAll('1,x\n2,"open\n3,y\n'), [
    { line: 1, fields: ["1", "x"] },
    { line: 2, fields: ["2", "open\n3,y\n"], quoted: [false, true], unclosed: true },
  ]);
});

Deno.test("csv reader: other delimiters and quote characters (COPY's DELIMITER and QUOTE)", () => {
  assert.deepEqual(readAll("a;'b;c';'it''s'\n", { delimiter: ";", quote: "'" }), [
    { line: 1, fields: ["a", "b;c", "it's"], quoted: [false, true, true] },
  ]);
  assert.equal(detectDelimiter("a;b;c,d"), ";");
  assert.equal(detectDelimiter("a\tb\tc"), "\t");
  assert.equal(detectDelimiter("abc"), ",");
});

Deno.test("csv reader: chunks may end anywhere (inside quotes, between \\r and \\n, in a doubled quote)", () => {
  const text = 'h1,h2\r\n"a ""q"" b","multi\r\nline"\r\n,""\r\n"last",x';
  const whole = readAll(text);
  assert.equal(whole.length, 4);
  for (let cut = 0; cut <= text.length; cut++) {
    assert.deepEqual(chunked(text, [cut]), whole, `cut at ${cut}`);
  }
  assert.deepEqual(
    chunked(text, Array.from({ length: text.length }, (_, i) => i)),
    whole,
    "one char at a time",
  );
});
