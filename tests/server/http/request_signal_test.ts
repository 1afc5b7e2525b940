/**
 * server/http/request_signal.ts: an /exec statement's signal follows the request's only once
 * the handler has run `linkMs` (reading request.signal costs every response a DOMException),
 * and never after the handler answered.
 */
import assert from "node:assert/strict";
import { deferredSignal } from "../../../server/http/request_signal.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("deferredSignal: a client gone while the statement runs aborts it after the link delay", async () => {
  const client = new AbortController();
  const link = deferredSignal(new Request("http://x/exec", { signal: client.signal }), 5);
  try {
    assert.equal(link.signal.aborted, false);
    await sleep(20);
    client.abort();
    assert.equal(link.signal.aborted, true, "linked after 5 ms: the disconnect is followed");
  } finally {
    link.done();
  }
});

Deno.test("deferredSignal: a disconnect before the link is seen when the link is made", async () => {
  const client = new AbortController();
  const link = deferredSignal(new Request("http://x/exec", { signal: client.signal }), 5);
  client.abort();
  assert.equal(link.signal.aborted, false, "request.signal is not read before the delay");
  await sleep(20);
  assert.equal(link.signal.aborted, true);
  link.done();
});

Deno.test("deferredSignal: a handler that answered in time never links", async () => {
  const client = new AbortController();
  const link = deferredSignal(new Request("http://x/exec", { signal: client.signal }), 5);
  link.done();
  await sleep(20);
  client.abort();
  assert.equal(link.signal.aborted, false);
});

Deno.test("deferredSignal: requests share one timer; each links at its own delay, done() drops only its own", async () => {
  const clients = [new AbortController(), new AbortController(), new AbortController()];
  const links = clients.map((c, i) =>
    deferredSignal(new Request("http://x/exec", { signal: c.signal }), 5 + i * 30)
  );
  links[1].done();
  await sleep(15);
  clients.forEach((c) => c.abort());
  assert.deepEqual(
    links.map((l) => l.signal.aborted),
    [true, false, false],
    "only the first is due after 15 ms",
  );
  await sleep(80);
  assert.deepEqual(
    links.map((l) => l.signal.aborted),
    [true, false, true],
    "the third links at 65 ms and sees it",
  );
  links.forEach((l) => l.done());
});
