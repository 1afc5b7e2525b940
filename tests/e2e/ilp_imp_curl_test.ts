/** curl uploads a CSV to `/imp` of the real server; the rows are queryable (spec/protocols.md §4). */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "curl uploads a CSV to /imp and the rows are queryable with their types",
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer();
    const dir = await Deno.makeTempDir({ prefix: "qdb_imp_curl_" });
    try {
      const file = `${dir}/weather.csv`;
      await Deno.writeTextFile(
        file,
        "ts,city,temp\n2024-01-01T00:00:00Z,Oslo,-3.5\n2024-01-01T01:00:00Z,Rome,11\nbad,Paris,7\n",
      );
      const out = await new Deno.Command("curl", {
        args: [
          "-sS",
          "-F",
          `data=@${file}`,
          `${server.httpUrl}/imp?timestamp=ts&partitionBy=DAY&fmt=json&atomicity=skipRow`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
      const body = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.equal(body.status, "OK");
      assert.equal(body.location, "weather.csv");
      assert.equal(body.rowsImported, 2);
      assert.equal(body.rowsRejected, 1);
      const r = await server.exec('SELECT city, temp, ts FROM "weather.csv"');
      const q = await r.json();
      assert.deepEqual(q.columns.map((c: { type: string }) => c.type), ["VARCHAR", "DOUBLE", "TIMESTAMP"]);
      assert.deepEqual(q.dataset, [["Oslo", -3.5, "2024-01-01T00:00:00.000000Z"], [
        "Rome",
        11,
        "2024-01-01T01:00:00.000000Z",
      ]]);
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
