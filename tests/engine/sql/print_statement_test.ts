import assert from "node:assert/strict";
import type { Statement } from "../../../engine/sql/ast.ts";
import { parseStatements } from "../../../engine/sql/parser.ts";
import { statementToText } from "../../../engine/sql/print_statement.ts";
import { CORPUS } from "./_corpus.ts";
import { stripPositions } from "./_helpers.ts";

const CASES_DIR = new URL("../../../../shared/conformance/cases/", import.meta.url);
const SPEC = new URL("../../../../shared/spec/sql.md", import.meta.url);

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

/** Every ```sql block of the spec, split into statements. */
function specStatements(): string[] {
  const text = Deno.readTextFileSync(SPEC);
  const blocks = [...text.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.filter((b) => !b.includes("(illustrative;"));
}

Deno.test("print statement round trip over the corpus of every spec section", () => {
  assert.ok(CORPUS.length >= 150);
  for (const sql of CORPUS) assertRoundTrip(sql);
});

Deno.test("print statement round trip over the spec's SQL examples", () => {
  const blocks = specStatements();
  assert.ok(blocks.length > 30);
  for (const sql of blocks) assertRoundTrip(sql);
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
