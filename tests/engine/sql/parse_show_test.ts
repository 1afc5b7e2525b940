import assert from "node:assert/strict";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { as, parseError, select, stripPositions } from "./_helpers.ts";

const show = (sql: string) => stripPositions(as(parseStatement(sql), "show"));

Deno.test("show statements name what they show", () => {
  const cases: [string, string][] = [
    ["SHOW TABLES", "tables"],
    ["SHOW SERVER_VERSION", "serverVersion"],
    ["SHOW PARAMETERS", "parameters"],
    ["SHOW TIME ZONE", "timeZone"],
    ["SHOW timezone", "timeZone"],
    ["SHOW TRANSACTION ISOLATION LEVEL", "transactionIsolation"],
    ["SHOW transaction_isolation", "transactionIsolation"],
    ["SHOW max_identifier_length", "maxIdentifierLength"],
    ["SHOW standard_conforming_strings", "standardConformingStrings"],
    ["SHOW search_path", "searchPath"],
    ["SHOW DateStyle", "dateStyle"],
    ["SHOW USERS", "users"],
    ["SHOW GROUPS", "groups"],
    ["SHOW PERMISSIONS", "permissions"],
    ["SHOW SERVICE ACCOUNTS", "serviceAccounts"],
  ];
  for (const [sql, what] of cases) assert.deepEqual(show(sql), { kind: "show", what }, sql);
});

Deno.test("show statements with a target", () => {
  assert.deepEqual(show("SHOW COLUMNS FROM trades"), {
    kind: "show",
    what: "columns",
    target: { name: "trades" },
  });
  assert.deepEqual(show("SHOW CREATE TABLE 'my t'"), {
    kind: "show",
    what: "createTable",
    target: { name: "my t" },
  });
  assert.deepEqual(show("SHOW PARTITIONS FROM t"), {
    kind: "show",
    what: "partitions",
    target: { name: "t" },
  });
  assert.deepEqual(show("SHOW GROUPS john"), { kind: "show", what: "groups", target: { name: "john" } });
  assert.deepEqual(show("SHOW USER john"), { kind: "show", what: "user", target: { name: "john" } });
  assert.deepEqual(show("SHOW GROUP admins"), { kind: "show", what: "group", target: { name: "admins" } });
  assert.deepEqual(show("SHOW PERMISSIONS john"), {
    kind: "show",
    what: "permissions",
    target: { name: "john" },
  });
  assert.deepEqual(show("SHOW SERVICE ACCOUNT svc"), {
    kind: "show",
    what: "serviceAccount",
    target: { name: "svc" },
  });
  const s = as(parseStatement("SHOW COLUMNS FROM  trades"), "show");
  assert.deepEqual([s.pos, s.target?.pos], [0, 19]);
});

Deno.test("show anything else is other with its text", () => {
  assert.deepEqual(show("SHOW transaction_read_only"), {
    kind: "show",
    what: "other",
    text: "transaction_read_only",
  });
  assert.deepEqual(show("show lc_collate;"), { kind: "show", what: "other", text: "lc_collate" });
});

Deno.test("show as a source in parentheses", () => {
  const core = select("(SHOW PARAMETERS) WHERE value_source <> 'default'");
  const src = core.from!.first;
  assert.equal(src.kind, "showSource");
  assert.equal(src.kind === "showSource" && src.show.what, "parameters");
  const other = select("SELECT * FROM (SHOW foo bar) x").from!.first;
  assert.equal(other.kind === "showSource" && other.show.text, "foo bar");
});

Deno.test("show errors", () => {
  // QuestDB's ShowTablesTest#testSqlSyntax1 and #testSqlSyntax2.
  assert.match(parseError("SHOW").message, /^expected 'TABLES', 'COLUMNS FROM <tab>'/);
  assert.equal(parseError("SHOW").position, 4);
  assert.equal(parseError("show columns balances").message, "expected 'from'");
  assert.equal(parseError("show columns balances").position, 13);
  assert.equal(parseError("SHOW COLUMNS FROM").message, "table name expected");
});

Deno.test("a SHOW followed by a set operator is the first operand of a query", () => {
  // ShowCreateTableTest#testShowCreateTableUnion.
  const q = parseStatement("show create table t1 union show create table t2 union all select 'x'");
  assert.equal(q.kind, "query");
  const body = (q as { body: { kind: string; op: string; left: { kind: string } } }).body;
  assert.equal(body.kind, "setop");
  assert.equal(body.left.kind, "setop");
  assert.equal(parseStatement("SHOW CREATE TABLE t1").kind, "show");
});
