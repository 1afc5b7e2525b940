/** ILP over HTTP through the handler in-process (spec/protocols.md §9, §10). */
import assert from "node:assert/strict";
import { withIlpApp } from "./_ilp_app.ts";

const post = (body: BodyInit, _path = "/write", headers: Record<string, string> = {}) => ({
  method: "POST",
  body,
  headers,
});

Deno.test("write creates the table with the documented types and answers 204", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request(
      "/write",
      post(
        'trades,symbol=BTC,side=buy price=42000.5,qty=3i,note="first",ok=t,at=1700000000000000t 1700000000000000000\n' +
          "trades,symbol=ETH,side=sell price=2500,qty=-7i,ok=false 1700000001000000000",
      ),
    );
    assert.equal(r.status, 204);
    assert.equal(await r.text(), "");
    assert.deepEqual(await t.columns("trades"), [
      ["symbol", "SYMBOL"],
      ["side", "SYMBOL"],
      ["price", "DOUBLE"],
      ["qty", "LONG"],
      ["note", "VARCHAR"],
      ["ok", "BOOLEAN"],
      ["at", "TIMESTAMP"],
      ["timestamp", "TIMESTAMP"],
    ]);
    assert.deepEqual(await t.rows("SELECT symbol, side, price, qty, note, ok, at, timestamp FROM trades"), [
      ["BTC", "buy", 42000.5, 3n, "first", true, 1700000000000000n, 1700000000000000n],
      ["ETH", "sell", 2500, -7n, null, false, null, 1700000001000000n],
    ]);
  });
});

Deno.test("write reports the first bad line and commits none of the request", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request("/write", post("m a=1i 1000\nm a=2i 2000\nm a=1x 3000\n"));
    assert.equal(r.status, 400);
    assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8");
    const body = await r.json();
    assert.equal(body.code, "invalid");
    assert.equal(
      body.message,
      "failed to parse line protocol:errors encountered on line(s):\nerror in line 3: Could not parse entire line, field value is invalid. Field: a; value: 1x",
    );
    assert.equal(body.line, 3);
    assert.match(body.errorId, /^[0-9a-f]{12}-\d+$/);
    assert.equal(t.engine.tableMeta("m"), undefined);
  });
});

Deno.test("write rejects a type mismatch with the line and keeps the table unchanged", async () => {
  await withIlpApp(async (t) => {
    assert.equal((await t.request("/write", post("m v=1i 1000\n"))).status, 204);
    const r = await t.request("/write", post("m v=2i 2000\nm v=2.5 3000\n"));
    assert.equal(r.status, 400);
    const body = await r.json();
    assert.equal(body.line, 2);
    assert.match(
      body.message,
      /error in line 2: table: m, column: v; cast error from protocol type: DOUBLE to column type: LONG/,
    );
    assert.deepEqual(await t.rows("SELECT v FROM m"), [[1n]]);
  });
});

Deno.test("write adds new columns to an existing table and casts integers to its types", async () => {
  await withIlpApp(async (t) => {
    await t.engine.execute(
      "CREATE TABLE w (ts TIMESTAMP, i INT, f FLOAT, d DOUBLE, s STRING, sym SYMBOL) TIMESTAMP(ts) PARTITION BY DAY",
      (await import("../../../engine/mod.ts")).adminSession(),
    );
    const r = await t.request("/write", post('w,sym=a i=5i,f=1.5,d=7i,s="x",extra=9i 1000000\n'));
    assert.equal(r.status, 204, await r.text());
    assert.deepEqual(await t.rows("SELECT ts, i, f, d, s, sym, extra FROM w"), [[
      1000n,
      5,
      1.5,
      7,
      "x",
      "a",
      9n,
    ]]);
  });
});

Deno.test("write honours precision and suffixed designated timestamps", async () => {
  await withIlpApp(async (t) => {
    for (
      const [p, ts] of [["s", "1700000000"], ["ms", "1700000000000"], ["u", "1700000000000000"], [
        "ns",
        "1700000000000000000",
      ], ["h", "472222"]]
    ) {
      const r = await t.request(`/write?precision=${p}`, post(`p,k=${p} v=1 ${ts}\n`));
      assert.equal(r.status, 204, p);
    }
    assert.equal(
      (await t.request("/write", post("p,k=t v=1 1700000000000000t\np,k=m v=1 1700000000000m\n"))).status,
      204,
    );
    const rows = await t.rows("SELECT k, timestamp FROM p ORDER BY k");
    const byKey = Object.fromEntries(rows.map((r) => [r[0], r[1]]));
    assert.equal(byKey.s, 1700000000000000n);
    assert.equal(byKey.ms, 1700000000000000n);
    assert.equal(byKey.u, 1700000000000000n);
    assert.equal(byKey.ns, 1700000000000000n);
    assert.equal(byKey.t, 1700000000000000n);
    assert.equal(byKey.m, 1700000000000000n);
    assert.equal(byKey.h, 472222n * 3600000000n);
    const bad = await t.request("/write?precision=x", post("p v=1\n"));
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "not supported");
  });
});

Deno.test("write inflates gzip bodies and refuses other encodings", async () => {
  await withIlpApp(async (t) => {
    const gz = await new Response(
      new Blob(["g v=1i 1000\ng v=2i 2000\n"]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer();
    assert.equal((await t.request("/write", post(gz, "/write", { "content-encoding": "gzip" }))).status, 204);
    assert.deepEqual(await t.rows("SELECT v FROM g"), [[1n], [2n]]);
    const r = await t.request("/write", post("g v=3i\n", "/write", { "content-encoding": "br" }));
    assert.equal(r.status, 415);
    const bad = await t.request("/write", post("not gzip", "/write", { "content-encoding": "gzip" }));
    assert.equal(bad.status, 400);
  });
});

Deno.test("write answers 404 to other methods and 413 to oversized bodies", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request("/write", { method: "GET" });
    assert.equal(r.status, 404);
    assert.equal((await r.json()).code, "invalid");
    const big = await t.request("/write", post("x v=1i\n".repeat(200)));
    assert.equal(big.status, 413);
    assert.equal((await big.json()).code, "request too large");
  }, { "line.http.max.recv.buffer.size": "1000" });
});

Deno.test("api/v2/write accepts Influx line protocol with a precision", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request(
      "/api/v2/write?org=o&bucket=b&precision=ms",
      post("cpu,host=a usage=0.5 1700000000000\n"),
    );
    assert.equal(r.status, 204);
    assert.deepEqual(await t.rows("SELECT host, usage, timestamp FROM cpu"), [["a", 0.5, 1700000000000000n]]);
  });
});

Deno.test("write refuses invalid UTF-8 and invalid names without creating anything", async () => {
  await withIlpApp(async (t) => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode("u,t="),
      0xff,
      0xfe,
      ...new TextEncoder().encode(" v=1\n"),
    ]);
    const r = await t.request("/write", post(bytes));
    assert.equal(r.status, 400);
    const bad = await t.request("/write", post("bad?name v=1\n"));
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).message, /invalid table name/);
    const col = await t.request("/write", post("ok bad.col=1\n"));
    assert.equal(col.status, 400);
    assert.match((await col.json()).message, /invalid column name: bad.col/);
    assert.equal(t.engine.tableMetas().length, 0);
  });
});

Deno.test("write accepts multipart bodies and rows for several tables", async () => {
  await withIlpApp(async (t) => {
    const form = new FormData();
    form.append("a", new Blob(["t1 v=1i 1000\nt2 v=2i 1000"]));
    form.append("b", new Blob(["t1 v=3i 2000\n"]));
    assert.equal((await t.request("/write", { method: "POST", body: form })).status, 204);
    assert.deepEqual(await t.rows("SELECT v FROM t1"), [[1n], [3n]]);
    assert.deepEqual(await t.rows("SELECT v FROM t2"), [[2n]]);
  });
});
