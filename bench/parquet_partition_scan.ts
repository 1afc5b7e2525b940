/**
 * In-place Parquet partitions (issue #21): t2/t3/t9-shaped queries over a native table and
 * over a copy of it whose partitions but the active one went through CONVERT PARTITION TO
 * PARQUET, like with like: a first run with an empty column cache (main heap and workers), so
 * native columns are read from their files (through the OS page cache) and Parquet ones read
 * and decoded, then the warm runs. The engine, its workers and the JIT are warmed on both
 * tables first, so "first" measures the data, not a cold process. Without the parallel
 * workers, and with them forced (thresholds lowered). Also export (COPY TO, /exp's Parquet stream) and conversion throughput in
 * rows/s. `deno run -A bench/parquet_partition_scan.ts [rows]`; numbers in docs/parquet.md.
 */
import { adminSession, Engine } from "../engine/mod.ts";
import { storageOf } from "../engine/engine.ts";
import { readValue } from "../engine/base/values.ts";
import type { ColumnCache } from "../engine/storage/column_cache.ts";
import { PARQUET_EXPORT_DEFAULTS } from "../engine/parquet/writer.ts";
import { parquetStream } from "../server/http/exp_parquet.ts";

const rows = Number(Deno.args[0] ?? 1_000_000);
const root = await Deno.makeTempDir({ prefix: "qdb_bench_pq_part_" });
const CACHE = 512 * 1024 * 1024;

async function run(engine: Engine, sql: string): Promise<number> {
  const t0 = performance.now();
  const out = await engine.execute(sql, adminSession());
  if (out.kind === "rows") { for await (const _ of out.batches) { /* drain */ } }
  return performance.now() - t0;
}

async function count(engine: Engine, sql: string): Promise<number> {
  const out = await engine.execute(sql, adminSession());
  if (out.kind !== "rows") throw new Error("rows expected");
  let n = 0;
  for await (const b of out.batches) n = Number(readValue(b.columns[0], 0));
  return n;
}

const QUERIES: [string, (table: string) => string][] = [
  ["t2", (t) => `SELECT sum(amount) AS sum_amount, avg(price) AS avg_price FROM ${t}`],
  [
    "t3",
    (t) =>
      `SELECT count(*) AS n, avg(price) AS avg_price, sum(amount) AS volume FROM ${t} WHERE symbol = 'SYM007'`,
  ],
  [
    "t9",
    (t) =>
      `SELECT symbol, count(*) AS n, sum(amount) AS volume, avg(price) AS avg_price, min(price) AS low, max(price) AS high, sum(qty) AS qty FROM ${t} GROUP BY symbol ORDER BY symbol`,
  ],
];

interface Timing {
  first: number;
  warm: number;
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
/** First and warm runs per query and table (single runs of a few ms vary by 2× on a busy machine). */
const ROUNDS = 7;

/**
 * Per query and table: the median of ROUNDS first runs after emptying every column cache, and
 * the best of ROUNDS warm runs, on one engine warmed up on both tables. The rounds alternate
 * the two tables, so that a burst of load from other processes hits both alike.
 */
async function measure(workers: number): Promise<Map<string, Timing>> {
  const out = new Map<string, Timing>();
  // With workers, their thresholds lowered so that t2/t3/t9 do run on them (the pool's
  // load gate would keep them on the main thread on a busy machine).
  const engine = await Engine.open({
    root,
    cacheBytes: CACHE,
    parallelWorkers: workers,
    parallelValuesMin: workers ? 1_000_000 : undefined,
  });
  const cache = (storageOf(engine) as { cache?: ColumnCache }).cache!;
  try {
    for (let i = 0; i < 2; i++) {
      for (const [, sql] of QUERIES) for (const t of TABLES) await run(engine, sql(t));
      cache.forget("");
    }
    for (const [name, sql] of QUERIES) {
      const firsts = new Map(TABLES.map((t) => [t, [] as number[]]));
      const warms = new Map(TABLES.map((t) => [t, Infinity]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const t of TABLES) {
          cache.forget(""); // the workers forget it too, before their next task
          firsts.get(t)!.push(await run(engine, sql(t)));
          warms.set(t, Math.min(warms.get(t)!, await run(engine, sql(t))));
        }
      }
      for (const t of TABLES) out.set(`${name} ${t}`, { first: median(firsts.get(t)!), warm: warms.get(t)! });
    }
  } finally {
    await engine.close();
  }
  return out;
}

const TABLES = ["trades", "trades_pq"];
const rate = (n: number, ms: number) => `${(n / ms / 1000).toFixed(2)} Mrows/s`;

try {
  const engine = await Engine.open({ root, cacheBytes: CACHE });
  const symbols = Array.from({ length: 20 }, (_, i) => `'SYM${String(i).padStart(3, "0")}'`).join(",");
  await run(
    engine,
    `CREATE TABLE trades AS (SELECT timestamp_sequence('2024-01-01', 100000L) ts, rnd_symbol(${symbols}) symbol,
      rnd_double() * 100 price, rnd_double() * 10 amount, rnd_long(1, 1000, 0) qty
      FROM long_sequence(${rows})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
  await run(engine, "CREATE TABLE trades_pq AS (SELECT * FROM trades) TIMESTAMP(ts) PARTITION BY DAY");
  // Export of the native table: COPY TO (one file) and /exp's Parquet stream (drained).
  const copyMs = await run(engine, "COPY trades TO 'bench_trades' WITH FORMAT PARQUET PARTITION_BY NONE");
  const t0 = performance.now();
  const result = await engine.execute("SELECT * FROM trades", adminSession());
  if (result.kind !== "rows") throw new Error("rows expected");
  const it = result.batches[Symbol.asyncIterator]();
  const body = parquetStream(
    result.columns,
    result.timestampIndex,
    it,
    undefined,
    PARQUET_EXPORT_DEFAULTS,
    0,
    Infinity,
  );
  let expBytes = 0;
  for await (const chunk of body) expBytes += chunk.length;
  const expMs = performance.now() - t0;
  // Every partition but the active one (the day of the last row), as QuestDB converts.
  const lastDay = new Date(Date.UTC(2024, 0, 1) + Math.floor((rows - 1) / 10) * 1000).toISOString().slice(
    0,
    10,
  );
  const converted = await count(engine, `SELECT count(*) FROM trades_pq WHERE ts < '${lastDay}'`);
  const convertMs = await run(
    engine,
    `ALTER TABLE trades_pq CONVERT PARTITION TO PARQUET WHERE ts < '${lastDay}'`,
  );
  await engine.close();
  const timings = new Map([[0, await measure(0)], [2, await measure(2)]]);

  console.log(`rows ${rows}, converted ${converted} (the partitions before the active one)`);
  console.log(`| operation | ms | throughput |`);
  console.log(`| COPY TO (LZ4_RAW, one file) | ${copyMs.toFixed(0)} | ${rate(rows, copyMs)} |`);
  console.log(
    `| /exp parquet stream (${(expBytes / 1e6).toFixed(1)} MB) | ${expMs.toFixed(0)} | ${
      rate(rows, expMs)
    } |`,
  );
  console.log(`| CONVERT PARTITION TO PARQUET | ${convertMs.toFixed(0)} | ${rate(converted, convertMs)} |`);
  console.log();
  console.log(
    "| query | workers | native first ms | Parquet first ms | first ratio | native warm ms | Parquet warm ms | warm ratio |",
  );
  for (const w of [0, 2]) {
    for (const [name] of QUERIES) {
      const n = timings.get(w)!.get(`${name} trades`)!, p = timings.get(w)!.get(`${name} trades_pq`)!;
      console.log(
        `| ${name} | ${w} | ${n.first.toFixed(0)} | ${p.first.toFixed(0)} | ${
          (p.first / n.first).toFixed(2)
        }× | ` +
          `${n.warm.toFixed(0)} | ${p.warm.toFixed(0)} | ${(p.warm / n.warm).toFixed(2)}× |`,
      );
    }
  }
} finally {
  await Deno.remove(root, { recursive: true });
}
