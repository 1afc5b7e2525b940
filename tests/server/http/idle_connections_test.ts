/**
 * The set of HTTP keep-alive connections idle between requests (server/http/idle_connections.ts,
 * issue 24): the sweep closes those idle past the deadline and no other, a newcomer over the
 * per-address or total cap closes the longest idle one, and a connection that left is not closed.
 */
import assert from "node:assert/strict";
import { IdleConnections } from "../../../server/http/idle_connections.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` or `ms` passed; answers the milliseconds waited. */
async function until(done: () => boolean, ms: number): Promise<number> {
  const began = Date.now();
  while (!done() && Date.now() - began < ms) await sleep(5);
  return Date.now() - began;
}

Deno.test("idle past the deadline: closed by the sweep; one that left in time is not", async () => {
  const idle = new IdleConnections({ timeoutMs: 1000, perAddress: 0, total: 0 });
  const closed: string[] = [];
  const began = Date.now();
  idle.enter("h", () => closed.push("a"));
  const b = idle.enter("h", () => closed.push("b"));
  await sleep(600);
  idle.enter("h", () => closed.push("c"));
  b.leave(); // its next request arrived
  await until(() => closed.length > 0, 3000);
  const first = Date.now() - began;
  // a went idle 600 ms before c: it is closed alone (unless the machine stalled for that long).
  assert.deepEqual(closed, ["a"], `after ${first} ms`);
  assert.ok(first >= 1000, `a was closed after ${first} ms, before its deadline`);
  await until(() => closed.length > 1, 3000);
  assert.deepEqual(closed, ["a", "c"]);
  assert.ok(Date.now() - began >= 1600, "c was closed after its deadline");
  assert.equal(idle.size, 0);
  assert.equal(idle.closed, 2);
  idle.stop();
});

Deno.test("over a cap the longest idle connection of that address (or overall) is closed", () => {
  const idle = new IdleConnections({ timeoutMs: 0, perAddress: 2, total: 3 });
  const closed: string[] = [];
  idle.enter("10.0.0.1", () => closed.push("a1"));
  idle.enter("10.0.0.2", () => closed.push("b1"));
  idle.enter("10.0.0.1", () => closed.push("a2"));
  idle.enter("10.0.0.1", () => closed.push("a3"));
  assert.deepEqual(closed, ["a1"]); // per address
  idle.enter("10.0.0.3", () => closed.push("c1"));
  assert.deepEqual(closed, ["a1", "b1"]); // total: b1 is now the longest idle
  assert.equal(idle.size, 3);
  idle.stop();
});

Deno.test("a close callback that throws does not stop the sweep", async () => {
  const idle = new IdleConnections({ timeoutMs: 50, perAddress: 0, total: 0 });
  let closed = 0;
  idle.enter("h", () => {
    closed++;
    throw new Error("already closed");
  });
  idle.enter("h", () => void closed++);
  await until(() => closed === 2, 2000);
  assert.equal(closed, 2);
  idle.stop();
});
