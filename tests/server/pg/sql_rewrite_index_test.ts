/**
 * server/pg/sql_rewrite.ts on driver queries over pg_index (issue 10, indexes): primary-key
 * lookups answered as empty; everything else passes through to the engine, which reads vector
 * subscripts, `_pg_expandarray(...).n`, `'t'`/`'f'` against booleans
 * (tests/engine/sql/pg_front_door_test.ts), `= ANY(vector)` and `trim(both ... from ...)`
 * (tests/engine/sql/pg_spellings_test.ts).
 */
import assert from "node:assert/strict";
import { rewriteForEngine } from "../../../server/pg/sql_rewrite.ts";

Deno.test("= ANY over a catalog vector, casts and pg_catalog qualifiers are the engine's: left as written", () => {
  const sql =
    "select 1 from pg_catalog.pg_index i where i.indrelid::pg_catalog.oid = any (pg_catalog.string_to_array('1 2', ' '))";
  assert.equal(rewriteForEngine(sql), sql);
});

Deno.test("pgjdbc's getIndexInfo spellings and 't'/'f' pass through: the engine reads them", () => {
  // Vector subscripts (engine/plan/bind_array.ts), `(_pg_expandarray(v)).n`
  // (engine/functions/pg_expandarray.ts), booleans against 't'/'f' (compare_domain.ts):
  // tests/engine/sql/pg_front_door_test.ts.
  for (
    const sql of [
      "select CASE tmp.I_INDOPTION[tmp.ORDINAL_POSITION - 1] & 1::smallint WHEN 1 THEN 'D' END from pg_index tmp",
      "select (information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION from pg_catalog.pg_index i",
      "select 1 from pg_index ix where ix.indisprimary = 'f' and x = 't'",
      "select arr[1] from pg_class",
    ]
  ) assert.equal(rewriteForEngine(sql), sql);
});

Deno.test("primary-key lookups over pg_index are empty", () => {
  assert.equal(
    rewriteForEngine(
      "SELECT a.attname FROM pg_catalog.pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid WHERE i.indrelid = 1 AND i.indisprimary ORDER BY 1",
    ),
    "SELECT NULL attname FROM long_sequence(0)",
  );
  assert.equal(
    rewriteForEngine("select ix.indisprimary from pg_index ix where not ix.indisprimary"),
    "select ix.indisprimary from pg_index ix where not ix.indisprimary",
  );
});

Deno.test("regclass, regtype, regproc and regrole casts pass through: the engine reads them (engine/plan/reg_types.ts)", () => {
  for (
    const sql of [
      "select 'int4'::regtype, 16385::regclass as r, 'int4'::regtype::oid, 't'::regclass from pg_class",
      "SELECT c.oid::pg_catalog.regclass FROM pg_catalog.pg_class c WHERE c.oid = 't'::regclass ORDER BY c.oid::pg_catalog.regclass::pg_catalog.text",
      "select typinput = 'pg_catalog.array_in'::regproc from pg_type",
      "select r.oid::regrole from pg_roles r",
    ]
  ) assert.equal(rewriteForEngine(sql), sql);
});
