/**
 * The pending-connection set of issue 24 (server/pending_connections.ts): the deadline, the
 * per-address and total caps, and which connection a newcomer evicts.
 */
import assert from "node:assert/strict";
import { PendingConnections, pendingLimitsOf } from "../../server/pending_connections.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("over the per-address cap the oldest connection without progress is evicted", () => {
  const pending = new PendingConnections({ timeoutMs: 0, perAddress: 3, total: 0 });
  const dropped: string[] = [];
  const a1 = pending.admit("10.0.0.1", () => dropped.push("a1"));
  pending.admit("10.0.0.1", () => dropped.push("a2"));
  pending.admit("10.0.0.2", () => dropped.push("b1"));
  pending.admit("10.0.0.1", () => dropped.push("a3"));
  a1.progressed(); // a1 sent its start packet: a2 is the oldest stalled one
  pending.admit("10.0.0.1", () => dropped.push("a4"));
  assert.deepEqual(dropped, ["a2"]);
  pending.admit("10.0.0.1", () => dropped.push("a5"));
  assert.deepEqual(dropped, ["a2", "a3"]);
  assert.equal(pending.size, 4); // a1, b1, a4, a5: another address is untouched
  assert.equal(pending.dropped, 2);
});

Deno.test("when every pending connection progressed, the oldest goes; done ones are not counted", () => {
  const pending = new PendingConnections({ timeoutMs: 0, perAddress: 2, total: 0 });
  const dropped: string[] = [];
  const a = pending.admit("h", () => dropped.push("a"));
  const b = pending.admit("h", () => dropped.push("b"));
  a.progressed();
  b.progressed();
  pending.admit("h", () => dropped.push("c"));
  assert.deepEqual(dropped, ["a"]);
  b.done();
  b.done(); // idempotent
  pending.admit("h", () => dropped.push("d"));
  assert.deepEqual(dropped, ["a"]);
});

Deno.test("the total cap evicts across addresses", () => {
  const pending = new PendingConnections({ timeoutMs: 0, perAddress: 0, total: 2 });
  const dropped: string[] = [];
  pending.admit("x", () => dropped.push("x"));
  pending.admit("y", () => dropped.push("y"));
  pending.admit("z", () => dropped.push("z"));
  assert.deepEqual(dropped, ["x"]);
  assert.equal(pending.size, 2);
});

Deno.test("the deadline drops a connection that did not finish; a finished one stays", async () => {
  const pending = new PendingConnections({ timeoutMs: 50, perAddress: 0, total: 0 });
  const dropped: string[] = [];
  pending.admit("h", () => dropped.push("slow"));
  const quick = pending.admit("h", () => dropped.push("quick"));
  quick.done();
  await sleep(120);
  assert.deepEqual(dropped, ["slow"]);
  assert.equal(pending.size, 0);
});

Deno.test("limits come from <prefix>.timeout, .limit and .limit.per.address", () => {
  const values: Record<string, number> = { "pg.net.handshake.timeout": 700, "pg.net.handshake.limit": 9 };
  const config = { int: (key: string, fallback: number) => values[key] ?? fallback };
  assert.deepEqual(pendingLimitsOf(config, "pg.net.handshake"), { timeoutMs: 700, perAddress: 64, total: 9 });
});
