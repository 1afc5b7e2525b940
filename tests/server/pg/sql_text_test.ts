/** What the wire layer reads from SQL text: statements, kinds, placeholders, types, rewrites. */
import assert from "node:assert/strict";
import { T } from "../../../engine/mod.ts";
import { inferParamTypes } from "../../../server/pg/param_inference.ts";
import { rewriteForEngine } from "../../../server/pg/sql_rewrite.ts";
import { paramCount, splitStatements, tokenize } from "../../../server/pg/sql_tokens.ts";
import { statementKind } from "../../../server/pg/statement_kind.ts";
import { clientPosition } from "../../../server/pg/sqlstate.ts";

const kind = (sql: string) => statementKind(tokenize(sql));

Deno.test("simple query text splits at top-level semicolons only", () => {
  const parts = splitStatements("select ';'; -- c;\n select \"a;b\" from t; ;  ");
  assert.deepEqual(parts.map((p) => [p.text, p.offset]), [["select ';'", 0], ['select "a;b" from t', 19]]);
  assert.deepEqual(splitStatements("  -- only a comment\n ; "), []);
  assert.equal(splitStatements("select E'a\\'b;c'")[0].text, "select E'a\\'b;c'");
});

Deno.test("statement kinds drive command tags and session statements", () => {
  assert.equal(kind("SELECT 1"), "query");
  assert.equal(kind("(select 1)"), "query");
  assert.equal(kind("with a as (select 1) select * from a"), "query");
  assert.equal(kind("trades"), "query");
  assert.equal(kind("SET extra_float_digits = 3"), "set");
  assert.equal(kind("START TRANSACTION"), "begin");
  assert.equal(kind("end"), "commit");
  assert.equal(kind("DECLARE c SCROLL CURSOR FOR select 1"), "cursor");
  assert.equal(kind("DECLARE @x := 1 SELECT @x"), "query");
  assert.equal(kind("FETCH 10 FROM c"), "cursor");
  assert.equal(kind("insert into t values (1)"), "insert");
});

Deno.test("placeholders are counted and typed from their context", () => {
  const cols = new Map([["ts", T.TIMESTAMP], ["qty", T.LONG], ["sym", T.SYMBOL], ["price", T.DOUBLE]]);
  const lookup = (t: string) => (t === "trades" ? cols : undefined);
  const infer = (sql: string) => {
    const tokens = tokenize(sql);
    return inferParamTypes(tokens, paramCount(tokens), lookup).map((t) => t?.tag);
  };
  assert.deepEqual(infer("insert into trades (sym, ts) values ($1, $2)"), ["SYMBOL", "TIMESTAMP"]);
  assert.deepEqual(infer("insert into trades values ($1, $2, $3, $4)"), ["TIMESTAMP", "LONG", "SYMBOL", "DOUBLE"]);
  assert.deepEqual(infer("select * from trades t where t.sym = $1 and $2 < price limit $3"), ["SYMBOL", "DOUBLE", "LONG"]);
  assert.deepEqual(infer("select $1::int, cast($2 as timestamp), $3"), ["INT", "TIMESTAMP", undefined]);
  assert.deepEqual(infer("select * from trades where qty in ($1, $2) or ts between $3 and $4"), ["LONG", "LONG", "TIMESTAMP", "TIMESTAMP"]);
  assert.deepEqual(infer("select x from long_sequence(10) where x = $1 % 10 + 1"), ["LONG"]);
  assert.deepEqual(infer("update trades set price = $1 where sym = $2"), ["DOUBLE", "SYMBOL"]);
});

Deno.test("catalog spellings are rewritten outside string literals only", () => {
  assert.equal(
    rewriteForEngine("select c.relname from pg_catalog.pg_class c where c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default"),
    "select c.relname from pg_class c where c.relname ~ '^(t)$' ",
  );
  assert.equal(rewriteForEngine("select 'pg_catalog.x', n.nspname <> 'pg_catalog' from pg_namespace n"), "select 'pg_catalog.x', n.nspname <> 'pg_catalog' from pg_namespace n");
  assert.equal(rewriteForEngine("select 'pg_class'::regclass, a::pg_catalog.regtype::pg_catalog.text from pg_type"), "select 1259, a::varchar from pg_type");
  assert.equal(
    rewriteForEngine("select a.attname, (select d.adbin from pg_catalog.pg_attrdef d where d.adrelid = a.attrelid) from pg_attribute a"),
    "select a.attname, NULL from pg_attribute a",
  );
  assert.equal(rewriteForEngine("select pubname, null from pg_catalog.pg_publication p join x on true"), "SELECT NULL c1, NULL c2 FROM long_sequence(0)");
  assert.equal(rewriteForEngine("select * from (select 1 from pg_attrdef) x"), "select * from (select 1 from pg_attrdef) x");
  assert.equal(rewriteForEngine("select 1 from trades"), "select 1 from trades");
});

Deno.test("error positions become 1-based code point positions", () => {
  assert.equal(clientPosition("select * from nope", 14), 15);
  assert.equal(clientPosition("select '😀', nope", 13), 13);
});
