import assert from "node:assert/strict";
import type { SampleBy } from "../../../engine/sql/ast.ts";
import { parseError, select, stripPositions } from "./_helpers.ts";

const sample = (tail: string): SampleBy => select(`SELECT ts, count() FROM t SAMPLE BY ${tail}`).sampleBy!;

Deno.test("sample by reads stride and case-sensitive unit", () => {
  const s = sample("15m");
  assert.deepEqual([s.stride, s.unit, s.stridePos, s.pos], [15, "m", 36, 26]);
  assert.deepEqual(s.align, { kind: "calendar" });
  assert.deepEqual(s.fill, []);
  for (const u of ["n", "U", "T", "s", "m", "h", "d", "w", "M", "y"]) assert.equal(sample(`2${u}`).unit, u);
  // A bare unit counts 1 (QuestDB accepts it; documentation PR #530, questdb#7391 for `w`).
  for (const u of ["n", "U", "T", "s", "m", "h", "d", "w", "M", "y"]) {
    assert.deepEqual([sample(u).stride, sample(u).unit], [1, u]);
  }
});

Deno.test("sample by rejects unknown units and missing strides", () => {
  assert.equal(parseError("SELECT ts FROM t SAMPLE BY 15x").position, 27);
  assert.equal(parseError("SELECT ts FROM t SAMPLE BY 1H").position, 27);
  // A stride without its unit letter: QuestDB's expectSample reads on for the unit
  // (SqlParserTest#testInvalidGroupBy1, #testEmptySampleBy).
  assert.deepEqual(
    [parseError("SELECT ts FROM t SAMPLE BY x").message, parseError("SELECT ts FROM t SAMPLE BY x").position],
    ["time interval unit expected", 28],
  );
  assert.equal(parseError("SELECT ts FROM t SAMPLE BY x, y").position, 28);
  assert.equal(parseError("SELECT ts FROM t SAMPLE BY 0h").position, 27);
});

Deno.test("sample by FILL options, one per aggregate", () => {
  const s = sample("1h FILL(NONE, NULL, PREV, PREV(a), LINEAR, 0, -1, 100.5)");
  assert.deepEqual(stripPositions(s.fill), [
    { kind: "none" },
    { kind: "null" },
    { kind: "prev" },
    { kind: "prev", of: "a" },
    { kind: "linear" },
    { kind: "value", value: { kind: "literal", type: "int", value: 0, text: "0" } },
    {
      kind: "value",
      value: { kind: "unary", op: "-", operand: { kind: "literal", type: "int", value: 1, text: "1" } },
    },
    { kind: "value", value: { kind: "literal", type: "double", value: 100.5, text: "100.5" } },
  ]);
});

Deno.test("sample by FROM/TO, FILL and ALIGN in any order", () => {
  const a = sample("1h FROM '2024-01-01' TO '2024-01-02' FILL(NULL) ALIGN TO CALENDAR");
  const b = sample("1h ALIGN TO CALENDAR FILL(NULL) FROM '2024-01-01' TO '2024-01-02'");
  assert.deepEqual(stripPositions(a), stripPositions(b));
  assert.equal(a.from?.kind, "literal");
  assert.equal(a.to?.kind, "literal");
  assert.equal(sample("1h TO '2024'").from, undefined);
});

Deno.test("sample by ALIGN TO CALENDAR with time zone and offset", () => {
  const s = sample("1d ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin' WITH OFFSET '00:30'");
  assert.equal(s.align.kind, "calendar");
  if (s.align.kind !== "calendar") return;
  assert.deepEqual(stripPositions(s.align.timeZone), {
    kind: "literal",
    type: "string",
    value: "Europe/Berlin",
    text: "'Europe/Berlin'",
  });
  assert.deepEqual(stripPositions(s.align.offset), {
    kind: "literal",
    type: "string",
    value: "00:30",
    text: "'00:30'",
  });
  assert.equal(sample("1h WITH OFFSET '00:15'").align.kind, "calendar");
  assert.deepEqual(sample("1h ALIGN TO FIRST OBSERVATION").align, { kind: "firstObservation" });
});

Deno.test("sample by then ORDER BY and LIMIT still belong to the query", () => {
  const core = select("SELECT ts, count() FROM t WHERE x > 1 SAMPLE BY 1h FILL(PREV) ALIGN TO CALENDAR");
  assert.equal(core.where?.kind, "binary");
  assert.equal(
    parseError("SELECT ts FROM t SAMPLE BY 1h FILL(PREV) FILL(NULL)").message,
    "unexpected token [FILL]",
  );
});

Deno.test("latest on and legacy latest by", () => {
  const on = select("SELECT * FROM t WHERE x > 1 LATEST ON ts PARTITION BY a, b").latestOn!;
  assert.deepEqual([on.ts?.name, on.partitionBy.length], ["ts", 2]);
  const by = select("SELECT * FROM t LATEST BY a WHERE x > 1");
  assert.equal(by.latestOn?.ts, undefined);
  assert.equal(by.latestOn?.partitionBy.length, 1);
  assert.equal(by.where?.kind, "binary");
  assert.equal(parseError("SELECT * FROM t LATEST ON ts BY a").message, "'partition' expected");
});
