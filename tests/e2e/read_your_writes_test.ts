/**
 * Issue 10: every acknowledged write is readable by the very next query on any endpoint (no
 * acknowledged-but-invisible window, unlike QuestDB's asynchronous WAL apply), and an ILP
 * error comes back in the response of the request that carried the bad line. Writes over REST
 * (INSERT, UPDATE, DELETE, /imp), pgwire (simple and extended INSERT, COPY) and ILP over HTTP
 * are each followed at once by a read on the other endpoints. ILP over TCP has no
 * acknowledgement at all (commits follow line.tcp.commit.interval), so it is not part of this.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "read your writes: an acknowledged write is visible to the next query on every endpoint",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      host: "127.0.0.1",
      port: server.pgPort,
      user: "admin",
      password: "quest",
    });
    await client.connect();
    const rest = async (sql: string) => {
      const r = await server.exec(sql);
      const body = await r.text();
      assert.equal(r.status, 200, `${sql}: ${body}`);
      return JSON.parse(body);
    };
    const restCount = async () => (await rest("select count() from ryw")).dataset[0][0] as number;
    const pgCount = async () => Number((await client.query("select count() c from ryw")).rows[0].c);
    const expCount = async () => {
      const text =
        await (await fetch(`${server.httpUrl}/exp?query=${encodeURIComponent("select count() from ryw")}`))
          .text();
      return Number(text.trim().split("\n")[1]);
    };
    try {
      await rest(
        "create table ryw (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal dedup upsert keys(ts, k)",
      );
      let expected = 0;
      for (let i = 0; i < 40; i++) {
        const ts = `2024-01-${String(1 + (i % 28)).padStart(2, "0")}T00:00:${
          String(i % 60).padStart(2, "0")
        }.000000Z`;
        switch (i % 4) {
          case 0:
            await rest(`insert into ryw values ('${ts}', 'r${i}', ${i})`);
            break;
          case 1:
            await client.query(`insert into ryw values ('${ts}', 'p${i}', ${i})`);
            break;
          case 2:
            await client.query("insert into ryw values ($1, $2, $3)", [ts, `x${i}`, i]);
            break;
          default: {
            const nanos = BigInt(Date.parse(ts)) * 1_000_000n;
            const r = await fetch(`${server.httpUrl}/write`, {
              method: "POST",
              body: `ryw,k=i${i} v=${i}i ${nanos}\n`,
            });
            assert.equal(r.status, 204, await r.text());
          }
        }
        expected++;
        // The next query, on each endpoint in turn, already sees the row.
        const seen = [restCount, pgCount, expCount][i % 3];
        assert.equal(await seen(), expected, `write ${i} not visible at once`);
      }

      // UPDATE and DELETE over REST, seen by pgwire at once; over pgwire, seen by REST at once.
      await rest("update ryw set v = -1 where k = 'r0'");
      assert.equal(Number((await client.query("select v from ryw where k = 'r0'")).rows[0].v), -1);
      await client.query("update ryw set v = -2 where k = 'p1'");
      assert.deepEqual((await rest("select v from ryw where k = 'p1'")).dataset, [[-2]]);
      await rest("delete from ryw where k = 'r0'");
      assert.equal(await pgCount(), --expected);
      await client.query("delete from ryw where k = 'p1'");
      assert.equal(await restCount(), --expected);

      // CSV import: the reply means the rows are there.
      const csv = new FormData();
      csv.append("data", new Blob(["ts,k,v\n2024-02-01T00:00:00.000000Z,imp,7\n"]), "ryw.csv");
      const imp = await fetch(`${server.httpUrl}/imp?name=ryw&timestamp=ts&fmt=json`, {
        method: "POST",
        body: csv,
      });
      assert.equal(imp.status, 200, await imp.text());
      assert.equal(await pgCount(), ++expected);

      // A bad ILP line: the error is in the same response, with its line, and nothing of the
      // request is committed.
      const bad = await fetch(`${server.httpUrl}/write`, {
        method: "POST",
        body: "ryw,k=ok v=1i 1706745600000000000\nryw,k=bad v=notanumber 1706745600000000000\n",
      });
      assert.equal(bad.status, 400);
      const error = await bad.json();
      assert.equal(error.line, 2, JSON.stringify(error));
      assert.equal(await restCount(), expected);
    } finally {
      await client.end().catch(() => {});
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
