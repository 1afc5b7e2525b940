/**
 * Hostile and malformed input to /exec and /exp: each gets the documented error with a
 * position, never a crash, and the server keeps answering.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { createApp } from "../../../server/http/app.ts";

const root = await Deno.makeTempDir({ prefix: "qdb_bad_" });
const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
const app = createApp(engine, new Config({}, {}));
const exec = async (sql: string, extra = "") => {
  const r = await app.request(`/exec?query=${encodeURIComponent(sql)}${extra}`);
  return { status: r.status, body: await r.json() };
};
await exec("CREATE TABLE t (ts TIMESTAMP, x INT, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY");
await exec("INSERT INTO t VALUES ('2024-01-01', 1, 'a'), ('2024-01-02', 2, 'b')");

const cases: [string, string, number | undefined][] = [
  ["SELECT * FROM", "table name", undefined],
  ["SELECT (1 + 2 FROM t", "", undefined],
  ["SELECT * FROM nope", "table does not exist [table=nope]", 14],
  ["SELECT nope FROM t", "Invalid column: nope", 7],
  // Text meeting a number converts to it (SqlCodeGeneratorTest#testFunctionArgsImplicitCast).
  ["SELECT x + 'abc' FROM t", "inconvertible value", undefined],
  ["INSERT INTO t VALUES ('2024-01-01', 'x', 'a')", "inconvertible value", undefined],
  ["SELECT 'unterminated FROM t", "", 7],
  ["SELEC 1", "unexpected token", 6],
  ["SELECT ts FROM t WHERE ts IN '2024-13'", "", undefined],
  ["DELETE FROM nope", "table does not exist [table=nope]", 12],
  ["SELECT x FROM t LIMIT 'a'", "", undefined],
  ["SELECT sum(x) FROM t WHERE sum(x) > 1", "aggregate", undefined],
];

for (const [sql, message, position] of cases) {
  Deno.test(`exec rejects ${JSON.stringify(sql)} with a clear error`, async () => {
    const { status, body } = await exec(sql);
    assert.equal(status, 400, JSON.stringify(body));
    assert.equal(body.query, sql);
    assert.equal(typeof body.error, "string");
    assert.ok(body.error.length > 0);
    assert.ok(body.error.includes(message), `${body.error} should mention ${message}`);
    assert.equal(typeof body.position, "number");
    assert.ok(body.position >= 0 && body.position <= sql.length, `position ${body.position}`);
    if (position !== undefined) assert.equal(body.position, position);
  });
}

Deno.test("exec rejects a query over the length limit without parsing it", async () => {
  const { status, body } = await exec("SELECT " + "1 + ".repeat(300_000) + "1");
  assert.equal(status, 400);
  assert.match(body.error, /too long/);
});

Deno.test("exec survives deeply nested expressions with a limit error", async () => {
  const { status, body } = await exec("SELECT " + "(".repeat(5000) + "1" + ")".repeat(5000));
  assert.equal(status, 400);
  assert.match(body.error, /nest/i);
});

Deno.test("exec treats absurd limits as bounds, not errors", async () => {
  for (const limit of ["-5", "99999999999999999999", "abc", "3,1", "1,99999999999", ",", "-1,-2"]) {
    const { status, body } = await exec("SELECT x FROM t", `&limit=${encodeURIComponent(limit)}`);
    assert.equal(status, 200, `limit=${limit}: ${JSON.stringify(body)}`);
    assert.ok(Array.isArray(body.dataset));
    assert.ok(body.dataset.length <= 2);
  }
});

Deno.test("exp reports errors as JSON with a position", async () => {
  const r = await app.request(`/exp?query=${encodeURIComponent("SELECT nope FROM t")}`);
  assert.equal(r.status, 400);
  assert.deepEqual(await r.json(), {
    query: "SELECT nope FROM t",
    error: "Invalid column: nope",
    position: 7,
  });
  const ddl = await app.request(`/exp?query=${encodeURIComponent("CREATE TABLE u (x INT)")}`);
  assert.equal(ddl.status, 400);
});

Deno.test("the engine still answers after all the bad input", async () => {
  const { status, body } = await exec("SELECT count() FROM t");
  assert.equal(status, 200);
  assert.deepEqual(body.dataset, [[2]]);
});

Deno.test({
  name: "bad input suite closes its engine",
  fn: async () => {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  },
});
