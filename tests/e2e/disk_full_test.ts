/**
 * Running out of space (issue 9 "Faults"): the server runs with every file capped (a file-size
 * limit stands in for a full disk), inserts grow a column file past the cap, and the server
 * must answer with a clear error, keep serving, keep every acknowledged row, and accept writes
 * again once space returns (a restart without the cap).
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

const ROWS = 2_000;

function insertSql(batch: number): string {
  const values = Array.from({ length: ROWS }, (_, i) => {
    const n = batch * ROWS + i;
    return `(${1_700_000_000_000_000 + n * 1000}, ${n}, 'padding-${n}-${"x".repeat(40)}')`;
  });
  return `INSERT INTO full VALUES ${values.join(",")}`;
}

/** POSTs a statement (the inserts are too long for a URL). */
function post(url: string, sql: string): Promise<Response> {
  return fetch(`${url}/exec`, { method: "POST", body: sql });
}

Deno.test("a full disk gives clean errors, loses no acknowledged row, and the table works when space returns", async () => {
  let server = await startServer({ fileSizeLimitBytes: 1024 * 1024 });
  const root = server.root;
  try {
    const created = await server.exec(
      "CREATE TABLE full (ts TIMESTAMP, n LONG, s STRING) TIMESTAMP(ts) PARTITION BY YEAR",
    );
    assert.equal(created.status, 200, await created.text());
    let acked = 0;
    let error = "";
    for (let batch = 0; batch < 100 && !error; batch++) {
      const r = await post(server.httpUrl, insertSql(batch));
      const body = await r.json();
      if (r.status === 200) acked++;
      else error = body.error;
    }
    assert.ok(error, "the inserts hit the cap");
    console.log(`${acked} inserts acknowledged, then: ${error}`);
    assert.match(error, /too large|no space|EFBIG|disk/i, `a clear error: ${error}`);
    assert.doesNotMatch(error, /undefined|\[object|at file:/, "no internals in the error");
    // Still serving, with exactly the acknowledged rows.
    const count = await (await server.exec("SELECT count() c, max(n) m FROM full")).json();
    assert.deepEqual(count.dataset, [[acked * ROWS, acked * ROWS - 1]]);
    // Another write fails cleanly again rather than corrupting anything.
    const again = await post(server.httpUrl, insertSql(acked));
    assert.notEqual(again.status, 200);
    await again.body?.cancel();
    await server.stop();

    server = await startServer({ root });
    const after = await (await server.exec("SELECT count() c, count_distinct(n) d FROM full")).json();
    assert.deepEqual(
      after.dataset,
      [[acked * ROWS, acked * ROWS]],
      "restart keeps exactly the acknowledged rows",
    );
    const more = await post(server.httpUrl, insertSql(acked));
    assert.equal(more.status, 200, await more.text());
    const last = await (await server.exec("SELECT count() c, max(n) m FROM full")).json();
    assert.deepEqual(
      last.dataset,
      [[(acked + 1) * ROWS, (acked + 1) * ROWS - 1]],
      "writes work once space returns",
    );
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
