/**
 * Parquet throughput (issue #21): COPY ... TO export rows/s, and t2/t3/t9-shaped queries over
 * a table versus the same rows through read_parquet (the file COPY wrote). Run with
 * `deno run -A bench/parquet_scan.ts [rows]` (default 1,000,000); numbers in docs/parquet.md.
 */
import { adminSession, Engine } from "../engine/mod.ts";

const rows = Number(Deno.args[0] ?? 1_000_000);
const root = await Deno.makeTempDir({ prefix: "qdb_bench_pq_" });
const engine = await Engine.open({ root, copyExportRoot: `${root}/import`, cacheBytes: 512 * 1024 * 1024 });
const session = adminSession();

async function run(sql: string): Promise<number> {
  const t = performance.now();
  const o = await engine.execute(sql, session);
  if (o.kind === "rows") { for await (const _ of o.batches); }
  return performance.now() - t;
}

async function best(sql: string, runs = 3): Promise<number> {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) ms = Math.min(ms, await run(sql));
  return ms;
}

try {
  await run(
    `CREATE TABLE trades AS (SELECT timestamp_sequence('2024-01-01', 100000L) ts,
      rnd_symbol(${
      Array.from({ length: 20 }, (_, i) => `'SYM${String(i).padStart(3, "0")}'`).join(",")
    }) symbol,
      rnd_double() * 100 price, rnd_double() * 10 amount, rnd_long(1, 1000, 0) qty
      FROM long_sequence(${rows})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
  for (const codec of ["LZ4_RAW", "ZSTD", "UNCOMPRESSED"]) {
    const ms = await run(
      `COPY trades TO 'trades_${codec}' WITH FORMAT PARQUET COMPRESSION_CODEC ${codec} PARTITION_BY NONE`,
    );
    const size = Deno.statSync(`${root}/import/trades_${codec}.parquet`).size;
    console.log(
      `export ${codec}: ${ms.toFixed(0)} ms, ${(rows / ms / 1000).toFixed(2)} Mrows/s, ${
        (size / 1e6).toFixed(1)
      } MB`,
    );
  }
  const shapes: [string, string][] = [
    ["t2", "SELECT sum(amount) AS sum_amount, avg(price) AS avg_price FROM %"],
    [
      "t3",
      "SELECT count(*) AS n, avg(price) AS avg_price, sum(amount) AS volume FROM % WHERE symbol = 'SYM007'",
    ],
    [
      "t9",
      "SELECT symbol, count(*) AS n, sum(amount) AS volume, avg(price) AS avg_price, min(price) AS low, max(price) AS high, sum(qty) AS qty FROM % GROUP BY symbol ORDER BY symbol",
    ],
  ];
  console.log("| query | native ms | read_parquet ms | ratio |");
  for (const [id, sql] of shapes) {
    const native = await best(sql.replace("%", "trades"));
    const pq = await best(sql.replace("%", "read_parquet('trades_LZ4_RAW.parquet')"));
    console.log(`| ${id} | ${native.toFixed(0)} | ${pq.toFixed(0)} | ${(pq / native).toFixed(1)}× |`);
  }
} finally {
  await engine.close();
  await Deno.remove(root, { recursive: true });
}
