/**
 * In-place Parquet partitions (issue #21): t2/t3/t9-shaped queries over a table whose
 * partitions are native, then over the same table after CONVERT PARTITION TO PARQUET: the
 * first (cold) run pays the decode into the column cache, later runs read the cache.
 * `deno run -A bench/parquet_partition_scan.ts [rows]`; numbers in docs/parquet.md.
 */
import { adminSession, Engine } from "../engine/mod.ts";

const rows = Number(Deno.args[0] ?? 1_000_000);
const root = await Deno.makeTempDir({ prefix: "qdb_bench_pq_part_" });
const engine = await Engine.open({ root, cacheBytes: 512 * 1024 * 1024 });

async function run(sql: string): Promise<number> {
  const t0 = performance.now();
  const out = await engine.execute(sql, adminSession());
  if (out.kind === "rows") { for await (const _ of out.batches) { /* drain */ } }
  return performance.now() - t0;
}

async function best(sql: string, runs = 3): Promise<number> {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) ms = Math.min(ms, await run(sql));
  return ms;
}

const QUERIES: [string, string][] = [
  ["t2", "SELECT sum(amount) AS sum_amount, avg(price) AS avg_price FROM trades"],
  [
    "t3",
    "SELECT count(*) AS n, avg(price) AS avg_price, sum(amount) AS volume FROM trades WHERE symbol = 'SYM007'",
  ],
  [
    "t9",
    "SELECT symbol, count(*) AS n, sum(amount) AS volume, avg(price) AS avg_price, min(price) AS low, max(price) AS high, sum(qty) AS qty FROM trades GROUP BY symbol ORDER BY symbol",
  ],
];

try {
  const symbols = Array.from({ length: 20 }, (_, i) => `'SYM${String(i).padStart(3, "0")}'`).join(",");
  await run(
    `CREATE TABLE trades AS (SELECT timestamp_sequence('2024-01-01', 100000L) ts, rnd_symbol(${symbols}) symbol,
      rnd_double() * 100 price, rnd_double() * 10 amount, rnd_long(1, 1000, 0) qty
      FROM long_sequence(${rows})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
  const native = new Map<string, number>();
  for (const [name, sql] of QUERIES) native.set(name, await best(sql));
  // Every partition but the active one, as QuestDB converts.
  const convertMs = await run("ALTER TABLE trades CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-02'");
  console.log(`convert: ${convertMs.toFixed(0)} ms`);
  // A fresh engine so the first query finds nothing of the new versions cached.
  await engine.close();
  const reopened = await Engine.open({ root, cacheBytes: 512 * 1024 * 1024 });
  const runOn = async (sql: string) => {
    const t0 = performance.now();
    const out = await reopened.execute(sql, adminSession());
    if (out.kind === "rows") { for await (const _ of out.batches) { /* drain */ } }
    return performance.now() - t0;
  };
  console.log("| query | native ms | parquet cold ms | parquet warm ms | warm ratio |");
  for (const [name, sql] of QUERIES) {
    const cold = await runOn(sql);
    let warm = Infinity;
    for (let i = 0; i < 3; i++) warm = Math.min(warm, await runOn(sql));
    const n = native.get(name)!;
    console.log(
      `| ${name} | ${n.toFixed(0)} | ${cold.toFixed(0)} | ${warm.toFixed(0)} | ${(warm / n).toFixed(2)}× |`,
    );
  }
  await reopened.close();
} finally {
  await Deno.remove(root, { recursive: true });
}
