/**
 * Plans compared as text (STYLE.md §5 "Trees are compared as text"): the rewrites that
 * prune columns, push timestamp intervals into the scan and read backwards for
 * ORDER BY ts DESC show in EXPLAIN.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue } from "../../../engine/mod.ts";

const root = await Deno.makeTempDir({ prefix: "qdb_explain_" });
const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
await engine.execute(
  "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, price DOUBLE, qty LONG) TIMESTAMP(ts) PARTITION BY DAY",
  adminSession(),
);

async function explain(sql: string): Promise<string> {
  const out = await engine.execute(`EXPLAIN ${sql}`, adminSession());
  assert.equal(out.kind, "rows");
  const lines: string[] = [];
  if (out.kind === "rows") {
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) lines.push(String(readValue(b.columns[0], i)));
    }
  }
  return lines.join("\n");
}

Deno.test("explain shows a scan narrowed to the columns a query reads", async () => {
  assert.equal(
    await explain("SELECT avg(price) FROM t"),
    [
      "VirtualRecord columns: avg(price)",
      "    GroupBy values: avg [wasm kernels, partition stats]",
      "        DataFrame table: t columns: price",
    ].join("\n"),
  );
});

Deno.test("explain shows timestamp filters as scan intervals and other filters kept", async () => {
  assert.equal(
    await explain("SELECT qty FROM t WHERE ts IN '2024-01-15' AND s = 'a'"),
    [
      "VirtualRecord columns: qty",
      "    Filter [wasm kernels]",
      "        DataFrame table: t columns: s,qty intervals: 1",
    ]
      .join("\n"),
  );
});

Deno.test("explain shows ORDER BY ts DESC LIMIT as a backward scan without a sort", async () => {
  assert.equal(
    await explain("SELECT ts, price FROM t ORDER BY ts DESC LIMIT 10"),
    ["Limit", "    VirtualRecord columns: ts,price", "        DataFrame table: t columns: ts,price backward"]
      .join("\n"),
  );
});

Deno.test("explain shows a sort for a non-timestamp key", async () => {
  assert.equal(
    await explain("SELECT price FROM t ORDER BY price"),
    [
      "Sort [radix permutation] keys: price",
      "    VirtualRecord columns: price",
      "        DataFrame table: t columns: price",
    ]
      .join("\n"),
  );
});

Deno.test("explain suite closes its engine", async () => {
  await engine.close();
  await Deno.remove(root, { recursive: true });
});

Deno.test("explain names the SAMPLE BY operator and a filter run by the WASM kernels", async () => {
  const first = async (sql: string) =>
    (await explain(sql)).split("\n").find((l) => l.includes("SampleBy"))?.trim();
  assert.equal(
    await first("SELECT ts, s, avg(price), max(qty) FROM t SAMPLE BY 1h"),
    "SampleBy [keyed wasm]",
  );
  assert.equal(
    await first("SELECT ts, avg(price), count() FROM t SAMPLE BY 1h"),
    "SampleBy [wasm, block memo]",
  );
  // A key that is not a SYMBOL column, an aggregate the kernels lack, FILL: the hash aggregation.
  assert.equal(await first("SELECT ts, qty, avg(price) FROM t SAMPLE BY 1h"), "SampleBy [hash]");
  assert.equal(await first("SELECT ts, s, stddev(price) FROM t SAMPLE BY 1h"), "SampleBy [hash]");
  assert.equal(await first("SELECT ts, s, avg(price) FROM t SAMPLE BY 1h FILL(NULL)"), "SampleBy [hash]");
  // Kernel predicates over a scan run in WASM; arithmetic runs as a generated batch loop.
  assert.match(await explain("SELECT ts FROM t WHERE price > 3 AND s = 'a'"), /Filter \[wasm kernels\]/);
  assert.match(await explain("SELECT ts FROM t WHERE price * 2 > qty"), /Filter \[batch loop\]/);
  // What has no batch form is marked as evaluated row by row (filters and computed columns).
  assert.match(
    await explain("SELECT ts FROM t WHERE concat(s, qty) = 'a1' OR price > qty"),
    /Filter \[row\]/,
  );
  assert.match(
    await explain("SELECT price * 2 p, s, rnd_double() r FROM t"),
    /VirtualRecord columns: p,s,r \[row: r\]/,
  );
  assert.match(
    await explain("SELECT price * 2 p, hour(ts) h FROM t"),
    /VirtualRecord columns: p,h \[batch loops\]/,
  );
});

Deno.test("explain of INSERT, UPDATE and CREATE TABLE: a line naming the statement over its query's plan", async () => {
  assert.equal(await explain("INSERT INTO t (ts, qty) VALUES (0, 1)"), "Insert into table: t");
  assert.equal(await explain("CREATE TABLE nt (l LONG)"), "Create table: nt");
  const lines = (await explain("CREATE TABLE nt AS (SELECT qty FROM t)")).split("\n");
  assert.equal(lines[0], "Create table: nt");
  assert.ok(lines.slice(1).every((l) => l.startsWith("    ")) && lines.length > 1);
  assert.match(
    await explain("INSERT INTO t (ts, qty) SELECT ts, qty FROM t"),
    /^Insert into table: t\n {4}\S/,
  );
  assert.match(await explain("UPDATE t SET qty = 1 WHERE price > 2"), /^Update table: t\n[^]*Filter/);
  // Nothing was written or created.
  const out = await engine.execute("SELECT count() FROM t", adminSession());
  assert.equal(out.kind, "rows");
  await assert.rejects(() => engine.execute("SELECT * FROM nt", adminSession()), /table does not exist/);
  await assert.rejects(() => explain("INSERT INTO nope VALUES (1)"), /table does not exist \[table=nope\]/);
});
