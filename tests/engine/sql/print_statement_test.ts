import assert from "node:assert/strict";
import type { Statement } from "../../../engine/sql/ast.ts";
import { parseStatements } from "../../../engine/sql/parser.ts";
import { statementToText } from "../../../engine/sql/print_statement.ts";
import { CORPUS } from "./_corpus.ts";
import { stripPositions } from "./_helpers.ts";

// Copies of the shared conformance cases and of the SQL examples of spec/sql.md (tests/fixtures/
// README.md says where they come from), so the tests need nothing outside the repository.
const CASES_DIR = new URL("../../fixtures/conformance/", import.meta.url);
const SPEC_EXAMPLES = new URL("../../fixtures/spec_sql_examples.json", import.meta.url);

/**
 * Spec examples of forms the parser does not read yet, each with the reason; they must still
 * fail to parse, so that implementing one makes this list shrink instead of hiding it.
 */
const PARSE_GAPS: [RegExp, string][] = [];

/** Parse, print, parse again: both trees must match with positions aside. */
function assertRoundTrip(sql: string): void {
  const first: Statement[] = parseStatements(sql);
  assert.ok(first.length > 0, sql);
  const text = first.map(statementToText).join(";\n");
  let second: Statement[];
  try {
    second = parseStatements(text);
  } catch (e) {
    assert.fail(`${sql}\nprinted as\n${text}\ndoes not parse: ${(e as Error).message}`);
  }
  assert.deepEqual(stripPositions(second), stripPositions(first), `${sql}\nprinted as\n${text}`);
}

/** Setup and query statements of the conformance cases that expect success, and those that expect errors. */
function conformanceStatements(): { ok: string[]; failing: string[] } {
  const ok: string[] = [];
  const failing: string[] = [];
  for (const entry of Deno.readDirSync(CASES_DIR)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    for (const line of Deno.readTextFileSync(new URL(entry.name, CASES_DIR)).split("\n")) {
      if (line.trim() === "") continue;
      const c = JSON.parse(line);
      ok.push(...c.setup);
      (c.expect.error ? failing : ok).push(c.query);
    }
  }
  return { ok, failing };
}

/** Every ```sql block of the spec that is not marked illustrative, as extracted into the fixture. */
function specStatements(): string[] {
  return JSON.parse(Deno.readTextFileSync(SPEC_EXAMPLES));
}

Deno.test("print statement round trip over the corpus of every spec section", () => {
  assert.ok(CORPUS.length >= 150);
  for (const sql of CORPUS) assertRoundTrip(sql);
});

Deno.test("print statement round trip over the spec's SQL examples", () => {
  const blocks = specStatements();
  assert.ok(blocks.length > 30);
  for (const sql of blocks) {
    const gap = PARSE_GAPS.find(([re]) => re.test(sql));
    if (gap) {
      console.log(`not round-tripped: ${gap[1]}`);
      assert.throws(() => parseStatements(sql), Error, `${gap[1]}: parses now, drop it from PARSE_GAPS`);
      continue;
    }
    assertRoundTrip(sql);
  }
});

Deno.test("print statement round trip over every conformance setup and query", () => {
  const { ok, failing } = conformanceStatements();
  assert.ok(ok.length > 250);
  for (const sql of ok) assertRoundTrip(sql);
  // Cases that expect an error may fail later than the parser; whatever parses must round-trip.
  for (const sql of failing) {
    try {
      parseStatements(sql);
    } catch {
      continue;
    }
    assertRoundTrip(sql);
  }
});

Deno.test("print statement keeps the distinction between CAST and ::", () => {
  const [a] = parseStatements("SELECT cast(a AS INT), b::int, TIMESTAMP '2024'");
  assert.equal(statementToText(a), "SELECT cast(a as INT), b::int, TIMESTAMP '2024'");
});

Deno.test("print statement writes readable SQL", () => {
  const [s] = parseStatements(
    "select ts, count() c from trades t asof join quotes q on (sym) tolerance 1h where x in ('a') sample by 1h fill(prev) limit 5",
  );
  assert.equal(
    statementToText(s),
    "SELECT ts, count() AS c FROM trades t ASOF JOIN quotes q ON (sym) TOLERANCE 1h WHERE x in ('a') SAMPLE BY 1h FILL(PREV) LIMIT 5",
  );
});
