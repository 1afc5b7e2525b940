/** ILP over HTTP with bodies large enough to parse on the worker pool (server/line_protocol/parse_pool.ts). */
import assert from "node:assert/strict";
import { withIlpApp } from "./_ilp_app.ts";

/** About 2 MiB of lines, over the handler's threshold for parsing on a worker. */
function bigBody(rows: number, bad?: { line: number; text: string }): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `trades,symbol=SYM${String(i % 15).padStart(3, "0")},side=${i % 2 ? "buy" : "sell"} ` +
        `price=${(i % 1000) / 4},amount=0.${i % 9999},qty=${i}i,note="n${i % 7}" ${
          1704067200000000000 + i * 1000
        }`,
    );
  }
  if (bad) lines[bad.line - 1] = bad.text;
  return lines.join("\n") + "\n";
}

Deno.test("a large body commits every row through the worker pool", async () => {
  await withIlpApp(async (t) => {
    const body = bigBody(20_000);
    assert.ok(body.length > 1024 * 1024);
    const r = await t.request("/write", { method: "POST", body });
    assert.equal(r.status, 204);
    assert.deepEqual(await t.rows("SELECT count(), sum(qty), count_distinct(symbol) FROM trades"), [
      [20000n, 199990000n, 15n],
    ]);
    assert.deepEqual(
      await t.rows("SELECT symbol, side, price, amount, qty, note, timestamp FROM trades WHERE qty = 12345"),
      [["SYM000", "buy", 86.25, 0.2346, 12345n, "n4", 1704067200012345n]],
    );
  });
});

Deno.test("a bad line in a large body gets its number and commits nothing", async () => {
  await withIlpApp(async (t) => {
    const r = await t.request("/write", {
      method: "POST",
      body: bigBody(20_000, { line: 15_001, text: "trades,symbol=X price=1x" }),
    });
    assert.equal(r.status, 400);
    const body = await r.json();
    assert.equal(body.line, 15001);
    assert.equal(
      body.message,
      "failed to parse line protocol:errors encountered on line(s):\nerror in line 15001: Could not parse entire line, field value is invalid. Field: price; value: 1x",
    );
    assert.equal(t.engine.tableMeta("trades"), undefined);
  });
});
