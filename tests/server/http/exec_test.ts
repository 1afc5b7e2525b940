/** REST /exec and /exp through the Hono app in-process (spec/protocols.md §2, §3). */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { createApp } from "../../../server/http/app.ts";

async function withApp(
  fn: (get: (path: string) => Promise<Response>) => Promise<void>,
  env: Record<string, string> = {},
) {
  const root = await Deno.makeTempDir({ prefix: "qdb_http_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const app = createApp(engine, new Config({}, env));
  try {
    await fn((path) => Promise.resolve(app.request(path)));
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const q = (sql: string, extra = "") => `/exec?query=${encodeURIComponent(sql)}${extra}`;

Deno.test("exec answers a select with keys in QuestDB's order", async () => {
  await withApp(async (get) => {
    const r = await get(q("SELECT 1 x, 'ab' s"));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(
      await r.text(),
      '{"query":"SELECT 1 x, \'ab\' s","columns":[{"name":"x","type":"INT"},{"name":"s","type":"STRING"}],"timestamp":-1,"dataset":[[1,"ab"]],"count":1}',
    );
  });
});

Deno.test("exec reports ddl, dml and update counts", async () => {
  await withApp(async (get) => {
    assert.equal(
      await (await get(q("CREATE TABLE t (ts TIMESTAMP, v LONG) TIMESTAMP(ts)"))).text(),
      '{"ddl":"OK"}',
    );
    assert.equal(await (await get(q("INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)"))).text(), '{"dml":"OK"}');
    assert.equal(await (await get(q("UPDATE t SET v = 5 WHERE v > 1"))).text(), '{"dml":"OK","updated":2}');
    const body = await (await get(q("t", "&limit=2,3&count=true&quoteLargeNum=true"))).json();
    assert.deepEqual(body.dataset, [["1970-01-01T00:00:00.000002Z", "5"], [
      "1970-01-01T00:00:00.000003Z",
      "5",
    ]]);
    assert.equal(body.count, 3);
    assert.equal(body.timestamp, 0);
  });
});

Deno.test("exec errors carry the position and status 400", async () => {
  await withApp(async (get) => {
    const r = await get(q("SELECT * FROM missing"));
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      query: "SELECT * FROM missing",
      error: "table does not exist [table=missing]",
      position: 14,
    });
  });
});

Deno.test("exec answers an empty query per API version", async () => {
  await withApp(async (get) => {
    assert.equal(
      await (await get("/exec?query=")).text(),
      '{"error":"empty query","query":"","position":"0"}',
    );
    assert.equal(
      await (await get("/exec?query=&version=2")).text(),
      '{"notice":"empty query","query":"","position":"0"}',
    );
  });
});

Deno.test("exec rejects bad UTF-8 in the query text", async () => {
  await withApp(async (get) => {
    const r = await get("/exec?query=SELECT%20%FF%FE");
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error, "Bad UTF8 encoding in query text");
  });
});

Deno.test("exec nm and timings change the reply shape", async () => {
  await withApp(async (get) => {
    const body = await (await get(q("SELECT 1", "&nm=true&timings=true"))).json();
    assert.deepEqual(Object.keys(body), ["dataset", "count", "timings"]);
    assert.deepEqual(Object.keys(body.timings), ["authentication", "compiler", "execute", "count"]);
  });
});

Deno.test("exec explain=true adds QuestDB's explain object after timings", async () => {
  await withApp(async (get) => {
    const body =
      await (await get(q("SELECT x FROM long_sequence(3) WHERE x > 1", "&timings=true&explain=true")))
        .json();
    assert.deepEqual(Object.keys(body), [
      "query",
      "columns",
      "timestamp",
      "dataset",
      "count",
      "timings",
      "explain",
    ]);
    assert.deepEqual(body.explain, { jitCompiled: false });
    assert.deepEqual(body.dataset, [[2], [3]]);
    const nm = await (await get(q("SELECT 1", "&nm=true&explain=true"))).json();
    assert.deepEqual(Object.keys(nm), ["dataset", "count", "explain"]);
    const plain = await (await get(q("SELECT 1", "&explain=false"))).json();
    assert.equal(plain.explain, undefined);
  });
});

Deno.test("exp streams CSV with quoted strings and timestamps", async () => {
  await withApp(async (get) => {
    await get(q("CREATE TABLE t (ts TIMESTAMP, s STRING, d DOUBLE) TIMESTAMP(ts)"));
    await get(q(`INSERT INTO t VALUES ('2024-01-01', 'a"b', 61432.0), ('2024-01-01T00:00:01Z', NULL, NULL)`));
    const r = await get(`/exp?query=${encodeURIComponent("t")}`);
    assert.equal(r.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(
      await r.text(),
      '"ts","s","d"\r\n"2024-01-01T00:00:00.000000Z","a""b",61432.0\r\n"2024-01-01T00:00:01.000000Z",,\r\n',
    );
  });
});

Deno.test("settings, ping and chk answer without a query", async () => {
  await withApp(async (get) => {
    const s = await (await get("/settings")).json();
    assert.deepEqual(s.config["line.proto.support.versions"], [1, 2, 3]);
    const ping = await get("/ping");
    assert.equal(ping.status, 204);
    assert.equal(ping.headers.get("x-influxdb-version"), "v2.2.2");
    assert.deepEqual(await (await get("/chk?f=json&j=nope")).json(), { status: "Does not exist" });
  });
});

Deno.test("exec: one-batch results (one body) and longer ones (streamed) keep limit and count", async () => {
  await withApp(async (get) => {
    const small = await (await get(q("SELECT x FROM long_sequence(3)"))).json();
    assert.deepEqual([small.dataset, small.count], [[[1], [2], [3]], 3]);
    const none = await (await get(q("SELECT x FROM long_sequence(3) WHERE x > 5"))).json();
    assert.deepEqual([none.dataset, none.count], [[], 0]);
    // 200,000 rows span several batches: streamed in slices, every row there once, in order.
    const bigBody = await (await get(q("SELECT x FROM long_sequence(200000)"))).json();
    assert.equal(bigBody.count, 200_000);
    assert.equal(bigBody.dataset.length, 200_000);
    assert.ok(bigBody.dataset.every((row: number[], i: number) => row.length === 1 && row[0] === i + 1));
    // One batch longer than a render slice (4096 rows): one body, its rows in order.
    const oneBatch = await (await get(q("SELECT x FROM long_sequence(5000)"))).json();
    assert.equal(oneBatch.count, 5000);
    assert.ok(oneBatch.dataset.every((row: number[], i: number) => row.length === 1 && row[0] === i + 1));
    // limit met inside the first batch: answered at once; with count=true the total is counted.
    const limited = await (await get(q("SELECT x FROM long_sequence(200000)", "&limit=2"))).json();
    assert.deepEqual([limited.dataset, limited.count], [[[1], [2]], 2]);
    const counted = await (await get(q("SELECT x FROM long_sequence(200000)", "&limit=2&count=true"))).json();
    assert.deepEqual([counted.dataset, counted.count], [[[1], [2]], 200_000]);
    // A range reaching into a later batch.
    const later = await (await get(q("SELECT x FROM long_sequence(200000)", "&limit=70000,70001"))).json();
    assert.deepEqual(later.dataset, [[70_000], [70_001]]);
  });
});

// QuestDB's /exec compiles one statement (SqlCompiler.compile in single-query mode; running
// `;`-separated scripts is the open feature request questdb#4638, the Web Console splits scripts
// itself). pgwire simple query is the batch door (tests/e2e/pg_psql_test.ts).
Deno.test("exec runs one statement: trailing ';' and comments are fine, a second statement is refused", async () => {
  await withApp(async (get) => {
    for (const sql of ["SELECT 1 x;", "SELECT 1 x;;", "SELECT 1 x; -- done", "SELECT 1 x /* c */ ;"]) {
      const r = await get(q(sql));
      assert.equal(r.status, 200, sql);
      assert.deepEqual((await r.json()).dataset, [[1]], sql);
    }
    const r = await get(q("CREATE TABLE a (x INT); CREATE TABLE b (x INT)"));
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      query: "CREATE TABLE a (x INT); CREATE TABLE b (x INT)",
      error: "unexpected token [CREATE]",
      position: 24,
    });
    // The text is refused as a whole: the first statement did not run either.
    assert.equal((await get(q("SELECT * FROM a"))).status, 400);
  });
});

Deno.test("TIMESTAMP_NS: /exec JSON and /exp CSV print nine fraction digits (§2.3, §3.2)", async () => {
  await withApp(async (get) => {
    await get(q("CREATE TABLE n (ts TIMESTAMP_NS, v TIMESTAMP_NS) TIMESTAMP(ts)"));
    await get(q(
      "INSERT INTO n VALUES ('2024-01-01T00:00:00.123456789Z', '1969-12-31T23:59:59.999999999Z'), ('2024-01-01T00:00:01Z', null)",
    ));
    const body = await (await get(q("n"))).json();
    assert.deepEqual(body.columns, [{ name: "ts", type: "TIMESTAMP_NS" }, {
      name: "v",
      type: "TIMESTAMP_NS",
    }]);
    assert.equal(body.timestamp, 0);
    assert.deepEqual(body.dataset, [
      ["2024-01-01T00:00:00.123456789Z", "1969-12-31T23:59:59.999999999Z"],
      ["2024-01-01T00:00:01.000000000Z", null],
    ]);
    assert.equal(
      await (await get(`/exp?query=n`)).text(),
      '"ts","v"\r\n"2024-01-01T00:00:00.123456789Z","1969-12-31T23:59:59.999999999Z"\r\n' +
        '"2024-01-01T00:00:01.000000000Z",\r\n',
    );
  });
});

Deno.test("exec: ORDER BY keeps the designated timestamp only when it leads ascending (spec §18.2)", async () => {
  await withApp(async (get) => {
    await get(q("CREATE TABLE o (ts TIMESTAMP, s SYMBOL, v DOUBLE) TIMESTAMP(ts)"));
    await get(q("INSERT INTO o VALUES (1, 'b', 2), (2, 'a', 1), (3, 'b', 3)"));
    const tsOf = async (sql: string) => (await (await get(q(sql))).json()).timestamp;
    // QuestDB's generateOrderBy copies the metadata without the timestamp unless ts leads.
    assert.equal(await tsOf("SELECT ts, s FROM o ORDER BY s"), -1);
    assert.equal(await tsOf("SELECT ts, s, v FROM o ORDER BY v LIMIT 2"), -1);
    assert.equal(await tsOf("SELECT ts, s FROM o ORDER BY ts DESC"), -1);
    assert.equal(await tsOf("SELECT ts, s FROM o ORDER BY ts"), 0);
    assert.equal(await tsOf("SELECT s, ts FROM o ORDER BY ts, s"), 1);
  });
});
