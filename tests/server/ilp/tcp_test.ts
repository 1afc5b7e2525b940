/** ILP over TCP in-process: commits on disconnect, by time and by row count; bad input (spec/protocols.md §11). */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, type Value } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { startIlp } from "../../../server/ilp/mod.ts";

interface Ctx {
  send(text: string | Uint8Array, opts?: { keepOpen?: boolean }): Promise<Deno.TcpConn>;
  rows(sql: string): Promise<Value[][]>;
  waitRows(sql: string, count: number): Promise<Value[][]>;
  engine: Engine;
}

async function withIlp(fn: (c: Ctx) => Promise<void>, conf: Record<string, string> = {}) {
  const root = await Deno.makeTempDir({ prefix: "qdb_ilp_tcp_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const ilp = await startIlp(
    engine,
    new Config({ "line.tcp.net.bind.to": "127.0.0.1:0", "line.log.message.on.error": "false", ...conf }, {}),
  );
  const rows = async (sql: string) => {
    if (!engine.tableMeta(sql.match(/FROM (\w+)/)![1])) return [];
    const out = await engine.execute(sql, adminSession());
    const result: Value[][] = [];
    if (out.kind === "rows") {
      for await (const b of out.batches) {
        for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
      }
    }
    return result;
  };
  const open: Deno.TcpConn[] = [];
  try {
    await fn({
      engine,
      rows,
      send: async (text, opts = {}) => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: ilp.port });
        open.push(conn);
        const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
        for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
        if (!opts.keepOpen) conn.close();
        return conn;
      },
      waitRows: async (sql, count) => {
        const deadline = Date.now() + 5000;
        for (;;) {
          const r = await rows(sql);
          if (r.length >= count || Date.now() > deadline) return r;
          await new Promise((res) => setTimeout(res, 20));
        }
      },
    });
  } finally {
    for (const c of open) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await ilp.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("tcp commits the rows of a connection when it closes", async () => {
  await withIlp(async (c) => {
    await c.send("m,k=a v=1i,d=1.5 1700000000000000000\nm,k=b v=2i,d=2.5 1700000001000000000\n");
    const rows = await c.waitRows("SELECT k, v, d, timestamp FROM m", 2);
    assert.deepEqual(rows, [["a", 1n, 1.5, 1700000000000000n], ["b", 2n, 2.5, 1700000001000000n]]);
  });
});

Deno.test("tcp commits by time while the connection stays open", async () => {
  await withIlp(async (c) => {
    await c.send("t v=1i 1000000000\n", { keepOpen: true });
    const rows = await c.waitRows("SELECT v FROM t", 1);
    assert.deepEqual(rows, [[1n]]);
  }, { "line.tcp.commit.interval.default": "50" });
});

Deno.test("tcp commits by row count", async () => {
  await withIlp(async (c) => {
    let text = "";
    for (let i = 0; i < 1000; i++) text += `r v=${i}i ${1000000000 + i * 1000}\n`;
    await c.send(text, { keepOpen: true });
    // The table may become visible before the first batch of rows does: poll the count.
    let count = 0n;
    for (let i = 0; i < 100 && count < 100n; i++) {
      const rows = await c.waitRows("SELECT count() FROM r", 1);
      count = rows[0][0] as bigint;
      if (count < 100n) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(count >= 100n, `committed ${count} rows with the connection still open`);
  }, { "cairo.max.uncommitted.rows": "100", "line.tcp.commit.interval.default": "60000" });
});

Deno.test("tcp keeps the lines before a bad line, then disconnects", async () => {
  await withIlp(async (c) => {
    const conn = await c.send("b v=1i 1000\nb v=2i 2000\nb v=oops 3000\nb v=4i 4000\n", { keepOpen: true });
    const n = await conn.read(new Uint8Array(16)).catch(() => null);
    assert.equal(n, null, "server closes the connection");
    assert.deepEqual(await c.waitRows("SELECT v FROM b", 2), [[1n], [2n]]);
  });
});

Deno.test("tcp rejects a type mismatch per line and keeps the earlier lines", async () => {
  await withIlp(async (c) => {
    await c.send("x v=1i 1000\n");
    await c.waitRows("SELECT v FROM x", 1);
    await c.send('x v=2i 2000\nx v="str" 3000\nx v=4i 4000\n');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await c.rows("SELECT v FROM x"), [[1n], [2n]]);
  });
});

Deno.test("tcp drops an incomplete last line when the client disconnects mid-line", async () => {
  await withIlp(async (c) => {
    await c.send("p v=1i 1000\np v=2i 2000\np v=3");
    assert.deepEqual(await c.waitRows("SELECT v FROM p", 2), [[1n], [2n]]);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await c.rows("SELECT v FROM p")).length, 2);
  });
});

Deno.test("tcp refuses a line longer than the measurement limit", async () => {
  await withIlp(async (c) => {
    const conn = await c.send(`h v=1i 1000\nh s="${"x".repeat(5000)}" 2000\n`, { keepOpen: true });
    assert.equal(await conn.read(new Uint8Array(16)).catch(() => null), null);
    assert.deepEqual(await c.waitRows("SELECT v FROM h", 1), [[1n]]);
  }, { "line.tcp.max.measurement.size": "1024" });
});

Deno.test("tcp survives garbage and invalid UTF-8 without touching tables", async () => {
  await withIlp(async (c) => {
    await c.send(new Uint8Array([0xff, 0xfe, 0x00, 0x2c, 0x20, 0x3d, 0x0a, 0x80, 0x81]));
    await c.send("ok v=1i 1000\n");
    assert.deepEqual(await c.waitRows("SELECT v FROM ok", 1), [[1n]]);
    assert.equal(c.engine.tableMetas().length, 1);
  });
});

Deno.test("tcp reads binary doubles of protocol v2", async () => {
  await withIlp(async (c) => {
    const head = new TextEncoder().encode("bin,k=a d==");
    const payload = new Uint8Array(9);
    payload[0] = 16;
    new DataView(payload.buffer).setFloat64(1, 0.1 + 0.2, true);
    const tail = new TextEncoder().encode(",n=5i 1700000000000000t\n");
    await c.send(new Uint8Array([...head, ...payload, ...tail]));
    assert.deepEqual(await c.waitRows("SELECT k, d, n, timestamp FROM bin", 1), [[
      "a",
      0.1 + 0.2,
      5n,
      1700000000000000n,
    ]]);
  });
});
