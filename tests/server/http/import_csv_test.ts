/** `/imp` CSV import through the handler in-process (spec/protocols.md §4). */
import assert from "node:assert/strict";
import { withIlpApp } from "./_ilp_app.ts";

function upload(csv: string, filename = "data.csv", schema?: unknown): RequestInit {
  const form = new FormData();
  if (schema) form.append("schema", JSON.stringify(schema));
  form.append("data", new File([csv], filename));
  return { method: "POST", body: form };
}

const CSV = "ts,sym,price,qty,ok,note\n" +
  "2024-01-01T00:00:00.000000Z,BTC,42000.5,3,true,first\n" +
  "2024-01-01T00:00:01.000000Z,ETH,2500,7,false,\n" +
  "2024-01-02T00:00:00.000000Z,BTC,42100,1,true,third\n";

Deno.test("imp infers the schema, uses the header and answers the JSON format", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request("/imp?name=trades&timestamp=ts&partitionBy=DAY&fmt=json", upload(CSV));
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      status: "OK",
      location: "trades",
      rowsRejected: 0,
      rowsImported: 3,
      header: true,
      partitionBy: "DAY",
      timestamp: "ts",
      columns: [
        { name: "ts", type: "TIMESTAMP", size: 8, errors: 0 },
        { name: "sym", type: "VARCHAR", size: 8, errors: 0 },
        { name: "price", type: "DOUBLE", size: 8, errors: 0 },
        { name: "qty", type: "INT", size: 4, errors: 0 },
        { name: "ok", type: "BOOLEAN", size: 1, errors: 0 },
        { name: "note", type: "VARCHAR", size: 8, errors: 0 },
      ],
    });
    assert.deepEqual(await t.rows("SELECT sym, price, qty, ok, note FROM trades"), [
      ["BTC", 42000.5, 3, true, "first"],
      ["ETH", 2500, 7, false, null],
      ["BTC", 42100, 1, true, "third"],
    ]);
  });
});

Deno.test("imp takes the table name from the file name and a given schema with a pattern", async () => {
  await withIlpApp(async (t) => {
    const csv = "when,v\n01/02/2024 10:00,1\n02/02/2024 11:30,2\n";
    const schema = [{ name: "when", type: "TIMESTAMP", pattern: "dd/MM/yyyy HH:mm" }, {
      name: "v",
      type: "LONG",
    }];
    const r = await t.request(
      "/imp?timestamp=when&partitionBy=MONTH&fmt=json",
      upload(csv, "readings.csv", schema),
    );
    const body = await r.json();
    assert.equal(body.status, "OK", JSON.stringify(body));
    assert.equal(body.location, "readings.csv");
    assert.deepEqual(await t.rows('SELECT "when", v FROM "readings.csv"'), [[1706781600000000n, 1n], [
      1706873400000000n,
      2n,
    ]]);
  });
});

Deno.test("imp atomicity: skipCol keeps rows with NULLs, skipRow drops them with their lines, abort stops", async () => {
  await withIlpApp(async (t) => {
    const csv = "a,b\n1,x\n2,y\nnope,z\n4,w\n";
    const schema = [{ name: "a", type: "INT" }];
    let body = await (await t.request("/imp?name=c1&fmt=json", upload(csv, "c.csv", schema))).json();
    assert.equal(body.rowsImported, 4);
    assert.equal(body.columns[0].errors, 1);
    assert.deepEqual(await t.rows("SELECT a FROM c1"), [[1], [2], [null], [4]]);
    body = await (await t.request("/imp?name=c2&fmt=json&atomicity=skipRow", upload(csv, "c.csv", schema)))
      .json();
    assert.equal(body.rowsImported, 3);
    assert.equal(body.rowsRejected, 1);
    assert.deepEqual(body.rejectedLines, [{ line: 4, error: "value does not fit its column" }]);
    body = await (await t.request("/imp?name=c3&fmt=json&atomicity=abort", upload(csv, "c.csv", schema)))
      .json();
    assert.match(body.status, /import aborted: .*\[line=4\]/);
    // The aborted chunk was never committed: no half-written table (here: none at all).
    assert.equal(t.engine.tableMeta("c3"), undefined);
  });
});

Deno.test("imp rejects lines with extra values unless skipLev, appends to existing tables and overwrites", async () => {
  await withIlpApp(async (t) => {
    const csv = "k,v\na,1\nb,2,extra\nc,3\n";
    let body = await (await t.request("/imp?name=e&fmt=json", upload(csv))).json();
    assert.equal(body.rowsImported, 2);
    assert.deepEqual(body.rejectedLines, [{ line: 3, error: "too many values [expected=2, actual=3]" }]);
    body = await (await t.request("/imp?name=e&fmt=json&skipLev=true&maxUncommitedRows=1", upload(csv)))
      .json();
    assert.equal(body.rowsImported, 3);
    assert.equal((await t.rows("SELECT count() FROM e"))[0][0], 5n);
    body = await (await t.request("/imp?name=e&fmt=json&overwrite=true", upload("k,v\nz,9\n"))).json();
    assert.equal(body.rowsImported, 1);
    assert.deepEqual(await t.rows("SELECT k, v FROM e"), [["z", 9]]);
  });
});

Deno.test("imp rejects a record whose quote never closes, at the line where it opened", async () => {
  await withIlpApp(async (t) => {
    const csv = 'a,b\n1,x\n2,"never closed\n3,y\n4,z\n';
    let body = await (await t.request("/imp?name=q1&fmt=json", upload(csv))).json();
    assert.equal(body.status, "OK");
    assert.equal(body.rowsImported, 1);
    assert.equal(body.rowsRejected, 1);
    assert.deepEqual(body.rejectedLines, [{
      line: 3,
      error: "unclosed quoted field: the rest of the file was read as its value",
    }]);
    // The swallowed text does not shape the inferred types.
    assert.deepEqual(body.columns.map((c: { type: string }) => c.type), ["INT", "VARCHAR"]);
    assert.deepEqual(await t.rows("SELECT a, b FROM q1"), [[1, "x"]]);
    body = await (await t.request("/imp?name=q2&fmt=json&atomicity=abort", upload(csv))).json();
    assert.match(body.status, /^import aborted: unclosed quoted field.*\[line=3\]$/);
    // A closed quote spanning lines is one well-formed value.
    body = await (await t.request("/imp?name=q3&fmt=json", upload('a,b\n1,"two\nlines"\n2,y\n'))).json();
    assert.equal(body.rowsRejected, 0);
    assert.deepEqual(await t.rows("SELECT b FROM q3"), [["two\nlines"], ["y"]]);
  });
});

Deno.test("imp reports request-level failures as 200 with a status", async () => {
  await withIlpApp(async (t) => {
    let r = await t.request("/imp?fmt=json&partitionBy=DAY", upload("a\n1\n"));
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      status: "when specifying partitionBy you must also specify timestamp",
    });
    r = await t.request("/imp?fmt=json&partitionBy=SECOND&timestamp=a", upload("a\n1\n"));
    assert.deepEqual(await r.json(), { status: "invalid partitionBy" });
    const form = new FormData();
    form.append("other", "x");
    r = await t.request("/imp?fmt=json", { method: "POST", body: form });
    assert.deepEqual(await r.json(), { status: "invalid value in 'Content-Disposition' multipart header" });
    r = await t.request("/imp?name=x", upload(""));
    assert.equal(await r.text(), "not enough lines [table=x]");
  });
});

Deno.test("imp answers the text table without fmt=json", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request("/imp?name=txt", upload("a,b\n1,x\n"));
    const text = await r.text();
    assert.match(text, /^\+-+\+\r\n/);
    assert.match(text, /Rows imported\s+\|\s+1/);
    assert.match(text, /\|\s+0\s+\|\s+a\s+\|\s+INT\s+\|\s+0\s+\|/);
  });
});
