/**
 * Every line the server writes is a log event `<UTC time> <level> <component> <message>`
 * (issue 22, docs/operations.md "Logs"): the start-up lines (which scripts and tests read by
 * their text), the listeners' own messages (an ILP line refused, a failed CSV import) and a
 * start refused for a bad setting. Nothing is printed past the logger.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [DIEAC] [a-z_]+ \S/;

// Deno itself prints this notice once when a handler reads request.signal; not the server's output.
const RUNTIME_NOTICE = /^Deno\.serve: request\.signal aborts on successful responses/;

function nonLogLines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "" && !LINE.test(l) && !RUNTIME_NOTICE.test(l));
}

Deno.test({
  name: "log: start-up lines and listener messages are log events with level and component",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const server = await startServer({
    ilp: true,
    pg: true,
    // The server's default: workers start with it and log when they are ready.
    env: { QDB_LOG_LEVEL: "debug", QDB_CAIRO_SQL_PARALLEL_WORKERS_WARM_UP: "true" },
  });
  try {
    // ILP over TCP: a malformed line is logged (line.log.message.on.error) and the connection closed.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
    await conn.write(new TextEncoder().encode("bad line without fields\n"));
    await conn.read(new Uint8Array(16)).catch(() => null);
    conn.close();
    // /imp: a CSV upload without its data part fails with a logged message.
    const form = new FormData();
    form.append("schema", "[]");
    await (await fetch(`${server.httpUrl}/imp?name=t`, { method: "POST", body: form })).text();
    await (await server.exec("select 1")).text();
    const deadline = Date.now() + 10_000;
    while (
      !(/ E ilp /.test(server.log()) && / I server parallel workers ready: 2/.test(server.log())) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }

    const log = server.log();
    assert.deepEqual(nonLogLines(log), [], "every line is a log event");
    for (
      const [component, text] of [
        ["http", "http listening on http://"],
        ["health", "health listening on http://"],
        ["pg", "pg listening on "],
        ["ilp", "ilp listening on "],
        ["server", "data root: "],
      ]
    ) {
      assert.match(log, new RegExp(`Z A ${component} ${text}`), `${component} start-up line`);
    }
    assert.match(log, /Z E ilp /, "the refused ILP line is logged by the ilp component");
    assert.match(log, /Z I server parallel workers ready: 2\n/, "the workers start with the server");
  } finally {
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }

  // A start refused for a bad setting says why on one critical line.
  const root = await Deno.makeTempDir({ prefix: "qdb_log_lines_" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "--root", root],
      env: { QDB_LOG_LEVEL: "advisory", QDB_PG_NET_BIND_TO: "127.0.0.1:notaport", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, text);
    assert.match(text, /Z C server cannot start: /);
    assert.deepEqual(nonLogLines(text), []);
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
