/**
 * Fuzzing of what arrives over HTTP (issue 9): ILP bodies on /write, CSV files on /imp, and
 * query parameters on /exec, /exp, /chk and /imp, all mutated from valid inputs and sent through
 * the real Hono app in-process. Never a 5xx, never an exception, every rejection says what was
 * wrong (ILP and CSV errors name the line), and a rejected write leaves every table as it was.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue } from "../../engine/mod.ts";
import { Config } from "../../server/config.ts";
import { createApp } from "../../server/http/app.ts";
import { fuzzInputs, fuzzSeed, mutateBytes, rng } from "./prng.ts";

interface App {
  engine: Engine;
  request(path: string, init?: RequestInit): Promise<Response>;
  count(table: string): Promise<bigint>;
  tableCounts(): Promise<Map<string, bigint>>;
}

async function withApp(fn: (app: App) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_fuzz_http_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const hono = createApp(engine, new Config({}, {}));
  const scalar = async (sql: string) => {
    const out = await engine.execute(sql, adminSession());
    const values: unknown[] = [];
    if (out.kind === "rows") {
      for await (const b of out.batches) {
        for (let i = 0; i < b.rowCount; i++) values.push(readValue(b.columns[0], i));
      }
    }
    return values;
  };
  const app: App = {
    engine,
    request: async (path, init) => await hono.request(path, init),
    // Double quotes cannot occur in a table name, single quotes can.
    count: async (t) => (await scalar(`SELECT count() FROM "${t}"`))[0] as bigint,
    tableCounts: async () => {
      const counts = new Map<string, bigint>();
      for (const t of await scalar("SELECT table_name FROM tables()")) {
        counts.set(t as string, await app.count(t as string));
      }
      return counts;
    },
  };
  try {
    await fn(app);
    assert.deepEqual(await scalar("SELECT sum(x) FROM long_sequence(10)"), [55n], "the engine still answers");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const ILP_SEEDS = [
  'trades,sym=BTC,side=buy price=42000.5,qty=3i 1704067200000000000\ntrades,sym=ETH price=2500.25,qty=7i,note="a b\\" c" 1704067201000000000\n',
  "quotes,s=a bid=1.5,ask=1.6,ok=t\nquotes,s=b bid=2.5,ask=2.6,ok=f 1704067203000000000\n",
  'm\\ esc,tag\\,x=v\\=1 f=1u,s="multi\nline",t=1704067200000000t 1704067204000000000\n',
  "trades,sym=SOL price=99.0 1704067205000000000\ntrades price=1.0,qty=-4i\n",
];

const CSV_SEEDS = [
  'ts,sym,price,qty,ok,note\n2024-01-01T00:00:00.000000Z,BTC,42000.5,3,true,first\n2024-01-01T00:00:01.000000Z,ETH,2500,7,false,\n2024-01-02T00:00:00.000000Z,BTC,42100,1,true,"quoted, note"\n',
  'a,b\n1,x\n2,"y""z"\n3,\n',
  "ts;v\n2024-01-01 00:00:00;1.5\n2024-01-01 00:00:01;2.5\n",
];

/** Bytes the mutators splice in: the separators and escapes that parsers trip on. */
const ALPHABET = new TextEncoder().encode(' ,="\\\n\r\t;:i.-+eEtf0123456789aZ\u00ff');

function isClearError(body: string): boolean {
  return body.trim().length > 0 && !/undefined|\[object Object\]|TypeError|RangeError|stack/i.test(body);
}

Deno.test("fuzz: mutated ILP bodies are applied whole or refused with the line, never a 5xx", async () => {
  const r = rng(fuzzSeed() + 10);
  const n = fuzzInputs(10_000);
  const encoder = new TextEncoder();
  let accepted = 0, refused = 0;
  await withApp(async (app) => {
    for (let i = 0; i < n; i++) {
      const body = mutateBytes(r, encoder.encode(r.pick(ILP_SEEDS)), ALPHABET);
      const before = await app.tableCounts();
      const res = await app.request(`/write?precision=${r.pick(["n", "u", "ms", "s", "x"])}`, {
        method: "POST",
        body,
      });
      const text = await res.text();
      const replay = `input #${i} ${
        JSON.stringify(new TextDecoder().decode(body))
      } (FUZZ_SEED=${fuzzSeed()})`;
      assert.ok(res.status < 500, `${res.status} ${text} for ${replay}`);
      if (res.status === 204) {
        accepted++;
        continue;
      }
      refused++;
      assert.ok(isClearError(text), `unclear error ${JSON.stringify(text)} for ${replay}`);
      const json = JSON.parse(text);
      assert.equal(typeof json.message, "string", replay);
      // A refused body writes nothing anywhere (HTTP ILP is all or nothing per request).
      const after = await app.tableCounts();
      for (const [t, c] of before) assert.equal(after.get(t), c, `table ${t} changed on a refused ${replay}`);
    }
  });
  console.log(`ilp/http: ${n} inputs, ${accepted} accepted, ${refused} refused`);
  assert.ok(accepted > 0 && refused > 0, "the inputs exercised both paths");
});

Deno.test("fuzz: mutated CSV imports report rows imported exactly and never a 5xx", async () => {
  const r = rng(fuzzSeed() + 20);
  const n = fuzzInputs(10_000);
  const encoder = new TextEncoder();
  let ok = 0, refused = 0;
  await withApp(async (app) => {
    for (let i = 0; i < n; i++) {
      const csv = mutateBytes(r, encoder.encode(r.pick(CSV_SEEDS)), ALPHABET);
      const name = `imp${r.int(4)}`;
      const before = app.engine.tableMeta(name) ? await app.count(name) : 0n;
      const form = new FormData();
      form.append("data", new File([csv], r.pick(["data.csv", "../../etc/passwd", "x\u0000.csv", ""])));
      const params = r.pick([
        "",
        "&timestamp=ts",
        "&timestamp=ts&partitionBy=DAY",
        "&overwrite=true",
        "&delimiter=;",
        "&skipLev=true&atomicity=abort",
        "&forceHeader=true",
      ]);
      const res = await app.request(`/imp?name=${name}&fmt=json${params}`, { method: "POST", body: form });
      const text = await res.text();
      const replay = `input #${i} ${
        JSON.stringify(new TextDecoder().decode(csv))
      } ${params} (FUZZ_SEED=${fuzzSeed()})`;
      assert.ok(res.status < 500, `${res.status} ${text} for ${replay}`);
      assert.ok(isClearError(text), `unclear answer ${JSON.stringify(text)} for ${replay}`);
      const json = JSON.parse(text);
      if (json.status === "OK") {
        ok++;
        const after = app.engine.tableMeta(name) ? await app.count(name) : 0n;
        const expected = params.includes("overwrite")
          ? BigInt(json.rowsImported)
          : before + BigInt(json.rowsImported);
        assert.equal(after, expected, `row count after import for ${replay}`);
      } else {
        refused++;
        const after = app.engine.tableMeta(name) ? await app.count(name) : 0n;
        assert.equal(after, before, `a refused import changed ${name}: ${replay}`);
      }
    }
  });
  console.log(`csv/imp: ${n} inputs, ${ok} imported, ${refused} refused`);
  assert.ok(ok > 0, "some imports succeeded");
});

const PARAM_NAMES = [
  "query",
  "limit",
  "count",
  "nm",
  "timings",
  "explain",
  "quoteLargeNum",
  "cols",
  "src",
  "fmt",
  "j",
  "f",
  "delimiter",
  "filename",
  "timeout",
  "version",
  "session",
  "name",
];
const PARAM_VALUES = [
  "",
  "1",
  "-1",
  "0,0",
  "5,2",
  "a,b",
  "9223372036854775808",
  "true",
  "false",
  "x",
  "SELECT 1",
  "select * from long_sequence(3)",
  "%",
  "%zz",
  "%00",
  "%E2%82",
  "'",
  '"',
  "ts,v",
  "csv",
  "json",
  "parquet",
  "..%2F..%2Fetc",
  "a".repeat(5000),
];

Deno.test("fuzz: random REST parameters never give a 5xx or an unreadable answer", async () => {
  const r = rng(fuzzSeed() + 30);
  const n = fuzzInputs(10_000);
  const statuses = new Map<number, number>();
  await withApp(async (app) => {
    await app.engine.execute("CREATE TABLE p (ts TIMESTAMP, v LONG) TIMESTAMP(ts)", adminSession());
    for (let i = 0; i < n; i++) {
      const path = r.pick([
        "/exec",
        "/exec",
        "/exp",
        "/chk",
        "/settings",
        "/imp",
        "/write",
        "/ping",
        "/warnings",
      ]);
      const params = Array.from({ length: r.int(5) }, () => `${r.pick(PARAM_NAMES)}=${r.pick(PARAM_VALUES)}`);
      if (r.chance(0.2)) params.push(r.pick(["&&", "=", "query", "%", "query=%%%"]));
      const url = `${path}?${params.join("&")}`;
      const res = await app.request(url, { method: r.chance(0.85) ? "GET" : "POST", body: null });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok(res.status < 500, `${res.status} ${text.slice(0, 300)} for ${url.slice(0, 300)}`);
      if (path === "/exec" && (res.headers.get("content-type") ?? "").includes("json")) {
        const json = JSON.parse(text);
        if (res.status >= 400) {
          assert.equal(typeof json.error, "string", `error body for ${url.slice(0, 300)}`);
        }
      }
    }
  });
  console.log(`rest params: ${n} inputs, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  assert.ok(
    (statuses.get(200) ?? 0) > 0 && [...statuses.keys()].some((s) => s >= 400),
    "both answers and refusals were seen",
  );
});
