/**
 * Cold storage (issue #21): the t2/t3/t9 query shapes over a table whose older partitions are
 * native, local Parquet, and remote Parquet in an S3 server on this machine (s3rver), each on
 * a fresh engine (nothing cached): the first run pays reading (ranged GETs for remote) and
 * decoding, later runs read the column cache. Also the time to move the partitions.
 * `deno run -A bench/cold_storage_scan.ts [rows]`; numbers in docs/storage.md "Cold storage".
 */
import S3rver from "s3rver";
import { adminSession, Engine, type EngineOptions } from "../engine/mod.ts";

const rows = Number(Deno.args[0] ?? 1_000_000);
const root = await Deno.makeTempDir({ prefix: "qdb_bench_cold_" });
const s3dir = await Deno.makeTempDir({ prefix: "qdb_bench_s3_" });
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory: s3dir,
  configureBuckets: [{ name: "cold", configs: [] }],
});
const { port } = await server.run();
const options: EngineOptions = {
  root,
  cacheBytes: 512 * 1024 * 1024,
  parallelWorkers: 0,
  coldStorage: {
    checkIntervalMs: 3_600_000,
    objectStore: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket: "cold",
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      root: "bench",
    },
  },
};

async function run(engine: Engine, sql: string): Promise<number> {
  const t0 = performance.now();
  const out = await engine.execute(sql, adminSession());
  if (out.kind === "rows") { for await (const _ of out.batches) { /* drain */ } }
  return performance.now() - t0;
}

const QUERIES: [string, string][] = [
  ["t2", "SELECT sum(amount), avg(price) FROM trades"],
  ["t3", "SELECT count(*), avg(price), sum(amount) FROM trades WHERE symbol = 'SYM007'"],
  [
    "t9",
    "SELECT symbol, count(*), sum(amount), avg(price), min(price), max(price), sum(qty) FROM trades GROUP BY symbol ORDER BY symbol",
  ],
];

/** First and best-of-3 later run of each query on a fresh engine. */
async function measure(): Promise<Map<string, [number, number]>> {
  const out = new Map<string, [number, number]>();
  for (const [name, sql] of QUERIES) {
    const engine = await Engine.open(options);
    const first = await run(engine, sql);
    let later = Infinity;
    for (let i = 0; i < 3; i++) later = Math.min(later, await run(engine, sql));
    out.set(name, [first, later]);
    await engine.close();
  }
  return out;
}

try {
  let engine = await Engine.open(options);
  const symbols = Array.from({ length: 20 }, (_, i) => `'SYM${String(i).padStart(3, "0")}'`).join(",");
  await run(
    engine,
    `CREATE TABLE trades AS (SELECT timestamp_sequence('2024-01-01', 100000L) ts, rnd_symbol(${symbols}) symbol,
      rnd_double() * 100 price, rnd_double() * 10 amount, rnd_long(1, 1000, 0) qty
      FROM long_sequence(${rows})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
  await engine.close();
  const native = await measure();
  engine = await Engine.open(options);
  const convertMs = await run(
    engine,
    "ALTER TABLE trades CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-02'",
  );
  await engine.close();
  const parquet = await measure();
  engine = await Engine.open(options);
  const moveMs = await run(engine, "ALTER TABLE trades CONVERT PARTITION TO REMOTE WHERE ts < '2024-01-02'");
  await engine.close();
  const remote = await measure();
  console.log(`convert ${convertMs.toFixed(0)} ms, move ${moveMs.toFixed(0)} ms`);
  console.log(
    "| query | native first / later ms | local Parquet first / later ms | remote Parquet first / later ms |",
  );
  for (const [name] of QUERIES) {
    const f = (m: Map<string, [number, number]>) => m.get(name)!.map((x) => x.toFixed(0)).join(" / ");
    console.log(`| ${name} | ${f(native)} | ${f(parquet)} | ${f(remote)} |`);
  }
} finally {
  (server as unknown as { httpServer: { closeAllConnections(): void } }).httpServer.closeAllConnections();
  await server.close();
  await Deno.remove(root, { recursive: true });
  await Deno.remove(s3dir, { recursive: true });
}
