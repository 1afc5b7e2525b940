/**
 * Issue #17: converting a large partition to Parquet and the first read of a Parquet partition
 * give other statements turns. While each runs, `SELECT 1` is due on another session every
 * 10 ms (tests/engine/_select1_probe.ts); the main thread's CPU between two answers must stay
 * under 80 ms in the best of three attempts (the encoder and the column decoding run on workers
 * or in slices; one gap stretched by a garbage collection or a burst on the CI machine, 113 ms
 * once, is tried again). Before, the worst gap was 965 ms for the conversion (the writer encoded each row group on this thread)
 * and 441 ms for the first read (a column of a million strings decoded in one piece); then
 * 28-32 and 32-57 ms (85 ms once under the full suite's load); now 10-19 and 22-38 ms (decode
 * workers kept between columns, STRING values decoded ~6x faster, decode slices counted from
 * the scan's last turn). What is left is the scan's cold first batch: the same query's first
 * run over a native partition in a fresh process shows 31-36 ms.
 * Wall-time gaps are printed, not asserted: on the shared test machine the process waits for a
 * core. The converted file is then read back with the same answers.
 */
import assert from "node:assert/strict";
import { Engine } from "../../engine/mod.ts";
import { rows } from "../engine/_result_rows.ts";
import { type Probed, probed } from "../engine/_select1_probe.ts";
import { encoderTuning } from "../../engine/parquet/encoder_thread.ts";
import { convertTuning } from "../../engine/storage/parquet_partition.ts";
import { decodeThreadStats, decodeThreadTuning } from "../../engine/storage/parquet_decode_thread.ts";
import { openDuck } from "./duckdb.ts";
import { typesTable } from "./_tables.ts";

const N = 1_000_000;
const CPU_MAX_MS = 80;

function report(name: string, p: Probed): number {
  const wall = [...p.latencies].sort((a, b) => a - b);
  // The main thread's CPU where /proc shows it; else the process's (workers' CPU included).
  const cpu = Math.max(...(p.mainCpuMs.length ? p.mainCpuMs : p.cpuMs));
  console.log(
    `${name}: ${wall.length} answered in ${Math.round(p.took)} ms, median ${
      wall[wall.length >> 1].toFixed(1)
    }, max ${wall.at(-1)!.toFixed(1)} ms; worst main-thread CPU between answers ${cpu.toFixed(1)} ms ` +
      `(process ${Math.max(...p.cpuMs).toFixed(1)} ms)`,
  );
  assert.ok(wall.length >= 5, `${name}: ${wall.length} answers`);
  return cpu;
}

const QUERY =
  "SELECT count(), sum(d), sum(x), count(DISTINCT s), max(str), min(ts) FROM t WHERE ts < '2024-01-02'";

/** A table of one DAY partition of N rows, then one row the next day (the active partition). */
async function createTable(engine: Engine, name: string): Promise<void> {
  await rows(
    engine,
    `CREATE TABLE ${name} AS (SELECT timestamp_sequence('2024-01-01', 80_000L) ts, rnd_symbol('a','b','c') s, ` +
      `cast(x AS STRING) str, rnd_double() d, x FROM long_sequence(${N})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
  await rows(engine, `INSERT INTO ${name} VALUES ('2024-01-02T12:00:00', 'a', 'late', 1.5, -1)`);
}

/**
 * Runs `attempt` up to three times until its worst gap is under CPU_MAX_MS and returns the
 * best. A statement that does its work in one piece fails every attempt; a single gap that a
 * garbage collection or another process's burst on the shared CI machine stretched (113 ms
 * once, in a run whose other gaps stayed under 40) does not fail the suite.
 */
async function bestOf(name: string, attempt: (i: number) => Promise<number>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= CPU_MAX_MS; i++) {
    best = Math.min(best, await attempt(i));
    if (best >= CPU_MAX_MS && i < 2) console.log(`${name}: over ${CPU_MAX_MS} ms, once more`);
  }
  return best;
}

Deno.test({
  name: "CONVERT PARTITION TO PARQUET and the first read of the file give SELECT 1 turns",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_parquet_turns_" });
    const open = () => Engine.open({ root, cacheBytes: 256 * 1024 * 1024, parallelWorkers: 0 });
    let engine = await open();
    try {
      await createTable(engine, "t");
      const want = await rows(engine, QUERY);

      const convertCpu = await bestOf("convert to parquet", async (i) => {
        // A retry converts a fresh copy: the first table's partition is Parquet already.
        const table = i === 0 ? "t" : `t${i}`;
        if (i > 0) await createTable(engine, table);
        const convert = await probed(
          engine,
          `ALTER TABLE ${table} CONVERT PARTITION TO PARQUET LIST '2024-01-01'`,
        );
        assert.deepEqual(
          (await rows(engine, `SELECT isParquet FROM table_partitions('${table}')`)).map((r) => r[0]),
          [true, false],
        );
        return report("convert to parquet", convert);
      });

      const readCpu = await bestOf("first read of the parquet partition", async () => {
        // A fresh engine each time: no column of the file is cached yet.
        await engine.close();
        engine = await open();
        const read = await probed(engine, QUERY);
        assert.deepEqual(read.rows, want);
        return report("first read of the parquet partition", read);
      });
      assert.ok(
        convertCpu < CPU_MAX_MS,
        `convert: ${convertCpu.toFixed(1)} ms of main-thread CPU in one gap (best of 3)`,
      );
      assert.ok(
        readCpu < CPU_MAX_MS,
        `first read: ${readCpu.toFixed(1)} ms of main-thread CPU in one gap (best of 3)`,
      );
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "encoded on the encoder worker and decoded on decode workers: same answers as native, DuckDB reads the files",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_parquet_workers_" });
    const open = () => Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    const saved = {
      ...decodeThreadTuning,
      cells: encoderTuning.inPlaceCells,
      convert: convertTuning.inPlaceCells,
    };
    // Every conversion to a worker, every hyparquet-decoded column to a worker.
    encoderTuning.inPlaceCells = 0;
    convertTuning.inPlaceCells = 0;
    decodeThreadTuning.minRows = 1;
    decodeThreadTuning.workersMax = 64;
    let engine = await open();
    const duck = await openDuck();
    try {
      await rows(engine, typesTable("w"));
      const all = "SELECT * FROM w";
      const want = await rows(engine, all);
      const onWorkerBefore = decodeThreadStats.onWorker, startedBefore = decodeThreadStats.started;
      await rows(engine, "ALTER TABLE w CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-04'");
      await engine.close();
      engine = await open();
      assert.deepEqual(await rows(engine, all), want);
      // STRING, VARCHAR, BOOLEAN, SHORT, BYTE, DATE, UUID, GEOHASH, IPV4, LONG256, CHAR: 3 partitions.
      assert.ok(
        decodeThreadStats.onWorker - onWorkerBefore >= 30,
        `${decodeThreadStats.onWorker} on workers`,
      );
      // Started once and kept: a worker decodes column after column (11 columns of each of 3
      // partitions; 11 workers at most run at once).
      const started = decodeThreadStats.started - startedBefore;
      assert.ok(started <= 11, `${started} decode workers started`);

      const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("w~"))!.name;
      const theirs = await duck.rows(
        `SELECT count(*) n, sum(l) sl, count(vc) cv, count(st) cs, max(st) ms FROM read_parquet('${root}/${tableDir}/*/data.parquet')`,
      );
      const ours = await rows(
        engine,
        "SELECT count(), sum(l), count(vc), count(st), max(st) FROM w WHERE ts < '2024-01-04'",
      );
      const t = theirs[0];
      assert.deepEqual([[
        BigInt(t.n as number),
        BigInt(t.sl as number),
        BigInt(t.cv as number),
        BigInt(t.cs as number),
        t.ms,
      ]], ours);
    } finally {
      encoderTuning.inPlaceCells = saved.cells;
      convertTuning.inPlaceCells = saved.convert;
      decodeThreadTuning.minRows = saved.minRows;
      decodeThreadTuning.workersMax = saved.workersMax;
      duck.close();
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
    // Closing the storage ends the idle decode workers (nothing else decodes here now).
    assert.equal(decodeThreadStats.alive, 0, `${decodeThreadStats.alive} decode workers left running`);
  },
});
