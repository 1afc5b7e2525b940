/** COPY statements and data (copy_statement.ts, copy_rows.ts) and the session time zone (time_zone.ts). */
import assert from "node:assert/strict";
import { classifyStatement, type ParsedStatement, T } from "../../../engine/mod.ts";
import { CopyRowReader, formatRow } from "../../../server/pg/copy_rows.ts";
import { copySpec } from "../../../server/pg/copy_statement.ts";
import { pgTypeOf } from "../../../server/pg/pg_types.ts";
import {
  formatTimestamptzText,
  parseSessionTimeZone,
  withSessionZone,
} from "../../../server/pg/time_zone.ts";
import { textOf } from "../../../server/pg/encode_text.ts";

/** The spec of a COPY as the engine parses it (engine/sql/parse_copy_stdio.ts). */
function copy(sql: string) {
  const { statement } = classifyStatement(sql);
  assert.equal(statement?.kind, "copy", sql);
  return copySpec(statement as Extract<ParsedStatement, { kind: "copy" }>, sql);
}
const enc = new TextEncoder();

Deno.test("COPY statements: tables, columns, queries, option lists and legacy words", () => {
  const a = copy("COPY t FROM STDIN");
  assert.deepEqual(a, {
    direction: "from",
    table: "t",
    columns: undefined,
    format: { kind: "text", delimiter: "\t", nullText: "\\N", header: false, quote: '"' },
  });
  const b = copy(`COPY public."T" (a, "B") FROM stdin WITH (FORMAT csv, HEADER true, DELIMITER ';')`);
  assert.equal(b.direction, "from");
  assert.deepEqual([b.direction === "from" && b.table, "columns" in b && b.columns], ["T", ["a", "B"]]);
  assert.deepEqual(b.format, { kind: "csv", delimiter: ";", nullText: "", header: true, quote: '"' });
  const c = copy("COPY  t FROM STDIN  csv header");
  assert.deepEqual([c.format.kind, c.format.header, c.format.delimiter], ["csv", true, ","]);
  const d = copy("COPY (select a, (b) from t where x = ')') TO STDOUT WITH CSV HEADER");
  assert.deepEqual("query" in d && d.query, "select a, (b) from t where x = ')'");
  assert.throws(() => copy("COPY t FROM '/etc/passwd'"), /supports only STDIN/);
  // psql's pre-9.0 words with AS, FORCE column lists, and E'' escapes.
  const e = copy("COPY t (a) FROM STDIN WITH CSV HEADER DELIMITER AS ';' NULL AS 'x' FORCE NOT NULL a, b");
  assert.deepEqual(e.format, { kind: "csv", delimiter: ";", nullText: "x", header: true, quote: '"' });
  assert.equal(copy("COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE (a, b), HEADER false)").format.header, false);
  assert.equal(copy("COPY t TO STDOUT CSV FORCE QUOTE * HEADER").format.header, true);
  assert.throws(() => copy("COPY t TO STDOUT (FORMAT binary)"), /BINARY is not supported/);
  assert.throws(() => copy("COPY t FROM STDIN (bogus 1)"), /not recognized/);
});

Deno.test("COPY data: text escapes and NULL, CSV quoting, rows split across chunks", () => {
  const text = new CopyRowReader(copy("COPY t FROM STDIN").format);
  const bytes = enc.encode("a\\tb\t\\N\t\\\\x\\101\n2\t\t€\r\n\\.\nignored\n");
  const rows = [
    ...text.push(bytes.slice(0, 7)),
    ...text.push(bytes.slice(7, 22)),
    ...text.push(bytes.slice(22), true),
  ];
  assert.deepEqual(rows, [
    { line: 1, fields: ["a\tb", null, "\\xA"] },
    { line: 2, fields: ["2", "", "€"] },
  ]);
  const csv = new CopyRowReader(copy("COPY t FROM STDIN CSV").format);
  assert.deepEqual([...csv.push(enc.encode('1,"a,""b""\nc",\n2,x')), ...csv.push(new Uint8Array(), true)], [
    { line: 1, fields: ["1", 'a,"b"\nc', null] },
    { line: 3, fields: ["2", "x"] },
  ]);
  // A quoted empty field is an empty string, an unquoted one NULL; chunks may split anywhere.
  const csv2 = new CopyRowReader(copy("COPY t FROM STDIN WITH (FORMAT csv, NULL 'NA')").format);
  const data = enc.encode('"",,NA,"NA"\r\n"x""\r\n",y\r\n');
  const got = [];
  for (let k = 0; k < data.length; k++) got.push(...csv2.push(data.slice(k, k + 1)));
  got.push(...csv2.push(new Uint8Array(), true));
  assert.deepEqual(got, [
    { line: 1, fields: ["", "", null, "NA"] },
    { line: 2, fields: ['x"\r\n', "y"] },
  ]);
  assert.equal(formatRow(["a\tb", null, "c\\d"], copy("COPY t TO STDOUT").format), "a\\tb\t\\N\tc\\\\d\n");
  assert.equal(formatRow(["a,b", null, "", 'q"'], copy("COPY t TO STDOUT CSV").format), '"a,b",,"","q"""\n');
});

Deno.test("session time zones: names, offsets, DST in the text, unknown zones", () => {
  assert.equal(parseSessionTimeZone("America/New_York"), "America/New_York");
  assert.equal(parseSessionTimeZone("UTC"), "UTC");
  assert.equal(parseSessionTimeZone("LOCAL"), null);
  assert.equal(parseSessionTimeZone("default"), null);
  assert.equal(parseSessionTimeZone("- 5"), "-05:00");
  assert.throws(() => parseSessionTimeZone("Mars/Base"), /invalid value for parameter "TimeZone"/);
  const winter = 1705338000000000n; // 2024-01-15T17:00:00Z
  const summer = 1721062800123000n; // 2024-07-15T17:00:00.123Z
  assert.equal(formatTimestamptzText(winter, "America/New_York"), "2024-01-15 12:00:00-05");
  assert.equal(formatTimestamptzText(summer, "America/New_York"), "2024-07-15 13:00:00.123-04");
  assert.equal(formatTimestamptzText(winter, "Asia/Kolkata"), "2024-01-15 22:30:00+05:30");
  assert.equal(formatTimestamptzText(winter, "UTC"), "2024-01-15 17:00:00+00");
});

Deno.test("the engine's timestamptz columns become OID 1184 in the session zone", () => {
  // The engine marks casts to timestamptz (tests/engine/plan/timestamptz_columns_test.ts).
  const cols = [{ name: "a", type: T.TIMESTAMP, timestamptz: true }, { name: "b", type: T.TIMESTAMP }];
  const out = withSessionZone(cols, "America/New_York");
  assert.deepEqual(out.map((c) => pgTypeOf(c.type).oid), [1184, 1114]);
  assert.equal(textOf(1705338000000000n, out[0].type), "2024-01-15 12:00:00-05");
  assert.equal(textOf(1705338000000000n, out[1].type), "2024-01-15 17:00:00.000000");
  const plain = cols.slice(1);
  assert.equal(withSessionZone(plain, "UTC"), plain);
});

Deno.test("COPY delimiter given as an escape string", () => {
  assert.equal(copy("COPY t FROM STDIN WITH (FORMAT csv, DELIMITER E'\\t')").format.delimiter, "\t");
});
