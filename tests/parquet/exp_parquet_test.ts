/**
 * GET /exp?fmt=parquet (issue #21): every column type and NULLs, read back by DuckDB and
 * compared with what the engine holds; QuestDB's parameters (codec, row group size, limit);
 * bad parameters are a 400 with a message.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, type Value } from "../../engine/mod.ts";
import { Config } from "../../server/config.ts";
import { createApp } from "../../server/http/app.ts";
import { type Duck, openDuck } from "./duckdb.ts";

interface Ctx {
  engine: Engine;
  get(path: string): Promise<Response>;
  duck: Duck;
  dir: string;
}

async function withApp(fn: (ctx: Ctx) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_exp_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const app = createApp(engine, new Config({}, {}));
  const duck = await openDuck();
  try {
    await fn({ engine, get: (p) => Promise.resolve(app.request(p)), duck, dir: root });
  } finally {
    duck.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const exp = (sql: string, extra = "") => `/exp?query=${encodeURIComponent(sql)}&fmt=parquet${extra}`;

/** Saves a /exp response as a file DuckDB can open; checks it is Parquet. */
async function save(ctx: Ctx, r: Response, name: string): Promise<string> {
  assert.equal(r.status, 200, await r.clone().text());
  assert.equal(r.headers.get("content-type"), "application/vnd.apache.parquet");
  const bytes = new Uint8Array(await r.arrayBuffer());
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), "PAR1");
  const path = `${ctx.dir}/${name}.parquet`;
  await Deno.writeFile(path, bytes);
  return path;
}

async function engineRows(engine: Engine, sql: string): Promise<Value[][]> {
  const o = await engine.execute(sql, adminSession());
  assert.equal(o.kind, "rows");
  const out: Value[][] = [];
  if (o.kind !== "rows") return out;
  for await (const b of o.batches) {
    for (let i = 0; i < b.rowCount; i++) out.push(b.columns.map((c) => readValue(c, i)));
  }
  return out;
}

const ALL_TYPES = `CREATE TABLE t (b BOOLEAN, bt BYTE, sh SHORT, ch CHAR, i INT, l LONG, f FLOAT, d DOUBLE,
  dt DATE, s STRING, sym SYMBOL, vc VARCHAR, u UUID, ip IPv4, l256 LONG256, g GEOHASH(6c), g1 GEOHASH(3b),
  g4 GEOHASH(4c), g8 GEOHASH(8c), bin BINARY, tsn TIMESTAMP_NS, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY`;
const INSERTS = [
  `INSERT INTO t VALUES (true, 7, -300, 'x', 42, 9007199254740993, 1.5, -2.25, '2024-03-01T10:00:00.123Z',
    'héllo', 'AAPL', 'vç', '11111111-2222-3333-4444-555555555555', '10.1.2.3', '0x01020304', #sp052w, ##101,
    #sp05, #sp052w92, null, '2024-03-01T10:00:00.123456789Z', '2024-03-01T10:00:00.000001Z')`,
  `INSERT INTO t (ts) VALUES ('2024-03-02T00:00:00Z')`,
  `INSERT INTO t SELECT false, (-1)::byte, 1::short, 'z', -5, -7, 0.25, 3.5, '1999-12-31', '', 'B', '',
    '00000000-0000-0000-0000-000000000001', '255.255.255.254',
    '0xff00000000000000000000000000000000000000000000000000000000000001', #zzzzzz, ##111, #0000, #zzzzzzzz,
    rnd_bin(3,3,0), '2024-03-03T00:00:00Z'::timestamp_ns, '2024-03-03T00:00:00Z' FROM long_sequence(1)`,
];

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("").toUpperCase();

/** LONG256 as the exporter lays it out: four 64-bit words, least significant first, little-endian. */
function long256Hex(x: bigint): string {
  const out = new Uint8Array(32);
  const v = new DataView(out.buffer);
  for (let w = 0; w < 4; w++) v.setBigUint64(w * 8, BigInt.asUintN(64, x >> BigInt(64 * w)), true);
  return hex(out);
}

/** The engine's value in the text DuckDB gives for the Parquet column it was written as. */
function expected(col: string, v: Value): string | null {
  if (col === "ch") return String(v === null ? 0 : (v as string).charCodeAt(0)); // CHAR: UINT16, REQUIRED
  if (v === null) return null;
  switch (col) {
    case "ip":
      return String((v as number) | 0); // IPv4: the INT32 bit pattern, as QuestDB writes it
    case "l256":
      return long256Hex(v as bigint);
    case "bin":
      return hex(v as Uint8Array);
    case "tsn":
      // DuckDB reads a UTC-adjusted TIMESTAMP(NANOS) as TIMESTAMPTZ, which holds microseconds;
      // the file keeps the nanoseconds (the schema check below reads NANOS).
      return String((v as bigint) / 1000n * 1000n);
    default:
      return String(v);
  }
}

Deno.test("exp fmt=parquet: every type and NULLs read back by DuckDB", async () => {
  await withApp(async (ctx) => {
    await ctx.engine.execute(ALL_TYPES, adminSession());
    for (const sql of INSERTS) await ctx.engine.execute(sql, adminSession());
    const path = await save(ctx, await ctx.get(exp("t")), "all");
    const cols = ["b", "bt", "sh", "ch", "i", "l", "f", "d", "dt", "s", "sym", "vc", "u", "ip", "l256", "g"];
    cols.push("g1", "g4", "g8", "bin", "tsn", "ts");
    const select = cols.map((c) => {
      if (c === "dt") return "epoch_ms(dt)::VARCHAR dt";
      if (c === "tsn") return "epoch_ns(tsn)::VARCHAR tsn";
      if (c === "ts") return "epoch_us(ts)::VARCHAR ts";
      if (c === "l256" || c === "bin") return `hex(${c}) ${c}`;
      return `${c}::VARCHAR ${c}`;
    }).join(", ");
    const got = await ctx.duck.rows(`SELECT ${select} FROM read_parquet(?) ORDER BY ts`, [path]);
    const want = await engineRows(ctx.engine, "SELECT * FROM t ORDER BY ts");
    assert.equal(got.length, 3);
    for (let r = 0; r < want.length; r++) {
      for (let c = 0; c < cols.length; c++) {
        assert.equal(got[r][cols[c]], expected(cols[c], want[r][c]), `row ${r} column ${cols[c]}`);
      }
    }
    // The Parquet types are QuestDB's (schema.rs of its encoder).
    const schema = await ctx.duck.rows(
      "SELECT name, type, repetition_type, converted_type, logical_type::VARCHAR lt FROM parquet_schema(?)",
      [path],
    );
    const byName = new Map(schema.map((s) => [s.name as string, s]));
    assert.equal(byName.get("ts")!.repetition_type, "REQUIRED"); // designated timestamp
    assert.equal(byName.get("ts")!.converted_type, "TIMESTAMP_MICROS");
    assert.equal(byName.get("dt")!.converted_type, "TIMESTAMP_MILLIS");
    assert.equal(byName.get("bt")!.converted_type, "INT_8");
    assert.equal(byName.get("sh")!.converted_type, "INT_16");
    assert.equal(byName.get("i")!.repetition_type, "OPTIONAL");
    assert.equal(byName.get("s")!.converted_type, "UTF8");
    assert.equal(byName.get("u")!.type, "FIXED_LEN_BYTE_ARRAY");
    assert.match(String(byName.get("u")!.lt), /UUID/i);
    assert.equal(byName.get("l256")!.type, "FIXED_LEN_BYTE_ARRAY");
    assert.equal(byName.get("g8")!.type, "INT64");
    assert.match(String(byName.get("tsn")!.lt), /NANOS/i);
    // LZ4_RAW is the default codec, as QuestDB's export.
    const codecs = await ctx.duck.rows("SELECT DISTINCT compression FROM parquet_metadata(?)", [path]);
    assert.deepEqual(codecs.map((c) => c.compression), ["LZ4_RAW"]);
  });
});

Deno.test("exp fmt=parquet: row groups of row_group_size, each codec, limit", async () => {
  await withApp(async (ctx) => {
    const sql =
      "SELECT x, x * 0.5 h, 'k' || (x % 7) s, timestamp_sequence(0, 1000000) ts FROM long_sequence(120000)";
    for (const codec of ["LZ4_RAW", "ZSTD", "SNAPPY", "GZIP", "BROTLI", "UNCOMPRESSED"]) {
      const path = await save(
        ctx,
        await ctx.get(exp(sql, `&compression_codec=${codec.toLowerCase()}&row_group_size=50000`)),
        codec,
      );
      const [agg] = await ctx.duck.rows(
        "SELECT count(*)::INT n, sum(x)::VARCHAR sx, sum(h) sh, count(DISTINCT s)::INT ds FROM read_parquet(?)",
        [path],
      );
      assert.deepEqual(agg, { n: 120000, sx: String(120000 * 120001 / 2), sh: 120000 * 120001 / 4, ds: 7 });
      const groups = await ctx.duck.rows(
        "SELECT row_group_id, row_group_num_rows::INT n, compression FROM parquet_metadata(?) WHERE column_id = 0 ORDER BY 1",
        [path],
      );
      assert.deepEqual(groups.map((g) => g.n), [50000, 50000, 20000]);
      assert.ok(
        groups.every((g) => g.compression === codec),
        `${codec}: ${groups.map((g) => g.compression)}`,
      );
    }
    const limited = await save(ctx, await ctx.get(exp(sql, "&limit=10,20")), "limited");
    const rows = await ctx.duck.rows("SELECT x::INT x FROM read_parquet(?)", [limited]);
    assert.deepEqual(rows.map((r) => r.x), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const empty = await save(ctx, await ctx.get(exp("SELECT x FROM long_sequence(5) WHERE x > 10")), "empty");
    assert.deepEqual(await ctx.duck.rows("SELECT count(*)::INT n FROM read_parquet(?)", [empty]), [{ n: 0 }]);
  });
});

Deno.test("exp fmt=parquet: bad parameters answer 400 with the reason", async () => {
  await withApp(async (ctx) => {
    for (
      const [extra, message] of [
        ["&compression_codec=zip", /invalid parquet compression codec \[codec=zip\]/],
        ["&compression_codec=lzo", /LZO is not supported for writing/],
        ["&row_group_size=0", /invalid row_group_size/],
        ["&statistics_enabled=maybe", /invalid statistics_enabled/],
        ["&parquet_version=3", /invalid parquet_version/],
        ["&partition_by=DAY", /partition_by=DAY is not supported by \/exp/],
      ] as const
    ) {
      const r = await ctx.get(exp("SELECT 1 x", extra));
      assert.equal(r.status, 400, extra);
      assert.match((await r.json()).error, message);
    }
    const r = await ctx.get(exp("SELECT 1 x FROM nope"));
    assert.equal(r.status, 400);
  });
});
